#include "cpugemm.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

// Layout follows the usual BLIS scheme: C is cut into MC x NC tiles handed out to the threads;
// for each KC slice a thread packs its B panel (KC x NC, NR-wide column strips, kept in L2/L1)
// and its A block (MC x KC, MR-tall row strips) and runs an MR x NR register-blocked
// micro-kernel over them. The micro-kernel uses GCC/Clang vector extensions, compiled once per
// instruction set (AVX-512, AVX2+FMA, baseline) and picked at run time, so the binary runs on
// any x86-64 while using the wide units where present.

namespace gfprobe {

namespace {

#if defined(__x86_64__) && defined(__GNUC__)
#define GF_KERNEL_CLONES __attribute__((target_clones("avx512f", "fma", "default")))
#else
#define GF_KERNEL_CLONES
#endif

constexpr int kMr = 6; // rows of the micro-tile

typedef float VecF __attribute__((vector_size(64)));  // 16 floats
typedef double VecD __attribute__((vector_size(64))); // 8 doubles

template <class T> struct Blocking;
template <> struct Blocking<float>
{
    using Vec = VecF;
    static constexpr int nr = 16;
    static constexpr int kc = 256;
    static constexpr int mc = 96;
    static constexpr int nc = 512;
};
template <> struct Blocking<double>
{
    using Vec = VecD;
    static constexpr int nr = 8;
    static constexpr int kc = 256;
    static constexpr int mc = 72;
    static constexpr int nc = 256;
};

/// c[0..mr) x [0..nr) += packedA (kc x MR) * packedB (kc x NR).
template <class T>
[[gnu::always_inline]] inline void microKernelBody(int kc, const T *__restrict a, const T *__restrict b,
                                                   T *__restrict c, long ldc, int mr, int nr)
{
    using Vec = typename Blocking<T>::Vec;
    constexpr int kNr = Blocking<T>::nr;
    Vec acc[kMr] = {};
    for (int p = 0; p < kc; ++p) {
        Vec bv;
        std::memcpy(&bv, b + static_cast<long>(p) * kNr, sizeof bv);
        const T *ap = a + static_cast<long>(p) * kMr;
#pragma GCC unroll 6
        for (int i = 0; i < kMr; ++i)
            acc[i] += ap[i] * bv;
    }
    if (mr == kMr && nr == kNr) {
#pragma GCC unroll 6
        for (int i = 0; i < kMr; ++i) {
            Vec cv;
            std::memcpy(&cv, c + i * ldc, sizeof cv);
            cv += acc[i];
            std::memcpy(c + i * ldc, &cv, sizeof cv);
        }
    } else {
        for (int i = 0; i < mr; ++i)
            for (int j = 0; j < nr; ++j)
                c[i * ldc + j] += acc[i][j];
    }
}

GF_KERNEL_CLONES void microKernelF32(int kc, const float *a, const float *b, float *c, long ldc, int mr,
                                     int nr)
{
    microKernelBody<float>(kc, a, b, c, ldc, mr, nr);
}

GF_KERNEL_CLONES void microKernelF64(int kc, const double *a, const double *b, double *c, long ldc, int mr,
                                     int nr)
{
    microKernelBody<double>(kc, a, b, c, ldc, mr, nr);
}

inline void microKernel(int kc, const float *a, const float *b, float *c, long ldc, int mr, int nr)
{
    microKernelF32(kc, a, b, c, ldc, mr, nr);
}
inline void microKernel(int kc, const double *a, const double *b, double *c, long ldc, int mr, int nr)
{
    microKernelF64(kc, a, b, c, ldc, mr, nr);
}

template <class T> void gemmImpl(int m, int n, int k, const T *a, const T *b, T *c, int threads)
{
    using B = Blocking<T>;
    const int rowBlocks = (m + B::mc - 1) / B::mc;
    const int colBlocks = (n + B::nc - 1) / B::nc;
    const int tiles = rowBlocks * colBlocks;
    std::atomic<int> next{0};

    auto worker = [&]() {
        std::vector<T> packA(static_cast<size_t>(B::mc + kMr) * B::kc);
        std::vector<T> packB(static_cast<size_t>(B::nc + B::nr) * B::kc);
        for (int t = next.fetch_add(1); t < tiles; t = next.fetch_add(1)) {
            // Neighbouring tiles share the B panel's columns, so walk rows fastest.
            const int ic = (t % rowBlocks) * B::mc;
            const int jc = (t / rowBlocks) * B::nc;
            const int mc = std::min(B::mc, m - ic);
            const int nc = std::min(B::nc, n - jc);
            for (int i = 0; i < mc; ++i)
                std::fill_n(c + static_cast<long>(ic + i) * n + jc, nc, T(0));
            for (int pc = 0; pc < k; pc += B::kc) {
                const int kc = std::min(B::kc, k - pc);
                // Pack B[pc..pc+kc) x [jc..jc+nc) into NR-wide strips, zero-padded.
                for (int jr = 0; jr < nc; jr += B::nr) {
                    T *dst = packB.data() + static_cast<long>(jr / B::nr) * kc * B::nr;
                    const int w = std::min(B::nr, nc - jr);
                    for (int p = 0; p < kc; ++p) {
                        const T *src = b + static_cast<long>(pc + p) * n + jc + jr;
                        T *row = dst + static_cast<long>(p) * B::nr;
                        int j = 0;
                        for (; j < w; ++j)
                            row[j] = src[j];
                        for (; j < B::nr; ++j)
                            row[j] = T(0);
                    }
                }
                // Pack A[ic..ic+mc) x [pc..pc+kc) into MR-tall strips, zero-padded.
                for (int ir = 0; ir < mc; ir += kMr) {
                    T *dst = packA.data() + static_cast<long>(ir / kMr) * kc * kMr;
                    const int h = std::min(kMr, mc - ir);
                    for (int i = 0; i < kMr; ++i) {
                        if (i < h) {
                            const T *src = a + static_cast<long>(ic + ir + i) * k + pc;
                            for (int p = 0; p < kc; ++p)
                                dst[static_cast<long>(p) * kMr + i] = src[p];
                        } else {
                            for (int p = 0; p < kc; ++p)
                                dst[static_cast<long>(p) * kMr + i] = T(0);
                        }
                    }
                }
                for (int jr = 0; jr < nc; jr += B::nr) {
                    const T *bp = packB.data() + static_cast<long>(jr / B::nr) * kc * B::nr;
                    for (int ir = 0; ir < mc; ir += kMr) {
                        const T *ap = packA.data() + static_cast<long>(ir / kMr) * kc * kMr;
                        microKernel(kc, ap, bp, c + static_cast<long>(ic + ir) * n + jc + jr, n,
                                    std::min(kMr, mc - ir), std::min(B::nr, nc - jr));
                    }
                }
            }
        }
    };

    const int extra = std::max(0, std::min(threads, tiles) - 1);
    std::vector<std::thread> pool;
    pool.reserve(static_cast<size_t>(extra));
    for (int i = 0; i < extra; ++i)
        pool.emplace_back(worker);
    worker();
    for (std::thread &th : pool)
        th.join();
}

} // namespace

void cpuGemm(int m, int n, int k, const float *a, const float *b, float *c, int threads)
{
    gemmImpl(m, n, k, a, b, c, threads);
}

void cpuGemm(int m, int n, int k, const double *a, const double *b, double *c, int threads)
{
    gemmImpl(m, n, k, a, b, c, threads);
}

const char *cpuGemmIsa()
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return "avx512f";
    if (__builtin_cpu_supports("fma"))
        return "fma";
#endif
    return "generic";
}

} // namespace gfprobe
