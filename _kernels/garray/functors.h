// Op functors: the body of every elementwise operation, written once for all devices.
//
// Note [Functors]
// ~~~~~~~~~~~~~~~
// 1. A functor gets its inputs already in the compute dtype T (the launch layer casts
//    mixed inputs first) and returns a value the kernel converts to the output dtype.
// 2. The Python op table (garray/_tables/ops.py) names the functor and decides which
//    dtypes reach it; functors only handle those.
// 3. Semantics follow NumPy where the Array API is silent: integer division and
//    remainder by zero give 0, shifts past the width give 0 (or -1 for negative
//    signed right shifts), maximum/minimum propagate NaN, round is half-to-even.
#pragma once
#include "math.h"

namespace ga {

template <class T> struct traits {
    static constexpr bool is_cplx = false, is_bool = false;
    static constexpr bool is_float = (T(1) / T(2)) != T(0);
    static constexpr bool is_signed = T(-1) < T(0);
};
template <> struct traits<bool> {
    static constexpr bool is_cplx = false, is_bool = true, is_float = false, is_signed = false;
};
template <class U> struct traits<complex<U> > {
    static constexpr bool is_cplx = true, is_bool = false, is_float = false, is_signed = true;
};

// Note [Two-output ops]
// ~~~~~~~~~~~~~~~~~~~~~
// 1. A functor of two outputs (divmod, frexp, modf) returns a two<A, B>; the kernels
//    ew1x2_* / ew2x2_* (elementwise.hip) write .first and .second, converted to their
//    output dtypes, in one pass (garray/loops.h, map_contiguous2 / map_strided2).
// 2. A binary functor whose second operand has a type of its own (ldexp: int64
//    exponents) names it as `second`; second_of<Op, T> is that type, else T, and the
//    ew2_* kernels read their second operand in it.  The op table's `in2` casts it.
template <class A, class B> struct two { A first; B second; };

template <class...> struct voider { typedef void type; };
template <class Op, class T, class = void> struct second_of { typedef T type; };
template <class Op, class T> struct second_of<Op, T, typename voider<typename Op::second>::type> {
    typedef typename Op::second type;
};

namespace op {

#define GA_UNARY(name) struct name { template <class T> GA_DEVICE auto operator()(T x) const
#define GA_BINARY(name) struct name { template <class T> GA_DEVICE auto operator()(T a, T b) const
#define GA_END };
// Exact ops (Note [Value-only results], garray/loops.h): the same bits in any loop.
#define GA_EXACT static constexpr int exact = 2;
// GA_EXACT_REAL: for real dtypes; complex ones call libm, or (divide, reciprocal) are
// fused by g++ 12's SLP vectoriser into vfmsubadd despite -ffp-contract=off, so a
// vectorised loop and a scalar one differ in the last bit.
#define GA_EXACT_REAL static constexpr int exact = 1;

// ---- arithmetic ---------------------------------------------------------------
GA_BINARY(add) { if constexpr (traits<T>::is_bool) return a || b; else return T(a + b); } GA_EXACT GA_END
GA_BINARY(subtract) { return T(a - b); } GA_EXACT GA_END
GA_BINARY(multiply) {
    if constexpr (traits<T>::is_bool) return a && b;
    else if constexpr (traits<T>::is_cplx) return m::cmul(a, b);
    else return T(a * b);
} GA_EXACT GA_END
GA_BINARY(divide) {
    if constexpr (traits<T>::is_cplx) return m::cdiv(a, b); else return T(a / b);
} GA_EXACT_REAL GA_END
GA_UNARY(negative) { return T(-x); } GA_EXACT GA_END
GA_UNARY(positive) { return x; } GA_EXACT GA_END
GA_UNARY(square) { if constexpr (traits<T>::is_cplx) return m::cmul(x, x); else return T(x * x); } GA_EXACT GA_END
GA_UNARY(reciprocal) {
    if constexpr (traits<T>::is_cplx) return m::creciprocal(x);
    else if constexpr (traits<T>::is_float) return T(T(1) / x);
    // NumPy's integer loop converts 1.0 / x: 1 / 0 is inf, which x86-64 converts to the
    // int32/int64 minimum, and through int32 to 0 for the narrower and unsigned types
    else if constexpr (traits<T>::is_signed && sizeof(T) >= 4)
        return x == T(0) ? T(T(1) << (8 * sizeof(T) - 1)) : T(T(1) / x);
    else return x == T(0) ? T(0) : T(T(1) / x);
} GA_EXACT_REAL GA_END
GA_UNARY(absolute) {
    if constexpr (traits<T>::is_cplx) return m::cabs(x);
    else if constexpr (traits<T>::is_float) return m::fabs(x);
    else if constexpr (traits<T>::is_signed) return T(x < 0 ? T(0) - x : x);
    else return x;
} GA_EXACT_REAL GA_END
GA_UNARY(sign) {
    if constexpr (traits<T>::is_cplx) {
        return m::csign(x);
    } else if constexpr (traits<T>::is_float) {
        return m::isnan(x) ? x : T((x > 0) - (x < 0));
    } else {
        return T((x > 0) - (x < 0));
    }
} GA_EXACT_REAL GA_END

GA_BINARY(floor_divide) {
    if constexpr (traits<T>::is_float) {
        // NumPy's npy_divmod: floor of the exact quotient, consistent with remainder.
        if (b == T(0)) return T(a / b);
        // Infinite operands: floor of the IEEE quotient (the Array API's table;
        // NumPy's divmod gives NaN for inf // finite).
        if (m::isinf(a) || m::isinf(b)) return m::floor(a / b);
        T mod = m::fmod(a, b);
        T div = (a - mod) / b;
        if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
        T fl;
        if (div != T(0)) {
            fl = m::floor(div);
            if (div - fl > T(0.5)) fl += T(1);
        } else {
            fl = m::copysign(T(0), a / b);
        }
        return fl;
    } else if constexpr (traits<T>::is_signed) {
        if (b == T(0)) return T(0);
        if (b == T(-1)) return T((T)0 - a);        // wraps for the minimum, no trap
        T q = T(a / b);
        if ((a % b != 0) && ((a < 0) != (b < 0))) q = T(q - 1);
        return q;
    } else {
        return b == T(0) ? T(0) : T(a / b);
    }
} GA_EXACT GA_END
GA_BINARY(remainder) {
    if constexpr (traits<T>::is_float) {
        if (b == T(0)) return m::fmod(a, b);
        T mod = m::fmod(a, b);
        if (mod != T(0)) {
            if ((b < T(0)) != (mod < T(0))) mod += b;
        } else {
            mod = m::copysign(T(0), b);
        }
        return mod;
    } else if constexpr (traits<T>::is_signed) {
        if (b == T(0) || b == T(-1)) return T(0);
        T r = T(a % b);
        if (r != 0 && ((r < 0) != (b < 0))) r = T(r + b);
        return r;
    } else {
        return b == T(0) ? T(0) : T(a % b);
    }
} GA_EXACT GA_END
GA_BINARY(fmod) {
    if constexpr (traits<T>::is_float) return m::fmod(a, b);
    else if constexpr (traits<T>::is_signed) return (b == T(0) || b == T(-1)) ? T(0) : T(a % b);
    else return b == T(0) ? T(0) : T(a % b);
} GA_EXACT GA_END
GA_BINARY(power) {
    if constexpr (traits<T>::is_float || traits<T>::is_cplx) {
        return m::pow(a, b);
    } else {
        // Integer power by squaring; negative exponents give 0 except for |a| == 1
        // (NumPy raises for those; the op table documents the difference).
        if constexpr (traits<T>::is_signed) {
            if (b < T(0)) return a == T(1) ? T(1) : (a == T(-1) ? T((b & 1) ? -1 : 1) : T(0));
        }
        T r = T(1), base = a;
        auto e = b;
        while (e) {
            if (e & 1) r = T(r * base);
            base = T(base * base);
            e = T(e >> 1);
        }
        return r;
    }
} GA_END

// ---- comparisons ---------------------------------------------------------------
// Complex numbers order lexicographically as in NumPy (its CLT/CLE/CGE macros): the
// real parts decide only when neither imaginary part is NaN, so any NaN compares false.
template <class T> GA_DEVICE bool clt(T a, T b) {
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
}
template <class T> GA_DEVICE bool cle(T a, T b) {
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);
}
GA_BINARY(equal) { return a == b; } GA_EXACT GA_END
GA_BINARY(not_equal) { return a != b; } GA_EXACT GA_END
GA_BINARY(less) { if constexpr (traits<T>::is_cplx) return clt(a, b); else return a < b; } GA_EXACT GA_END
GA_BINARY(less_equal) { if constexpr (traits<T>::is_cplx) return cle(a, b); else return a <= b; } GA_EXACT GA_END
GA_BINARY(greater) { if constexpr (traits<T>::is_cplx) return clt(b, a); else return b < a; } GA_EXACT GA_END
GA_BINARY(greater_equal) { if constexpr (traits<T>::is_cplx) return cle(b, a); else return b <= a; } GA_EXACT GA_END
// NumPy: maximum/minimum return a NaN operand (the first if both); fmax/fmin the other.
GA_BINARY(maximum) {
    if constexpr (traits<T>::is_float) return (m::isnan(a) || a >= b) ? a : b;
    else if constexpr (traits<T>::is_cplx) return (m::isnan(a) || cle(b, a)) ? a : b;
    else return a >= b ? a : b;
} GA_EXACT GA_END
GA_BINARY(minimum) {
    if constexpr (traits<T>::is_float) return (m::isnan(a) || a <= b) ? a : b;
    else if constexpr (traits<T>::is_cplx) return (m::isnan(a) || cle(a, b)) ? a : b;
    else return a <= b ? a : b;
} GA_EXACT GA_END
GA_BINARY(fmax) {   // NaN-ignoring maximum
    if constexpr (traits<T>::is_float) return m::fmax(a, b);
    else if constexpr (traits<T>::is_cplx) return (m::isnan(b) || cle(b, a)) ? a : b;
    else return a >= b ? a : b;
} GA_EXACT GA_END
GA_BINARY(fmin) {   // NaN-ignoring minimum
    if constexpr (traits<T>::is_float) return m::fmin(a, b);
    else if constexpr (traits<T>::is_cplx) return (m::isnan(b) || cle(a, b)) ? a : b;
    else return a <= b ? a : b;
} GA_EXACT GA_END

// ---- logical and bitwise ---------------------------------------------------------
GA_BINARY(logical_and) { return bool(a) && bool(b); } GA_EXACT GA_END
GA_BINARY(logical_or) { return bool(a) || bool(b); } GA_EXACT GA_END
GA_BINARY(logical_xor) { return bool(a) != bool(b); } GA_EXACT GA_END
GA_UNARY(logical_not) { return !bool(x); } GA_EXACT GA_END
GA_BINARY(bitwise_and) { return T(a & b); } GA_EXACT GA_END
GA_BINARY(bitwise_or) { return T(a | b); } GA_EXACT GA_END
GA_BINARY(bitwise_xor) { return T(a ^ b); } GA_EXACT GA_END
GA_UNARY(bitwise_invert) { if constexpr (traits<T>::is_bool) return !x; else return T(~x); } GA_EXACT GA_END
GA_BINARY(bitwise_left_shift) {
    // Shift in the unsigned type: left-shifting negative values is UB in C++.
    if ((unsigned long long)b >= sizeof(T) * 8) return T(0);
    return T((unsigned long long)a << (unsigned long long)b);
} GA_EXACT GA_END
GA_BINARY(bitwise_right_shift) {
    if ((unsigned long long)b >= sizeof(T) * 8) return T(a < T(0) ? T(-1) : T(0));
    return T(a >> b);
} GA_EXACT GA_END

// ---- rounding and classification ---------------------------------------------------
GA_UNARY(floor) { if constexpr (traits<T>::is_float) return m::floor(x); else return x; } GA_EXACT GA_END
GA_UNARY(ceil) { if constexpr (traits<T>::is_float) return m::ceil(x); else return x; } GA_EXACT GA_END
GA_UNARY(trunc) { if constexpr (traits<T>::is_float) return m::trunc(x); else return x; } GA_EXACT GA_END
GA_UNARY(round) {
    if constexpr (traits<T>::is_float) return m::rint(x);
    else if constexpr (traits<T>::is_cplx) return T(m::rint(x.re), m::rint(x.im));
    else return x;
} GA_EXACT GA_END
GA_UNARY(isnan) {
    if constexpr (traits<T>::is_float || traits<T>::is_cplx) return m::isnan(x); else return false;
} GA_EXACT GA_END
GA_UNARY(isinf) {
    if constexpr (traits<T>::is_float || traits<T>::is_cplx) return m::isinf(x); else return false;
} GA_EXACT GA_END
GA_UNARY(isfinite) {
    if constexpr (traits<T>::is_float || traits<T>::is_cplx) return m::isfinite(x); else return true;
} GA_EXACT GA_END
GA_UNARY(signbit) { return m::signbit(x); } GA_EXACT GA_END

// ---- complex parts ------------------------------------------------------------------
GA_UNARY(real) { if constexpr (traits<T>::is_cplx) return x.re; else return x; } GA_EXACT GA_END
GA_UNARY(imag) { if constexpr (traits<T>::is_cplx) return x.im; else return T(0); } GA_EXACT GA_END
GA_UNARY(conj) { if constexpr (traits<T>::is_cplx) return T(x.re, -x.im); else return x; } GA_EXACT GA_END
GA_UNARY(angle) {
    if constexpr (traits<T>::is_cplx) return m::atan2(x.im, x.re); else return m::atan2(T(0), x);
} GA_END

// ---- transcendental (float and complex) --------------------------------------------
#define GA_MATH_OP(name) GA_UNARY(name) { return m::name(x); } GA_END
GA_MATH_OP(sin) GA_MATH_OP(cos) GA_MATH_OP(tan) GA_MATH_OP(asin) GA_MATH_OP(acos)
GA_MATH_OP(atan) GA_MATH_OP(sinh) GA_MATH_OP(cosh) GA_MATH_OP(tanh) GA_MATH_OP(asinh)
GA_MATH_OP(acosh) GA_MATH_OP(atanh) GA_MATH_OP(exp) GA_MATH_OP(expm1) GA_MATH_OP(log)
GA_MATH_OP(log2) GA_MATH_OP(log10) GA_MATH_OP(log1p) GA_MATH_OP(exp2)
GA_MATH_OP(cbrt)
#undef GA_MATH_OP
GA_UNARY(sqrt) { return m::sqrt(x); } GA_EXACT_REAL GA_END    // correctly rounded
GA_UNARY(deg2rad) { return T(x * T(0.017453292519943295769)); } GA_EXACT GA_END
GA_UNARY(rad2deg) { return T(x * T(57.295779513082320877)); } GA_EXACT GA_END
GA_UNARY(sinc) {
    if (x == T(0)) return T(1);
    T y = T(3.14159265358979323846) * x;
    return T(m::sin(y) / y);
} GA_END
GA_BINARY(atan2) { return m::atan2(a, b); } GA_END
GA_BINARY(hypot) { return m::hypot(a, b); } GA_END
GA_BINARY(copysign) { return m::copysign(a, b); } GA_EXACT GA_END
GA_BINARY(nextafter) { return m::nextafter(a, b); } GA_EXACT GA_END
GA_BINARY(logaddexp) {
    // log(exp(a) + exp(b)) without overflow; equal infinities stay infinite.
    if (a == b) return T(a + T(0.69314718055994530942));
    T d = a - b;
    if (d > T(0)) return T(a + m::log1p(m::exp(-d)));
    if (d <= T(0)) return T(b + m::log1p(m::exp(d)));
    return d;    // NaN
} GA_END
GA_BINARY(logaddexp2) {
    // log2(2**a + 2**b) without overflow, as logaddexp.
    if (a == b) return T(a + T(1));
    T d = a - b;
    if (d > T(0)) return T(a + m::log1p(m::exp2(-d)) * T(1.4426950408889634074));
    if (d <= T(0)) return T(b + m::log1p(m::exp2(d)) * T(1.4426950408889634074));
    return d;    // NaN
} GA_END
GA_UNARY(fabs) { return m::copysign(x, T(1)); } GA_EXACT GA_END
// The distance to the next representable value away from zero (NaN at infinity; both
// zeros give the smallest positive value, as NumPy).
GA_UNARY(spacing) {
    T inf = T(1) / T(0);
    return T(m::nextafter(x, x == T(0) ? inf : m::copysign(inf, x)) - x);
} GA_EXACT GA_END
// Greatest common divisor and least common multiple of |a| and |b| (integers).  The
// magnitudes are taken in 64-bit unsigned arithmetic, as NumPy takes them in a wider
// type: |-128| is 128 for int8 (so gcd(5, -128) is 1), and a result of 2**(bits-1)
// wraps back to the type's minimum, as NumPy's does.
// |x| as an unsigned 64-bit value (|min| included: 128 for int8's -128).
template <class T> GA_DEVICE unsigned long long magnitude(T x) {
    return traits<T>::is_signed && x < T(0) ? 0ull - (unsigned long long)(long long)x
                                            : (unsigned long long)x;
}
GA_DEVICE unsigned long long gcd_u64(unsigned long long x, unsigned long long y) {
    while (y != 0ull) {
        unsigned long long t = x % y;
        x = y;
        y = t;
    }
    return x;
}
GA_BINARY(gcd) { return T(gcd_u64(magnitude(a), magnitude(b))); } GA_EXACT GA_END
// NumPy's lcm is |a| / gcd * |b| computed in C int (8/16-bit types), long (32-bit) or
// the type itself, then cut to the type: the magnitudes are taken before the product
// wraps, so lcm(8, 17) is -120 in int8.  Modulo 2**64 every one of those is the same
// as this unsigned product.
GA_BINARY(lcm) {
    const unsigned long long x = magnitude(a), y = magnitude(b), g = gcd_u64(x, y);
    return g == 0ull ? T(0) : T((x / g) * y);
} GA_EXACT GA_END
// Set bits of |x| (NumPy counts the magnitude of negative values); uint8 result.
GA_UNARY(bitwise_count) {
    unsigned long long v = (unsigned long long)x;
    if (traits<T>::is_signed && x < T(0)) v = 0ULL - v;
    uint8 c = 0;
    for (; v; v &= v - 1) ++c;
    return c;
} GA_EXACT GA_END
GA_BINARY(heaviside) {
    return m::isnan(a) ? a : (a == T(0) ? b : (a < T(0) ? T(0) : T(1)));
} GA_EXACT GA_END

// ---- two outputs and a mixed signature (Note [Two-output ops]) ------------------
// divmod: NumPy's npy_divmod for floats (floor quotient and the remainder with the
// divisor's sign, from one fmod; NaN where an operand is infinite and the quotient is
// not exact, as NumPy, unlike floor_divide's Array API rule above); integers are
// floor_divide and remainder (0 and 0 for a zero divisor).
GA_BINARY(divmod) {
    if constexpr (traits<T>::is_float) {
        T mod = m::fmod(a, b);
        if (b == T(0)) return two<T, T>{T(a / b), mod};
        T div = (a - mod) / b;
        if (mod != T(0)) {
            if ((b < T(0)) != (mod < T(0))) {
                mod += b;
                div -= T(1);
            }
        } else {
            mod = m::copysign(T(0), b);
        }
        T fl;
        if (div != T(0)) {
            fl = m::floor(div);
            if (div - fl > T(0.5)) fl += T(1);
        } else {
            fl = m::copysign(T(0), a / b);
        }
        return two<T, T>{fl, mod};
    } else {
        return two<T, T>{T(floor_divide()(a, b)), T(remainder()(a, b))};
    }
} GA_EXACT GA_END
// frexp: mantissa in [0.5, 1) with x's sign, and the int32 exponent; 0, inf and NaN
// give themselves and exponent 0 (NumPy's, i.e. glibc's; C leaves inf/NaN's unspecified).
GA_UNARY(frexp) {
    int e = 0;
    T mant = m::frexp(x, &e);
    return two<T, int32>{mant, m::isfinite(x) ? int32(e) : int32(0)};
} GA_EXACT GA_END
// modf: (fractional part, integral part), both with x's sign: modf(-inf) = (-0, -inf).
GA_UNARY(modf) {
    T ip = m::trunc(x);
    T frac = m::isinf(x) ? m::copysign(T(0), x) : m::copysign(T(x - ip), x);
    return two<T, T>{frac, ip};
} GA_EXACT GA_END
// ldexp: x * 2**e with one rounding (overflow to inf, gradual underflow); its exponent
// operand is int64 whatever the float (second_of below), clamped to int as NumPy's
// long loops do.
struct ldexp {
    typedef int64 second;
    static constexpr int exact = 2;
    template <class T> GA_DEVICE T operator()(T x, int64 e) const {
        const int64 lim = 2147483647;
        return m::ldexp(x, int(e > lim ? lim : (e < -lim - 1 ? -lim - 1 : e)));
    }
};

#undef GA_UNARY
#undef GA_BINARY
#undef GA_END
#undef GA_EXACT
#undef GA_EXACT_REAL
}  // namespace op
}  // namespace ga
