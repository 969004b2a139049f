// The elementwise family: unary and binary ops over contiguous, scalar-operand and
// strided layouts, and where(cond, x, y).
//
// Note [Elementwise kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. Kernel names encode the layout the launch layer classified (cython/_iter.pxi):
//      *_c   every operand contiguous, same shape (garray/loops.h, map_contiguous)
//      *_cs  / *_sc   one contiguous array and one scalar passed by value
//      *_s   strided: byte strides per operand, collapsed shape (Strided<N>)
// 2. Template parameters: Op (a functor from functors.h), To (output dtype), T (the
//    compute dtype every input already has), I (index type of the strided form).
// 3. One thread per element on GPUs (V per thread in the contiguous forms), grid =
//    ceil(n / (block * V)): no grid-stride loop.  On the CPU device a thread walks a
//    chunk in counted loops (garray/loops.h, Note [CPU inner loops]).
// 4. The second operand of a binary op is read in second_of<Op, T> (T unless the
//    functor names its own, as ldexp's int64 exponent: Note [Two-output ops]).
// 5. ew1x2_* / ew2x2_*: two outputs (divmod, frexp, modf), To2 the second's dtype;
//    contiguous and strided forms only (a scalar operand is a 0-d strided one).
// 6. ew2_at: ufunc.at (garray/_reduce/ufunc_methods.py).  The operands' targets are sorted
//    stably, so equal targets form runs in their order of occurrence; one thread per
//    run folds the run's operands into its target in that order, which is the order
//    NumPy applies them in (one at a time), so every op, reorderable or not, gives
//    NumPy's values.  Only where the op computes in the target's dtype (T in, T out);
//    a skewed run is serial on its thread.  A run may change target (the accumulator
//    is stored and the next target loaded): the CPU device passes one unsorted run,
//    NumPy's own sequential loop, with no sort.
// 7. ew2_reduceat: ufunc.reduceat's segments of the rows of a C-contiguous (R, row)
//    array, a thread per (row, segment): the first element folded with the rest in
//    order (NumPy's sequence), into the (R, k) result.
#include "garray/functors.h"
#include "garray/indexer.h"
#include "garray/loops.h"

namespace ga {

template <class Op, class To, class T>
GA_GLOBAL void ew1_c(To* out, const T* x, int64 n) {
    constexpr int V = vec_width<To, T>();
    map_contiguous<V>(out, n, Op(), Arr<T, V>{x});
}

template <class Op, class To, class T, class T2 = typename second_of<Op, T>::type>
GA_GLOBAL void ew2_c(To* out, const T* a, const T2* b, int64 n) {
    constexpr int V = vec_width<To, T>();
    map_contiguous<V>(out, n, Op(), Arr<T, V>{a}, Arr<T2, V>{b});
}

template <class Op, class To, class T, class T2 = typename second_of<Op, T>::type>
GA_GLOBAL void ew2_cs(To* out, const T* a, T2 b, int64 n) {
    constexpr int V = vec_width<To, T>();
    map_contiguous<V>(out, n, Op(), Arr<T, V>{a}, Val<T2, V>{b});
}

template <class Op, class To, class T, class T2 = typename second_of<Op, T>::type>
GA_GLOBAL void ew2_sc(To* out, T a, const T2* b, int64 n) {
    constexpr int V = vec_width<To, T>();
    map_contiguous<V>(out, n, Op(), Val<T, V>{a}, Arr<T2, V>{b});
}

template <class Op, class To, class T, class I>
GA_GLOBAL void ew1_s(char* out, const char* x, GA_BYVAL(Strided<2>) p, I n) {
    map_strided<To>(out, p, n, Op(), Ptr<T>{x});
}

template <class Op, class To, class T, class I>
GA_GLOBAL void ew2_s(char* out, const char* a, const char* b, GA_BYVAL(Strided<3>) p, I n) {
    map_strided<To>(out, p, n, Op(), Ptr<T>{a}, Ptr<typename second_of<Op, T>::type>{b});
}

template <class Op, class To, class To2, class T>
GA_GLOBAL void ew1x2_c(To* out, To2* out2, const T* x, int64 n) {
    constexpr int V = vec_width<To, T>();
    map_contiguous2<V>(out, out2, n, Op(), Arr<T, V>{x});
}

template <class Op, class To, class To2, class T>
GA_GLOBAL void ew2x2_c(To* out, To2* out2, const T* a, const T* b, int64 n) {
    constexpr int V = vec_width<To, T>();
    map_contiguous2<V>(out, out2, n, Op(), Arr<T, V>{a}, Arr<T, V>{b});
}

template <class Op, class To, class To2, class T, class I>
GA_GLOBAL void ew1x2_s(char* out, char* out2, const char* x, GA_BYVAL(Strided<3>) p, I n) {
    map_strided2<To, To2>(out, out2, p, n, Op(), Ptr<T>{x});
}

template <class Op, class To, class To2, class T, class I>
GA_GLOBAL void ew2x2_s(char* out, char* out2, const char* a, const char* b,
                       GA_BYVAL(Strided<4>) p, I n) {
    map_strided2<To, To2>(out, out2, p, n, Op(), Ptr<T>{a}, Ptr<T>{b});
}

template <class Op, class T>
GA_GLOBAL void ew2_at(T* flat, const int64* pos, const T* vals, const int64* starts,
                      int64 runs, int64 n) {
    for_each_index(runs, [=](int64 r) {
        const int64 s = starts[r], e = r + 1 < runs ? starts[r + 1] : n;
        int64 cur = pos[s];
        T acc = flat[cur];
        for (int64 j = s; j < e; ++j) {
            const int64 p = pos[j];
            if (p != cur) {         // the unsorted single run of the CPU device
                flat[cur] = acc;
                cur = p;
                acc = flat[cur];
            }
            acc = T(Op()(acc, vals[j]));
        }
        flat[cur] = acc;
    });
}

template <class Op, class T>
GA_GLOBAL void ew2_reduceat(T* res, const T* x, const int64* idx, const int64* ends,
                            int64 k, int64 row, int64 total) {
    for_each_index(total, [=](int64 i) {
        const int64 r = i / k, s = i - r * k;
        const T* v = x + r * row;
        T acc = v[idx[s]];
        for (int64 j = idx[s] + 1; j < ends[s]; ++j) acc = T(Op()(acc, v[j]));
        res[i] = acc;
    });
}

// where(cond, x, y): cond is bool, x and y already in the output dtype.
struct select {
    static constexpr int exact = 2;
    template <class T> GA_DEVICE T operator()(bool c, T x, T y) const { return c ? x : y; }
};

template <class T, class I>
GA_GLOBAL void where_s(char* out, const char* c, const char* x, const char* y,
                       GA_BYVAL(Strided<4>) p, I n) {
    map_strided<T>(out, p, n, select(), Ptr<bool>{c}, Ptr<T>{x}, Ptr<T>{y});
}

}  // namespace ga
