// Value types shared by every kernel: complex numbers, float16 and conversions between
// garray's 14 dtypes (NumPy's unsafe-cast semantics: complex -> real keeps the real
// part, anything -> bool is `!= 0`).
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

// Conversions: convert<To>(x) for every pair of the 14 dtypes.
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
// float16: every source but double and complex goes through float (exact for bool and
// the integers that fit, Note [float16]); complex keeps its real part.
template <class From> struct converter<half, From> {
    GA_DEVICE static half run(From x) { return half((float)x); }
};
template <> struct converter<half, double> {
    GA_DEVICE static half run(double x) { return half(x); }
};
template <class T> struct converter<half, complex<T> > {
    GA_DEVICE static half run(complex<T> x) { return converter<half, T>::run(x.re); }
};
template <> struct converter<half, half> {
    GA_DEVICE static half run(half x) { return x; }
};
template <> struct converter<half, bool> {
    GA_DEVICE static half run(bool x) { return half(x ? 1.0f : 0.0f); }
};
template <class To> struct converter<To, half> {
    GA_DEVICE static To run(half x) { return (To)(float)x; }
};
template <> struct converter<bool, half> {
    GA_DEVICE static bool run(half x) { return (float)x != 0.0f; }
};
template <class T> struct converter<complex<T>, half> {
    GA_DEVICE static complex<T> run(half x) { return complex<T>((T)(float)x, T(0)); }
};

template <> struct converter<bool, bool> {
    GA_DEVICE static bool run(bool x) { return x; }
};

template <class To, class From> GA_DEVICE To convert(From x) {
    return converter<To, From>::run(x);
}

}  // namespace ga
