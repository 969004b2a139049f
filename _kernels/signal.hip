// The signal family: direct N-d correlation (garray.convolve/correlate in
// garray/signal/_direct.py, garray.signal in garray/signal/; table garray/_tables/signal.py;
// docs/signal.md).
//
// Note [Direct correlation]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. One kernel computes every convolution and correlation garray offers:
//        out[i] = sum_k  S(i + k - off) * P[k]        (i, k, off: multi-indices)
//    over every tap k of the tap operand P.  S is the signal operand read through the
//    boundary rule (below); either operand may be conjugated (`cj`: bit 0 conjugates P,
//    bit 1 conjugates S).  A convolution is the correlation with the flipped filter: the
//    host passes P as a view with negative strides (its pointer at the last element), so
//    nothing is copied and the kernel never flips.  With a zero boundary the host also
//    swaps the operands when the tap operand would be the larger one (the reversed views
//    make that exact; docs/signal.md, "The one kernel", item 3), so the tap loop runs
//    over the smaller operand.
// 2. Geometry: one int64 array on the device (garray/signal/_direct.py's _launch packs it):
//        g[0] = R (rank, 1..GA_SIG_MAXR), then per dimension d < R
//        out size g[1+d], S size g[9+d], S stride g[17+d] (elements, any sign),
//        P size g[25+d], P stride g[33+d], offset g[41+d].
//    The output is C-contiguous.  Every index and offset is int64.
// 3. Boundary of S (`mode`): 0 zero (outside terms are skipped), 1 fill (outside reads
//    `fill[0]`, a one-element array of the dtype), 2 wrap (index mod n), 3 symmetric
//    (mirror with the edge repeated, period 2n: SciPy's 'symm').
// 4. Work split: a thread owns `per` consecutive outputs of one row of the last axis
//    (`per` = 1 on GPUs, 256 on the CPU device) and accumulates them in a local run of
//    RUN values (RUN = 256 on the CPU device, 1 on GPUs).  For each outer tap (dimensions
//    0..R-2, walked by an odometer) the run splits in three: the interior outputs, whose
//    S indices are inside [0, n) for every tap of the last axis, and the two edges.  The
//    edges go tap by tap: for each tap the part of the run inside S is a plain counted
//    loop, the rest takes the boundary rule element by element.  The interior goes tile
//    by tile: TILE outputs stay in registers over all the taps, so each multiply-add
//    loads one S value (on the CPU device float32/float64 tiles are eight 32-byte vectors
//    written with GCC vector extensions: 64 float32 or 32 float64 outputs; other dtypes
//    take 16 outputs in a plain loop).  An outer row of S outside S contributes nothing
//    (zero), the fill value times the taps (fill), or its mapped row (wrap, symm).
//    Every output sums its terms in tap order on every path, so `per` and the paths do
//    not change a value.
// 5. Accumulation (`acc`): floats and complex in their own type, a rounded product then
//    a rounded sum per term, in tap order (float32 in float32: NumPy's float32 convolve
//    also sums in float32, in its BLAS dot's order and with FMAs, so the last bits can
//    differ; the CPU device never fuses (g++ -ffp-contract=off), so every path and
//    thread split gives the same bits; NVRTC and hiprtc may fuse into FMAs, so GPU
//    results can differ from the CPU's in the last bits); integers in unsigned 32-bit
//    (8/16/32-bit dtypes) or 64-bit arithmetic, which wraps exactly like NumPy's integer
//    arithmetic and has no signed overflow; bool as NumPy's bool dot: the OR of the ANDs.
#include "garray/types.h"
#include "garray/loops.h"

#define GA_SIG_MAXR 8

namespace ga {

namespace sig {

template <class T> struct acc { typedef T type; };
template <> struct acc<int8> { typedef uint32 type; };
template <> struct acc<int16> { typedef uint32 type; };
template <> struct acc<int32> { typedef uint32 type; };
template <> struct acc<uint8> { typedef uint32 type; };
template <> struct acc<uint16> { typedef uint32 type; };
template <> struct acc<uint32> { typedef uint32 type; };
template <> struct acc<int64> { typedef uint64 type; };
template <> struct acc<uint64> { typedef uint64 type; };

template <class T> GA_FORCE_INLINE T cj(T v, bool c) { return v; }
template <class T> GA_FORCE_INLINE complex<T> cj(complex<T> v, bool c) {
    return c ? complex<T>(v.re, -v.im) : v;
}

// a + s * p, in the accumulator's arithmetic
template <class A, class T> GA_FORCE_INLINE A madd(A a, T s, T p) {
    if constexpr (sizeof(A) != sizeof(T) || !is_complex<T>::value) {
        if constexpr (sizeof(T) == 1 && sizeof(A) == 1) {
            return a;  // unreachable (bool is handled below)
        } else {
            return a + (A)s * (A)p;
        }
    } else {
        return a + s * p;
    }
}
template <> GA_FORCE_INLINE bool madd<bool, bool>(bool a, bool s, bool p) { return a | (s & p); }


// Map index j of a dimension of size n by the boundary rule; false: outside (zero/fill).
GA_FORCE_INLINE bool map_index(int64 j, int64 n, int64 mode, int64* out) {
    if (j >= 0 && j < n) { *out = j; return true; }
    if (mode == 2) {
        int64 r = j % n;
        *out = r < 0 ? r + n : r;
        return true;
    }
    if (mode == 3) {
        int64 p = 2 * n;
        int64 r = j % p;
        if (r < 0) r += p;
        *out = r < n ? r : p - 1 - r;
        return true;
    }
    return false;
}

// The interior tiles (note 4): outputs [r, r + TILE) accumulate over every tap in
// registers.  Returns the first output it did not do (the caller finishes one by one).
template <class A, class T, int TILE>
GA_FORCE_INLINE int64 interior(A* acc, int64 r, int64 rb, const T* q, const T* w, int64 pst,
                               int64 K, bool cjp) {
    if (TILE == 1) return r;
    for (; r + TILE <= rb; r += TILE) {
        A t[TILE];
        for (int u = 0; u < TILE; ++u) t[u] = acc[r + u];
        for (int64 kk = 0; kk < K; ++kk) {
            const T pv = cj(w[kk * pst], cjp);
            for (int u = 0; u < TILE; ++u) t[u] = madd<A, T>(t[u], q[r + kk + u], pv);
        }
        for (int u = 0; u < TILE; ++u) acc[r + u] = t[u];
    }
    return r;
}

#if GA_CPU_LOOPS
// float32 and float64 on the CPU device: eight 32-byte vectors of outputs (GCC vector
// extensions; g++ regroups the generic tile's loads into scalar shuffles, 3x slower).
// A product and a sum per term, rounded separately, exactly as the scalar paths
// (-ffp-contract=off), so every path gives the same bits.
template <class T>
inline int64 interior_real(T* acc, int64 r, int64 rb, const T* q, const T* w, int64 pst,
                           int64 K) {
    typedef T vec __attribute__((vector_size(32)));
    const int V = 32 / (int)sizeof(T), TILE = 8 * V;
#define GA_SIG_EACH(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
    for (; r + TILE <= rb; r += TILE) {
#define GA_SIG_LOAD(u) vec t##u; __builtin_memcpy(&t##u, acc + r + (u) * V, 32);
        GA_SIG_EACH(GA_SIG_LOAD)
        const T* p = q + r;
        const T* wk = w;
        for (int64 kk = 0; kk < K; ++kk, ++p, wk += pst) {
            const vec pv = vec{} + *wk;
#define GA_SIG_MADD(u) { vec a; __builtin_memcpy(&a, p + (u) * V, 32); t##u = t##u + a * pv; }
            GA_SIG_EACH(GA_SIG_MADD)
        }
#define GA_SIG_STORE(u) __builtin_memcpy(acc + r + (u) * V, &t##u, 32);
        GA_SIG_EACH(GA_SIG_STORE)
#undef GA_SIG_LOAD
#undef GA_SIG_MADD
#undef GA_SIG_STORE
#undef GA_SIG_EACH
    }
    return r;
}
template <>
GA_FORCE_INLINE int64 interior<float, float, 16>(float* acc, int64 r, int64 rb, const float* q,
                                                 const float* w, int64 pst, int64 K, bool) {
    return interior_real<float>(acc, r, rb, q, w, pst, K);
}
template <>
GA_FORCE_INLINE int64 interior<double, double, 16>(double* acc, int64 r, int64 rb,
                                                   const double* q, const double* w,
                                                   int64 pst, int64 K, bool) {
    return interior_real<double>(acc, r, rb, q, w, pst, K);
}
#endif

}  // namespace sig

template <class T>
GA_GLOBAL void sig_correlate(T* out, const T* x, const T* w, const int64* g, const T* fill,
                             int64 nout, int64 per, int64 mode, int64 cjflags) {
    typedef typename sig::acc<T>::type A;
#if GA_CPU_LOOPS
    const int RUN = 256, TILE = 16;
#else
    const int RUN = 1, TILE = 1;
#endif
    const int R = (int)g[0];
    const int last = R - 1;
    const int64 L = g[1 + last];                  // output row length
    if (L <= 0 || nout <= 0) return;
    const int64 cpr = (L + per - 1) / per;        // chunks per row
    const int64 t = flat_index<int64>();
    const int64 row = t / cpr;
    if (row >= nout / L) return;
    const int64 i0 = (t % cpr) * per;
    const int64 i1 = i0 + per < L ? i0 + per : L;
    const bool cjp = (cjflags & 1) != 0, cjs = (cjflags & 2) != 0;

    // the row's outer output index (dimensions 0..R-2)
    int64 io[GA_SIG_MAXR];
    {
        int64 r = row;
        for (int d = last - 1; d >= 0; --d) {
            int64 n = g[1 + d];
            io[d] = r % n;
            r /= n;
        }
    }
    const int64 n = g[9 + last], sst = g[17 + last];
    const int64 K = g[25 + last], pst = g[33 + last], off = g[41 + last];
    int64 nouter = 1;
    for (int d = 0; d < last; ++d) nouter *= g[25 + d];
    const T fv = mode == 1 ? fill[0] : T(0);

    for (int64 s0 = i0; s0 < i1; s0 += RUN) {
        const int64 s1 = s0 + RUN < i1 ? s0 + RUN : i1;
        const int64 m = s1 - s0;
        A acc[RUN];
        for (int r = 0; r < RUN; ++r) acc[r] = A(0);
        int64 k[GA_SIG_MAXR];
        for (int d = 0; d < last; ++d) k[d] = 0;
        for (int64 q = 0; q < nouter; ++q) {
            // the outer taps' S row and P base
            int64 srow = 0, pbase = 0;
            bool inside = true;
            for (int d = 0; d < last; ++d) {
                int64 j;
                if (!sig::map_index(io[d] + k[d] - g[41 + d], g[9 + d], mode, &j)) {
                    inside = false;
                } else {
                    srow += j * g[17 + d];
                }
                pbase += k[d] * g[33 + d];
            }
            // advance the odometer for the next q
            for (int d = last - 1; d >= 0; --d) {
                if (++k[d] < g[25 + d]) break;
                k[d] = 0;
            }
            if (!inside) {
                if (mode == 1) {
                    const T f = sig::cj(fv, cjs);
                    for (int64 kk = 0; kk < K; ++kk) {
                        const T pv = sig::cj(w[pbase + kk * pst], cjp);
                        for (int64 r = 0; r < m; ++r) acc[r] = sig::madd<A, T>(acc[r], f, pv);
                    }
                }
                continue;
            }
            const T* xs = x + srow;
            // Outputs r in [ra, rb) read S inside [0, n) for every tap (interior); the
            // others (edges) go tap by tap with the boundary rule.
            int64 ra = off - s0, rb = n + off - K - s0 + 1;
            ra = ra < 0 ? 0 : (ra > m ? m : ra);
            rb = rb < ra ? ra : (rb > m ? m : rb);
            if (sst != 1 || cjs) rb = ra;   // the interior fast path reads S contiguously
            for (int side = 0; side < 2; ++side) {
                const int64 lo = side ? rb : 0, hi = side ? m : ra;
                if (lo >= hi) continue;
                for (int64 kk = 0; kk < K; ++kk) {
                    const T pv = sig::cj(w[pbase + kk * pst], cjp);
                    // S index of output s0 + r is j0 + r; inside for r in [a, b)
                    const int64 j0 = s0 + kk - off;
                    int64 a = -j0, b = n - j0;
                    a = a < lo ? lo : (a > hi ? hi : a);
                    b = b < a ? a : (b > hi ? hi : b);
                    if (mode != 0) {
                        for (int64 r = lo; r < a; ++r) {
                            int64 j;
                            T sv = sig::map_index(j0 + r, n, mode, &j) ? xs[j * sst] : fv;
                            acc[r] = sig::madd<A, T>(acc[r], sig::cj(sv, cjs), pv);
                        }
                        for (int64 r = b; r < hi; ++r) {
                            int64 j;
                            T sv = sig::map_index(j0 + r, n, mode, &j) ? xs[j * sst] : fv;
                            acc[r] = sig::madd<A, T>(acc[r], sig::cj(sv, cjs), pv);
                        }
                    }
                    if (sst == 1 && !cjs) {
                        const T* p = xs + j0;
                        for (int64 r = a; r < b; ++r)
                            acc[r] = sig::madd<A, T>(acc[r], p[r], pv);
                    } else {
                        for (int64 r = a; r < b; ++r)
                            acc[r] = sig::madd<A, T>(acc[r], sig::cj(xs[(j0 + r) * sst], cjs),
                                                     pv);
                    }
                }
            }
            // interior: a tile of outputs kept in registers over all taps (one load of S
            // per multiply-add), in tap order like the edges
            int64 r = ra;
            r = sig::interior<A, T, TILE>(acc, r, rb, xs + (s0 - off), w + pbase, pst, K, cjp);
            for (; r < rb; ++r) {
                const T* q = xs + (s0 + r - off);
                A v = acc[r];
                for (int64 kk = 0; kk < K; ++kk)
                    v = sig::madd<A, T>(v, q[kk], sig::cj(w[pbase + kk * pst], cjp));
                acc[r] = v;
            }
        }
        T* o = out + row * L + s0;
        for (int64 r = 0; r < m; ++r) o[r] = (T)acc[r];
    }
}

}  // namespace ga
