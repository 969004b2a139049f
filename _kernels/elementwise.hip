// The elementwise kernel family: unary, binary and ternary (where) ops over
// contiguous, scalar-operand and strided layouts, plus casts (copies between dtypes
// and layouts).
//
// Note [Elementwise kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. Kernel names encode the layout the launch layer classified:
//      *_c   every operand contiguous, same shape (V elements per thread, moved as
//            aligned vectors when the pointers allow; see vec_width)
//      *_cs  / *_sc   one contiguous array and one scalar passed by value
//      *_s   strided: byte strides per operand, collapsed shape (Strided<N>)
// 2. Template parameters: Op (a functor from functors.h), To (output dtype), T (the
//    compute dtype every input already has), I (index type of the strided form).
// 3. The CPU runtime launches one element per thread with grid = ceil(n / block);
//    GPUs use the same shape, so there is no grid-stride loop to mistune on a CPU.
#include "garray/functors.h"
#include "garray/indexer.h"

namespace ga {

template <class I> GA_DEVICE I flat_index() {
    return (I)blockIdx.x * (I)blockDim.x + (I)threadIdx.x;
}

// Vector width of the contiguous kernels: each thread handles V consecutive elements,
// moved as one aligned vector (16 bytes for 4-byte types) when the pointers allow.
// The launch layer computes the same V from the item sizes (grid = ceil(n / (block*V))).
// The CPU device uses V = 1 (GA_VECTOR_LOADS in platform.h).
template <class To, class T> GA_HOST_DEVICE constexpr int vec_width() {
    return !GA_VECTOR_LOADS ? 1
         : (sizeof(T) > sizeof(To) ? sizeof(T) : sizeof(To)) >= 16 ? 1
         : (sizeof(T) > sizeof(To) ? sizeof(T) : sizeof(To)) >= 8 ? 2 : 4;
}

template <class T, int V> struct alignas(sizeof(T) * V) Vec { T v[V]; };

template <int V, class T> GA_DEVICE void load_vec(T* dst, const T* src) {
    if (((unsigned long long)src % (sizeof(T) * V)) == 0) {
        Vec<T, V> w = *(const Vec<T, V>*)src;
        for (int k = 0; k < V; ++k) dst[k] = w.v[k];
    } else {
        for (int k = 0; k < V; ++k) dst[k] = src[k];
    }
}

template <int V, class T> GA_DEVICE void store_vec(T* dst, const T* src) {
    if (((unsigned long long)dst % (sizeof(T) * V)) == 0) {
        Vec<T, V> w;
        for (int k = 0; k < V; ++k) w.v[k] = src[k];
        *(Vec<T, V>*)dst = w;
    } else {
        for (int k = 0; k < V; ++k) dst[k] = src[k];
    }
}

template <class Op, class To, class T>
GA_GLOBAL void ew1_c(To* out, const T* x, int64 n) {
    constexpr int V = vec_width<To, T>();
    int64 base = flat_index<int64>() * V;
    if (base + V <= n) {
        T vx[V];
        To vo[V];
        load_vec<V>(vx, x + base);
        for (int k = 0; k < V; ++k) vo[k] = convert<To>(Op()(vx[k]));
        store_vec<V>(out + base, vo);
    } else {
        for (int64 i = base; i < n; ++i) out[i] = convert<To>(Op()(x[i]));
    }
}

template <class Op, class To, class T, class I>
GA_GLOBAL void ew1_s(char* out, const char* x, GA_BYVAL(Strided<2>) p, I n) {
    I i = flat_index<I>();
    if (i >= n) return;
    I off[2];
    p.offsets(i, off);
    *(To*)(out + off[0]) = convert<To>(Op()(*(const T*)(x + off[1])));
}

template <class Op, class To, class T>
GA_GLOBAL void ew2_c(To* out, const T* a, const T* b, int64 n) {
    constexpr int V = vec_width<To, T>();
    int64 base = flat_index<int64>() * V;
    if (base + V <= n) {
        T va[V], vb[V];
        To vo[V];
        load_vec<V>(va, a + base);
        load_vec<V>(vb, b + base);
        for (int k = 0; k < V; ++k) vo[k] = convert<To>(Op()(va[k], vb[k]));
        store_vec<V>(out + base, vo);
    } else {
        for (int64 i = base; i < n; ++i) out[i] = convert<To>(Op()(a[i], b[i]));
    }
}

template <class Op, class To, class T>
GA_GLOBAL void ew2_cs(To* out, const T* a, T b, int64 n) {
    constexpr int V = vec_width<To, T>();
    int64 base = flat_index<int64>() * V;
    if (base + V <= n) {
        T va[V];
        To vo[V];
        load_vec<V>(va, a + base);
        for (int k = 0; k < V; ++k) vo[k] = convert<To>(Op()(va[k], b));
        store_vec<V>(out + base, vo);
    } else {
        for (int64 i = base; i < n; ++i) out[i] = convert<To>(Op()(a[i], b));
    }
}

template <class Op, class To, class T>
GA_GLOBAL void ew2_sc(To* out, T a, const T* b, int64 n) {
    constexpr int V = vec_width<To, T>();
    int64 base = flat_index<int64>() * V;
    if (base + V <= n) {
        T vb[V];
        To vo[V];
        load_vec<V>(vb, b + base);
        for (int k = 0; k < V; ++k) vo[k] = convert<To>(Op()(a, vb[k]));
        store_vec<V>(out + base, vo);
    } else {
        for (int64 i = base; i < n; ++i) out[i] = convert<To>(Op()(a, b[i]));
    }
}

template <class Op, class To, class T, class I>
GA_GLOBAL void ew2_s(char* out, const char* a, const char* b, GA_BYVAL(Strided<3>) p, I n) {
    I i = flat_index<I>();
    if (i >= n) return;
    I off[3];
    p.offsets(i, off);
    *(To*)(out + off[0]) = convert<To>(Op()(*(const T*)(a + off[1]), *(const T*)(b + off[2])));
}

// where(cond, x, y): cond is bool, x and y already in the output dtype.
template <class T, class I>
GA_GLOBAL void where_s(char* out, const char* c, const char* x, const char* y, GA_BYVAL(Strided<4>) p, I n) {
    I i = flat_index<I>();
    if (i >= n) return;
    I off[4];
    p.offsets(i, off);
    *(T*)(out + off[0]) = *(const bool*)(c + off[1]) ? *(const T*)(x + off[2]) : *(const T*)(y + off[3]);
}

// Casts double as copies between layouts (To == From).
template <class To, class From>
GA_GLOBAL void cast_c(To* out, const From* x, int64 n) {
    constexpr int V = vec_width<To, From>();
    int64 base = flat_index<int64>() * V;
    if (base + V <= n) {
        From vx[V];
        To vo[V];
        load_vec<V>(vx, x + base);
        for (int k = 0; k < V; ++k) vo[k] = convert<To>(vx[k]);
        store_vec<V>(out + base, vo);
    } else {
        for (int64 i = base; i < n; ++i) out[i] = convert<To>(x[i]);
    }
}

template <class To, class From, class I>
GA_GLOBAL void cast_s(char* out, const char* x, GA_BYVAL(Strided<2>) p, I n) {
    I i = flat_index<I>();
    if (i >= n) return;
    I off[2];
    p.offsets(i, off);
    *(To*)(out + off[0]) = convert<To>(*(const From*)(x + off[1]));
}

}  // namespace ga

namespace ga {
namespace op {
// Boolean reductions (the reduction family proper comes with its own issue).
struct all_r {
    GA_DEVICE static bool init() { return true; }
    GA_DEVICE bool operator()(bool acc, bool v) const { return acc && v; }
};
struct any_r {
    GA_DEVICE static bool init() { return false; }
    GA_DEVICE bool operator()(bool acc, bool v) const { return acc || v; }
};
}  // namespace op

// One thread per output element, looping over the reduced elements: barrier-free,
// deterministic, correct for any strides.  po: kept axes (strides of out, of x);
// pr: reduced axes (strides of x).
template <class R, class To, class T, class I>
GA_GLOBAL void reduce_s(char* out, const char* x, GA_BYVAL(Strided<2>) po,
                        GA_BYVAL(Strided<1>) pr, I n_out, I n_red) {
    I i = flat_index<I>();
    if (i >= n_out) return;
    I off[2];
    po.offsets(i, off);
    const char* base = x + off[1];
    To acc = R::init();
    for (I j = 0; j < n_red; ++j) {
        I r[1];
        pr.offsets(j, r);
        acc = R()(acc, convert<To>(*(const T*)(base + r[0])));
    }
    *(To*)(out + off[0]) = acc;
}
}  // namespace ga

// ---- creation kernels: fills and index-generated values ---------------------------------
namespace ga {

template <class T>
GA_GLOBAL void fill_c(T* out, T v, int64 n) {
    int64 i = flat_index<int64>();
    if (i < n) out[i] = v;
}

// NumPy's arange: out[i] = start + i * delta, in the output dtype, with
// delta = (start + step) - start computed in that dtype by the launch layer.
template <class T>
GA_GLOBAL void arange_c(T* out, T start, T second, T delta, int64 n) {
    int64 i = flat_index<int64>();
    if (i >= n) return;
    out[i] = i == 0 ? start : (i == 1 ? second : (T)(start + convert<T>(i) * delta));
}

// NumPy's linspace: computed in C (double or complex<double>), then converted;
// flags: 1 = endpoint (the last sample is exactly `stop`), 2 = the step underflowed to
// zero (then i / div * delta, as NumPy does).
template <class T, class C>
GA_GLOBAL void linspace_c(T* out, C start, C step, C stop, C delta, double div, int64 n,
                          int flags) {
    int64 i = flat_index<int64>();
    if (i >= n) return;
    C y = (flags & 2) ? convert<C>((double)i / div) * delta : convert<C>(i) * step;
    y = y + start;
    if ((flags & 1) && i == n - 1 && n > 1) y = stop;
    out[i] = convert<T>(y);
}

template <class T>
GA_GLOBAL void eye_c(T* out, int64 n_cols, int64 k, int64 n) {
    int64 i = flat_index<int64>();
    if (i < n) out[i] = convert<T>((i % n_cols) - (i / n_cols) == k);
}

// tril / triu over the last two axes: out is C-contiguous, x any strides.
template <class T, class I>
GA_GLOBAL void tri_s(char* out, const char* x, GA_BYVAL(Strided<2>) p, I n, I rows, I cols,
                     I k, int lower) {
    I i = flat_index<I>();
    if (i >= n) return;
    I off[2];
    p.offsets(i, off);
    I c = i % cols, r = (i / cols) % rows;
    bool keep = lower ? (c - r <= k) : (c - r >= k);
    *(T*)(out + off[0]) = keep ? *(const T*)(x + off[1]) : T(0);
}
}  // namespace ga
