// The random family's core: Philox4x32-10, the per-element streams and the exact
// transforms every distribution builds on (Note [Counter-based streams] in
// _kernels/random.hip).
#pragma once
#include "loops.h"
#include "math.h"
#if GA_CPU_LOOPS && GA_CPU_AVX512
#include <immintrin.h>   // rng::blocks16 (AVX-512F, called only where the CPU has it)
#endif

namespace ga {
namespace rng {

GA_DEVICE void philox(uint32 c0, uint32 c1, uint32 c2, uint32 c3, uint32 k0, uint32 k1,
                      uint32* w) {
    for (int r = 0; r < 10; ++r) {
        if (r) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        uint64 p0 = (uint64)0xD2511F53u * c0;
        uint64 p1 = (uint64)0xCD9E8D57u * c2;
        uint32 n0 = (uint32)(p1 >> 32) ^ c1 ^ k0;
        uint32 n2 = (uint32)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32)p1;
        c3 = (uint32)p0;
        c0 = n0;
        c2 = n2;
    }
    w[0] = c0;
    w[1] = c1;
    w[2] = c2;
    w[3] = c3;
}

// The four words of block b (a 96-bit offset from the position lo + hi * 2**64).
GA_DEVICE void block(uint64 key, uint64 lo, uint64 hi, uint64 b, uint32 c3, uint32* w) {
    uint64 low = lo + b;
    uint32 c2 = (uint32)hi + (low < lo ? 1u : 0u);
    philox((uint32)low, (uint32)(low >> 32), c2, c3, (uint32)key, (uint32)(key >> 32), w);
}

// Lanes of consecutive blocks computed together: on the CPU device the loops over lanes
// are what g++ vectorises (32x32->64-bit products in AVX2 registers); GPUs use one lane
// per thread.  Only which thread computes a block changes, never its words.
#if GA_CPU_LOOPS
enum { LANES = 16 };
#else
enum { LANES = 1 };
#endif

struct Lanes {
    uint32 w[4][LANES];
};

// One Philox round's words from its products (h, l: the high and low halves of
// M0 * c0 and M1 * c2) and round keys; then the key schedule's step.
template <class T>
GA_FORCE_INLINE void mix(T& c0, T& c1, T& c2, T& c3, T h0, T h1, T l0, T l1, T k0, T k1) {
    c0 = h1 ^ c1 ^ k0;
    c2 = h0 ^ c3 ^ k1;
    c1 = l1;
    c3 = l0;
}
GA_FORCE_INLINE void bump(uint32& k0, uint32& k1) {
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
}

// Blocks b .. b + LANES - 1 (word j of lane l is o.w[j][l]).
#if GA_CPU_LOOPS && defined(__AVX2__) && defined(__GNUC__)
// x86 with AVX2: the rounds on 8-lane vectors, each 32x32 -> 64-bit product taken by two
// vpmuludq (even lanes, then odd lanes shifted down) and the high and low words put
// back in place by blends.  g++ made the same products from the loop below with
// shuffles and permutes: a block took 6.7 ns here, 4.5 ns this way.  The same words
// (tests pin them to Random123's known answers).
#if GA_CPU_AVX512
// Where the CPU has AVX-512 (GA_CPU_AVX512, set by garray/_compiler/gxx.py from
// /proc/cpuinfo, as x86-64-v3 is), the same rounds on 16-lane vectors: one thread,
// 2**20 float64 random() 3.0 -> 2.2 ms here (about 4.5 -> 3 ns a block).  Only this
// function is built for AVX-512 (a call per 16 blocks), so no other loop changes its
// instructions, and a CPU without it never runs them.
__attribute__((target("avx512f"), noinline)) inline void blocks16(uint64 key, uint64 lo,
                                                                  uint64 hi, uint64 b,
                                                                  uint32 c3v, Lanes& o) {
    typedef unsigned V __attribute__((vector_size(64)));            // 16 x uint32
    typedef unsigned long long W __attribute__((vector_size(64)));  // 8 x uint64
    static_assert(LANES == 16, "one 16-lane vector per word");
    V c0, c1, c2, c3;
    for (int e = 0; e < 16; ++e) {
        uint64 low = lo + (b + (uint64)e);
        c0[e] = (uint32)low;
        c1[e] = (uint32)(low >> 32);
        c2[e] = (uint32)hi + (low < lo ? 1u : 0u);
        c3[e] = c3v;
    }
    const W zero = {};
    const W M0 = zero + 0xD2511F53u, M1 = zero + 0xCD9E8D57u, lo32 = zero + 0xFFFFFFFFu;
    uint32 k0 = (uint32)key, k1 = (uint32)(key >> 32);
    for (int r = 0; r < 10; ++r) {
        const V K0 = (V){} + k0, K1 = (V){} + k1;
        // even lanes' products, then the odd lanes' (shifted down): 32x32 -> 64 bits
        W e0 = (W)_mm512_mul_epu32((__m512i)c0, (__m512i)M0);
        W o0 = (W)_mm512_mul_epu32((__m512i)((W)c0 >> 32), (__m512i)M0);
        W e1 = (W)_mm512_mul_epu32((__m512i)c2, (__m512i)M1);
        W o1 = (W)_mm512_mul_epu32((__m512i)((W)c2 >> 32), (__m512i)M1);
        // the high words: odd lanes' in place, even lanes' shifted down; the low words
        V h0 = (V)((e0 >> 32) | (o0 & ~lo32)), h1 = (V)((e1 >> 32) | (o1 & ~lo32));
        V l0 = (V)((e0 & lo32) | (o0 << 32)), l1 = (V)((e1 & lo32) | (o1 << 32));
        mix(c0, c1, c2, c3, h0, h1, l0, l1, K0, K1);
        bump(k0, k1);
    }
    __builtin_memcpy(&o.w[0][0], &c0, 64);
    __builtin_memcpy(&o.w[1][0], &c1, 64);
    __builtin_memcpy(&o.w[2][0], &c2, 64);
    __builtin_memcpy(&o.w[3][0], &c3, 64);
}
#endif
GA_FORCE_INLINE void blocks(uint64 key, uint64 lo, uint64 hi, uint64 b, uint32 c3v, Lanes& o) {
#if GA_CPU_AVX512
    blocks16(key, lo, hi, b, c3v, o);
#else
    typedef unsigned V __attribute__((vector_size(32)));            // 8 x uint32
    typedef unsigned long long W __attribute__((vector_size(32)));  // 4 x uint64
    typedef int I8 __attribute__((vector_size(32)));
    enum { NV = LANES / 8 };
    static_assert(LANES % 8 == 0, "whole 8-lane vectors");
    V c0[NV], c1[NV], c2[NV], c3[NV];
    for (int v = 0; v < NV; ++v)
        for (int e = 0; e < 8; ++e) {
            uint64 low = lo + (b + (uint64)(v * 8 + e));
            c0[v][e] = (uint32)low;
            c1[v][e] = (uint32)(low >> 32);
            c2[v][e] = (uint32)hi + (low < lo ? 1u : 0u);
            c3[v][e] = c3v;
        }
    const V zero = {0, 0, 0, 0, 0, 0, 0, 0};
    const V M0 = zero + 0xD2511F53u, M1 = zero + 0xCD9E8D57u;
    uint32 k0 = (uint32)key, k1 = (uint32)(key >> 32);
    for (int r = 0; r < 10; ++r) {
        const V K0 = zero + k0, K1 = zero + k1;
        for (int v = 0; v < NV; ++v) {
            W e0 = (W)__builtin_ia32_pmuludq256((I8)c0[v], (I8)M0);
            W o0 = (W)__builtin_ia32_pmuludq256((I8)((W)c0[v] >> 32), (I8)M0);
            W e1 = (W)__builtin_ia32_pmuludq256((I8)c2[v], (I8)M1);
            W o1 = (W)__builtin_ia32_pmuludq256((I8)((W)c2[v] >> 32), (I8)M1);
            V h0 = (V)__builtin_ia32_pblendd256((I8)(e0 >> 32), (I8)o0, 0xAA);
            V h1 = (V)__builtin_ia32_pblendd256((I8)(e1 >> 32), (I8)o1, 0xAA);
            V l0 = (V)__builtin_ia32_pblendd256((I8)e0, (I8)(o0 << 32), 0xAA);
            V l1 = (V)__builtin_ia32_pblendd256((I8)e1, (I8)(o1 << 32), 0xAA);
            mix(c0[v], c1[v], c2[v], c3[v], h0, h1, l0, l1, K0, K1);
        }
        bump(k0, k1);
    }
    for (int v = 0; v < NV; ++v) {
        __builtin_memcpy(&o.w[0][v * 8], &c0[v], 32);
        __builtin_memcpy(&o.w[1][v * 8], &c1[v], 32);
        __builtin_memcpy(&o.w[2][v * 8], &c2[v], 32);
        __builtin_memcpy(&o.w[3][v * 8], &c3[v], 32);
    }
#endif
}
#else
GA_FORCE_INLINE void blocks(uint64 key, uint64 lo, uint64 hi, uint64 b, uint32 c3v, Lanes& o) {
    uint32 c0[LANES], c1[LANES], c2[LANES], c3[LANES];
    for (int l = 0; l < LANES; ++l) {
        uint64 low = lo + (b + (uint64)l);
        c0[l] = (uint32)low;
        c1[l] = (uint32)(low >> 32);
        c2[l] = (uint32)hi + (low < lo ? 1u : 0u);
        c3[l] = c3v;
    }
    uint32 k0 = (uint32)key, k1 = (uint32)(key >> 32);
    for (int r = 0; r < 10; ++r) {
        for (int l = 0; l < LANES; ++l) {
            // high and low halves as separate products: g++ then keeps the lanes in
            // 32-bit vectors (vpmulld for the low half) instead of widening all of them
            uint32 h0 = (uint32)(((uint64)0xD2511F53u * c0[l]) >> 32);
            uint32 h1 = (uint32)(((uint64)0xCD9E8D57u * c2[l]) >> 32);
            uint32 l0 = 0xD2511F53u * c0[l];
            uint32 l1 = 0xCD9E8D57u * c2[l];
            mix(c0[l], c1[l], c2[l], c3[l], h0, h1, l0, l1, k0, k1);
        }
        bump(k0, k1);
    }
    for (int l = 0; l < LANES; ++l) {
        o.w[0][l] = c0[l];
        o.w[1][l] = c1[l];
        o.w[2][l] = c2[l];
        o.w[3][l] = c3[l];
    }
}
#endif

// The top 53 bits of the 64-bit word hi:lo, as an integer in [0, 2**53).
GA_FORCE_INLINE uint64 bits53(uint32 lo, uint32 hi) {
    return ((((uint64)hi) << 32) | lo) >> 11;
}
// v <= 2**53 as a double, exactly, from two int32 halves (AVX2 converts int32, not
// int64; the fma is exact, the sum being a representable integer).
GA_FORCE_INLINE double exact53(uint64 v) {
    return m::fma((double)(int32)(v >> 23), 8388608.0, (double)(int32)(v & 0x7fffff));
}
GA_FORCE_INLINE double uniform53(uint32 lo, uint32 hi) {    // [0, 1), NumPy's rule
    return exact53(bits53(lo, hi)) * 1.1102230246251565e-16;  // 2**-53
}
GA_FORCE_INLINE float uniform24(uint32 w) {                    // [0, 1)
    return (float)(int32)(w >> 8) * 5.9604645e-08f;            // 2**-24
}

// log(x) for normal x in (0, 1]: fdlibm's reduction to [sqrt(2)/2, sqrt(2)) and its
// minimax polynomial, every multiply-add an fma (note 5).  Within 1 ulp.
GA_FORCE_INLINE double log_portable(double x) {
    uint64 bits = double_as_u64(x);
    int32 hx = (int32)(bits >> 32);
    int32 k = (hx >> 20) - 1023;
    hx &= 0x000fffff;
    int32 i = (hx + 0x95f64) & 0x100000;
    k += i >> 20;
    bits = ((uint64)(uint32)(hx | (i ^ 0x3ff00000)) << 32) | (bits & 0xffffffffu);
    double f = u64_as_double(bits) - 1.0;
    double s = f / (2.0 + f);
    double dk = (double)k;
    double z = s * s;
    double w = z * z;
    double t1 = w * m::fma(w, m::fma(w, 1.531383769920937332e-01, 2.222219843214978396e-01),
                           3.999999999940941908e-01);
    double p2 = m::fma(w, m::fma(w, m::fma(w, 1.479819860511658591e-01, 1.818357216161805012e-01),
                                 2.857142874366239149e-01),
                       6.666666666666735130e-01);
    double r = m::fma(z, p2, t1);
    double hf = 0.5 * f;                               // exact
    double sum = m::fma(hf, f, r);                     // f*f/2 + R
    double lo = m::fma(s, sum, dk * 1.90821492927058770002e-10);
    double y = m::fma(hf, f, -lo);                     // f*f/2 - (s*(f*f/2 + R) + k*ln2_lo)
    return m::fma(dk, 6.93147180369123816490e-01, -(y - f));
}

// c ? a : b on the bit patterns: straight-line code that g++ vectorises, where a ?: on
// doubles may stay a branch (-ftrapping-math keeps it from speculating the arithmetic
// feeding either side), and a branch in a loop stops the vectoriser.
GA_FORCE_INLINE double pick(bool c, double a, double b) {
    uint64 m = (uint64)0 - (uint64)c;
    return u64_as_double((double_as_u64(a) & m) | (double_as_u64(b) & ~m));
}

// (cos, sin) of 2*pi*a/2**53 for an integer a in [0, 2**53): the quadrant comes from
// a's top bits exactly, the rest is |x| <= pi/4 on Taylor polynomials (to x**17 and
// x**18: truncation below 1e-19).
GA_FORCE_INLINE void cossin_turn(uint64 a, double* c, double* s) {
    uint64 q = (a + ((uint64)1 << 50)) >> 51;                   // nearest quarter turn
    // a - q * 2**51 lies in [-2**50, 2**50): shifted to be non-negative for exact53
    double x = (exact53(a + ((uint64)1 << 50) - (q << 51)) - 1125899906842624.0) *
               6.975736996017264e-16;                    // * pi * 2**-52
    double z = x * x;
    double ps = m::fma(z, 2.8114572543455206e-15, -7.647163731819816e-13);
    ps = m::fma(z, ps, 1.6059043836821613e-10);
    ps = m::fma(z, ps, -2.505210838544172e-08);
    ps = m::fma(z, ps, 2.7557319223985893e-06);
    ps = m::fma(z, ps, -0.0001984126984126984);
    ps = m::fma(z, ps, 0.008333333333333333);
    ps = m::fma(z, ps, -0.16666666666666666);
    double pc = m::fma(z, -1.5619206968586225e-16, 4.779477332387385e-14);
    pc = m::fma(z, pc, -1.1470745597729725e-11);
    pc = m::fma(z, pc, 2.08767569878681e-09);
    pc = m::fma(z, pc, -2.755731922398589e-07);
    pc = m::fma(z, pc, 2.48015873015873e-05);
    pc = m::fma(z, pc, -0.001388888888888889);
    pc = m::fma(z, pc, 0.041666666666666664);
    pc = m::fma(z, pc, -0.5);
    double sx = m::fma(x * z, ps, x);
    double cx = m::fma(z, pc, 1.0);
    // rotate by q quarter turns, on bit patterns (pick): (cx, sx), (-sx, cx), (-cx, -sx),
    // (sx, -cx); a negation flips the sign bit.
    bool odd = (q & 1) != 0;
    uint64 cneg = ((q + 1) & 2) << 62, sneg = (q & 2) << 62;
    *c = u64_as_double(double_as_u64(pick(odd, sx, cx)) ^ cneg);
    *s = u64_as_double(double_as_u64(pick(odd, cx, sx)) ^ sneg);
}

// Two standard normals from one block: Box-Muller, radius from the 53-bit uniform of
// words 0-1 taken in (0, 1], angle from words 2-3.  Exact in law up to the 53-bit
// resolution of the uniforms (|z| < 8.58).
GA_FORCE_INLINE void box_muller(uint32 w0, uint32 w1, uint32 w2, uint32 w3, double* z0,
                                double* z1) {
    double u = exact53(bits53(w0, w1) + 1) * 1.1102230246251565e-16;
    double rad = m::sqrt(-2.0 * log_portable(u));
    double c, s;
    cossin_turn(bits53(w2, w3), &c, &s);
    *z0 = rad * c;
    *z1 = rad * s;
}

// The element stream of note 4: element i's own counter pos + i, word by word, c3
// counting up from `sub`.
struct Stream {
    uint64 key, lo, hi, i;
    uint32 c3, w[4];
    int used;
    bool has_spare;
    double spare;
    GA_DEVICE Stream(uint64 key_, uint64 lo_, uint64 hi_, uint64 i_, uint32 sub)
        : key(key_), lo(lo_), hi(hi_), i(i_), c3(sub), used(4), has_spare(false), spare(0) {}
    // Starting with block c3 = 0 already computed (lane l of a `blocks` group): the
    // same stream, its first block vectorised with its neighbours'.
    GA_DEVICE Stream(uint64 key_, uint64 lo_, uint64 hi_, uint64 i_, const Lanes& first, int l)
        : key(key_), lo(lo_), hi(hi_), i(i_), c3(1), used(0), has_spare(false), spare(0) {
        for (int j = 0; j < 4; ++j) w[j] = first.w[j][l];
    }
    GA_DEVICE uint32 next32() {
        if (used == 4) {
            block(key, lo, hi, i, c3++, w);
            used = 0;
        }
        return w[used++];
    }
    GA_DEVICE uint64 next64() {
        uint32 a = next32();
        return ((uint64)next32() << 32) | a;
    }
    GA_DEVICE double uniform() {            // [0, 1)
        uint32 a = next32();
        return uniform53(a, next32());
    }
    GA_DEVICE double uniform_open() {       // (0, 1]
        uint32 a = next32();
        return exact53(bits53(a, next32()) + 1) * 1.1102230246251565e-16;
    }
    GA_DEVICE double normal() {
        if (has_spare) {
            has_spare = false;
            return spare;
        }
        uint32 b[4];
        for (int k = 0; k < 4; ++k) b[k] = next32();
        double z0;
        box_muller(b[0], b[1], b[2], b[3], &z0, &spare);
        has_spare = true;
        return z0;
    }
};

// Lemire's unbiased bounded integers: x in [0, 2**32) -> [0, range), range in
// [1, 2**32]; the rare retries read element i's stream from c3 = 1 (note 4).
GA_DEVICE uint64 bounded32(uint32 x, uint64 range, uint64 key, uint64 lo, uint64 hi,
                           uint64 i) {
    uint64 m = (uint64)x * range;
    if ((uint32)m < range) {
        uint64 thr = (((uint64)1 << 32) - range) % range;
        if ((uint32)m < thr) {
            Stream st(key, lo, hi, i, 1);
            do {
                m = (uint64)st.next32() * range;
            } while ((uint32)m < thr);
        }
    }
    return m >> 32;
}

// The same for 64-bit words; range 0 stands for 2**64 (every word is a value).
GA_DEVICE uint64 bounded64(uint64 x, uint64 range, uint64 key, uint64 lo, uint64 hi,
                           uint64 i) {
    if (range == 0) return x;
    uint64 m = x * range;
    if (m < range) {
        uint64 thr = (0 - range) % range;
        if (m < thr) {
            Stream st(key, lo, hi, i, 1);
            do {
                x = st.next64();
                m = x * range;
            } while (m < thr);
        }
    }
    return mulhi64(x, range);
}

// Thread t's range of blocks (or elements) [b0, b1) out of nb (note 6).
GA_DEVICE void thread_range(int64 per, int64 nb, int64* b0, int64* b1) {
    *b0 = flat_index<int64>() * per;
    *b1 = *b0 + per < nb ? *b0 + per : nb;
}

}  // namespace rng

}  // namespace ga
