// The GEMM family: C[b] = A[b] @ B[b] for every dtype (launched by garray/_gemm/matmul.py
// through cython/_gemm.pxi; the table is garray/_tables/gemm.py, docs/gemm.md).
//
// Note [GEMM kernels]
// ~~~~~~~~~~~~~~~~~~~
// 1. Operands travel as element pointers plus ELEMENT strides (batch, row, column),
//    int64 and signed: a transposed, Fortran-ordered, negative-stride or sliced operand
//    is read in place, and a broadcast batch operand has batch stride 0.  Every offset
//    is computed in 64 bits.  The batch is folded into the 1-d grid (the stub drivers
//    and the CPU runtime have 1-d grids only).
// 2. T is the compute dtype (the launcher casts the inputs to it, as NumPy's matmul
//    does), A the accumulator: T itself for floats and complex (float32 accumulates in
//    float32, as a BLAS sgemm does), an unsigned 32- or 64-bit integer for the integer
//    dtypes (integer products wrap; arithmetic modulo 2**32 then truncated to T gives
//    exactly T's wrapped result, without signed-overflow UB), bool for bool (OR of ANDs,
//    NumPy's bool matmul).
// 3. `gemm_tiled` (the GPU kernel): a block of GEMM_THREADS = 256 threads computes a
//    64 x 64 tile of C.  Per step of 16 along k it stages a 64 x 16 tile of A and a
//    16 x 64 tile of B in shared memory (zero-padded past the edges, so the inner loop
//    has no bounds tests), and each thread accumulates a 4 x 4 register block whose rows
//    and columns are 16 apart (neighbouring threads read neighbouring shared words).
//    Two __syncthreads per step.  256 threads is the launch layer's block size on every
//    device, so the kernel does not depend on the warp size.
// 4. `gemm_rt` (the CPU device's kernel): barrier-free, one thread per 4 x 16 tile of C
//    with its accumulators in registers.  When B's column stride is 1 and the tile is
//    whole, the 16-wide inner loop runs over consecutive elements with constant bounds,
//    which g++ vectorises; other tiles take the same loop with run-time strides and
//    bounds.  Threads are ordered with the row tiles fastest, so the threads a CPU
//    worker runs in sequence share one 16-column panel of B while it is in cache.  (On
//    the CPU device a barrier kernel runs its threads as fibers, about 10x slower.)
#include "garray/loops.h"

namespace ga {
namespace gemm {

// acc + a * b in the accumulator type (note 2).
template <class T, class A> struct mac {
    static GA_DEVICE A step(A acc, T a, T b) { return acc + (A)a * (A)b; }
};
template <> struct mac<bool, bool> {
    static GA_DEVICE bool step(bool acc, bool a, bool b) { return acc || (a && b); }
};

enum { TM = 64, TN = 64, TK = 16, THREADS = 256, RM = 4, RN = 4 };
enum { CM = 4, CN = 16 };   // gemm_rt's tile

}  // namespace gemm

// Arguments (every one a pointer or an int64): c, a, b, m, n, k, batch, then the element
// strides (batch, row, column) of c, a and b.
template <class T, class A>
GA_GLOBAL void gemm_tiled(T* c, const T* a, const T* b, int64 m, int64 n, int64 k,
                          int64 batch, int64 scb, int64 scm, int64 scn, int64 sab,
                          int64 sam, int64 sak, int64 sbb, int64 sbk, int64 sbn) {
    // raw words: __shared__ may not hold a type with a constructor (ga::complex)
    // as rows padded by one element: the staging loop writes down its columns (kk
    // fastest), which would otherwise hit one shared-memory bank 16 times
    __shared__ unsigned long long raw_a[(gemm::TK * (gemm::TM + 1) * sizeof(T) + 7) / 8];
    __shared__ unsigned long long raw_b[(gemm::TK * gemm::TN * sizeof(T) + 7) / 8];
    GA_SHARED_VAR(raw_a);
    GA_SHARED_VAR(raw_b);
    T (*as)[gemm::TM + 1] = (T (*)[gemm::TM + 1])raw_a;
    T (*bs)[gemm::TN] = (T (*)[gemm::TN])raw_b;
    const int64 tiles_m = (m + gemm::TM - 1) / gemm::TM;
    const int64 tiles_n = (n + gemm::TN - 1) / gemm::TN;
    int64 blk = GA_BLOCK_LINEAR(int64);
    const int tid = (int)threadIdx.x;
    if (blk >= tiles_m * tiles_n * batch) return;   // uniform over the block
    const int64 tn = blk % tiles_n;
    blk /= tiles_n;
    const int64 tm = blk % tiles_m;
    const int64 bi = blk / tiles_m;
    const int64 m0 = tm * gemm::TM, n0 = tn * gemm::TN;
    const T* ab = a + bi * sab;
    const T* bb = b + bi * sbb;
    const int ty = tid / 16, tx = tid % 16;
    A acc[gemm::RM][gemm::RN];
    for (int r = 0; r < gemm::RM; ++r)
        for (int q = 0; q < gemm::RN; ++q) acc[r][q] = A();
    for (int64 k0 = 0; k0 < k; k0 += gemm::TK) {
        for (int e = tid; e < gemm::TM * gemm::TK; e += gemm::THREADS) {
            int i = e / gemm::TK, kk = e % gemm::TK;
            int64 gi = m0 + i, gk = k0 + kk;
            as[kk][i] = (gi < m && gk < k) ? ab[gi * sam + gk * sak] : T();
        }
        for (int e = tid; e < gemm::TK * gemm::TN; e += gemm::THREADS) {
            int kk = e / gemm::TN, j = e % gemm::TN;
            int64 gk = k0 + kk, gj = n0 + j;
            bs[kk][j] = (gk < k && gj < n) ? bb[gk * sbk + gj * sbn] : T();
        }
        GA_SYNCTHREADS();
        for (int kk = 0; kk < gemm::TK; ++kk) {
            T av[gemm::RM], bv[gemm::RN];
            for (int r = 0; r < gemm::RM; ++r) av[r] = as[kk][ty + 16 * r];
            for (int q = 0; q < gemm::RN; ++q) bv[q] = bs[kk][tx + 16 * q];
            for (int r = 0; r < gemm::RM; ++r)
                for (int q = 0; q < gemm::RN; ++q)
                    acc[r][q] = gemm::mac<T, A>::step(acc[r][q], av[r], bv[q]);
        }
        GA_SYNCTHREADS();
    }
    T* cb = c + bi * scb;
    for (int r = 0; r < gemm::RM; ++r) {
        int64 gi = m0 + ty + 16 * r;
        if (gi >= m) continue;
        for (int q = 0; q < gemm::RN; ++q) {
            int64 gj = n0 + tx + 16 * q;
            if (gj < n) cb[gi * scm + gj * scn] = (T)acc[r][q];
        }
    }
}

// The barrier-free register-tiled kernel (note 4); same arguments, one thread per tile.
template <class T, class A>
GA_GLOBAL void gemm_rt(T* c, const T* a, const T* b, int64 m, int64 n, int64 k,
                       int64 batch, int64 scb, int64 scm, int64 scn, int64 sab,
                       int64 sam, int64 sak, int64 sbb, int64 sbk, int64 sbn) {
    const int64 tiles_m = (m + gemm::CM - 1) / gemm::CM;
    const int64 tiles_n = (n + gemm::CN - 1) / gemm::CN;
    int64 t = flat_index<int64>();
    if (t >= tiles_m * tiles_n * batch) return;
    const int64 tm = t % tiles_m;
    t /= tiles_m;
    const int64 tn = t % tiles_n;
    const int64 bi = t / tiles_n;
    const int64 m0 = tm * gemm::CM, n0 = tn * gemm::CN;
    const T* ab = a + bi * sab + m0 * sam;
    const T* bb = b + bi * sbb + n0 * sbn;
    A acc[gemm::CM][gemm::CN];
    for (int r = 0; r < gemm::CM; ++r)
        for (int q = 0; q < gemm::CN; ++q) acc[r][q] = A();
    if (sbn == 1 && m0 + gemm::CM <= m && n0 + gemm::CN <= n) {
        for (int64 p = 0; p < k; ++p) {
            const T* brow = bb + p * sbk;
            for (int r = 0; r < gemm::CM; ++r) {
                const A ar = (A)ab[r * sam + p * sak];
                for (int q = 0; q < gemm::CN; ++q)
                    acc[r][q] = gemm::mac<A, A>::step(acc[r][q], ar, (A)brow[q]);
            }
        }
    } else {
        const int mr = (int)(m - m0 < gemm::CM ? m - m0 : gemm::CM);
        const int nr = (int)(n - n0 < gemm::CN ? n - n0 : gemm::CN);
        for (int64 p = 0; p < k; ++p) {
            const T* brow = bb + p * sbk;
            for (int r = 0; r < mr; ++r) {
                const A ar = (A)ab[r * sam + p * sak];
                for (int q = 0; q < nr; ++q)
                    acc[r][q] = gemm::mac<A, A>::step(acc[r][q], ar, (A)brow[q * sbn]);
            }
        }
    }
    const int mr = (int)(m - m0 < gemm::CM ? m - m0 : gemm::CM);
    const int nr = (int)(n - n0 < gemm::CN ? n - n0 : gemm::CN);
    T* cb = c + bi * scb + m0 * scm + n0 * scn;
    for (int r = 0; r < mr; ++r)
        for (int q = 0; q < nr; ++q) cb[r * scm + q * scn] = (T)acc[r][q];
}

}  // namespace ga
