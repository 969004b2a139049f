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
GA_DEVICE float frexp(float x, int* e) { return ::frexpf(x, e); }
GA_DEVICE double frexp(double x, int* e) { return ::frexp(x, e); }
GA_DEVICE float ldexp(float x, int e) { return ::ldexpf(x, e); }
GA_DEVICE double ldexp(double x, int e) { return ::ldexp(x, e); }
GA_DEVICE float fma(float x, float y, float z) { return ::fmaf(x, y, z); }
GA_DEVICE double fma(double x, double y, double z) { return ::fma(x, y, z); }

template <class T> GA_DEVICE bool isnan(T x) { return x != x; }
template <class T> GA_DEVICE bool isinf(T x) { return x == x && (x - x) != (x - x); }
template <class T> GA_DEVICE bool isfinite(T x) { return (x - x) == (x - x); }
template <class T> GA_DEVICE bool signbit(T x) { return copysign(T(1), x) < T(0); }

// ---- complex ------------------------------------------------------------------
// NumPy is the reference: multiply/divide/reciprocal/sign follow its loops, the
// transcendental functions follow C99 Annex G (special values, signed zeros on the
// branch cuts) as implemented by FreeBSD msun / NumPy's npymath, from which these are
// ported (accurate to a few ulp, no spurious overflow in intermediates).

// Per-width constants (functions: usable in device code without ODR issues).
template <class T> struct fconst;
template <> struct fconst<float> {
    GA_DEVICE static float eps() { return 1.1920928955078125e-07f; }
    GA_DEVICE static float huge() { return 3.4028234663852886e+38f; }
    GA_DEVICE static float tiny() { return 1.1754943508222875e-38f; }       // smallest normal
    GA_DEVICE static float two_mant() { return 16777216.0f; }              // 2**24
    GA_DEVICE static float log_two_mant() { return 16.635532333438687f; }  // 24 ln 2
    GA_DEVICE static float sqrt_6_eps() { return 8.4572793338e-4f; }
    GA_DEVICE static float sqrt_3_eps() { return 5.9801995673e-4f; }
    GA_DEVICE static float four_sqrt_min() { return 4.3368086899420177e-19f; }
    GA_DEVICE static float quarter_sqrt_max() { return 4.611685743549481e+18f; }
    GA_DEVICE static float sqrt_min() { return 1.0842021724855044e-19f; }
    GA_DEVICE static float exp_t() { return 88.0f; }      // int((max_exp - 1) ln 2)
    GA_DEVICE static float tanh_huge() { return 11.0f; }
};
template <> struct fconst<double> {
    GA_DEVICE static double eps() { return 2.220446049250313e-16; }
    GA_DEVICE static double huge() { return 1.7976931348623157e+308; }
    GA_DEVICE static double tiny() { return 2.2250738585072014e-308; }
    GA_DEVICE static double two_mant() { return 9007199254740992.0; }     // 2**53
    GA_DEVICE static double log_two_mant() { return 36.7368005696771; }   // 53 ln 2
    GA_DEVICE static double sqrt_6_eps() { return 3.65002414998885671e-08; }
    GA_DEVICE static double sqrt_3_eps() { return 2.5809568279517849e-8; }
    GA_DEVICE static double four_sqrt_min() { return 5.9666725849601654e-154; }
    GA_DEVICE static double quarter_sqrt_max() { return 3.3519519824856489e+153; }
    GA_DEVICE static double sqrt_min() { return 1.4916681462400413e-154; }
    GA_DEVICE static double exp_t() { return 709.0; }
    GA_DEVICE static double tanh_huge() { return 22.0; }
};
#define GA_LN2 T(0.69314718055994530942)
#define GA_PI_2 T(1.57079632679489661923)

template <class T> GA_DEVICE T cabs(complex<T> z) { return hypot(z.re, z.im); }
// NumPy's multiply loop (SIMD, both widths) fuses: re = fma(ar, br, -ai*bi),
// im = fma(ar, bi, ai*br); that decides which overflowing products give inf or NaN.
template <class T> GA_DEVICE complex<T> cmul(complex<T> a, complex<T> b) {
    return complex<T>(fma(a.re, b.re, -(a.im * b.im)), fma(a.re, b.im, a.im * b.re));
}
// C99 Annex G multiplication (glibc's __muldc3, used by its cpow): a NaN result from
// infinite operands or overflowing products is recomputed with the infinities kept.
template <class T> GA_DEVICE complex<T> cmul_c99(complex<T> z, complex<T> w) {
    T a = z.re, b = z.im, c = w.re, d = w.im;
    T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    T x = ac - bd, y = ad + bc;
    if (isnan(x) && isnan(y)) {
        bool recalc = false;
        if (isinf(a) || isinf(b)) {
            a = copysign(isinf(a) ? T(1) : T(0), a);
            b = copysign(isinf(b) ? T(1) : T(0), b);
            if (isnan(c)) c = copysign(T(0), c);
            if (isnan(d)) d = copysign(T(0), d);
            recalc = true;
        }
        if (isinf(c) || isinf(d)) {
            c = copysign(isinf(c) ? T(1) : T(0), c);
            d = copysign(isinf(d) ? T(1) : T(0), d);
            if (isnan(a)) a = copysign(T(0), a);
            if (isnan(b)) b = copysign(T(0), b);
            recalc = true;
        }
        if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
            if (isnan(a)) a = copysign(T(0), a);
            if (isnan(b)) b = copysign(T(0), b);
            if (isnan(c)) c = copysign(T(0), c);
            if (isnan(d)) d = copysign(T(0), d);
            recalc = true;
        }
        if (recalc) {
            const T inf = T(1) / T(0);
            x = inf * (a * c - b * d);
            y = inf * (a * d + b * c);
        }
    }
    return complex<T>(x, y);
}
template <class T> GA_DEVICE complex<T> cdiv(complex<T> a, complex<T> b) {
    // NumPy's divide loop (Smith's algorithm): no overflow in |b|^2, x / inf = 0.
    T abr = fabs(b.re), abi = fabs(b.im);
    if (abr >= abi) {
        if (abr == T(0) && abi == T(0)) return complex<T>(a.re / abr, a.im / abi);
        T rat = b.im / b.re, scl = T(1) / (b.re + b.im * rat);
        return complex<T>((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
    }
    T rat = b.re / b.im, scl = T(1) / (b.im + b.re * rat);
    return complex<T>((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
}
template <class T> GA_DEVICE complex<T> creciprocal(complex<T> z) {    // NumPy's loop
    if (fabs(z.im) <= fabs(z.re)) {
        T r = z.im / z.re, d = z.re + z.im * r;
        return complex<T>(T(1) / d, -r / d);
    }
    T r = z.re / z.im, d = z.re * r + z.im;
    return complex<T>(r / d, T(-1) / d);
}
template <class T> GA_DEVICE complex<T> csign(complex<T> z) {          // NumPy 2: z / |z|
    const T nan = T(0) / T(0);
    T r = cabs(z);
    if (isnan(r)) return complex<T>(nan, nan);
    if (isinf(r)) {
        if (isinf(z.re)) {
            if (isinf(z.im)) return complex<T>(nan, nan);
            return complex<T>(z.re > T(0) ? T(1) : T(-1), T(0));
        }
        return complex<T>(T(0), z.im > T(0) ? T(1) : T(-1));
    }
    if (r == T(0)) return complex<T>(T(0), T(0));
    return complex<T>(z.re / r, z.im / r);
}
// exp(x) * f * (c, s) for x > exp_t(), where exp(x) alone may overflow although the
// product does not: glibc's reduction (NumPy calls glibc's cexp/ccosh/csinh), so the
// CPU device reproduces its rounding where one part overflows and the other must match.
template <class T> GA_DEVICE complex<T> exp_times(T x, T c, T s, T f) {
    const T t = fconst<T>::exp_t(), et = exp(t);
    x -= t;
    c *= et * f;
    s *= et * f;
    if (x > t) { x -= t; c *= et; s *= et; }
    if (x > t) return complex<T>(fconst<T>::huge() * c, fconst<T>::huge() * s);
    T ev = exp(x);
    return complex<T>(ev * c, ev * s);
}
template <class T> GA_DEVICE complex<T> exp(complex<T> z) {
    const T inf = T(1) / T(0), nan = inf - inf;
    T r = z.re, i = z.im;
    if (i == T(0)) return complex<T>(exp(r), i);
    if (isfinite(r)) {
        if (!isfinite(i)) return complex<T>(nan, nan);
        if (r > fconst<T>::exp_t()) return exp_times(r, cos(i), sin(i), T(1));
        T e = exp(r);
        return complex<T>(e * cos(i), e * sin(i));
    }
    if (isnan(r)) return complex<T>(r, nan);
    if (r > T(0)) {
        if (!isfinite(i)) return complex<T>(r, nan);
        return complex<T>(r * cos(i), r * sin(i));
    }
    if (!isfinite(i)) return complex<T>(T(0), copysign(T(0), i));
    return complex<T>(T(0) * cos(i), T(0) * sin(i));
}
template <class T> GA_DEVICE complex<T> log(complex<T> z) {
    // CPython's / NumPy's clog: rescale huge and subnormal |z|, log1p near |z| = 1.
    const T nan = T(0) / T(0);
    T ax = fabs(z.re), ay = fabs(z.im), rr;
    if (isnan(ax) && isfinite(ay)) return complex<T>(ax, nan);
    if (ax > fconst<T>::huge() / T(4) || ay > fconst<T>::huge() / T(4)) {
        rr = log(hypot(ax / T(2), ay / T(2))) + GA_LN2;
    } else if (ax < fconst<T>::tiny() && ay < fconst<T>::tiny()) {
        if (ax > T(0) || ay > T(0)) {
            T k = fconst<T>::two_mant();
            rr = log(hypot(ax * k, ay * k)) - fconst<T>::log_two_mant();
        } else {
            return complex<T>(T(-1) / T(0), atan2(z.im, z.re));
        }
    } else {
        T h = hypot(ax, ay);
        if (T(0.71) <= h && h <= T(1.73)) {
            T am = ax > ay ? ax : ay, an = ax > ay ? ay : ax;
            rr = log1p((am - T(1)) * (am + T(1)) + an * an) / T(2);
        } else {
            rr = log(h);
        }
    }
    return complex<T>(rr, atan2(z.im, z.re));
}
template <class T> GA_DEVICE complex<T> sqrt(complex<T> z) {
    // Principal root; branch cut along the negative real axis, sign of imag kept.
    const T inf = T(1) / T(0);
    T a = z.re, b = z.im;
    if (a == T(0) && b == T(0)) return complex<T>(T(0), b);
    if (isinf(b)) return complex<T>(inf, b);
    if (isnan(a)) return complex<T>(a, (b - b) / (b - b));
    if (isinf(a)) {
        if (signbit(a)) return complex<T>(fabs(b - b), copysign(a, b));
        return complex<T>(a, copysign(b - b, b));
    }
    // Scale to avoid overflow for components >= max / (1 + sqrt 2).
    bool scale = fabs(a) >= fconst<T>::huge() / T(2.4142135623730951) ||
                 fabs(b) >= fconst<T>::huge() / T(2.4142135623730951);
    if (scale) { a *= T(0.25); b *= T(0.25); }
    complex<T> r;
    if (a >= T(0)) {
        T t = sqrt((a + hypot(a, b)) * T(0.5));
        r = complex<T>(t, b / (T(2) * t));
    } else {
        T t = sqrt((-a + hypot(a, b)) * T(0.5));
        r = complex<T>(fabs(b) / (T(2) * t), copysign(t, b));
    }
    if (scale) { r.re *= T(2); r.im *= T(2); }
    return r;
}
template <class T> GA_DEVICE complex<T> cosh(complex<T> z) {      // C99 Annex G ccosh
    T x = z.re, y = z.im;
    bool xf = isfinite(x), yf = isfinite(y);
    if (xf && yf) {
        if (y == T(0)) return complex<T>(cosh(x), x * y);
        if (fabs(x) > fconst<T>::exp_t()) {     // cosh x = sinh |x| = exp(|x|) / 2
            T s = sin(y);
            return exp_times(fabs(x), cos(y), signbit(x) ? -s : s, T(0.5));
        }
        return complex<T>(cosh(x) * cos(y), sinh(x) * sin(y));
    }
    if (x == T(0) && !yf) return complex<T>(y - y, copysign(T(0), x * (y - y)));
    if (y == T(0) && !xf) return complex<T>(x * x, copysign(T(0), x) * y);
    if (xf && !yf) return complex<T>(y - y, x * (y - y));
    if (isinf(x)) {
        if (!yf) return complex<T>(x * x, x * (y - y));
        return complex<T>((x * x) * cos(y), x * sin(y));
    }
    return complex<T>((x * x) * (y - y), (x + x) * (y - y));
}
template <class T> GA_DEVICE complex<T> sinh(complex<T> z) {      // C99 Annex G csinh
    const T inf = T(1) / T(0);
    T x = z.re, y = z.im;
    bool xf = isfinite(x), yf = isfinite(y);
    if (xf && yf) {
        if (y == T(0)) return complex<T>(sinh(x), y);
        if (fabs(x) > fconst<T>::exp_t()) {
            T c = cos(y);
            return exp_times(fabs(x), signbit(x) ? -c : c, sin(y), T(0.5));
        }
        return complex<T>(sinh(x) * cos(y), cosh(x) * sin(y));
    }
    if (x == T(0) && !yf) return complex<T>(x, y - y);
    if (y == T(0) && !xf) {
        if (isnan(x)) return z;
        return complex<T>(x, copysign(T(0), y));
    }
    if (xf && !yf) return complex<T>(y - y, x * (y - y));
    if (!xf && !isnan(x)) {
        if (!yf) return complex<T>(x * x, x * (y - y));
        return complex<T>(x * cos(y), inf * sin(y));
    }
    return complex<T>((x * x) * (y - y), (x + x) * (y - y));
}
template <class T> GA_DEVICE complex<T> tanh(complex<T> z) {      // FreeBSD ctanh (Kahan)
    T x = z.re, y = z.im;
    const T nan = T(0) / T(0);
    if (!isfinite(x) || !isfinite(y)) {            // the special values of glibc's ctanh
        // x infinite: 1 with the sign of x, and a zero with the sign of y, as the Array
        // API's special cases ask (tanh(+inf + iy) = 1 + 0j for finite y > 0).  glibc's
        // ctanh, and so NumPy, take the zero's sign from sin(2y) when |y| > 1.
        if (isinf(x)) return complex<T>(copysign(T(1), x), copysign(T(0), y));
        if (y == T(0)) return z;
        return complex<T>(x == T(0) ? x : nan, nan);
    }
    if (fabs(x) >= fconst<T>::tanh_huge()) {
        T e = exp(-fabs(x));
        return complex<T>(copysign(T(1), x), T(4) * sin(y) * cos(y) * e * e);
    }
    T t = tan(y), beta = T(1) + t * t, s = sinh(x), rho = sqrt(T(1) + s * s);
    T denom = T(1) + beta * s * s;
    return complex<T>((beta * rho * s) / denom, t / denom);
}
template <class T> GA_DEVICE complex<T> sin(complex<T> z) {       // -i sinh(iz)
    if (isinf(z.im) && !isfinite(z.re)) return complex<T>(z.re - z.re, T(1) / T(0));  // glibc
    complex<T> w = sinh(complex<T>(-z.im, z.re));
    return complex<T>(w.im, -w.re);
}
template <class T> GA_DEVICE complex<T> cos(complex<T> z) {       // cosh(iz)
    return cosh(complex<T>(-z.im, z.re));
}
template <class T> GA_DEVICE complex<T> tan(complex<T> z) {       // -i tanh(iz)
    complex<T> t = tanh(complex<T>(-z.im, z.re));
    return complex<T>(t.im, -t.re);
}
template <class T> GA_DEVICE complex<T> expm1(complex<T> z) {
    // Non-finite input: the Array API's special cases, which are exp(z) - 1's (C99
    // Annex G through exp); NumPy gives inf+nanj for inf+0j there.  Finite input:
    // NumPy's formula, accurate near zero.
    if (!isfinite(z.re) || !isfinite(z.im)) {
        if (z.im == T(0)) return complex<T>(expm1(z.re), z.im);
        complex<T> e = exp(z);
        return complex<T>(e.re - T(1), e.im);
    }
    if (z.re == T(0) && z.im == T(0))   // the Array API's +0 for +-0 + 0j (NumPy: -0)
        return complex<T>(T(0), z.im);
    T a = sin(z.im / T(2));
    return complex<T>(expm1(z.re) * cos(z.im) - T(2) * a * a, exp(z.re) * sin(z.im));
}
template <class T> GA_DEVICE complex<T> log1p(complex<T> z) {     // NumPy's formula
    T x = z.re + T(1);
    return complex<T>(log(hypot(x, z.im)), atan2(z.im, x));
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

// ---- inverse functions: FreeBSD catrig.c (Hull, Fairgrieve and Tang), as in npymath.
// f(a, b) = (hypot(a, b) - b) / 2 without cancellation; h = hypot(a, b).
template <class T> GA_DEVICE T catrig_f(T a, T b, T h) {
    if (b < T(0)) return (h - b) / T(2);
    if (b == T(0)) return a / T(2);
    return a * a / (h + b) / T(2);
}
// x, y >= 0 and < 1/eps.  rx = Re casinh(x + iy); B = y / A when usable, otherwise
// sqrt_A2my2 = sqrt(A*A - y*y) with new_y (both possibly rescaled) for an atan2.
template <class T>
GA_DEVICE void catrig_hard_work(T x, T y, T& rx, bool& B_usable, T& B, T& sqrt_A2my2, T& new_y) {
    const T A_crossover = T(10), B_crossover = T(0.6417), eps = fconst<T>::eps();
    T R = hypot(x, y + T(1)), S = hypot(x, y - T(1));
    T A = (R + S) / T(2);
    if (A < T(1)) A = T(1);
    if (A < A_crossover) {
        if (y == T(1) && x < eps * eps / T(128)) {
            rx = sqrt(x);
        } else if (x >= eps * fabs(y - T(1))) {
            T Am1 = catrig_f(x, T(1) + y, R) + catrig_f(x, T(1) - y, S);
            rx = log1p(Am1 + sqrt(Am1 * (A + T(1))));
        } else if (y < T(1)) {
            rx = x / sqrt((T(1) - y) * (T(1) + y));
        } else {
            rx = log1p((y - T(1)) + sqrt((y - T(1)) * (y + T(1))));
        }
    } else {
        rx = log(A + sqrt(A * A - T(1)));
    }
    new_y = y;
    if (y < fconst<T>::four_sqrt_min()) {
        B_usable = false;
        sqrt_A2my2 = A * (T(2) / eps);
        new_y = y * (T(2) / eps);
        return;
    }
    B = y / A;
    B_usable = true;
    if (B > B_crossover) {
        B_usable = false;
        if (y == T(1) && x < eps / T(128)) {
            sqrt_A2my2 = sqrt(x) * sqrt((A + y) / T(2));
        } else if (x >= eps * fabs(y - T(1))) {
            T Amy = catrig_f(x, y + T(1), R) + catrig_f(x, y - T(1), S);
            sqrt_A2my2 = sqrt(Amy * (A + y));
        } else if (y > T(1)) {
            sqrt_A2my2 = x * (T(4) / eps / eps) * y / sqrt((y + T(1)) * (y - T(1)));
            new_y = y * (T(4) / eps / eps);
        } else {
            sqrt_A2my2 = sqrt((T(1) - y) * (T(1) + y));
        }
    }
}
// log(x + iy) for finite |z| > ~1/eps.
template <class T> GA_DEVICE void catrig_log_large(T x, T y, T& rr, T& ri) {
    T ax = fabs(x), ay = fabs(y);
    if (ax < ay) { T t = ax; ax = ay; ay = t; }
    const T e = T(2.7182818284590452354);
    if (ax > fconst<T>::huge() / T(2)) rr = log(hypot(x / e, y / e)) + T(1);
    else if (ax > fconst<T>::quarter_sqrt_max() || ay < fconst<T>::sqrt_min()) rr = log(hypot(x, y));
    else rr = log(ax * ax + ay * ay) / T(2);
    ri = atan2(y, x);
}
template <class T> GA_DEVICE complex<T> asinh(complex<T> z) {
    const T nan = T(0) / T(0);
    T x = z.re, y = z.im, ax = fabs(x), ay = fabs(y);
    if (isnan(x) || isnan(y)) {
        if (isinf(x)) return complex<T>(x, y + y);
        if (isinf(y)) return complex<T>(y, x + x);
        if (y == T(0)) return complex<T>(x + x, y);
        return complex<T>(nan, nan);
    }
    if (ax > T(1) / fconst<T>::eps() || ay > T(1) / fconst<T>::eps()) {
        T wx, wy;
        if (!signbit(x)) catrig_log_large(x, y, wx, wy);
        else catrig_log_large(-x, -y, wx, wy);
        return complex<T>(copysign(wx + GA_LN2, x), copysign(wy, y));
    }
    if (x == T(0) && y == T(0)) return z;
    if (ax < fconst<T>::sqrt_6_eps() / T(4) && ay < fconst<T>::sqrt_6_eps() / T(4)) return z;
    T rx, ry, B = T(0), sqrt_A2my2 = T(0), new_y;
    bool B_usable;
    catrig_hard_work(ax, ay, rx, B_usable, B, sqrt_A2my2, new_y);
    ry = B_usable ? asin(B) : atan2(new_y, sqrt_A2my2);
    return complex<T>(copysign(rx, x), copysign(ry, y));
}
template <class T> GA_DEVICE complex<T> acos(complex<T> z) {
    const T nan = T(0) / T(0), inf = T(1) / T(0);
    T x = z.re, y = z.im, ax = fabs(x), ay = fabs(y);
    bool sx = signbit(x), sy = signbit(y);
    if (isnan(x) || isnan(y)) {
        if (isinf(x)) return complex<T>(y + y, -inf);
        if (isinf(y)) return complex<T>(x + x, -y);
        if (x == T(0)) return complex<T>(GA_PI_2, y + y);
        return complex<T>(nan, nan);
    }
    if (ax > T(1) / fconst<T>::eps() || ay > T(1) / fconst<T>::eps()) {
        T wx, wy;
        catrig_log_large(x, y, wx, wy);
        T rx = fabs(wy), ry = wx + GA_LN2;
        return complex<T>(rx, sy ? ry : -ry);
    }
    if (x == T(1) && y == T(0)) return complex<T>(T(0), -y);
    if (ax < fconst<T>::sqrt_6_eps() / T(4) && ay < fconst<T>::sqrt_6_eps() / T(4))
        return complex<T>(GA_PI_2 - x, -y);
    T rx, ry, B = T(0), sqrt_A2mx2 = T(0), new_x;
    bool B_usable;
    catrig_hard_work(ay, ax, ry, B_usable, B, sqrt_A2mx2, new_x);
    if (B_usable) rx = sx ? acos(-B) : acos(B);
    else rx = sx ? atan2(sqrt_A2mx2, -new_x) : atan2(sqrt_A2mx2, new_x);
    return complex<T>(rx, sy ? ry : -ry);
}
template <class T> GA_DEVICE complex<T> asin(complex<T> z) {    // i conj(asinh(i conj z))
    complex<T> w = asinh(complex<T>(z.im, z.re));
    return complex<T>(w.im, w.re);
}
template <class T> GA_DEVICE complex<T> acosh(complex<T> z) {   // +-i acos z, Re >= 0
    complex<T> w = acos(z);
    if (isnan(w.re) && isnan(w.im)) return complex<T>(w.im, w.re);
    if (isnan(w.re)) return complex<T>(fabs(w.im), w.re);
    if (isnan(w.im)) return complex<T>(w.im, copysign(GA_PI_2, z.im));  // acosh(+-0 + i NaN)
    return complex<T>(fabs(w.im), copysign(w.re, z.im));
}
// Re(1 / (x + iy)) = x / (x*x + y*y) for max(|x|, |y|) > 1/eps, without overflow.
template <class T> GA_DEVICE T real_part_reciprocal(T x, T y) {
    if (isinf(x)) return T(1) / x;
    if (isinf(y)) return x / y / y;
    T s = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
    T xs = x / s, ys = y / s;
    return xs / (xs * xs + ys * ys) / s;
}
template <class T> GA_DEVICE complex<T> atanh(complex<T> z) {
    const T nan = T(0) / T(0), eps = fconst<T>::eps();
    T x = z.re, y = z.im, ax = fabs(x), ay = fabs(y), rx, ry;
    if (y == T(0) && ax <= T(1)) return complex<T>(atanh(x), y);
    if (x == T(0)) return complex<T>(x, atan(y));
    if (isnan(x) || isnan(y)) {
        if (isinf(x)) return complex<T>(copysign(T(0), x), y + y);
        if (isinf(y)) return complex<T>(copysign(T(0), x), copysign(GA_PI_2, y));
        return complex<T>(nan, nan);
    }
    if (ax > T(1) / eps || ay > T(1) / eps)
        return complex<T>(real_part_reciprocal(x, y), copysign(GA_PI_2, y));
    if (ax < fconst<T>::sqrt_3_eps() / T(2) && ay < fconst<T>::sqrt_3_eps() / T(2)) return z;
    if (ax == T(1) && ay < eps) {
        rx = (GA_LN2 - log(ay)) / T(2);
    } else {
        T d = ax - T(1);
        T ss = ay < fconst<T>::sqrt_min() ? d * d : d * d + ay * ay;
        rx = log1p(T(4) * ax / ss) / T(4);
    }
    if (ax == T(1)) ry = atan2(T(2), -ay) / T(2);
    else if (ay < eps) ry = atan2(T(2) * ay, (T(1) - ax) * (T(1) + ax)) / T(2);
    else ry = atan2(T(2) * ay, (T(1) - ax) * (T(1) + ax) - ay * ay) / T(2);
    return complex<T>(copysign(rx, x), copysign(ry, y));
}
template <class T> GA_DEVICE complex<T> atan(complex<T> z) {    // i conj(atanh(i conj z))
    complex<T> w = atanh(complex<T>(z.im, z.re));
    return complex<T>(w.im, w.re);
}
template <class T> GA_DEVICE complex<T> pow(complex<T> a, complex<T> b) {
    // NumPy's npy_cpow: small integer exponents by repeated (plain) multiplication,
    // otherwise exp(b log a) as glibc's cpow (NumPy calls it) computes it.
    const T nan = T(0) / T(0);
    if (b.re == T(0) && b.im == T(0)) return complex<T>(T(1), T(0));
    if (a.re == T(0) && a.im == T(0)) {
        if (b.re > T(0)) return complex<T>(T(0), T(0));
        return complex<T>(nan, nan);
    }
    if (b.im == T(0) && b.re > T(-100) && b.re < T(100) && T(int(b.re)) == b.re) {
        int n = int(b.re);
        if (n == 1) return a;
        if (n == 2) return a * a;
        if (n == 3) return a * (a * a);
        if (n < 0) n = -n;
        complex<T> acc(T(1), T(0)), p = a;
        int mask = 1;
        while (true) {
            if (n & mask) acc = acc * p;
            mask <<= 1;
            if (n < mask) break;
            p = p * p;
        }
        if (b.re < T(0)) acc = cdiv(complex<T>(T(1), T(0)), acc);
        return acc;
    }
    return exp(cmul_c99(b, log(a)));
}
#undef GA_LN2
#undef GA_PI_2
template <class T> GA_DEVICE bool isnan(complex<T> z) { return isnan(z.re) || isnan(z.im); }
template <class T> GA_DEVICE bool isinf(complex<T> z) { return isinf(z.re) || isinf(z.im); }
template <class T> GA_DEVICE bool isfinite(complex<T> z) { return isfinite(z.re) && isfinite(z.im); }

}  // namespace m
}  // namespace ga
