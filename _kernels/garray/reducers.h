// Reducers: what a reduction or scan computes, separate from how it is scheduled
// (_kernels/reduce.hip).
//
// Note [Reducers]
// ~~~~~~~~~~~~~~~
// 1. A reducer R over input dtype T has
//      acc             the accumulator type (the result dtype of the reduction);
//      param           the type of the identity the launch layer passes by value;
//      ident(p)        the identity as an acc;
//      map(v, j)       one input element (v) at reduced index j as an acc;
//      combine(a, b)   a then b (a holds earlier elements than b in every schedule,
//                      so ordered reducers such as argmax's "first occurrence" hold).
//    The output is the acc itself; the launch layer casts to out= or dtype= after.
// 2. ufn<Op, A, T> reduces with any binary functor of functors.h: add -> sum,
//    multiply -> prod, maximum/minimum -> max/min (NaN propagates), fmax/fmin ->
//    nanmax/nanmin (identity NaN: an all-NaN slice stays NaN), logical_and/or -> all/any.
//    The identity comes from the host (garray/_reduce_ops.py), e.g. -inf for max.
// 3. nan<Op, A, T, Id> maps NaN to Id (0 or 1) first (nansum, nanprod).
// 4. arg<Max, T> carries (value, index); index -1 is the identity.  NaN wins (NumPy's
//    argmax/argmin), ties go to the lower index.  nanarg<Max, T> skips NaN, so an
//    all-NaN slice keeps index -1 and the host raises.
// 5. first<Op, A, T>: an ordered combine without identity, scanned from element 0.
// 6. nonzero<T> counts elements != 0 as int64 (count_nonzero).
#pragma once
#include "functors.h"

namespace ga {
namespace red {

template <class Op, class A, class T> struct ufn {
    typedef A acc;
    typedef A param;
    GA_DEVICE static acc ident(param p) { return p; }
    GA_DEVICE acc map(T v, int64) const { return convert<A>(v); }
    GA_DEVICE acc combine(acc a, acc b) const { return convert<A>(Op()(a, b)); }
};

// An ufunc without an identity or a reorderable combine (subtract, divide, power ...):
// only scan_nb runs it, in order, starting from the first element (NumPy's accumulate).
template <class Op, class A, class T> struct first : ufn<Op, A, T> {
    static constexpr bool from_first = true;
};
template <class R, class = void> struct starts_from_first { static constexpr bool value = false; };
template <class R> struct starts_from_first<R, decltype((void)R::from_first)> {
    static constexpr bool value = R::from_first;
};

template <class Op, class A, class T, int Id> struct nan {
    typedef A acc;
    typedef A param;
    GA_DEVICE static acc ident(param p) { return p; }
    GA_DEVICE acc map(T v, int64) const { return m::isnan(v) ? A(Id) : convert<A>(v); }
    GA_DEVICE acc combine(acc a, acc b) const { return convert<A>(Op()(a, b)); }
};

template <class T> struct nonzero {
    typedef int64 acc;
    typedef int64 param;
    GA_DEVICE static acc ident(param p) { return p; }
    GA_DEVICE acc map(T v, int64) const { return convert<bool>(v) ? 1 : 0; }
    GA_DEVICE acc combine(acc a, acc b) const { return a + b; }
};

template <class T> struct valued {
    T v;
    int64 i;
};

struct Max {
    template <class T> GA_DEVICE static bool better(T a, T b) {   // a strictly above b
        if constexpr (traits<T>::is_cplx) return op::clt(b, a); else return b < a;
    }
};
struct Min {
    template <class T> GA_DEVICE static bool better(T a, T b) {
        if constexpr (traits<T>::is_cplx) return op::clt(a, b); else return a < b;
    }
};

template <class Cmp, class T> struct arg {
    typedef valued<T> acc;
    typedef T param;
    GA_DEVICE static acc ident(param p) { acc a; a.v = p; a.i = -1; return a; }
    GA_DEVICE acc map(T v, int64 j) const { acc a; a.v = v; a.i = j; return a; }
    GA_DEVICE acc combine(acc a, acc b) const {
        if (a.i < 0) return b;
        if (b.i < 0) return a;
        bool an = m::isnan(a.v), bn = m::isnan(b.v);
        if (an || bn) return (an && (!bn || a.i < b.i)) ? a : b;
        if (Cmp::better(b.v, a.v)) return b;
        if (Cmp::better(a.v, b.v)) return a;
        return a.i <= b.i ? a : b;
    }
};

template <class Cmp, class T> struct nanarg {
    typedef valued<T> acc;
    typedef T param;
    GA_DEVICE static acc ident(param p) { acc a; a.v = p; a.i = -1; return a; }
    GA_DEVICE acc map(T v, int64 j) const { acc a; a.v = v; a.i = m::isnan(v) ? -1 : j; return a; }
    GA_DEVICE acc combine(acc a, acc b) const {
        if (a.i < 0) return b;
        if (b.i < 0) return a;
        if (Cmp::better(b.v, a.v)) return b;
        if (Cmp::better(a.v, b.v)) return a;
        return a.i <= b.i ? a : b;
    }
};

}  // namespace red

// The index part of an arg reducer's accumulator (argmax writes it), or the acc itself.
template <class A> GA_DEVICE A result_of(A a) { return a; }
template <class T> GA_DEVICE int64 result_of(red::valued<T> a) { return a.i; }
template <class A> struct result_type { typedef A type; };
template <class T> struct result_type<red::valued<T> > { typedef int64 type; };

}  // namespace ga
