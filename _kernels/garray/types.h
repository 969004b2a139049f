// Value types shared by every kernel: complex numbers, the narrow floats (float16,
// bfloat16, float8_e4m3fn, float8_e5m2) and conversions between garray's 17 dtypes
// (NumPy's unsafe-cast semantics: complex -> real keeps the real part, anything -> bool
// is `!= 0`).
#pragma once
#include "platform.h"

namespace ga {

// Note [float16]
// ~~~~~~~~~~~~~~
// ga::half holds IEEE binary16 bits; kernels read and write it and compute in float, as
// NumPy's float16 loops do (convert, compute in float, round once).  The conversions
// round to nearest even with the hardware's instruction: _Float16 on the CPU (g++
// 12) and AMD (clang), PTX cvt on NVIDIA (no cuda_fp16.h needed under NVRTC).  A double
// rounds to half directly (never through float: double rounding), as NumPy's
// npy_double_to_half.  Integers go through float, exact below 2**24 and past half's
// range (65504) either way.
#if defined(GA_PLATFORM_NVIDIA)
GA_DEVICE uint16 f32_to_f16(float f) {
    unsigned short r; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(f)); return r;
}
GA_DEVICE uint16 f64_to_f16(double d) {
    unsigned short r; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(r) : "d"(d)); return r;
}
GA_DEVICE float f16_to_f32(uint16 h) {
    float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"((unsigned short)h)); return f;
}
#else
GA_DEVICE uint16 f32_to_f16(float f) { return __builtin_bit_cast(uint16, (_Float16)f); }
GA_DEVICE uint16 f64_to_f16(double d) { return __builtin_bit_cast(uint16, (_Float16)d); }
GA_DEVICE float f16_to_f32(uint16 h) { return (float)__builtin_bit_cast(_Float16, h); }
#endif

struct half {
    uint16 bits;
    half() = default;
    GA_DEVICE half(float f) : bits(f32_to_f16(f)) {}
    GA_DEVICE half(double d) : bits(f64_to_f16(d)) {}
    template <class U> GA_DEVICE explicit half(U u) : bits(f32_to_f16((float)u)) {}
    GA_DEVICE operator float() const { return f16_to_f32(bits); }
    static GA_DEVICE half from_bits(uint16 b) { half h; h.bits = b; return h; }
};

// Note [Narrow floats]
// ~~~~~~~~~~~~~~~~~~~~
// bfloat16, float8_e4m3fn and float8_e5m2 are ml_dtypes' formats, and garray's dtypes
// are ml_dtypes' own (a NumPy array of them moves to the device byte for byte).  Like
// ga::half they are storage types: kernels read them, compute in float and write them
// back, and the launch layer runs float32's kernels for them (Note [Dtype rules] 6 in
// garray/_tables/ops.py).  The conversions are software, so every device (and hiprtc
// without fp8 types) gives the same bits, following ml_dtypes:
// - float -> format rounds to nearest even.  bfloat16 keeps float's exponent range
//   (inf stays inf); float8_e5m2 is IEEE-like (overflow and inf give inf);
//   float8_e4m3fn has no inf: a value that rounds past 448, and inf, give NaN.  NaN
//   keeps its sign and becomes the format's quiet NaN.
// - double -> format rounds once: the double is first rounded to float with
//   round-to-odd (truncate, then set the last bit if anything was lost), which keeps
//   the information the second rounding needs because float has more than two bits
//   beyond every narrow format's precision; integers reach double by round-to-odd too
//   (2**62 + 2**54 + 1 rounds up in bfloat16, as ml_dtypes; to nearest it would tie).
// - format -> float is exact; every other target goes through float.
#if defined(GA_PLATFORM_NVIDIA)
GA_DEVICE uint32 f32_bits(float f) { return __float_as_uint(f); }
GA_DEVICE float bits_f32(uint32 u) { return __uint_as_float(u); }
#else
GA_DEVICE uint32 f32_bits(float f) { return __builtin_bit_cast(uint32, f); }
GA_DEVICE float bits_f32(uint32 u) { return __builtin_bit_cast(float, u); }
#endif

// d rounded to float by round-to-odd (see the Note); NaN stays NaN.
GA_DEVICE float f64_to_f32_odd(double d) {
    float f = (float)d;
    if ((double)f != d && d == d) {
        uint32 b = f32_bits(f);
        if (d > 0 ? (double)f > d : (double)f < d) b -= 1;     // back towards zero
        f = bits_f32(b | 1u);
    }
    return f;
}

// An integer rounded to double by round-to-odd: the magnitude converts (to nearest), is
// compared with its conversion back, and steps towards zero and sets the last bit where
// the two differ.  2**64 (a uint64 near the top rounding up) cannot convert back: it
// is above every uint64, so it rounded up.
template <class I> GA_DEVICE double int_to_f64_odd(I x) {
    bool neg = (I)(-1) < (I)0 && x < (I)0;
    uint64 m = neg ? (uint64)0 - (uint64)x : (uint64)x;
    double d = (double)m;
    bool up = d >= 18446744073709551616.0, lost = up;
    if (!up) {
        uint64 back = (uint64)d;
        up = back > m;
        lost = back != m;
    }
    if (lost) d = u64_as_double((double_as_u64(d) - (up ? 1u : 0u)) | 1u);
    return neg ? -d : d;
}

GA_DEVICE uint16 f32_to_bf16(float f) {
    uint32 u = f32_bits(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16)((u >> 16) | 0x40u);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16)(u >> 16);
}

// float -> an 8-bit format of M mantissa bits and exponent bias B; FN: no inf, only
// the all-ones pattern is NaN (float8_e4m3fn), else IEEE-like (float8_e5m2).
template <int M, int B, bool FN> GA_DEVICE unsigned char f32_to_f8(float f) {
    constexpr uint32 nan = FN ? 0x7Fu : (0x7Cu | (1u << (M - 1)));
    constexpr uint32 top = FN ? 0x7Eu : 0x7Bu;      // the largest finite magnitude
    uint32 u = f32_bits(f);
    uint32 sign = (u >> 24) & 0x80u;
    u &= 0x7FFFFFFFu;
    if (u > 0x7F800000u) return (unsigned char)(sign | nan);
    if (u == 0x7F800000u) return (unsigned char)(sign | (FN ? nan : 0x7Cu));
    int e = (int)(u >> 23) - 127;
    uint32 r;
    if (e >= 1 - B) {               // a normal of the format: rebias, round off 23 - M bits
        constexpr int sh = 23 - M;
        r = u - ((uint32)(127 - B) << 23);
        r = (r + ((1u << (sh - 1)) - 1u) + ((r >> sh) & 1u)) >> sh;
    } else {                        // a subnormal of the format (or zero)
        if (u < 0x00800000u) return (unsigned char)sign;   // float subnormals: far below
        int sh = 23 - M + (1 - B - e);
        if (sh > 25) return (unsigned char)sign;
        uint32 m = (u & 0x7FFFFFu) | 0x800000u;
        r = (m + ((1u << (sh - 1)) - 1u) + ((m >> sh) & 1u)) >> sh;
    }
    if (r > top) r = FN ? nan : 0x7Cu;
    return (unsigned char)(sign | r);
}

template <int M, int B> GA_DEVICE float f8_to_f32(unsigned char h) {
    uint32 sign = (uint32)(h & 0x80u) << 24;
    uint32 e = (h >> M) & ((0x80u >> M) - 1u), m = h & ((1u << M) - 1u);
    if (e == 0) {                   // zero and subnormals: m * 2**(1 - B - M), exact
        float v = (float)m * bits_f32((uint32)(127 + 1 - B - M) << 23);
        return bits_f32(f32_bits(v) | sign);
    }
    return bits_f32(sign | ((e + 127 - B) << 23) | (m << (23 - M)));
}

struct bfloat16 {
    uint16 bits;
    bfloat16() = default;
    GA_DEVICE bfloat16(float f) : bits(f32_to_bf16(f)) {}
    GA_DEVICE bfloat16(double d) : bits(f32_to_bf16(f64_to_f32_odd(d))) {}
    template <class U> GA_DEVICE explicit bfloat16(U u) : bits(f32_to_bf16((float)u)) {}
    GA_DEVICE operator float() const { return bits_f32((uint32)bits << 16); }
};

// The NaN and inf cases of f8_to_f32's callers: e4m3fn's 0x7F/0xFF are NaN (no inf);
// e5m2's all-ones exponent is inf (mantissa 0) or NaN, as float's.
#define GA_FLOAT8(NAME, M, B, FN, SPECIAL)                                               \
    struct NAME {                                                                        \
        unsigned char bits;                                                              \
        NAME() = default;                                                                \
        GA_DEVICE NAME(float f) : bits(f32_to_f8<M, B, FN>(f)) {}                        \
        GA_DEVICE NAME(double d) : bits(f32_to_f8<M, B, FN>(f64_to_f32_odd(d))) {}       \
        template <class U> GA_DEVICE explicit NAME(U u)                                  \
            : bits(f32_to_f8<M, B, FN>((float)u)) {}                                     \
        GA_DEVICE operator float() const {                                               \
            uint32 a = bits & 0x7Fu;                                                     \
            if (SPECIAL) {                                                               \
                uint32 sign = (uint32)(bits & 0x80u) << 24;                              \
                return bits_f32(sign | (FN || (a & ((1u << M) - 1u)) ? 0x7FC00000u       \
                                                                      : 0x7F800000u));   \
            }                                                                            \
            return f8_to_f32<M, B>(bits);                                                \
        }                                                                                \
    };
GA_FLOAT8(float8_e4m3fn, 3, 7, true, a == 0x7Fu)
GA_FLOAT8(float8_e5m2, 2, 15, false, a >= 0x7Cu)
#undef GA_FLOAT8

// Traits the conversions need (NVRTC has no <type_traits>).
template <class A, class B> struct same_type { static const bool value = false; };
template <class A> struct same_type<A, A> { static const bool value = true; };
template <class T> struct is_integer { static const bool value = false; };
template <> struct is_integer<int8> { static const bool value = true; };
template <> struct is_integer<int16> { static const bool value = true; };
template <> struct is_integer<int32> { static const bool value = true; };
template <> struct is_integer<int64> { static const bool value = true; };
template <> struct is_integer<uint8> { static const bool value = true; };
template <> struct is_integer<uint16> { static const bool value = true; };
template <> struct is_integer<uint32> { static const bool value = true; };
template <> struct is_integer<uint64> { static const bool value = true; };

template <class T> struct is_narrow { static const bool value = false; };
template <> struct is_narrow<half> { static const bool value = true; };
template <> struct is_narrow<bfloat16> { static const bool value = true; };
template <> struct is_narrow<float8_e4m3fn> { static const bool value = true; };
template <> struct is_narrow<float8_e5m2> { static const bool value = true; };

template <class T>
struct complex {
    T re, im;
    GA_HOST_DEVICE complex() : re(0), im(0) {}
    GA_HOST_DEVICE complex(T r) : re(r), im(0) {}
    GA_HOST_DEVICE complex(T r, T i) : re(r), im(i) {}
};

template <class T> struct is_complex { static const bool value = false; };
template <class T> struct is_complex<complex<T> > { static const bool value = true; };
template <class T> struct real_of { typedef T type; };
template <class T> struct real_of<complex<T> > { typedef T type; };

template <class T> GA_DEVICE complex<T> operator+(complex<T> a, complex<T> b) {
    return complex<T>(a.re + b.re, a.im + b.im);
}
template <class T> GA_DEVICE complex<T> operator-(complex<T> a, complex<T> b) {
    return complex<T>(a.re - b.re, a.im - b.im);
}
template <class T> GA_DEVICE complex<T> operator-(complex<T> a) {
    return complex<T>(-a.re, -a.im);
}
template <class T> GA_DEVICE complex<T> operator*(complex<T> a, complex<T> b) {
    return complex<T>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
template <class T> GA_DEVICE bool operator==(complex<T> a, complex<T> b) {
    return a.re == b.re && a.im == b.im;
}
template <class T> GA_DEVICE bool operator!=(complex<T> a, complex<T> b) {
    return !(a == b);
}

// Conversions: convert<To>(x) for every pair of the 17 dtypes.
template <class To, class From> struct converter {
    GA_DEVICE static To run(From x) { return (To)x; }
};
template <class From> struct converter<bool, From> {
    GA_DEVICE static bool run(From x) { return x != From(0); }
};
template <class T> struct converter<bool, complex<T> > {
    GA_DEVICE static bool run(complex<T> x) { return x.re != T(0) || x.im != T(0); }
};
template <class To, class T> struct converter<To, complex<T> > {
    GA_DEVICE static To run(complex<T> x) { return (To)x.re; }
};
template <class T, class From> struct converter<complex<T>, From> {
    GA_DEVICE static complex<T> run(From x) { return complex<T>((T)x, T(0)); }
};
template <class T, class U> struct converter<complex<T>, complex<U> > {
    GA_DEVICE static complex<T> run(complex<U> x) { return complex<T>((T)x.re, (T)x.im); }
};
template <class T> struct converter<complex<T>, bool> {
    GA_DEVICE static complex<T> run(bool x) { return complex<T>(x ? T(1) : T(0), T(0)); }
};
template <> struct converter<bool, bool> {
    GA_DEVICE static bool run(bool x) { return x; }
};

// The narrow floats (Note [Narrow floats]) to and from everything: a narrow source widens
// to float exactly and takes float's conversion; a narrow target takes the real part of
// a complex, goes through float from float16's sources but double (double rounds to half
// directly, never through float: double rounding), and through double (rounded once)
// from integers and double for the other formats.
template <class To, class From> GA_DEVICE To convert(From x) {
    if constexpr (same_type<To, From>::value) {
        return x;
    } else if constexpr (is_narrow<From>::value) {
        if constexpr (same_type<To, bool>::value) return (float)x != 0.0f;
        else return convert<To>((float)x);
    } else if constexpr (is_narrow<To>::value) {
        if constexpr (is_complex<From>::value) return convert<To>(x.re);
        else if constexpr (same_type<From, bool>::value) return To(x ? 1.0f : 0.0f);
        else if constexpr (same_type<To, half>::value && !same_type<From, double>::value)
            return half((float)x);
        else if constexpr (is_integer<From>::value) return To(int_to_f64_odd(x));
        else return To(x);
    } else {
        return converter<To, From>::run(x);
    }
}

}  // namespace ga
