// Value types shared by every kernel: complex numbers and conversions between the
// 13 Array API dtypes (NumPy's unsafe-cast semantics: complex -> real keeps the real
// part, anything -> bool is `!= 0`).
#pragma once
#include "platform.h"

namespace ga {

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

// Conversions: convert<To>(x) for every pair of the 13 dtypes.
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

template <class To, class From> GA_DEVICE To convert(From x) {
    return converter<To, From>::run(x);
}

}  // namespace ga
