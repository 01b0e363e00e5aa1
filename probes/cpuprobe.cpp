// gpufrontier-cpuprobe: measures CPU GEMM throughput (fp32, fp64) and host memory bandwidth,
// prints one JSON document on stdout (probes/README.md) and progress lines on stderr.

#include "cpugemm.h"
#include "probecommon.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#ifndef GFPROBE_VERSION
#define GFPROBE_VERSION "0.0.0"
#endif

namespace {

using namespace gfprobe;

constexpr const char *kKind = "cpu";

struct Options
{
    bool quick = false;
    int threads = 0;
};

void printUsage(FILE *to)
{
    std::fputs("Usage: gpufrontier-cpuprobe [--quick] [--threads N]\n\n"
               "Measures this machine's CPU matrix-multiply throughput (fp32, fp64) and host memory\n"
               "bandwidth, and prints one JSON document on stdout (schema: probes/README.md).\n"
               "Progress lines 'progress <0-1000> <message>' go to stderr.\n\n"
               "Options:\n"
               "  --quick       a short run (a few seconds)\n"
               "  --threads N   worker threads (default: every hardware thread)\n"
               "  --help        show this help\n"
               "  --version     show the version\n\n"
               "Exit status: 0 ok, 1 usage error, 3 measurement failed (JSON error document on stdout).\n",
               to);
}

struct CpuFacts
{
    std::string name;
    std::string arch;
    int logicalCpus = 0;
    double memoryGb = 0;
    long llcBytes = 0;
};

std::string trim(std::string s)
{
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

long parseCacheSize(const std::string &text)
{
    // sysfs writes e.g. "32768K" or "32M".
    long v = 0;
    size_t i = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        v = v * 10 + (text[i++] - '0');
    if (i < text.size() && (text[i] == 'K' || text[i] == 'k'))
        v *= 1024;
    else if (i < text.size() && (text[i] == 'M' || text[i] == 'm'))
        v *= 1024 * 1024;
    return v;
}

CpuFacts cpuFacts()
{
    CpuFacts f;
    f.logicalCpus = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    std::ifstream info("/proc/cpuinfo");
    std::string line;
    while (std::getline(info, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        const std::string key = trim(line.substr(0, colon));
        if (key == "model name" || key == "Model" || key == "Hardware") {
            f.name = trim(line.substr(colon + 1));
            if (key == "model name")
                break;
        }
    }
    if (f.name.empty())
        f.name = "unknown CPU";
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        f.memoryGb = static_cast<double>(pages) * static_cast<double>(pageSize) / 1e9;
    // Largest cache level reported by sysfs for cpu0.
    for (int idx = 0; idx < 8; ++idx) {
        std::ifstream sz("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(idx) + "/size");
        std::string s;
        if (sz >> s)
            f.llcBytes = std::max(f.llcBytes, parseCacheSize(s));
    }
#if defined(_SC_LEVEL3_CACHE_SIZE)
    if (f.llcBytes <= 0) // no sysfs cache folders (some VMs): ask glibc (CPUID)
        f.llcBytes = std::max({0L, sysconf(_SC_LEVEL3_CACHE_SIZE), sysconf(_SC_LEVEL2_CACHE_SIZE)});
#endif
#if defined(__x86_64__)
    f.arch = "x86_64";
#elif defined(__aarch64__)
    f.arch = "aarch64";
#else
    f.arch = "unknown";
#endif
    return f;
}

template <class T> std::vector<T> randomMatrix(size_t count, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<T> v(count);
    for (T &x : v)
        x = static_cast<T>(dist(gen));
    return v;
}

/// Runs the blocked GEMM on a small, deliberately ragged case and compares with the triple loop.
/// Error = max |C - C_ref| / max |C_ref|.
template <class T> GemmCheck checkGemm(const char *dtype, double tolerance, int threads)
{
    const int m = 67, n = 45, k = 83;
    const auto a = randomMatrix<T>(static_cast<size_t>(m) * k, 11);
    const auto b = randomMatrix<T>(static_cast<size_t>(k) * n, 12);
    std::vector<T> c(static_cast<size_t>(m) * n, T(-12345));
    std::vector<double> ref(static_cast<size_t>(m) * n);
    cpuGemm(m, n, k, a.data(), b.data(), c.data(), threads);
    referenceGemm(m, n, k, a.data(), b.data(), ref.data());
    double maxErr = 0, maxRef = 0;
    bool finite = true;
    for (size_t i = 0; i < ref.size(); ++i) {
        const double v = static_cast<double>(c[i]);
        finite = finite && std::isfinite(v);
        maxErr = std::max(maxErr, std::fabs(v - ref[i]));
        maxRef = std::max(maxRef, std::fabs(ref[i]));
    }
    const double rel = finite && maxRef > 0 ? maxErr / maxRef : INFINITY;
    GemmCheck r;
    r.dtype = dtype;
    r.m = m;
    r.n = n;
    r.k = k;
    r.maxRelError = rel;
    r.tolerance = tolerance;
    r.passed = finite && rel <= tolerance;
    return r;
}

struct GemmResult
{
    const char *dtype;
    int m, n, k;
    double tflops;
    double timeMs;
    int reps;
    double maxRelError;
};

template <class T>
GemmResult timeGemm(const char *dtype, int size, double budgetS, int threads, double maxRelError)
{
    const int m = size, n = size, k = size;
    const auto a = randomMatrix<T>(static_cast<size_t>(m) * k, 21);
    const auto b = randomMatrix<T>(static_cast<size_t>(k) * n, 22);
    std::vector<T> c(static_cast<size_t>(m) * n);
    // Warm-up, which also sizes the repetitions to the time budget.
    double t0 = nowSeconds();
    cpuGemm(m, n, k, a.data(), b.data(), c.data(), threads);
    const double first = nowSeconds() - t0;
    const int reps = static_cast<int>(std::clamp(budgetS / std::max(first, 1e-6), 3.0, 15.0));
    std::vector<double> times;
    for (int r = 0; r < reps; ++r) {
        t0 = nowSeconds();
        cpuGemm(m, n, k, a.data(), b.data(), c.data(), threads);
        times.push_back(nowSeconds() - t0);
    }
    const double t = median(times);
    const double flops = 2.0 * m * n * static_cast<double>(k);
    return {dtype, m, n, k, flops / t / 1e12, t * 1e3, reps, maxRelError};
}

struct MemoryResult
{
    size_t bufferBytes = 0;
    int reps = 0;
    double copyGbs = 0;
    double readGbs = 0;
};

/// Runs fn(index, begin, end) over [0, count) split into `threads` contiguous chunks.
template <class Fn> void parallelChunks(size_t count, int threads, Fn fn)
{
    std::vector<std::thread> pool;
    const size_t chunk = (count + static_cast<size_t>(threads) - 1) / static_cast<size_t>(threads);
    for (int t = 1; t < threads; ++t) {
        const size_t b = std::min(count, chunk * static_cast<size_t>(t));
        const size_t e = std::min(count, b + chunk);
        pool.emplace_back([=] { fn(t, b, e); });
    }
    fn(0, 0, std::min(count, chunk));
    for (std::thread &th : pool)
        th.join();
}

MemoryResult measureMemory(size_t bytes, int reps, int threads)
{
    MemoryResult r;
    r.bufferBytes = bytes;
    r.reps = reps;
    const size_t count = bytes / sizeof(double);
    std::unique_ptr<double[]> src(new double[count]);
    std::unique_ptr<double[]> dst(new double[count]);
    // First touch from the threads that will use the pages.
    parallelChunks(count, threads, [&](int, size_t b, size_t e) {
        for (size_t i = b; i < e; ++i)
            src[i] = static_cast<double>(i & 1023);
        std::memset(dst.get() + b, 0, (e - b) * sizeof(double));
    });
    std::vector<double> copyTimes, readTimes;
    std::vector<double> sums(static_cast<size_t>(threads), 0.0);
    for (int rep = 0; rep < reps + 1; ++rep) {
        double t0 = nowSeconds();
        parallelChunks(count, threads, [&](int, size_t b, size_t e) {
            std::memcpy(dst.get() + b, src.get() + b, (e - b) * sizeof(double));
        });
        const double tc = nowSeconds() - t0;
        t0 = nowSeconds();
        parallelChunks(count, threads, [&](int t, size_t b, size_t e) {
            double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            size_t i = b;
            for (; i + 4 <= e; i += 4) {
                s0 += dst[i];
                s1 += dst[i + 1];
                s2 += dst[i + 2];
                s3 += dst[i + 3];
            }
            for (; i < e; ++i)
                s0 += dst[i];
            sums[static_cast<size_t>(t)] = s0 + s1 + s2 + s3;
        });
        const double tr = nowSeconds() - t0;
        if (rep > 0) { // the first pass is the warm-up
            copyTimes.push_back(tc);
            readTimes.push_back(tr);
        }
    }
    volatile double sink = 0;
    for (double s : sums)
        sink = sink + s;
    (void)sink;
    r.copyGbs = 2.0 * static_cast<double>(count * sizeof(double)) / median(copyTimes) / 1e9;
    r.readGbs = static_cast<double>(count * sizeof(double)) / median(readTimes) / 1e9;
    return r;
}

int run(const Options &opt)
{
    const double start = nowSeconds();
    progress(0, "starting the CPU probe");
    const CpuFacts facts = cpuFacts();
    const int threads = opt.threads > 0 ? opt.threads : facts.logicalCpus;

    progress(20, "checking the GEMM against a reference");
    std::vector<GemmCheck> checks;
    checks.push_back(checkGemm<float>("fp32", 1e-5, threads));
    checks.push_back(checkGemm<double>("fp64", 1e-12, threads));

    std::vector<GemmResult> gemms;
    const double budget = opt.quick ? 0.4 : 1.5;
    const std::vector<int> sizes = opt.quick ? std::vector<int>{1024} : std::vector<int>{1024, 2048};
    const int steps = static_cast<int>(sizes.size()) * 2;
    int step = 0;
    for (int size : sizes) {
        progress(50 + 600 * step++ / steps, "fp32 GEMM " + std::to_string(size) + "^3");
        gemms.push_back(timeGemm<float>("fp32", size, budget, threads, checks[0].maxRelError));
        progress(50 + 600 * step++ / steps, "fp64 GEMM " + std::to_string(size) + "^3");
        gemms.push_back(timeGemm<double>("fp64", size, budget, threads, checks[1].maxRelError));
    }

    progress(650, "host memory bandwidth");
    // Each buffer well beyond the last-level cache: 8x its size, at least 128 MiB (quick) /
    // 512 MiB (full), at most 256 MiB (quick) / 1 GiB (full) and 1/8 of the RAM.
    const size_t floor = opt.quick ? (size_t(128) << 20) : (size_t(512) << 20);
    size_t bytes = std::min(std::max(floor, static_cast<size_t>(facts.llcBytes) * 8), floor * 2);
    if (facts.memoryGb > 0)
        bytes = std::min(bytes, static_cast<size_t>(facts.memoryGb * 1e9 / 8));
    bytes = std::max<size_t>(bytes, size_t(16) << 20) / 4096 * 4096;
    const MemoryResult mem = measureMemory(bytes, opt.quick ? 5 : 8, threads);

    progress(990, "writing the results");
    double bestF32 = 0, bestF64 = 0;
    for (const GemmResult &g : gemms) {
        double &best = std::strcmp(g.dtype, "fp32") == 0 ? bestF32 : bestF64;
        best = std::max(best, g.tflops);
    }
    bool checksPassed = true;
    for (const GemmCheck &c : checks)
        checksPassed = checksPassed && c.passed;

    JsonWriter w;
    w.beginObject();
    writeHeader(w, kKind, GFPROBE_VERSION, opt.quick);
    w.beginObject("device");
    w.value("name", facts.name);
    w.value("arch", facts.arch);
    w.value("threads", threads);
    w.value("logical_cpus", facts.logicalCpus);
    w.value("memory_gb", facts.memoryGb, 5);
    w.value("llc_bytes", facts.llcBytes);
    w.value("gemm_isa", cpuGemmIsa());
    w.endObject();
    writeChecks(w, checks);
    w.beginArray("gemm");
    for (const GemmResult &g : gemms) {
        w.beginObject();
        w.value("dtype", g.dtype);
        w.value("m", g.m);
        w.value("n", g.n);
        w.value("k", g.k);
        w.value("tflops", g.tflops, 5);
        w.value("time_ms", g.timeMs, 5);
        w.value("reps", g.reps);
        w.value("max_rel_error", g.maxRelError, 3);
        w.endObject();
    }
    w.endArray();
    w.beginObject("memory");
    w.value("buffer_bytes", static_cast<unsigned long long>(mem.bufferBytes));
    w.value("reps", mem.reps);
    w.value("copy_gbs", mem.copyGbs, 5);
    w.value("read_gbs", mem.readGbs, 5);
    w.endObject();
    w.beginObject("summary");
    w.value("fp32_tflops", bestF32, 5);
    w.value("fp64_tflops", bestF64, 5);
    w.value("mem_bandwidth_gbs", mem.copyGbs, 5);
    w.endObject();
    w.value("elapsed_s", nowSeconds() - start, 4);
    if (!checksPassed) {
        w.beginObject("error");
        w.value("code", "check_failed");
        w.value("message", "The CPU GEMM result did not match the reference");
        w.value("detail", "see the checks array");
        w.endObject();
    }
    w.endObject();
    printDocument(w);
    progress(1000, "done");
    return checksPassed ? ExitOk : ExitDeviceError;
}

} // namespace

int main(int argc, char **argv)
{
    Options opt;
    long threads = 0;
    if (const int rc = parseProbeArgs(argc, argv, "gpufrontier-cpuprobe", "threads", 1, 1024,
                                      "a whole number from 1 to 1024", printUsage, &opt.quick, &threads);
        rc >= 0)
        return rc;
    if (threads > 0)
        opt.threads = static_cast<int>(threads);
    try {
        return run(opt);
    } catch (const std::bad_alloc &) {
        printErrorDocument(kKind, GFPROBE_VERSION, opt.quick, "out_of_memory",
                           "Not enough memory for the CPU probe's buffers", "std::bad_alloc");
    } catch (const std::exception &e) {
        printErrorDocument(kKind, GFPROBE_VERSION, opt.quick, "failure", "The CPU probe failed", e.what());
    }
    return ExitDeviceError;
}
