// The random family: Philox4x32-10 and the transforms built on it (launched by
// garray/random/_kernels.py through cython/_launch.pxi's _family_launch; the table is
// garray/_tables/random.py, docs/random.md).
//
// Note [Counter-based streams]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. Philox4x32-10 (Salmon et al., SC'11) maps a 128-bit counter (c0 lowest .. c3) and a
//    64-bit key (k0, k1) to four 32-bit words.  Every value garray draws is a pure
//    function of (key, counter), so it does not depend on the device, the warp size, the
//    launch shape or how the threads are scheduled.
// 2. A generator's position is the low 96 bits of the counter (c0, c1, c2).  A call
//    reserves positions [pos, pos + m) and the host advances pos by m.  Block b of a call
//    is the counter pos + b (96-bit add) with c3 = 0.
// 3. Direct transforms pack values into blocks: 4 float32 uniforms (24 bits each), 2
//    float64 uniforms (53 bits: words 2j, 2j+1), 2 normals (Box-Muller on two 53-bit
//    uniforms), 4 bounded 32-bit integers or 2 bounded 64-bit integers per block.  Value
//    i depends only on block i / K, so the first k values of a size-n draw are a size-k
//    draw from the same position.
// 4. A value that needs a variable number of words (rejection: Lemire's unbiased
//    integers, gamma, poisson ...) reads the element stream of its index i: counter
//    pos + i with c3 = 0, 1, 2 ... (`Stream`).  Bounded integers take their first try
//    from the packed block and retries from c3 >= 1, so the packed blocks (c3 = 0) and
//    the retries never share a counter.  Such calls reserve n positions.
// 5. Bits are the same on every device only if the arithmetic is.  Integer steps are.
//    IEEE +, -, *, / and sqrt are correctly rounded everywhere, but NVRTC and hiprtc fuse
//    a product feeding an addition into an FMA by default and g++ (-ffp-contract=off)
//    does not.  So this file never lets a product feed an addition: every multiply-add is
//    an explicit fma() (exact on every device), and a product is only stored, compared,
//    divided, square-rooted or multiplied again.  The logarithm and sine/cosine of the
//    Box-Muller step are garray's own (below), not the vendor's libm, whose last bits
//    differ between CUDA, ROCm and glibc.  Transforms that call exp/pow/log1p (the other
//    distributions) use the device's libm: equal in law, not always to the last bit.
// 6. On the CPU device each thread walks `per` consecutive blocks (or elements) in a
//    counted loop that g++ vectorises; GPUs run one per thread.  `per` only changes which
//    thread computes a value, never the value (tests force other shapes).
#include "garray/philox.h"
#include "garray/rand_continuous.h"
#include "garray/rand_discrete.h"

namespace ga {

// ---- kernels (every argument a pointer, an int64/uint64 or a double) ----------------
// Common arguments: out, n (values), key (k0 | k1 << 32), lo and hi (the position:
// bits 0-63 and 64-95), per (blocks or elements per thread).

// The packed kernels walk their thread's blocks [b0, b1) in groups of rng::LANES; a
// whole group stores without tests (the loop g++ vectorises), the last one element by
// element.  STORE(l, j, i) writes value j of lane l to out[i].
#if GA_CPU_LOOPS
// the values of one lane unrolled, so that the loop over lanes is one g++ vectorises
#define GA_RNG_UNROLL _Pragma("GCC unroll 4")
#else
#define GA_RNG_UNROLL
#endif
#define GA_RNG_PACKED(K, c3, STORE)                                                  \
    int64 b0, b1;                                                                    \
    rng::thread_range(per, (n + (K) - 1) / (K), &b0, &b1);                           \
    for (int64 b = b0; b < b1; b += rng::LANES) {                                    \
        rng::Lanes L;                                                                \
        rng::blocks(key, lo, hi, (uint64)b, (c3), L);                                \
        if (b + rng::LANES <= b1 && (b + rng::LANES) * (K) <= n) {                   \
            for (int l = 0; l < rng::LANES; ++l)                                     \
                GA_RNG_UNROLL for (int j = 0; j < (K); ++j) STORE(l, j, (b + l) * (K) + j); \
        } else {                                                                     \
            for (int l = 0; l < rng::LANES && b + l < b1; ++l)                       \
                for (int j = 0; j < (K); ++j)                                        \
                    if ((b + l) * (K) + j < n) STORE(l, j, (b + l) * (K) + j);       \
        }                                                                            \
    }

// Raw words: uint32 (4 per block) or uint64 (2 per block, low word first).  `c3` is
// the counter's top word: 0 for draws (note 2), any value for known-answer tests.
template <class T>
GA_GLOBAL void rng_bits(T* out, int64 n, uint64 key, uint64 lo, uint64 hi, int64 per,
                        uint64 c3) {
    const int K = 16 / (int)sizeof(T);
#define STORE(l, j, i)                                                                \
    out[i] = K == 4 ? (T)L.w[j][l]                                                    \
                    : (T)((((uint64)L.w[2 * (j) + 1][l]) << 32) | L.w[2 * (j)][l])
    GA_RNG_PACKED(K, (uint32)c3, STORE)
#undef STORE
}

// a + s * u for uniforms u in [0, 1): float32 from 24 bits (4 per block), float64 from
// 53 bits (2 per block).  random() is a = 0, s = 1 (exactly u).
template <class T>
GA_GLOBAL void rng_uniform(T* out, int64 n, uint64 key, uint64 lo, uint64 hi, int64 per,
                           double a, double s) {
    const int K = sizeof(T) == 4 ? 4 : 2;
    // No test for random() (a = 0, s = 1): fma(1, u, 0) is u exactly, and a branch in
    // the loop kept g++ from vectorising it (the float64 stores ran one by one).
#define STORE(l, j, i)                                                                \
    {                                                                                 \
        T u = K == 4 ? (T)rng::uniform24(L.w[j][l])                                   \
                     : (T)rng::uniform53(L.w[2 * (j)][l], L.w[2 * (j) + 1][l]);       \
        out[i] = (T)m::fma(s, (double)u, a);                                          \
    }
    GA_RNG_PACKED(K, 0, STORE)
#undef STORE
}

// loc + scale * z for standard normals z (2 per block); float32 is the float64 value
// rounded, so both dtypes draw the same variates.
template <class T>
GA_GLOBAL void rng_normal(T* out, int64 n, uint64 key, uint64 lo, uint64 hi, int64 per,
                          double loc, double scale) {
#define STORE(l, j, i)                                                                \
    {                                                                                 \
        double z0, z1;                                                                \
        rng::box_muller(L.w[0][l], L.w[1][l], L.w[2][l], L.w[3][l], &z0, &z1);        \
        out[i] = (T)m::fma(scale, (j) == 0 ? z0 : z1, loc);                           \
    }
    GA_RNG_PACKED(2, 0, STORE)
#undef STORE
}

// s * E for standard exponentials E = -log(u), u uniform in (0, 1] from 53 bits (2 per
// block; garray's log, so the same bits everywhere): standard_exponential (s = 1) and
// exponential(scale).  float32 is the float64 value rounded.
template <class T>
GA_GLOBAL void rng_exponential(T* out, int64 n, uint64 key, uint64 lo, uint64 hi, int64 per,
                               double s) {
#define STORE(l, j, i)                                                                \
    out[i] = (T)(-rng::log_portable(                                                  \
                     rng::exact53(rng::bits53(L.w[2 * (j)][l], L.w[2 * (j) + 1][l]) + 1) * \
                     1.1102230246251565e-16) * s)
    GA_RNG_PACKED(2, 0, STORE)
#undef STORE
}

// low + [0, range) for range in [1, 2**32] (4 per block), wrapped into T: every integer
// dtype and bool (two's complement makes low + v right for signed T).
template <class T>
GA_GLOBAL void rng_int32(T* out, int64 n, uint64 key, uint64 lo, uint64 hi, int64 per,
                         uint64 low, uint64 range) {
#define STORE(l, j, i)                                                                \
    out[i] = (T)(low + rng::bounded32(L.w[j][l], range, key, lo, hi, (uint64)(i)))
    GA_RNG_PACKED(4, 0, STORE)
#undef STORE
}

// low + [0, range) for range in (2**32, 2**64] (0 stands for 2**64; 2 per block).
template <class T>
GA_GLOBAL void rng_int64(T* out, int64 n, uint64 key, uint64 lo, uint64 hi, int64 per,
                         uint64 low, uint64 range) {
#define STORE(l, j, i)                                                                \
    out[i] = (T)(low + rng::bounded64((((uint64)L.w[2 * (j) + 1][l]) << 32) |         \
                                          L.w[2 * (j)][l],                            \
                                      range, key, lo, hi, (uint64)(i)))
    GA_RNG_PACKED(2, 0, STORE)
#undef STORE
}

// The element-stream distributions (note 4): value i is a function of element i's own
// stream, whatever the number of words it takes.  Kinds below 64 are the continuous
// distributions (garray/rand_continuous.h), the others discrete (rand_discrete.h); the
// Python side names them in garray/random/_continuous.py and _discrete.py.  A parameter
// is an array (contiguous float64, one per value) when its pointer is non-null, else the
// scalar beside it.
template <class T>
GA_GLOBAL void rng_dist(T* out, int64 n, uint64 key, uint64 lo, uint64 hi, int64 per,
                        int64 kind, const double* pa, double a, const double* pb, double b,
                        const double* pc, double c) {
    int64 i0, i1;
    rng::thread_range(per, n, &i0, &i1);
    // The first block of LANES element streams at once (the vectorised loop), then each
    // element's draw on its own stream.
    const bool gamma = rng::gamma_kind(kind);
    for (int64 g = i0; g < i1; g += rng::LANES) {
        rng::Lanes L;
        rng::blocks(key, lo, hi, (uint64)g, 0, L);
        if (gamma && g + rng::LANES <= i1) {   // note 6 of rand_continuous.h
            rng::Lanes L1;
            rng::blocks(key, lo, hi, (uint64)g, 1, L1);
            double val[rng::LANES], u2[rng::LANES], mult[rng::LANES];
            int32 ok[rng::LANES];
            rng::gamma_first(kind, pa, a, pb, b, g, L, L1, val, u2, mult, ok);
            for (int l = 0; l < rng::LANES; ++l) {
                int64 i = g + l;
                double v = val[l];
                if (ok[l] != 1) {
                    double x = rng::param(pa, a, i);
                    double shape = kind == rng::D_CHISQUARE ? 0.5 * x : x;
                    if (ok[l] == 2) {
                        v = rng::boost_gamma(v, u2[l], shape);
                    } else {
                        rng::Stream st(key, lo, hi, (uint64)i, L, l);
                        v = rng::std_gamma(st, shape);
                    }
                }
                out[i] = (T)(mult[l] * v);
            }
            continue;
        }
        for (int l = 0; l < rng::LANES && g + l < i1; ++l) {
            int64 i = g + l;
            rng::Stream st(key, lo, hi, (uint64)i, L, l);
            double x = rng::param(pa, a, i), y = rng::param(pb, b, i), z = rng::param(pc, c, i);
            out[i] = (T)(kind < 64 ? rng::dist_continuous(kind, st, x, y, z)
                                   : rng::dist_discrete(kind, st, x, y, z));
        }
    }
}

// multinomial(n, pvals): row r (of n / k rows) draws the k counts of one experiment by
// conditional binomials on row r's element stream (rng::multinomial_row in
// rand_discrete.h), so the counts of a row always sum to its n.  Row r's probabilities
// are pvals[r * pstride .. + k) (contiguous float64; pstride 0 shares one vector); its n
// is pn[r] when pn is non-null, else nv.
template <class T>
GA_GLOBAL void rng_multinomial(T* out, int64 n, uint64 key, uint64 lo, uint64 hi,
                               int64 per, int64 k, const double* pn, double nv,
                               const double* pvals, int64 pstride) {
    int64 r0, r1;
    rng::thread_range(per, n / k, &r0, &r1);
    for (int64 r = r0; r < r1; ++r) {
        rng::Stream st(key, lo, hi, (uint64)r, 0);
        rng::multinomial_row(st, rng::param(pn, nv, r), pvals + r * pstride, k, out + r * k);
    }
}

}  // namespace ga

namespace ga {

// low[i] + [0, span[i]) with per-element bounds (Generator.integers with array low or
// high), wrapped into T: low and span are uint64 arrays, one per value, span 0 standing
// for 2**64.  Every try reads element i's own stream (note 4): a 32-bit word when the
// span fits in 32 bits, else a 64-bit one, rejected as in bounded32 / bounded64.
template <class T>
GA_GLOBAL void rng_int_arr(T* out, int64 n, uint64 key, uint64 lo, uint64 hi, int64 per,
                           const uint64* low, const uint64* span) {
    int64 i0, i1;
    rng::thread_range(per, n, &i0, &i1);
    for (int64 i = i0; i < i1; ++i) {
        rng::Stream st(key, lo, hi, (uint64)i, 0);
        uint64 r = span[i], v;
        if (r == 0) {
            v = st.next64();
        } else if (r <= ((uint64)1 << 32)) {
            uint64 m = (uint64)st.next32() * r;
            if ((uint32)m < r) {
                uint64 thr = (((uint64)1 << 32) - r) % r;
                while ((uint32)m < thr) m = (uint64)st.next32() * r;
            }
            v = m >> 32;
        } else {
            uint64 x = st.next64();
            uint64 m = x * r;
            if (m < r) {
                uint64 thr = (0 - r) % r;
                while (m < thr) {
                    x = st.next64();
                    m = x * r;
                }
            }
            v = mulhi64(x, r);
        }
        out[i] = (T)(low[i] + v);
    }
}

}  // namespace ga
