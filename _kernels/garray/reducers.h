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

#define GA_RED_CHUNK 128

namespace ga {
namespace red {

template <class Op, class A, class T> struct ufn {
    typedef A acc;
    typedef A param;
    GA_DEVICE static acc ident(param p) { return p; }
    GA_DEVICE acc map(T v, int64) const { return convert<A>(v); }
    GA_DEVICE acc combine(acc a, acc b) const { return convert<A>(Op()(a, b)); }
};

// A ufunc without an identity or a reorderable combine (subtract, divide, power ...):
// only scan_nb runs it, in order from the first element (NumPy's accumulate); the type
// names the row's kernels apart from ufn's.
template <class Op, class A, class T> struct first : ufn<Op, A, T> {};

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
    static constexpr bool is_max = true;
    template <class T> GA_DEVICE static bool better(T a, T b) {   // a strictly above b
        if constexpr (traits<T>::is_cplx) return op::clt(b, a); else return b < a;
    }
};
struct Min {
    static constexpr bool is_max = false;
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

// ---- contiguous chunks ---------------------------------------------------------------
// chunk<R, T>::run(r, p, j0, m, id): the m (<= 128) contiguous elements p[0..m) whose
// reduced indices start at j0.  The default runs 8 interleaved lanes; max/min and
// argmax/argmin specialise it with branch-free lanes plus a NaN flag, which the compiler
// turns into vector max/min instructions.

template <class R> GA_DEVICE typename R::acc merge8(const R& r, const typename R::acc* l) {
    return r.combine(r.combine(r.combine(l[0], l[1]), r.combine(l[2], l[3])),
                     r.combine(r.combine(l[4], l[5]), r.combine(l[6], l[7])));
}

// The identity enters a reduction once, before its first element (NumPy's order:
// prod([inf+2j]) is (1+0j) * (inf+2j) = inf+nanj, sum([-0.0]) is 0.0); the lanes of
// later elements start from the elements themselves, so no identity multiplies into a
// partial product twice.
template <class R> GA_DEVICE typename R::acc lead(const R& r, typename R::acc id,
                                                  typename R::acc first, int64 j) {
    return j == 0 ? r.combine(id, first) : first;
}

template <class R, class T> struct chunk_lanes {
    GA_DEVICE static typename R::acc run(const R& r, const T* p, int64 j0, int m,
                                         typename R::acc id) {
        if (m < 8) {
            typename R::acc a = m > 0 ? lead(r, id, r.map(p[0], j0), j0) : id;
            for (int k = 1; k < m; ++k) a = r.combine(a, r.map(p[k], j0 + k));
            return a;
        }
        typename R::acc l[8];
        for (int u = 0; u < 8; ++u) l[u] = r.map(p[u], j0 + u);
        l[0] = lead(r, id, l[0], j0);
        int k = 8;
#pragma unroll 1
        for (; k + 8 <= m; k += 8)
            for (int u = 0; u < 8; ++u) l[u] = r.combine(l[u], r.map(p[k + u], j0 + k + u));
        for (; k < m; ++k) l[0] = r.combine(l[0], r.map(p[k], j0 + k));
        return merge8(r, l);
    }
};
template <class R, class T> struct chunk : chunk_lanes<R, T> {};

#if GA_CPU_LOOPS
// sum of float32/float64 on the CPU device: chunk_lanes' 8 interleaved lanes, the same
// additions in the same order, held in GCC vectors of 32 bytes (one for float32, two for
// float64) so that they stay in registers (the lane array was kept in memory at -O2: a
// load and a store per element).
template <class T> struct chunk_sum_vec {
    GA_DEVICE static T run(const ufn<op::add, T, T>& r, const T* p, int64 j0, int m, T id) {
        if (m < 8) return chunk_lanes<ufn<op::add, T, T>, T>::run(r, p, j0, m, id);
        typedef T V __attribute__((vector_size(32)));
        enum { W = 32 / (int)sizeof(T), K = 8 / W };
        V l[K];
        for (int q = 0; q < K; ++q) __builtin_memcpy(&l[q], p + q * W, sizeof(V));
        if (j0 == 0) {
            // lead() as a whole-vector addition: id + x in lane 0 (x + id, exactly), x +
            // -0.0 (x, exactly) in the others.  Writing lane 0 alone went through memory
            // and stalled the vector load after it on store forwarding, every chunk.
            V lead0;
            for (int u = 0; u < W; ++u) lead0[u] = u == 0 ? id : (T)-0.0;
            l[0] = l[0] + lead0;
        }
        int k = 8;
#pragma unroll 1
        for (; k + 8 <= m; k += 8)
#pragma GCC unroll 2
            for (int q = 0; q < K; ++q) {
                V v;
                __builtin_memcpy(&v, p + k + q * W, sizeof(V));
                l[q] += v;
            }
        if (k == m) {
            // merge8's tree in the registers (storing the vectors and loading 8 lanes
            // back stalled on store forwarding): neighbours first, then pairs of those;
            // each sum is one of merge8's (a + b is b + a, exactly)
            typedef decltype(V{} != V{}) M;
            V a[K];
            for (int q = 0; q < K; ++q) {
                M swap1, swap2;
                for (int u = 0; u < W; ++u) {
                    swap1[u] = u ^ 1;
                    swap2[u] = u ^ 2;
                }
                a[q] = l[q] + __builtin_shuffle(l[q], swap1);
                if (W > 4) a[q] = a[q] + __builtin_shuffle(a[q], swap2);
            }
            if (W > 4) return a[0][0] + a[0][4];                 // float32: one vector
            return (a[0][0] + a[0][2]) + (a[1][0] + a[1][2]);   // float64: two
        }
        T lanes[8];
        __builtin_memcpy(lanes, l, sizeof(lanes));
        for (; k < m; ++k) lanes[0] = r.combine(lanes[0], p[k]);
        return merge8(r, lanes);
    }
};
template <> struct chunk<ufn<op::add, float, float>, float> : chunk_sum_vec<float> {};
template <> struct chunk<ufn<op::add, double, double>, double> : chunk_sum_vec<double> {};
#endif

// The extreme of p[0..m) in lanes (NaN-blind), and whether a NaN was seen.
template <bool Max, class T> GA_DEVICE T extreme(const T* p, int m, T start, bool& nan) {
    T l[8];
    int n8[8];
    for (int u = 0; u < 8; ++u) { l[u] = start; n8[u] = 0; }
    int k = 0;
#pragma unroll 1
    for (; k + 8 <= m; k += 8)
        for (int u = 0; u < 8; ++u) {
            T v = p[k + u];
            l[u] = Max ? (v > l[u] ? v : l[u]) : (v < l[u] ? v : l[u]);
            n8[u] |= v != v;
        }
    for (; k < m; ++k) {
        T v = p[k];
        l[0] = Max ? (v > l[0] ? v : l[0]) : (v < l[0] ? v : l[0]);
        n8[0] |= v != v;
    }
    T e = l[0];
    int any_nan = n8[0];
    for (int u = 1; u < 8; ++u) {
        e = Max ? (l[u] > e ? l[u] : e) : (l[u] < e ? l[u] : e);
        any_nan |= n8[u];
    }
    nan = any_nan != 0;
    return e;
}

#if GA_CPU_LOOPS
// extreme() over a whole range on the CPU device: the lanes are four GCC vectors of 32
// bytes, kept in registers (the plain lane arrays above stay in memory at -O2, a load
// and a store per element, and ran at half NumPy's speed).  The lane count never changes
// the result: an extreme is exact.
template <bool Max, class T> inline T extreme_wide(const T* p, int64 m, T start, bool& nan) {
    typedef T V __attribute__((vector_size(32)));
    typedef decltype(V{} != V{}) M;
    enum { W = 32 / (int)sizeof(T), K = 4 };
    V l[K];
    M nm[K];
    for (int k = 0; k < K; ++k) {
        for (int u = 0; u < W; ++u) l[k][u] = start;
        nm[k] = M{};
    }
    int64 i = 0;
#pragma unroll 1
    for (; i + K * W <= m; i += K * W) {
#pragma GCC unroll 4
        for (int k = 0; k < K; ++k) {
            V v;
            __builtin_memcpy(&v, p + i + k * W, sizeof(V));
            l[k] = Max ? (v > l[k] ? v : l[k]) : (v < l[k] ? v : l[k]);
            nm[k] |= v != v;
        }
    }
    T e = start;
    bool any = false;
    for (int k = 0; k < K; ++k)
        for (int u = 0; u < W; ++u) {
            e = Max ? (l[k][u] > e ? l[k][u] : e) : (l[k][u] < e ? l[k][u] : e);
            any |= nm[k][u] != 0;
        }
    for (; i < m; ++i) {
        T v = p[i];
        e = Max ? (v > e ? v : e) : (v < e ? v : e);
        any |= v != v;
    }
    nan = any;
    return e;
}
#endif

template <class T> struct real_ordered {   // types whose < is NumPy's order (not complex)
    static constexpr bool value = !traits<T>::is_cplx && !traits<T>::is_bool;
};

template <class Op, bool Max, class T, bool Ok = real_ordered<T>::value> struct chunk_minmax
    : chunk_lanes<ufn<Op, T, T>, T> {};
template <class Op, bool Max, class T> struct chunk_minmax<Op, Max, T, true> {
    GA_DEVICE static T run(const ufn<Op, T, T>& r, const T* p, int64, int m, T id) {
        bool nan;
        T e = extreme<Max>(p, m, id, nan);
        if (nan)
            for (int k = 0; k < m; ++k)
                if (p[k] != p[k]) return p[k];
        return r.combine(id, e);
    }
};
template <class T> struct chunk<ufn<op::maximum, T, T>, T> : chunk_minmax<op::maximum, true, T> {};
template <class T> struct chunk<ufn<op::minimum, T, T>, T> : chunk_minmax<op::minimum, false, T> {};

// argmax/argmin: the chunk's extreme in lanes, then the first index holding it (the first
// NaN when there is one).  Complex and bool keep the generic lanes.
template <class Cmp, class T, bool Ok = real_ordered<T>::value> struct chunk_arg {
    GA_DEVICE static valued<T> run(const arg<Cmp, T>& r, const T* p, int64 j0, int m,
                                   valued<T> id) {
        return chunk_lanes<arg<Cmp, T>, T>::run(r, p, j0, m, id);
    }
};
template <class Cmp, class T> struct chunk_arg<Cmp, T, true> {
    GA_DEVICE static valued<T> run(const arg<Cmp, T>&, const T* p, int64 j0, int m,
                                   valued<T> id) {
        if (m == 0) return id;
        bool nan;
        T e = extreme<Cmp::is_max>(p, m, p[0], nan);
        valued<T> a;
        for (int k = 0; k < m; ++k)
            if (nan ? p[k] != p[k] : p[k] == e) { a.v = p[k]; a.i = j0 + k; return a; }
        return id;
    }
};
template <class T> struct chunk<arg<Max, T>, T> : chunk_arg<Max, T> {};
template <class T> struct chunk<arg<Min, T>, T> : chunk_arg<Min, T> {};

// ---- ranges --------------------------------------------------------------------------
// order_free<R>: combine selects one of its operands under a total order (argmax,
// argmin and their nan forms) or is exact (integer counts), so any grouping of the
// same sequence gives the same bits and pairwise needs no stack.
template <class R> struct order_free { static constexpr bool value = false; };
template <class Cmp, class T> struct order_free<arg<Cmp, T> > { static constexpr bool value = true; };
template <class Cmp, class T> struct order_free<nanarg<Cmp, T> > {
    static constexpr bool value = true;
};
template <class T> struct order_free<nonzero<T> > { static constexpr bool value = true; };

// pairwise(r, id, n, chunk_of): chunks of GA_RED_CHUNK elements (chunk_of(j, m)) merged
// by a binary counter, so partial results of equal size combine: NumPy's pairwise
// summation, error O(log n).  The counter holds one partial per bit of the chunk count:
// at most 8 * sizeof(I) - 6 for n < 2**(8 * sizeof(I) - 1) and 128-element chunks (58
// for 64-bit indexing; 928 bytes of a GPU thread's local memory for complex128).
// Order-free reducers combine in sequence (no stack).  The first chunk holds the
// identity (lead); an empty reduction is the identity.
template <class R, class I, class F>
GA_DEVICE typename R::acc pairwise(const R& r, typename R::acc id, I n, F chunk_of) {
    static_assert(GA_RED_CHUNK == 128, "the stack depth assumes 128-element chunks");
    if constexpr (order_free<R>::value) {
        typename R::acc a = id;
#pragma unroll 1
        for (I j = 0; j < n; j += GA_RED_CHUNK) {
            I m = n - j < GA_RED_CHUNK ? n - j : (I)GA_RED_CHUNK;
            typename R::acc s = chunk_of(j, m);
            a = j == 0 ? s : r.combine(a, s);
        }
        return a;
    } else {
        typename R::acc stack[8 * sizeof(I) - 6];
        int depth = 0;
        I count = 0;
#pragma unroll 1
        for (I j = 0; j < n; j += GA_RED_CHUNK) {
            I m = n - j < GA_RED_CHUNK ? n - j : (I)GA_RED_CHUNK;
            typename R::acc s = chunk_of(j, m);
            for (I c = count; c & 1; c >>= 1) s = r.combine(stack[--depth], s);
            stack[depth++] = s;
            ++count;
        }
        if (depth == 0) return id;
        typename R::acc a = stack[0];
        for (int k = 1; k < depth; ++k) a = r.combine(a, stack[k]);
        return a;
    }
}

// range<R, T>::run(r, p, n, id): n contiguous elements.
template <class R, class T> struct range_pairwise {
    GA_DEVICE static typename R::acc run(const R& r, const T* p, int64 n, typename R::acc id) {
        return pairwise<R, int64>(r, id, n, [&](int64 j, int64 m) {
            return chunk<R, T>::run(r, p + j, j, (int)m, id);
        });
    }
};
template <class R, class T> struct range : range_pairwise<R, T> {};

// max/min of a contiguous range of real values: one extreme over the whole range (four
// vector registers of lanes on the CPU device, chunks of 8 lanes elsewhere), then the
// first NaN if there is one -- the bits of the pairwise chunks, whose partial extremes
// combine exactly (a NaN partial is the first NaN of its chunk, and the first wins).
template <class Op, bool Max, class T, bool Ok = real_ordered<T>::value> struct range_minmax
    : range_pairwise<ufn<Op, T, T>, T> {};
template <class Op, bool Max, class T> struct range_minmax<Op, Max, T, true> {
    GA_DEVICE static T run(const ufn<Op, T, T>& r, const T* p, int64 n, T id) {
        bool nan;
#if GA_CPU_LOOPS
        T e = extreme_wide<Max>(p, n, id, nan);
#else
        T e = id;
        nan = false;
#pragma unroll 1
        for (int64 j = 0; j < n; j += GA_RED_CHUNK) {
            bool c;
            T x = extreme<Max>(p + j, n - j < GA_RED_CHUNK ? (int)(n - j) : GA_RED_CHUNK, e, c);
            e = x;
            nan |= c;
        }
#endif
        if (nan)
            for (int64 k = 0; k < n; ++k)
                if (p[k] != p[k]) return p[k];
        return r.combine(id, e);
    }
};
template <class T> struct range<ufn<op::maximum, T, T>, T> : range_minmax<op::maximum, true, T> {};
template <class T> struct range<ufn<op::minimum, T, T>, T> : range_minmax<op::minimum, false, T> {};

// argmax/argmin of real values: chunk extremes in lanes; a chunk's first index is found
// only when its extreme beats the best so far, and the first NaN ends the search.
template <class Cmp, class T, bool Ok = real_ordered<T>::value> struct range_arg
    : range_pairwise<arg<Cmp, T>, T> {};
template <class Cmp, class T> struct range_arg<Cmp, T, true> {
    GA_DEVICE static valued<T> run(const arg<Cmp, T>&, const T* p, int64 n, valued<T> id) {
        valued<T> best = id;
#pragma unroll 1
        for (int64 j = 0; j < n; j += GA_RED_CHUNK) {
            int m = n - j < GA_RED_CHUNK ? (int)(n - j) : GA_RED_CHUNK;
            bool nan;
            T e = extreme<Cmp::is_max>(p + j, m, p[j], nan);
            if (nan) {
                for (int k = 0; k < m; ++k)
                    if (p[j + k] != p[j + k]) { best.v = p[j + k]; best.i = j + k; return best; }
            }
            if (best.i < 0 || Cmp::better(e, best.v)) {
                for (int k = 0; k < m; ++k)
                    if (p[j + k] == e) { best.v = e; best.i = j + k; break; }
            }
        }
        return best;
    }
};
template <class T> struct range<arg<Max, T>, T> : range_arg<Max, T> {};
template <class T> struct range<arg<Min, T>, T> : range_arg<Min, T> {};

// count_nonzero of contiguous elements: a 32-bit count per block of 2**15 elements, a
// loop of one compare and one add per element that the compiler vectorises (the generic
// lanes widen each element to an int64 first), the blocks summed in int64.  Counts are
// integers, exact in any order.
template <class T> struct range<nonzero<T>, T> {
    GA_DEVICE static int64 run(const nonzero<T>&, const T* p, int64 n, int64 id) {
        int64 total = id;
#pragma unroll 1
        for (int64 j = 0; j < n; j += 32768) {
            const int m = n - j < 32768 ? (int)(n - j) : 32768;
            const T* q = p + j;
            int c = 0;
            if constexpr (sizeof(T) == 1 && !traits<T>::is_float) {
                // bool, int8, uint8: a byte is nonzero or not (not a float8: -0.0)
                const unsigned char* b = (const unsigned char*)q;
                int k = 0;
#if GA_CPU_LOOPS
                // 32 byte counters in one GCC vector, at most 255 steps before they are
                // summed (the int loop below widened every byte to 32 bits first): one
                // thread, 2**22 bools 0.21 -> 0.07 ms in cache
                typedef unsigned char V __attribute__((vector_size(32)));
                for (; k + 255 * 32 <= m; k += 255 * 32) {
                    V acc = {};
                    for (int i = 0; i < 255 * 32; i += 32) {
                        V v;
                        __builtin_memcpy(&v, b + k + i, 32);
                        acc -= (V)(v != 0);     // a true lane is all ones: -1
                    }
                    for (int u = 0; u < 32; ++u) c += acc[u];
                }
#endif
                for (; k < m; ++k) c += b[k] != 0;
            } else {
                for (int k = 0; k < m; ++k) c += convert<bool>(q[k]) ? 1 : 0;
            }
            total += c;
        }
        return total;
    }
};

}  // namespace red

// The index part of an arg reducer's accumulator (argmax writes it), or the acc itself.
template <class A> GA_DEVICE A result_of(A a) { return a; }
template <class T> GA_DEVICE int64 result_of(red::valued<T> a) { return a.i; }
template <class A> struct result_type { typedef A type; };
template <class T> struct result_type<red::valued<T> > { typedef int64 type; };

}  // namespace ga
