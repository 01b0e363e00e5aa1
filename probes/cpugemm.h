#pragma once

// A blocked, multi-threaded GEMM for the CPU probe (no BLAS dependency).
// C = A * B, all row-major: A is m x k, B is k x n, C is m x n (overwritten).

namespace gfprobe {

void cpuGemm(int m, int n, int k, const float *a, const float *b, float *c, int threads);
void cpuGemm(int m, int n, int k, const double *a, const double *b, double *c, int threads);

/// The straightforward triple loop in double precision, for checking.
template <class T> void referenceGemm(int m, int n, int k, const T *a, const T *b, double *c)
{
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int p = 0; p < k; ++p)
                s += static_cast<double>(a[static_cast<long>(i) * k + p]) *
                     static_cast<double>(b[static_cast<long>(p) * n + j]);
            c[static_cast<long>(i) * n + j] = s;
        }
}

/// The instruction set the micro-kernel dispatches to on this machine ("avx512f", "fma" or "generic").
const char *cpuGemmIsa();

} // namespace gfprobe
