// Math wrappers: one overload per float width on every platform, plus complex
// versions where the Array API asks for them.  NVRTC/hiprtc provide the C math
// functions (sinf, sin, ...) as device built-ins; the CPU gets them from <cmath>.
#pragma once
#include "types.h"

namespace ga {
namespace m {

#define GA_MATH1(name, fn_f, fn_d)                                  \
    GA_DEVICE float name(float x) { return ::fn_f(x); }             \
    GA_DEVICE double name(double x) { return ::fn_d(x); }
#define GA_MATH2(name, fn_f, fn_d)                                  \
    GA_DEVICE float name(float x, float y) { return ::fn_f(x, y); } \
    GA_DEVICE double name(double x, double y) { return ::fn_d(x, y); }

GA_MATH1(sin, sinf, sin) GA_MATH1(cos, cosf, cos) GA_MATH1(tan, tanf, tan)
GA_MATH1(asin, asinf, asin) GA_MATH1(acos, acosf, acos) GA_MATH1(atan, atanf, atan)
GA_MATH1(sinh, sinhf, sinh) GA_MATH1(cosh, coshf, cosh) GA_MATH1(tanh, tanhf, tanh)
GA_MATH1(asinh, asinhf, asinh) GA_MATH1(acosh, acoshf, acosh) GA_MATH1(atanh, atanhf, atanh)
GA_MATH1(exp, expf, exp) GA_MATH1(exp2, exp2f, exp2) GA_MATH1(expm1, expm1f, expm1)
GA_MATH1(log, logf, log) GA_MATH1(log2, log2f, log2) GA_MATH1(log10, log10f, log10)
GA_MATH1(log1p, log1pf, log1p) GA_MATH1(sqrt, sqrtf, sqrt) GA_MATH1(cbrt, cbrtf, cbrt)
GA_MATH1(fabs, fabsf, fabs) GA_MATH1(floor, floorf, floor) GA_MATH1(ceil, ceilf, ceil)
GA_MATH1(trunc, truncf, trunc) GA_MATH1(rint, rintf, rint)
GA_MATH2(atan2, atan2f, atan2) GA_MATH2(hypot, hypotf, hypot) GA_MATH2(pow, powf, pow)
GA_MATH2(fmod, fmodf, fmod) GA_MATH2(copysign, copysignf, copysign)
GA_MATH2(nextafter, nextafterf, nextafter) GA_MATH2(fmax, fmaxf, fmax) GA_MATH2(fmin, fminf, fmin)
#undef GA_MATH1
#undef GA_MATH2

template <class T> GA_DEVICE bool isnan(T x) { return x != x; }
template <class T> GA_DEVICE bool isinf(T x) { return x == x && (x - x) != (x - x); }
template <class T> GA_DEVICE bool isfinite(T x) { return (x - x) == (x - x); }
template <class T> GA_DEVICE bool signbit(T x) { return copysign(T(1), x) < T(0); }

// ---- complex ------------------------------------------------------------------
template <class T> GA_DEVICE T cabs(complex<T> z) { return hypot(z.re, z.im); }
template <class T> GA_DEVICE complex<T> cdiv(complex<T> a, complex<T> b) {
    // Smith's algorithm: avoids overflow in |b|^2.
    T s = fabs(b.re) + fabs(b.im);
    if (s == T(0)) return complex<T>(a.re / s, a.im / s);
    T ar = a.re / s, ai = a.im / s, br = b.re / s, bi = b.im / s;
    T d = br * br + bi * bi;
    return complex<T>((ar * br + ai * bi) / d, (ai * br - ar * bi) / d);
}
template <class T> GA_DEVICE complex<T> exp(complex<T> z) {
    // C99 Annex G special values (the Array API's table for exp).
    const T inf = T(1) / T(0), nan = inf - inf;
    if (z.im == T(0)) return complex<T>(exp(z.re), z.im);
    if (isinf(z.re)) {
        if (z.re > T(0)) {
            if (!isfinite(z.im)) return complex<T>(z.re, nan);
            return complex<T>(inf * cos(z.im), inf * sin(z.im));
        }
        if (!isfinite(z.im)) return complex<T>(T(0), T(0));
        return complex<T>(T(0) * cos(z.im), T(0) * sin(z.im));
    }
    if (isnan(z.re) || !isfinite(z.im)) return complex<T>(nan, nan);
    T e = exp(z.re);
    return complex<T>(e * cos(z.im), e * sin(z.im));
}
template <class T> GA_DEVICE complex<T> log(complex<T> z) {
    return complex<T>(log(cabs(z)), atan2(z.im, z.re));
}
template <class T> GA_DEVICE complex<T> sqrt(complex<T> z) {
    // Principal root; branch cut along the negative real axis, sign of imag kept.
    if (z.re == T(0) && z.im == T(0)) return complex<T>(T(0), z.im);
    if (isinf(z.im)) return complex<T>(T(1) / T(0), z.im);
    T t = sqrt((fabs(z.re) + cabs(z)) * T(0.5));
    if (z.re >= T(0)) return complex<T>(t, z.im / (T(2) * t));
    return complex<T>(fabs(z.im) / (T(2) * t), copysign(t, z.im));
}
template <class T> GA_DEVICE complex<T> sin(complex<T> z) {
    return complex<T>(sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im));
}
template <class T> GA_DEVICE complex<T> cos(complex<T> z) {
    return complex<T>(cos(z.re) * cosh(z.im), -sin(z.re) * sinh(z.im));
}
template <class T> GA_DEVICE complex<T> sinh(complex<T> z) {
    const T nan = T(0) / T(0);
    if (z.im == T(0)) return complex<T>(sinh(z.re), z.im);
    if (!isfinite(z.im)) {
        if (z.re == T(0)) return complex<T>(z.re, nan);
        if (isinf(z.re)) return complex<T>(z.re, nan);
        return complex<T>(nan, nan);
    }
    if (isinf(z.re)) return complex<T>(z.re * cos(z.im), fabs(z.re) * sin(z.im));
    return complex<T>(sinh(z.re) * cos(z.im), cosh(z.re) * sin(z.im));
}
template <class T> GA_DEVICE complex<T> cosh(complex<T> z) {
    const T nan = T(0) / T(0);
    if (z.im == T(0)) return complex<T>(cosh(z.re), isnan(z.re) ? z.im : z.im * (z.re < T(0) ? -T(1) : T(1)));
    if (!isfinite(z.im)) {
        if (z.re == T(0)) return complex<T>(nan, T(0));
        if (isinf(z.re)) return complex<T>(fabs(z.re), nan);
        return complex<T>(nan, nan);
    }
    if (isinf(z.re)) return complex<T>(fabs(z.re) * cos(z.im), z.re * sin(z.im));
    return complex<T>(cosh(z.re) * cos(z.im), sinh(z.re) * sin(z.im));
}
template <class T> GA_DEVICE complex<T> tanh(complex<T> z) {
    // tanh(x+iy) = (sinh 2x + i sin 2y) / (cosh 2x + cos 2y), stable for large |x|;
    // special values per C99 Annex G.
    const T nan = T(0) / T(0);
    if (isinf(z.re)) {
        T s = isfinite(z.im) ? sin(T(2) * z.im) : T(0);
        return complex<T>(copysign(T(1), z.re), copysign(T(0), s));
    }
    if (!isfinite(z.im)) return complex<T>(z.re == T(0) ? z.re : nan, nan);
    if (isnan(z.re)) return complex<T>(nan, z.im == T(0) ? z.im : nan);
    if (fabs(z.re) > T(20)) return complex<T>(copysign(T(1), z.re), copysign(T(0), sin(T(2) * z.im)));
    T d = cosh(T(2) * z.re) + cos(T(2) * z.im);
    return complex<T>(sinh(T(2) * z.re) / d, sin(T(2) * z.im) / d);
}
template <class T> GA_DEVICE complex<T> tan(complex<T> z) {
    complex<T> t = tanh(complex<T>(-z.im, z.re));      // tan z = -i tanh(iz)
    return complex<T>(t.im, -t.re);
}
template <class T> GA_DEVICE complex<T> expm1(complex<T> z) {
    if (z.im == T(0)) return complex<T>(expm1(z.re), z.im);
    complex<T> e = exp(z);
    return complex<T>(e.re - T(1), e.im);
}
template <class T> GA_DEVICE complex<T> log1p(complex<T> z) {
    return log(complex<T>(z.re + T(1), z.im));
}
template <class T> GA_DEVICE complex<T> log2(complex<T> z) {
    complex<T> l = log(z);
    const T inv_ln2 = T(1.4426950408889634074);
    return complex<T>(l.re * inv_ln2, l.im * inv_ln2);
}
template <class T> GA_DEVICE complex<T> log10(complex<T> z) {
    complex<T> l = log(z);
    const T inv_ln10 = T(0.43429448190325182765);
    return complex<T>(l.re * inv_ln10, l.im * inv_ln10);
}
template <class T> GA_DEVICE complex<T> asinh(complex<T> z) {
    // log(z + sqrt(z^2 + 1)) on the right half-plane (asinh is odd); for large |z|,
    // where z^2 would overflow, asinh z = log(2z) to working precision.
    const T nan = T(0) / T(0);
    if (isnan(z.re) && z.im == T(0)) return complex<T>(nan, z.im);
    bool neg = signbit(z.re);
    complex<T> w = neg ? -z : z;
    complex<T> r;
    if (cabs(w) > T(1) / sqrt(nextafter(T(1), T(2)) - T(1))) {
        r = log(w);
        r.re += T(0.69314718055994530942);
    } else {
        r = log(w + sqrt(w * w + complex<T>(T(1))));
    }
    return neg ? -r : r;
}
template <class T> GA_DEVICE complex<T> asin(complex<T> z) {    // -i asinh(iz)
    complex<T> r = asinh(complex<T>(-z.im, z.re));
    return complex<T>(r.im, -r.re);
}
template <class T> GA_DEVICE complex<T> acos(complex<T> z) {    // pi/2 - asin z
    if (z.re == T(0) && isnan(z.im)) return complex<T>(T(1.57079632679489661923), z.im);
    complex<T> a = asin(z);
    return complex<T>(T(1.57079632679489661923) - a.re, -a.im);
}
template <class T> GA_DEVICE complex<T> acosh(complex<T> z) {   // log(z + sqrt(z+1) sqrt(z-1))
    if (cabs(z) > T(1) / sqrt(nextafter(T(1), T(2)) - T(1))) {
        complex<T> r = log(z);            // large |z|: log(2z)
        r.re += T(0.69314718055994530942);
        return r;
    }
    return log(z + sqrt(z + complex<T>(T(1))) * sqrt(z - complex<T>(T(1))));
}
template <class T> GA_DEVICE complex<T> atanh(complex<T> z) {   // (log(1+z) - log(1-z)) / 2
    const T nan = T(0) / T(0), half_pi = T(1.57079632679489661923);
    if (isinf(z.im)) return complex<T>(copysign(T(0), z.re), copysign(half_pi, z.im));
    if (isinf(z.re)) {
        if (isnan(z.im)) return complex<T>(copysign(T(0), z.re), nan);
        return complex<T>(copysign(T(0), z.re), copysign(half_pi, z.im));
    }
    if (isnan(z.re)) return complex<T>(nan, nan);
    if (isnan(z.im)) return complex<T>(z.re == T(0) ? z.re : nan, nan);
    complex<T> d = log(complex<T>(T(1)) + z) - log(complex<T>(T(1)) - z);
    return complex<T>(d.re * T(0.5), d.im * T(0.5));
}
template <class T> GA_DEVICE complex<T> atan(complex<T> z) {    // -i atanh(iz)
    complex<T> r = atanh(complex<T>(-z.im, z.re));
    return complex<T>(r.im, -r.re);
}
template <class T> GA_DEVICE complex<T> pow(complex<T> a, complex<T> b) {
    if (b.re == T(0) && b.im == T(0)) return complex<T>(T(1));
    if (a.re == T(0) && a.im == T(0) && b.re > T(0)) return complex<T>(T(0));
    return exp(b * log(a));
}
template <class T> GA_DEVICE bool isnan(complex<T> z) { return isnan(z.re) || isnan(z.im); }
template <class T> GA_DEVICE bool isinf(complex<T> z) { return isinf(z.re) || isinf(z.im); }
template <class T> GA_DEVICE bool isfinite(complex<T> z) { return isfinite(z.re) && isfinite(z.im); }

}  // namespace m
}  // namespace ga
