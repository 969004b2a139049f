// The loop skeletons every elementwise kernel shares: the flat thread index, the
// contiguous map (V elements per thread, moved as aligned vectors where possible) and
// the strided map.  Kernel families call map_contiguous / map_strided and stay the same
// on every device; how a "thread" walks its elements differs here, by platform.
//
// Note [Contiguous kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. Each GPU thread handles V consecutive elements [base, base + V).  V = vec_width<To, T>:
//    1 for 16-byte types, 2 for 8-byte, else 4 (16-byte moves for 4-byte types), taken
//    from the larger of the input and output item sizes.  The launch layer sizes the
//    grid by the same rule (cython/_launch.pxi, _threads_for).
// 2. Vector moves need the pointer aligned to sizeof(T) * V; a misaligned operand
//    (a slice starting at element 1) moves element by element, same result.
// 3. The last thread may have fewer than V elements: it runs the scalar tail.
// 4. The CPU device (GA_CPU_LOOPS, Note [CPU inner loops]) gives each thread a chunk of
//    GA_CPU_CHUNK elements instead, walked by one counted loop the compiler vectorises.
//    A test build (GA_CPU_VECTOR_LOADS) runs the GPU path on the CPU.
// 5. Operands are wrappers with one interface: Arr (a contiguous array) loads V values,
//    Val (a scalar passed by value) repeats one; so one body serves x, (a, b), (a, s)
//    and (s, b) forms.
//
// Note [CPU inner loops]
// ~~~~~~~~~~~~~~~~~~~~~~
// A GPU thread computes one element (a strided one decomposes its flat index into byte
// offsets).  On the CPU that per-element index arithmetic and the bounds test in the
// launch loop keep the compiler from vectorising, so the CPU build walks elements as
// NumPy's inner loops do:
// 1. a thread owns GA_CPU_CHUNK consecutive flat indices (the launch layer launches
//    ceil(n / GA_CPU_CHUNK) threads: cython/_launch.pxi, _CPU_CHUNK);
// 2. contiguous: one counted loop over the chunk;
// 3. strided: the chunk's first index is decomposed once, then the chunk is walked row
//    by row along the innermost (collapsed) axis, an odometer carrying into the outer
//    axes.  Each row runs a counted loop specialised on the innermost byte strides: the
//    output unit-stride and every input unit-stride or 0 (a broadcast operand, its value
//    loaded once) selects a loop with those strides as constants, which vectorises;
//    anything else runs the loop with run-time strides.  So broadcasting (a row against
//    a matrix, a column against it) costs what a contiguous loop costs.
#pragma once
#include "platform.h"
#include "types.h"
#include "indexer.h"
#if GA_CPU_LOOPS
#include <utility>
#endif

namespace ga {

// Launches past 2**31 threads use a 2-d grid of rows (the launch layer's _MAX_GRID_X);
// blockIdx.y is 0 otherwise, and always on the CPU device.
template <class I> GA_DEVICE I flat_index() {
    return GA_BLOCK_LINEAR(I) * (I)blockDim.x + (I)threadIdx.x;
}

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

template <class T, int V> struct Arr {
    const T* p;
    T v[V];
    GA_DEVICE void load(int64 base) { load_vec<V>(v, p + base); }
    GA_DEVICE T lane(int k) const { return v[k]; }
    GA_DEVICE T at(int64 i) const { return p[i]; }
};

template <class T, int V> struct Val {
    T s;
    GA_DEVICE void load(int64) {}
    GA_DEVICE T lane(int) const { return s; }
    GA_DEVICE T at(int64) const { return s; }
};

// out[i] = convert<To>(f(in[i]...)) for this thread's V elements.
template <int V, class To, class F, class... In>
GA_DEVICE void map_contiguous(To* out, int64 n, F f, In... in) {
#if GA_CPU_LOOPS
    int64 base = flat_index<int64>() * GA_CPU_CHUNK;
    int64 end = n - base < GA_CPU_CHUNK ? n : base + GA_CPU_CHUNK;
    for (int64 i = base; i < end; ++i) out[i] = convert<To>(f(in.at(i)...));
#else
    int64 base = flat_index<int64>() * V;
    if (base + V <= n) {
        (in.load(base), ...);
        To vo[V];
        for (int k = 0; k < V; ++k) vo[k] = convert<To>(f(in.lane(k)...));
        store_vec<V>(out + base, vo);
    } else {
        for (int64 i = base; i < n; ++i) out[i] = convert<To>(f(in.at(i)...));
    }
#endif
}

// A strided operand: its base pointer and element type (offsets come from Strided<N>).
template <class T> struct Ptr {
    const char* p;
    typedef T type;
    GA_DEVICE T at(int64 off) const { return *(const T*)(p + off); }
};

// GPU: out = f(in...) at byte offsets off[0] (output), off[1..] (inputs).
template <class To, class I, class F, class A>
GA_DEVICE void map_at(char* out, const I* off, F f, A a) {
    *(To*)(out + off[0]) = convert<To>(f(a.at(off[1])));
}
template <class To, class I, class F, class A, class B>
GA_DEVICE void map_at(char* out, const I* off, F f, A a, B b) {
    *(To*)(out + off[0]) = convert<To>(f(a.at(off[1]), b.at(off[2])));
}
template <class To, class I, class F, class A, class B, class C>
GA_DEVICE void map_at(char* out, const I* off, F f, A a, B b, C c) {
    *(To*)(out + off[0]) = convert<To>(f(a.at(off[1]), b.at(off[2]), c.at(off[3])));
}

#if GA_CPU_LOOPS
namespace cpu {
template <class To, class... A> struct sig {};
template <int... K> using ks = std::integer_sequence<int, K...>;
template <std::size_t> constexpr int any_stride = -1;

// Element k of a row: K = 1 unit stride, 0 a broadcast value, -1 the run-time stride s.
template <int K, class T> inline T ld(const char* p, int64 s, int64 k) {
    if constexpr (K == 1) return ((const T*)p)[k];
    else if constexpr (K == 0) { (void)k; return *(const T*)p; }
    else return *(const T*)(p + k * s);
}

// One row of cnt elements; KO / K: the output's and the inputs' stride kinds.
template <class To, class... A, int KO, int... K, std::size_t... J, class F>
inline void row(sig<To, A...>, ks<KO, K...>, std::index_sequence<J...>, char* o, int64 so,
                const char* const* p, const int64* s, int64 cnt, F f) {
    const char* const q[] = {p[J]...};
    const int64 t[] = {s[J]...};
    (void)t;
    if constexpr (KO == 1) {
        To* O = (To*)o;
        for (int64 k = 0; k < cnt; ++k) O[k] = convert<To>(f(ld<K, A>(q[J], t[J], k)...));
    } else {
        for (int64 k = 0; k < cnt; ++k)
            *(To*)(o + k * so) = convert<To>(f(ld<K, A>(q[J], t[J], k)...));
    }
}

// The loop for input-stride mask M (bit j set: input j unit-stride, else broadcast) with
// the output unit-stride.
template <int M, class To, class... A, std::size_t... J, class F>
inline void row_mask(sig<To, A...> g, std::index_sequence<J...> js, char* o, int64 so,
                     const char* const* p, const int64* s, int64 cnt, F f) {
    row(g, ks<1, int((M >> J) & 1)...>{}, js, o, so, p, s, cnt, f);
}

template <class To, class... A, std::size_t... J, int... M, class F>
inline void dispatch_row(sig<To, A...> g, std::index_sequence<J...> js, ks<M...>, char* o,
                         int64 so, const char* const* p, const int64* s, int64 cnt, F f) {
    typedef void (*fn)(sig<To, A...>, std::index_sequence<J...>, char*, int64,
                       const char* const*, const int64*, int64, F);
    static constexpr fn table[] = {static_cast<fn>(&row_mask<M>)...};
    const int64 size[] = {(int64)sizeof(A)...};
    int mask = 0;
    bool fast = so == (int64)sizeof(To);
    for (std::size_t j = 0; j < sizeof...(A); ++j) {
        if (s[j] == size[j]) mask |= 1 << j;
        else if (s[j] != 0) fast = false;
    }
    if (fast) table[mask](g, js, o, so, p, s, cnt, f);
    else row(g, ks<-1, any_stride<J>...>{}, js, o, so, p, s, cnt, f);
}
}  // namespace cpu
#endif

#if GA_CPU_LOOPS
namespace cpu {
// This thread's chunk of a strided launch, row by row (Note [CPU inner loops]):
// row(q, s, cnt) gets every operand's pointer at the row's first element, the innermost
// byte strides, and the row's length.  N operands, base pointers in base.
template <int N, class Row>
inline void walk_rows(char* const* base, const Strided<N>& p, int64 n, Row row) {
    int64 i = flat_index<int64>() * GA_CPU_CHUNK;
    const int64 end = n - i < GA_CPU_CHUNK ? n : i + GA_CPU_CHUNK;
    if (i >= end) return;
    char* q[N];
    for (int a = 0; a < N; ++a) q[a] = base[a];
    const int nd = p.ndim;
    if (nd == 0) {     // a single element (every axis of size 1)
        const int64 s0[N] = {};
        row(q, s0, (int64)1);
        return;
    }
    int64 coord[GA_MAX_NDIM];
    int64 rem = i;
    for (int d = nd - 1; d >= 0; --d) {
        coord[d] = rem % p.shape[d];
        rem /= p.shape[d];
        for (int a = 0; a < N; ++a) q[a] += coord[d] * p.strides[a][d];
    }
    const int last = nd - 1;
    const int64 inner = p.shape[last];
    int64 s[N];
    for (int a = 0; a < N; ++a) s[a] = p.strides[a][last];
    for (;;) {
        int64 cnt = inner - coord[last];
        if (cnt > end - i) cnt = end - i;
        row(q, s, cnt);
        i += cnt;
        if (i >= end) return;
        // the row ended: back to its start, then carry into the outer axes
        for (int a = 0; a < N; ++a) q[a] -= coord[last] * s[a];
        coord[last] = 0;
        for (int d = last - 1; d >= 0; --d) {
            if (++coord[d] < p.shape[d]) {
                for (int a = 0; a < N; ++a) q[a] += p.strides[a][d];
                break;
            }
            for (int a = 0; a < N; ++a) q[a] -= (p.shape[d] - 1) * p.strides[a][d];
            coord[d] = 0;
        }
    }
}
}  // namespace cpu
#endif

// out = f(in...) at every index of a strided launch (Strided<1 + inputs>: byte strides
// of the output, then of each input).  One element per thread on GPUs; a chunk walked
// by rows on the CPU (Note [CPU inner loops]).
template <class To, class I, int N, class F, class... In>
GA_DEVICE void map_strided(char* out, GA_BYVAL(Strided<N>) p, I n, F f, In... in) {
    static_assert(N == 1 + sizeof...(In), "Strided<N>: the output and each input");
#if GA_CPU_LOOPS
    char* const base[] = {out, (char*)in.p...};
    cpu::walk_rows<N>(base, p, (int64)n, [&](char* const* q, const int64* s, int64 cnt) {
        cpu::dispatch_row(cpu::sig<To, typename In::type...>{}, std::index_sequence_for<In...>{},
                          std::make_integer_sequence<int, 1 << sizeof...(In)>{}, q[0], s[0],
                          q + 1, s + 1, cnt, f);
    });
#else
    I i = flat_index<I>();
    if (i >= n) return;
    I off[N];
    p.offsets(i, off);
    map_at<To>(out, off, f, in...);
#endif
}

// ---- two outputs (Note [Two-output ops] in functors.h) ------------------------------
// f returns a two<A, B>: .first goes to out, .second to out2.  The inputs are applied
// from a list of pointers and byte offsets, so one body serves one and two inputs.
template <class F, class A>
GA_DEVICE auto apply_at(F f, const char* const* q, const int64* o, A) {
    return f(*(const typename A::type*)(q[0] + o[0]));
}
template <class F, class A, class B>
GA_DEVICE auto apply_at(F f, const char* const* q, const int64* o, A, B) {
    return f(*(const typename A::type*)(q[0] + o[0]), *(const typename B::type*)(q[1] + o[1]));
}

template <class To, class To2, class R>
GA_DEVICE void store2(char* o, char* o2, R r) {
    *(To*)o = convert<To>(r.first);
    *(To2*)o2 = convert<To2>(r.second);
}

// map_contiguous with two outputs: this thread's V elements (GA_CPU_CHUNK on the CPU),
// read element by element (the launch layer sizes the grid by vec_width<To, T>).
template <int V, class To, class To2, class F, class... In>
GA_DEVICE void map_contiguous2(To* out, To2* out2, int64 n, F f, In... in) {
#if GA_CPU_LOOPS
    int64 base = flat_index<int64>() * GA_CPU_CHUNK;
    int64 end = n - base < GA_CPU_CHUNK ? n : base + GA_CPU_CHUNK;
#else
    int64 base = flat_index<int64>() * V;
    int64 end = n - base < V ? n : base + V;
#endif
    for (int64 i = base; i < end; ++i) {
        auto r = f(in.at(i)...);
        out[i] = convert<To>(r.first);
        out2[i] = convert<To2>(r.second);
    }
}

// map_strided with two outputs: Strided<2 + inputs> (out, out2, then each input).
template <class To, class To2, class I, int N, class F, class... In>
GA_DEVICE void map_strided2(char* out, char* out2, GA_BYVAL(Strided<N>) p, I n, F f,
                            In... in) {
    static_assert(N == 2 + sizeof...(In), "Strided<N>: the two outputs and each input");
#if GA_CPU_LOOPS
    char* const base[] = {out, out2, (char*)in.p...};
    cpu::walk_rows<N>(base, p, (int64)n, [&](char* const* q, const int64* s, int64 cnt) {
        for (int64 k = 0; k < cnt; ++k) {
            const int64 o[] = {k * s[2], k * s[N - 1]};
            store2<To, To2>(q[0] + k * s[0], q[1] + k * s[1], apply_at(f, q + 2, o, in...));
        }
    });
#else
    I i = flat_index<I>();
    if (i >= n) return;
    I off[N];
    p.offsets(i, off);
    const char* const q[] = {in.p...};
    const int64 o[] = {(int64)off[2], (int64)off[N - 1]};
    store2<To, To2>(out + off[0], out2 + off[1], apply_at(f, q, o, in...));
#endif
}

// f(i) for every flat index i < n of a launch of one element per thread on GPUs; on
// the CPU a thread's chunk of GA_CPU_CHUNK indices (the launch layer sizes the grid so).
template <class F> GA_DEVICE void for_each_index(int64 n, F f) {
#if GA_CPU_LOOPS
    const int64 base = flat_index<int64>() * GA_CPU_CHUNK;
    const int64 end = n - base < GA_CPU_CHUNK ? n : base + GA_CPU_CHUNK;
    for (int64 i = base; i < end; ++i) f(i);
#else
    const int64 i = flat_index<int64>();
    if (i < n) f(i);
#endif
}

}  // namespace ga
