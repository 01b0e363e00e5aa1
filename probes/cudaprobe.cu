// gpufrontier-probe: measures one CUDA GPU (device facts, cuBLASLt GEMM throughput per data
// type, device memory bandwidth, pinned host<->device bandwidth, kernel launch overhead) and
// prints one JSON document on stdout (probes/README.md); progress lines go to stderr.
// Every CUDA / cuBLAS call's status is checked; a failure ends the run with an error document.

#include "nvmlinfo.h"
#include "probecommon.h"

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#ifndef GFPROBE_VERSION
#define GFPROBE_VERSION "0.0.0"
#endif

namespace {

using namespace gfprobe;

constexpr const char *kKind = "cuda";

// ---------------------------------------------------------------------------------------------
// Errors

struct ProbeFailure
{
    int exitCode;
    std::string code;
    std::string message;
    std::string detail;
};

bool isNoDeviceError(cudaError_t e)
{
    return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorDevicesUnavailable;
}

[[noreturn]] void failCuda(cudaError_t e, const char *expr, int line)
{
    const std::string detail = std::string(cudaGetErrorName(e)) + " (" + std::to_string(static_cast<int>(e)) +
                               "): " + cudaGetErrorString(e) + " in " + expr +
                               " at cudaprobe.cu:" + std::to_string(line);
    if (isNoDeviceError(e))
        throw ProbeFailure{
            ExitNoDevice, "no_device",
            "No usable CUDA GPU: no device, no NVIDIA driver, or a driver too old for this probe", detail};
    if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorUnsupportedPtxVersion ||
        e == cudaErrorInvalidSource)
        throw ProbeFailure{
            ExitDeviceError, "unsupported_device",
            "This build of the probe has no code for this GPU (its compute capability is not among "
            "the CUDA architectures it was built for)",
            detail};
    if (e == cudaErrorMemoryAllocation)
        throw ProbeFailure{ExitDeviceError, "out_of_memory", "The GPU ran out of memory during the probe",
                           detail};
    throw ProbeFailure{ExitDeviceError, "cuda_error", "A CUDA call failed during the probe", detail};
}

[[noreturn]] void failCublas(cublasStatus_t s, const char *expr, int line)
{
    throw ProbeFailure{ExitDeviceError, "cublas_error", "A cuBLAS call failed during the probe",
                       std::string("cublasStatus ") + std::to_string(static_cast<int>(s)) + " in " + expr +
                           " at cudaprobe.cu:" + std::to_string(line)};
}

#define CK(call)                                                                                             \
    do {                                                                                                     \
        const cudaError_t ck_e = (call);                                                                     \
        if (ck_e != cudaSuccess)                                                                             \
            failCuda(ck_e, #call, __LINE__);                                                                 \
    } while (0)

#define CKB(call)                                                                                            \
    do {                                                                                                     \
        const cublasStatus_t ck_s = (call);                                                                  \
        if (ck_s != CUBLAS_STATUS_SUCCESS)                                                                   \
            failCublas(ck_s, #call, __LINE__);                                                               \
    } while (0)

#define CK_LAUNCH() CK(cudaGetLastError())

// ---------------------------------------------------------------------------------------------
// RAII holders (destructors ignore errors: they run while unwinding from one already reported)

struct DeviceBuffer
{
    void *ptr = nullptr;
    size_t bytes = 0;
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t n) : bytes(n) { CK(cudaMalloc(&ptr, n)); }
    ~DeviceBuffer()
    {
        if (ptr)
            cudaFree(ptr);
    }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    template <class T> T *as() const { return static_cast<T *>(ptr); }
};

/// Allocates or returns false on cudaErrorMemoryAllocation (the error is cleared).
bool tryAlloc(DeviceBuffer &buf, size_t n)
{
    const cudaError_t e = cudaMalloc(&buf.ptr, n);
    if (e == cudaErrorMemoryAllocation) {
        buf.ptr = nullptr;
        (void)cudaGetLastError();
        return false;
    }
    CK(e);
    buf.bytes = n;
    return true;
}

struct PinnedBuffer
{
    void *ptr = nullptr;
    explicit PinnedBuffer(size_t n) { CK(cudaHostAlloc(&ptr, n, cudaHostAllocDefault)); }
    ~PinnedBuffer()
    {
        if (ptr)
            cudaFreeHost(ptr);
    }
    PinnedBuffer(const PinnedBuffer &) = delete;
    PinnedBuffer &operator=(const PinnedBuffer &) = delete;
};

struct EventPair
{
    cudaEvent_t start = nullptr, stop = nullptr;
    EventPair()
    {
        CK(cudaEventCreate(&start));
        CK(cudaEventCreate(&stop));
    }
    ~EventPair()
    {
        if (start)
            cudaEventDestroy(start);
        if (stop)
            cudaEventDestroy(stop);
    }
    EventPair(const EventPair &) = delete;
    EventPair &operator=(const EventPair &) = delete;
    /// Milliseconds between the two events, after waiting for the second.
    float elapsedMs() const
    {
        CK(cudaEventSynchronize(stop));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, start, stop));
        return ms;
    }
};

struct Stream
{
    cudaStream_t s = nullptr;
    Stream() { CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
    ~Stream()
    {
        if (s)
            cudaStreamDestroy(s);
    }
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
};

// ---------------------------------------------------------------------------------------------
// Kernels

__device__ __forceinline__ float hashUniform(uint64_t i, uint32_t seed)
{
    uint64_t x = i * 0x9E3779B97F4A7C15ull + (static_cast<uint64_t>(seed) + 1) * 0xD1B54A32D192ED03ull;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return static_cast<float>(x >> 40) * (2.0f / 16777216.0f) - 1.0f; // [-1, 1)
}

template <class T> __global__ void fillKernel(T *p, size_t n, uint32_t seed)
{
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = T(hashUniform(i, seed));
}

constexpr int kCopyThreads = 256;
constexpr int kCopyUnroll = 4;

/// Streams 16-byte words; each thread keeps kCopyUnroll loads in flight before storing.
__global__ void __launch_bounds__(kCopyThreads)
    copyKernel(const uint4 *__restrict__ src, uint4 *__restrict__ dst, size_t n)
{
    const size_t base = static_cast<size_t>(blockIdx.x) * kCopyThreads * kCopyUnroll + threadIdx.x;
    uint4 v[kCopyUnroll];
#pragma unroll
    for (int u = 0; u < kCopyUnroll; ++u) {
        const size_t i = base + static_cast<size_t>(u) * kCopyThreads;
        if (i < n)
            v[u] = __ldcs(src + i);
    }
#pragma unroll
    for (int u = 0; u < kCopyUnroll; ++u) {
        const size_t i = base + static_cast<size_t>(u) * kCopyThreads;
        if (i < n)
            __stcs(dst + i, v[u]);
    }
}

/// a = b + s * c over float4 words (STREAM triad).
__global__ void __launch_bounds__(kCopyThreads)
    triadKernel(float4 *__restrict__ a, const float4 *__restrict__ b, const float4 *__restrict__ c, float s,
                size_t n)
{
    const size_t base = static_cast<size_t>(blockIdx.x) * kCopyThreads * kCopyUnroll + threadIdx.x;
    float4 vb[kCopyUnroll], vc[kCopyUnroll];
#pragma unroll
    for (int u = 0; u < kCopyUnroll; ++u) {
        const size_t i = base + static_cast<size_t>(u) * kCopyThreads;
        if (i < n) {
            vb[u] = __ldcs(b + i);
            vc[u] = __ldcs(c + i);
        }
    }
#pragma unroll
    for (int u = 0; u < kCopyUnroll; ++u) {
        const size_t i = base + static_cast<size_t>(u) * kCopyThreads;
        if (i < n)
            __stcs(a + i, make_float4(vb[u].x + s * vc[u].x, vb[u].y + s * vc[u].y, vb[u].z + s * vc[u].z,
                                      vb[u].w + s * vc[u].w));
    }
}

__global__ void emptyKernel() {}

template <class T> void fillRandom(void *p, size_t count, uint32_t seed, cudaStream_t s, int smCount)
{
    fillKernel<T><<<smCount * 8, 256, 0, s>>>(static_cast<T *>(p), count, seed);
    CK_LAUNCH();
}

// ---------------------------------------------------------------------------------------------
// Device facts

struct DeviceFacts
{
    int index = 0;
    std::string name;
    int ccMajor = 0, ccMinor = 0;
    int smCount = 0;
    double memoryGb = 0;
    size_t totalMem = 0;
    int l2Bytes = 0;
    double smClockMhz = 0;
    double memClockMhz = 0;
    int busWidth = 0;
    std::string pciBusId;
    int driverApi = 0;
    int runtime = 0;
    size_t cublasVersion = 0;
    NvmlFacts nvml;

    int cc() const { return ccMajor * 10 + ccMinor; }
    /// Datasheet-style peak: memory clock x 2 (double data rate) x bus width.
    double peakMemGbs() const { return memClockMhz * 1e6 * 2.0 * busWidth / 8.0 / 1e9; }
};

std::string versionText(int v) // 13000 -> "13.0"
{
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

DeviceFacts deviceFacts(int dev)
{
    DeviceFacts f;
    f.index = dev;
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, dev));
    f.name = prop.name;
    f.ccMajor = prop.major;
    f.ccMinor = prop.minor;
    f.smCount = prop.multiProcessorCount;
    f.totalMem = prop.totalGlobalMem;
    f.memoryGb = static_cast<double>(prop.totalGlobalMem) / 1e9;
    f.l2Bytes = prop.l2CacheSize;
    f.busWidth = prop.memoryBusWidth;
    int khz = 0;
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
    f.smClockMhz = khz / 1000.0;
    khz = 0;
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev));
    f.memClockMhz = khz / 1000.0;
    char bus[32] = {};
    CK(cudaDeviceGetPCIBusId(bus, sizeof bus - 1, dev));
    f.pciBusId = bus;
    CK(cudaDriverGetVersion(&f.driverApi));
    CK(cudaRuntimeGetVersion(&f.runtime));
    f.cublasVersion = cublasLtGetVersion();
    f.nvml = queryNvml(f.pciBusId);
    if (f.nvml.smClockMaxMhz > 0)
        f.smClockMhz = f.nvml.smClockMaxMhz;
    if (f.nvml.memClockMaxMhz > 0)
        f.memClockMhz = f.nvml.memClockMaxMhz;
    return f;
}

// ---------------------------------------------------------------------------------------------
// GEMM through cuBLASLt. Layout "TN" as in a transformer's linear layers: A is stored k x m
// (used transposed), B k x n, C/D m x n, column-major; alpha = 1, beta = 0.

struct GemmType
{
    const char *name;
    cudaDataType_t ab;
    cudaDataType_t c;
    cublasComputeType_t compute;
    size_t abBytes;
    size_t cBytes;
    int minCc;        ///< compute capability x 10
    double tolerance; ///< for the small check, max |C - C_ref| / max |C_ref|
};

const GemmType kGemmTypes[] = {
    {"fp32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 4, 4, 0, 1e-4},
    {"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4, 80, 5e-3},
    {"fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 2, 70, 5e-3},
    {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2, 80, 1e-2},
    {"fp8", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 1, 2, 89, 2e-2},
};

bool isFp8(const GemmType &t)
{
    return t.ab == CUDA_R_8F_E4M3;
}

class LtGemm
{
public:
    LtGemm(cudaStream_t stream, size_t workspaceBytes) : m_stream(stream), m_workspace(workspaceBytes)
    {
        CKB(cublasLtCreate(&m_handle));
    }
    ~LtGemm()
    {
        if (m_handle)
            cublasLtDestroy(m_handle);
    }
    LtGemm(const LtGemm &) = delete;
    LtGemm &operator=(const LtGemm &) = delete;

    struct Plan
    {
        cublasLtMatmulDesc_t op = nullptr;
        cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
        std::vector<cublasLtMatmulHeuristicResult_t> algos;
        Plan() = default;
        Plan(const Plan &) = delete;
        Plan &operator=(const Plan &) = delete;
        ~Plan()
        {
            if (op)
                cublasLtMatmulDescDestroy(op);
            if (a)
                cublasLtMatrixLayoutDestroy(a);
            if (b)
                cublasLtMatrixLayoutDestroy(b);
            if (c)
                cublasLtMatrixLayoutDestroy(c);
        }
    };

    /// Builds the descriptors and asks the heuristic for up to `candidates` algorithms;
    /// plan.algos is empty when cuBLASLt supports no algorithm for this type and shape.
    void plan(Plan &p, const GemmType &t, int m, int n, int k, int candidates)
    {
        CKB(cublasLtMatmulDescCreate(&p.op, t.compute, CUDA_R_32F));
        const cublasOperation_t opA = CUBLAS_OP_T, opB = CUBLAS_OP_N;
        CKB(cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &opA, sizeof opA));
        CKB(cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &opB, sizeof opB));
        if (isFp8(t)) {
            const int8_t fastAccum = 1;
            CKB(cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fastAccum,
                                               sizeof fastAccum));
        }
        CKB(cublasLtMatrixLayoutCreate(&p.a, t.ab, k, m, k));
        CKB(cublasLtMatrixLayoutCreate(&p.b, t.ab, k, n, k));
        CKB(cublasLtMatrixLayoutCreate(&p.c, t.c, m, n, m));
        cublasLtMatmulPreference_t pref = nullptr;
        CKB(cublasLtMatmulPreferenceCreate(&pref));
        const size_t ws = m_workspace.bytes;
        cublasStatus_t st = cublasLtMatmulPreferenceSetAttribute(
            pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
        std::vector<cublasLtMatmulHeuristicResult_t> results(static_cast<size_t>(std::max(1, candidates)));
        int returned = 0;
        if (st == CUBLAS_STATUS_SUCCESS)
            st = cublasLtMatmulAlgoGetHeuristic(m_handle, p.op, p.a, p.b, p.c, p.c, pref,
                                                static_cast<int>(results.size()), results.data(), &returned);
        cublasLtMatmulPreferenceDestroy(pref);
        if (st == CUBLAS_STATUS_NOT_SUPPORTED)
            return;
        CKB(st);
        for (int i = 0; i < returned; ++i)
            if (results[static_cast<size_t>(i)].state == CUBLAS_STATUS_SUCCESS)
                p.algos.push_back(results[static_cast<size_t>(i)]);
    }

    void run(const Plan &p, size_t algo, const void *a, const void *b, void *c)
    {
        const float alpha = 1.0f, beta = 0.0f;
        CKB(cublasLtMatmul(m_handle, p.op, &alpha, a, p.a, b, p.b, &beta, c, p.c, c, p.c, &p.algos[algo].algo,
                           m_workspace.ptr, m_workspace.bytes, m_stream));
    }

private:
    cudaStream_t m_stream;
    cublasLtHandle_t m_handle = nullptr;
    DeviceBuffer m_workspace;
};

// Host-side rounding of check inputs to the GEMM's input type, and reading back its output.
std::vector<uint8_t> encodeInputs(const GemmType &t, const std::vector<float> &src,
                                  std::vector<double> &rounded)
{
    std::vector<uint8_t> out(src.size() * t.abBytes);
    rounded.resize(src.size());
    for (size_t i = 0; i < src.size(); ++i) {
        switch (t.ab) {
        case CUDA_R_16F: {
            const __half h = __float2half(src[i]);
            rounded[i] = __half2float(h);
            std::memcpy(out.data() + i * 2, &h, 2);
            break;
        }
        case CUDA_R_16BF: {
            const __nv_bfloat16 h = __float2bfloat16(src[i]);
            rounded[i] = __bfloat162float(h);
            std::memcpy(out.data() + i * 2, &h, 2);
            break;
        }
        case CUDA_R_8F_E4M3: {
            const __nv_fp8_e4m3 h(src[i]);
            rounded[i] = static_cast<float>(h);
            std::memcpy(out.data() + i, &h, 1);
            break;
        }
        default:
            rounded[i] = src[i];
            std::memcpy(out.data() + i * 4, &src[i], 4);
        }
    }
    return out;
}

double decodeOutput(const GemmType &t, const uint8_t *p)
{
    switch (t.c) {
    case CUDA_R_16F: {
        __half h;
        std::memcpy(&h, p, 2);
        return __half2float(h);
    }
    case CUDA_R_16BF: {
        __nv_bfloat16 h;
        std::memcpy(&h, p, 2);
        return __bfloat162float(h);
    }
    default: {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    }
}

/// A small GEMM compared with a double-precision host reference on the same (rounded) inputs.
GemmCheck checkGemm(LtGemm &lt, const GemmType &t, cudaStream_t stream)
{
    GemmCheck r;
    r.dtype = t.name;
    r.m = 256;
    r.n = 192;
    r.k = 320;
    r.tolerance = t.tolerance;
    const int m = r.m, n = r.n, k = r.k;
    std::mt19937 gen(1234);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> a(static_cast<size_t>(k) * m), b(static_cast<size_t>(k) * n);
    for (float &x : a)
        x = dist(gen);
    for (float &x : b)
        x = dist(gen);
    std::vector<double> ar, br;
    const std::vector<uint8_t> ae = encodeInputs(t, a, ar), be = encodeInputs(t, b, br);
    LtGemm::Plan plan;
    lt.plan(plan, t, m, n, k, 1);
    if (plan.algos.empty()) {
        r.supported = false;
        return r;
    }
    DeviceBuffer da(ae.size()), db(be.size()), dc(static_cast<size_t>(m) * n * t.cBytes);
    CK(cudaMemcpyAsync(da.ptr, ae.data(), ae.size(), cudaMemcpyHostToDevice, stream));
    CK(cudaMemcpyAsync(db.ptr, be.data(), be.size(), cudaMemcpyHostToDevice, stream));
    CK(cudaMemsetAsync(dc.ptr, 0xff, dc.bytes, stream)); // poison: NaN in every output type
    lt.run(plan, 0, da.ptr, db.ptr, dc.ptr);
    std::vector<uint8_t> c(dc.bytes);
    CK(cudaMemcpyAsync(c.data(), dc.ptr, c.size(), cudaMemcpyDeviceToHost, stream));
    CK(cudaStreamSynchronize(stream));
    double maxErr = 0, maxRef = 0;
    bool finite = true;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double ref = 0;
            for (int p = 0; p < k; ++p)
                ref += ar[static_cast<size_t>(i) * k + p] * br[static_cast<size_t>(j) * k + p];
            const double got = decodeOutput(t, c.data() + (static_cast<size_t>(j) * m + i) * t.cBytes);
            finite = finite && std::isfinite(got);
            maxErr = std::max(maxErr, std::fabs(got - ref));
            maxRef = std::max(maxRef, std::fabs(ref));
        }
    r.maxRelError = finite && maxRef > 0 ? maxErr / maxRef : NAN;
    r.passed = finite && r.maxRelError <= r.tolerance;
    return r;
}

struct GemmResult
{
    std::string dtype;
    int m = 0, n = 0, k = 0;
    double tflops = 0;
    double timeMs = 0;
    int reps = 0;
    int inner = 0;
    int candidates = 0;
    double maxRelError = NAN;
};

struct Skipped
{
    std::string dtype;
    int m = 0, n = 0, k = 0;
    std::string reason;
};

struct Shape
{
    int m, n, k;
};

// ---------------------------------------------------------------------------------------------

struct Options
{
    bool quick = false;
    int device = 0;
};

struct Report
{
    DeviceFacts facts;
    std::vector<GemmCheck> checks;
    std::vector<GemmResult> gemms;
    std::vector<Skipped> skipped;
    size_t memBytes = 0;
    int memReps = 0;
    double copyGbs = 0, triadGbs = 0, memcpyGbs = 0;
    size_t xferBytes = 0;
    int xferReps = 0;
    double h2dGbs = 0, d2hGbs = 0;
    int launches = 0;
    double launchUs = 0, syncUs = 0;
};

void measureGemms(const Options &opt, Report &rep, LtGemm &lt, cudaStream_t stream)
{
    const DeviceFacts &f = rep.facts;
    std::vector<Shape> shapes{{4096, 4096, 4096}};
    if (!opt.quick)
        shapes.push_back({8192, 8192, 8192});
    const Shape mlp{8192, 11008, 4096}; // tokens x MLP width x model width (a 7B-class up-projection)
    shapes.push_back(mlp);
    const int samples = opt.quick ? 5 : 10;
    const int candidates = opt.quick ? 1 : 4;
    EventPair ev;
    int done = 0;
    const int total = static_cast<int>(std::size(kGemmTypes) * shapes.size());
    for (const GemmType &t : kGemmTypes) {
        double checkErr = NAN;
        for (const GemmCheck &c : rep.checks)
            if (c.dtype == t.name)
                checkErr = c.maxRelError;
        for (const Shape &s : shapes) {
            progress(150 + 650 * done++ / total, std::string(t.name) + " GEMM " + std::to_string(s.m) + "x" +
                                                     std::to_string(s.n) + "x" + std::to_string(s.k));
            if (f.cc() < t.minCc) {
                rep.skipped.push_back({t.name, s.m, s.n, s.k,
                                       "needs compute capability " + std::to_string(t.minCc / 10) + "." +
                                           std::to_string(t.minCc % 10)});
                continue;
            }
            // Quick mode: the MLP shape only for the 16-bit types that training uses most.
            if (opt.quick && s.n == mlp.n && t.ab != CUDA_R_16BF && t.ab != CUDA_R_16F)
                continue;
            LtGemm::Plan plan;
            lt.plan(plan, t, s.m, s.n, s.k, candidates);
            if (plan.algos.empty()) {
                rep.skipped.push_back(
                    {t.name, s.m, s.n, s.k, "cuBLASLt has no algorithm for this type on this GPU"});
                continue;
            }
            DeviceBuffer a, b, c;
            const size_t aCount = static_cast<size_t>(s.k) * s.m, bCount = static_cast<size_t>(s.k) * s.n,
                         cCount = static_cast<size_t>(s.m) * s.n;
            if (!tryAlloc(a, aCount * t.abBytes) || !tryAlloc(b, bCount * t.abBytes) ||
                !tryAlloc(c, cCount * t.cBytes)) {
                rep.skipped.push_back({t.name, s.m, s.n, s.k, "not enough GPU memory"});
                continue;
            }
            switch (t.ab) {
            case CUDA_R_16F:
                fillRandom<__half>(a.ptr, aCount, 1, stream, f.smCount);
                fillRandom<__half>(b.ptr, bCount, 2, stream, f.smCount);
                break;
            case CUDA_R_16BF:
                fillRandom<__nv_bfloat16>(a.ptr, aCount, 1, stream, f.smCount);
                fillRandom<__nv_bfloat16>(b.ptr, bCount, 2, stream, f.smCount);
                break;
            case CUDA_R_8F_E4M3:
                fillRandom<__nv_fp8_e4m3>(a.ptr, aCount, 1, stream, f.smCount);
                fillRandom<__nv_fp8_e4m3>(b.ptr, bCount, 2, stream, f.smCount);
                break;
            default:
                fillRandom<float>(a.ptr, aCount, 1, stream, f.smCount);
                fillRandom<float>(b.ptr, bCount, 2, stream, f.smCount);
            }
            // Pick the fastest of the heuristic's candidates (full mode), 3 timed runs each.
            size_t best = 0;
            if (plan.algos.size() > 1) {
                double bestMs = INFINITY;
                for (size_t i = 0; i < plan.algos.size(); ++i) {
                    lt.run(plan, i, a.ptr, b.ptr, c.ptr);
                    CK(cudaEventRecord(ev.start, stream));
                    for (int r = 0; r < 3; ++r)
                        lt.run(plan, i, a.ptr, b.ptr, c.ptr);
                    CK(cudaEventRecord(ev.stop, stream));
                    const double ms = ev.elapsedMs();
                    if (ms < bestMs) {
                        bestMs = ms;
                        best = i;
                    }
                }
            }
            // Warm-up, then one timed call sizes the batch so a sample lasts >= ~2 ms.
            for (int r = 0; r < 2; ++r)
                lt.run(plan, best, a.ptr, b.ptr, c.ptr);
            CK(cudaEventRecord(ev.start, stream));
            lt.run(plan, best, a.ptr, b.ptr, c.ptr);
            CK(cudaEventRecord(ev.stop, stream));
            const double once = std::max(1e-3, static_cast<double>(ev.elapsedMs()));
            const int inner = static_cast<int>(std::clamp(std::ceil(2.0 / once), 1.0, 50.0));
            std::vector<double> times;
            for (int r = 0; r < samples; ++r) {
                CK(cudaEventRecord(ev.start, stream));
                for (int i = 0; i < inner; ++i)
                    lt.run(plan, best, a.ptr, b.ptr, c.ptr);
                CK(cudaEventRecord(ev.stop, stream));
                times.push_back(ev.elapsedMs() / inner);
            }
            const double ms = median(times);
            GemmResult g;
            g.dtype = t.name;
            g.m = s.m;
            g.n = s.n;
            g.k = s.k;
            g.timeMs = ms;
            g.tflops = 2.0 * s.m * s.n * static_cast<double>(s.k) / (ms * 1e-3) / 1e12;
            g.reps = samples;
            g.inner = inner;
            g.candidates = static_cast<int>(plan.algos.size());
            g.maxRelError = checkErr;
            rep.gemms.push_back(g);
        }
    }
}

void measureMemory(const Options &opt, Report &rep, cudaStream_t stream)
{
    progress(800, "device memory bandwidth");
    size_t freeMem = 0, totalMem = 0;
    CK(cudaMemGetInfo(&freeMem, &totalMem));
    // Each buffer well beyond L2 (8x), at least 256 MiB (quick) / 1 GiB (full); three buffers
    // (triad) must fit in 3/4 of the free memory.
    const size_t floor = opt.quick ? (size_t(256) << 20) : (size_t(1) << 30);
    size_t bytes = std::max(floor, static_cast<size_t>(rep.facts.l2Bytes) * 8);
    bytes = std::min(bytes, freeMem / 4);
    const size_t granule = sizeof(uint4) * kCopyThreads * kCopyUnroll;
    bytes = bytes / granule * granule;
    if (bytes < granule * 16)
        throw ProbeFailure{ExitDeviceError, "out_of_memory",
                           "Too little free GPU memory for the bandwidth test",
                           std::to_string(freeMem) + " bytes free"};
    DeviceBuffer a(bytes), b(bytes), c(bytes);
    const size_t words = bytes / sizeof(uint4);
    fillRandom<float>(b.ptr, bytes / 4, 3, stream, rep.facts.smCount);
    fillRandom<float>(c.ptr, bytes / 4, 4, stream, rep.facts.smCount);
    CK(cudaMemsetAsync(a.ptr, 0, bytes, stream));
    const unsigned blocks =
        static_cast<unsigned>((words + kCopyThreads * kCopyUnroll - 1) / (kCopyThreads * kCopyUnroll));
    const int reps = opt.quick ? 10 : 20;
    rep.memBytes = bytes;
    rep.memReps = reps;
    EventPair ev;
    auto timeIt = [&](auto &&launch) {
        for (int w = 0; w < 2; ++w)
            launch();
        std::vector<double> ms;
        for (int r = 0; r < reps; ++r) {
            CK(cudaEventRecord(ev.start, stream));
            launch();
            CK(cudaEventRecord(ev.stop, stream));
            ms.push_back(ev.elapsedMs());
        }
        return median(ms);
    };
    const double copyMs = timeIt([&] {
        copyKernel<<<blocks, kCopyThreads, 0, stream>>>(b.as<uint4>(), a.as<uint4>(), words);
        CK_LAUNCH();
    });
    const double triadMs = timeIt([&] {
        triadKernel<<<blocks, kCopyThreads, 0, stream>>>(a.as<float4>(), b.as<float4>(), c.as<float4>(), 3.0f,
                                                         words);
        CK_LAUNCH();
    });
    const double memcpyMs =
        timeIt([&] { CK(cudaMemcpyAsync(a.ptr, b.ptr, bytes, cudaMemcpyDeviceToDevice, stream)); });
    rep.copyGbs = 2.0 * bytes / (copyMs * 1e-3) / 1e9;
    rep.triadGbs = 3.0 * bytes / (triadMs * 1e-3) / 1e9;
    rep.memcpyGbs = 2.0 * bytes / (memcpyMs * 1e-3) / 1e9;
}

void measureTransfers(const Options &opt, Report &rep, cudaStream_t stream)
{
    progress(900, "pinned host<->device bandwidth");
    size_t freeMem = 0, totalMem = 0;
    CK(cudaMemGetInfo(&freeMem, &totalMem));
    size_t bytes = opt.quick ? (size_t(64) << 20) : (size_t(256) << 20);
    bytes = std::min(bytes, freeMem / 4) / 4096 * 4096;
    PinnedBuffer host(bytes);
    std::memset(host.ptr, 1, bytes);
    DeviceBuffer dev(bytes);
    const int reps = opt.quick ? 5 : 10;
    rep.xferBytes = bytes;
    rep.xferReps = reps;
    EventPair ev;
    auto timeCopy = [&](void *dst, const void *src, cudaMemcpyKind kind) {
        CK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
        std::vector<double> ms;
        for (int r = 0; r < reps; ++r) {
            CK(cudaEventRecord(ev.start, stream));
            CK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
            CK(cudaEventRecord(ev.stop, stream));
            ms.push_back(ev.elapsedMs());
        }
        return static_cast<double>(bytes) / (median(ms) * 1e-3) / 1e9;
    };
    rep.h2dGbs = timeCopy(dev.ptr, host.ptr, cudaMemcpyHostToDevice);
    rep.d2hGbs = timeCopy(host.ptr, dev.ptr, cudaMemcpyDeviceToHost);
}

void measureLaunch(const Options &opt, Report &rep, cudaStream_t stream)
{
    progress(950, "kernel launch overhead");
    const int launches = 1000;
    for (int i = 0; i < 100; ++i)
        emptyKernel<<<1, 1, 0, stream>>>();
    CK_LAUNCH();
    CK(cudaStreamSynchronize(stream));
    std::vector<double> per;
    for (int s = 0; s < (opt.quick ? 5 : 10); ++s) {
        const double t0 = nowSeconds();
        for (int i = 0; i < launches; ++i)
            emptyKernel<<<1, 1, 0, stream>>>();
        CK_LAUNCH();
        CK(cudaStreamSynchronize(stream));
        per.push_back((nowSeconds() - t0) / launches * 1e6);
    }
    std::vector<double> sync;
    for (int i = 0; i < 200; ++i) {
        const double t0 = nowSeconds();
        emptyKernel<<<1, 1, 0, stream>>>();
        CK_LAUNCH();
        CK(cudaStreamSynchronize(stream));
        sync.push_back((nowSeconds() - t0) * 1e6);
    }
    rep.launches = launches;
    rep.launchUs = median(per);
    rep.syncUs = median(sync);
}

void writeReport(const Options &opt, const Report &rep, double elapsed, bool checksPassed)
{
    const DeviceFacts &f = rep.facts;
    JsonWriter w;
    w.beginObject();
    writeHeader(w, kKind, GFPROBE_VERSION, opt.quick);
    w.beginObject("device");
    w.value("index", f.index);
    w.value("name", f.name);
    w.value("compute_capability", std::to_string(f.ccMajor) + "." + std::to_string(f.ccMinor));
    w.value("sm_count", f.smCount);
    w.value("memory_gb", f.memoryGb, 6);
    w.value("memory_bytes", static_cast<unsigned long long>(f.totalMem));
    w.value("l2_cache_bytes", f.l2Bytes);
    w.value("sm_clock_mhz", f.smClockMhz, 6);
    w.value("mem_clock_mhz", f.memClockMhz, 6);
    w.value("mem_bus_width_bits", f.busWidth);
    w.value("peak_mem_bandwidth_gbs", f.peakMemGbs(), 6);
    w.value("pci_bus_id", f.pciBusId);
    if (f.nvml.pcieGenMax > 0)
        w.value("pcie_gen", f.nvml.pcieGenMax);
    else
        w.null("pcie_gen");
    if (f.nvml.pcieWidthMax > 0)
        w.value("pcie_width", f.nvml.pcieWidthMax);
    else
        w.null("pcie_width");
    w.value("pcie_gen_current", f.nvml.pcieGenCurrent);
    w.value("pcie_width_current", f.nvml.pcieWidthCurrent);
    w.value("power_limit_w", f.nvml.powerLimitW);
    w.value("driver_version", f.nvml.driverVersion.empty() ? versionText(f.driverApi) : f.nvml.driverVersion);
    w.value("cuda_driver_version", versionText(f.driverApi));
    w.value("cuda_version", versionText(f.runtime));
    w.value("cublas_version", std::to_string(f.cublasVersion / 10000) + "." +
                                  std::to_string((f.cublasVersion / 100) % 100) + "." +
                                  std::to_string(f.cublasVersion % 100));
    w.value("nvml", f.nvml.available);
    if (!f.nvml.note.empty())
        w.value("nvml_note", f.nvml.note);
    w.endObject();

    writeChecks(w, rep.checks);

    w.beginArray("gemm");
    for (const GemmResult &g : rep.gemms) {
        w.beginObject();
        w.value("dtype", g.dtype);
        w.value("m", g.m);
        w.value("n", g.n);
        w.value("k", g.k);
        w.value("tflops", g.tflops, 6);
        w.value("time_ms", g.timeMs, 6);
        w.value("reps", g.reps);
        w.value("inner", g.inner);
        w.value("algo_candidates", g.candidates);
        w.value("max_rel_error", g.maxRelError, 3);
        w.endObject();
    }
    w.endArray();

    w.beginArray("skipped");
    for (const Skipped &s : rep.skipped) {
        w.beginObject();
        w.value("dtype", s.dtype);
        w.value("m", s.m);
        w.value("n", s.n);
        w.value("k", s.k);
        w.value("reason", s.reason);
        w.endObject();
    }
    w.endArray();

    w.beginObject("memory");
    w.value("buffer_bytes", static_cast<unsigned long long>(rep.memBytes));
    w.value("reps", rep.memReps);
    w.value("copy_gbs", rep.copyGbs, 6);
    w.value("triad_gbs", rep.triadGbs, 6);
    w.value("memcpy_gbs", rep.memcpyGbs, 6);
    w.endObject();

    w.beginObject("transfer");
    w.value("bytes", static_cast<unsigned long long>(rep.xferBytes));
    w.value("reps", rep.xferReps);
    w.value("h2d_gbs", rep.h2dGbs, 6);
    w.value("d2h_gbs", rep.d2hGbs, 6);
    w.endObject();

    w.beginObject("launch");
    w.value("launches", rep.launches);
    w.value("overhead_us", rep.launchUs, 5);
    w.value("sync_latency_us", rep.syncUs, 5);
    w.endObject();

    auto best = [&](const char *dtype) {
        double b = -1;
        for (const GemmResult &g : rep.gemms)
            if (g.dtype == dtype)
                b = std::max(b, g.tflops);
        return b;
    };
    w.beginObject("summary");
    for (const GemmType &t : kGemmTypes) {
        const double b = best(t.name);
        const std::string key = std::string(t.name) + "_tflops";
        if (b > 0)
            w.value(key, b, 6);
        else
            w.null(key);
    }
    w.value("mem_bandwidth_gbs", std::max({rep.copyGbs, rep.triadGbs, rep.memcpyGbs}), 6);
    w.value("h2d_gbs", rep.h2dGbs, 6);
    w.value("d2h_gbs", rep.d2hGbs, 6);
    w.value("launch_overhead_us", rep.launchUs, 5);
    w.endObject();
    w.value("elapsed_s", elapsed, 4);
    if (!checksPassed) {
        w.beginObject("error");
        w.value("code", "check_failed");
        w.value("message", "A GEMM result on the GPU did not match the reference");
        w.value("detail", "see the checks array");
        w.endObject();
    }
    w.endObject();
    printDocument(w);
}

int run(const Options &opt)
{
    const double start = nowSeconds();
    progress(0, "looking for a CUDA GPU");
    int count = 0;
    CK(cudaGetDeviceCount(&count));
    if (count <= 0)
        throw ProbeFailure{ExitNoDevice, "no_device", "No CUDA GPU found", "cudaGetDeviceCount returned 0"};
    if (opt.device >= count)
        throw ProbeFailure{ExitUsage, "no_such_device",
                           "There is no CUDA device " + std::to_string(opt.device),
                           std::to_string(count) + " device(s) present"};
    CK(cudaSetDevice(opt.device));
    CK(cudaFree(nullptr)); // creates the context now, so its cost stays out of the timings
    Report rep;
    rep.facts = deviceFacts(opt.device);
    progress(50, "found " + rep.facts.name);

    Stream stream;
    LtGemm lt(stream.s, size_t(64) << 20);

    progress(60, "checking GEMM results against a reference");
    bool checksPassed = true;
    for (const GemmType &t : kGemmTypes) {
        if (rep.facts.cc() < t.minCc)
            continue;
        const GemmCheck c = checkGemm(lt, t, stream.s);
        if (!c.supported)
            continue; // no algorithm for this type: the GEMM stage reports it as skipped
        checksPassed = checksPassed && c.passed;
        rep.checks.push_back(c);
    }

    measureGemms(opt, rep, lt, stream.s);
    measureMemory(opt, rep, stream.s);
    measureTransfers(opt, rep, stream.s);
    measureLaunch(opt, rep, stream.s);
    CK(cudaStreamSynchronize(stream.s));
    progress(990, "writing the results");
    writeReport(opt, rep, nowSeconds() - start, checksPassed);
    progress(1000, "done");
    return checksPassed ? ExitOk : ExitDeviceError;
}

void printUsage(FILE *to)
{
    std::fputs("Usage: gpufrontier-probe [--quick] [--device N]\n\n"
               "Measures one CUDA GPU (device facts, GEMM throughput in fp32/tf32/fp16/bf16/fp8, memory\n"
               "bandwidth, pinned host<->device bandwidth, kernel launch overhead) and prints one JSON\n"
               "document on stdout (schema: probes/README.md). Progress lines\n"
               "'progress <0-1000> <message>' go to stderr.\n\n"
               "Options:\n"
               "  --quick       a short run (under 10 s on a data-centre GPU)\n"
               "  --device N    CUDA device index (default 0)\n"
               "  --help        show this help\n"
               "  --version     show the version\n\n"
               "Exit status: 0 ok, 1 usage error, 2 no CUDA device or driver, 3 CUDA error or wrong result\n"
               "(2 and 3 print a JSON document with an \"error\" object).\n",
               to);
}

} // namespace

int main(int argc, char **argv)
{
    Options opt;
    long device = opt.device;
    if (const int rc = parseProbeArgs(argc, argv, "gpufrontier-probe", "device", 0, 1023,
                                      "a device index from 0 to 1023", printUsage, &opt.quick, &device);
        rc >= 0)
        return rc;
    opt.device = static_cast<int>(device);
    try {
        return run(opt);
    } catch (const ProbeFailure &f) {
        progress(1000, f.message);
        std::fprintf(stderr, "gpufrontier-probe: %s: %s\n", f.message.c_str(), f.detail.c_str());
        printErrorDocument(kKind, GFPROBE_VERSION, opt.quick, f.code, f.message, f.detail);
        return f.exitCode;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "gpufrontier-probe: %s\n", e.what());
        printErrorDocument(kKind, GFPROBE_VERSION, opt.quick, "failure", "The probe failed", e.what());
        return ExitDeviceError;
    }
}
