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
#include <array>
#include <tuple>
#include <type_traits>
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
    typedef T type;
    const T* p;
    T v[V];
    GA_DEVICE void load(int64 base) { load_vec<V>(v, p + base); }
    GA_DEVICE T lane(int k) const { return v[k]; }
    GA_DEVICE T at(int64 i) const { return p[i]; }
};

template <class T, int V> struct Val {
    typedef T type;
    T s;
    GA_DEVICE void load(int64) {}
    GA_DEVICE T lane(int) const { return s; }
    GA_DEVICE T at(int64) const { return s; }
};

#if GA_CPU_LOOPS
namespace cpu {
// Note [Value-only results]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. A loop the compiler vectorises calls libmvec's vector exp, sin ... (Note [CPU
//    vector math]) in its body and the scalar libm function in its epilogue, and a loop
//    with run-time strides calls the scalar one throughout; the two differ in the last
//    bits.  So the same value gave different results by its position in the array, the
//    array's length and its layout (a strided view against a contiguous copy).
// 2. So every value of an op that is not exact goes through one function, block(): a
//    counted loop of exactly SUB contiguous elements, repeated m times, not inlined,
//    so one machine loop computes all of them (the vector variant in every lane, never
//    an epilogue: SUB is a multiple of every vector width).  A short tail is copied
//    into a buffer padded with its first element and computed as a whole group; a
//    strided chunk is gathered into buffers BLOCK elements at a time (across rows: a
//    short inner axis wastes nothing), computed, and scattered; rows whose operands are
//    all unit-stride run whole groups in place.  libmvec's lanes are independent (a
//    special value falls back to the scalar function for its lane only), so a value's
//    result depends on the value alone.
// 3. Exact ops (IEEE arithmetic, comparisons, rounding to integers, casts: GA_EXACT in
//    functors.h) give the same bits in any loop and keep the plain loops, as do
//    integer and bool dtypes.  An op left unmarked is blocked: slower at worst.
// 4. GPUs compute each element by the same scalar code already.
constexpr int SUB = 16;      // elements per step of block(): a multiple of every vector width
constexpr int BLOCK = 64;    // elements per gather buffer and per scalar operand's copies

template <class T>
struct inexact : std::integral_constant<bool, std::is_floating_point<T>::value ||
                                                  is_narrow<T>::value> {};
template <class U> struct inexact<complex<U> > : std::true_type {};

// F::exact: 2 exact for every dtype, 1 for real dtypes only (complex goes through libm).
template <class F, class = void> struct exact_of : std::integral_constant<int, 0> {};
template <class F>
struct exact_of<F, std::void_t<decltype(F::exact)> > : std::integral_constant<int, F::exact> {};

template <class F, class To, class... A> constexpr bool blocked() {
    constexpr bool any_inexact = inexact<To>::value || (inexact<A>::value || ...);
    constexpr bool any_cplx = is_complex<To>::value || (is_complex<A>::value || ...);
    constexpr int e = exact_of<F>::value;
    return any_inexact && !(e == 2 || (e == 1 && !any_cplx));
}

// The one loop that computes a blocked op's values (Note [Value-only results], 2): m
// groups of SUB.  Exact aliasing of o with an input is the in-place form (every lane
// reads its own element before writing it); partial overlaps were copied by the launch
// layer.
template <class To, class F, class... A>
__attribute__((noinline)) void block(int64 m, To* __restrict o, F f, const A* __restrict... a) {
    for (int64 j = 0; j < m; ++j) {
        for (int k = 0; k < SUB; ++k) o[k] = convert<To>(f(a[k]...));
        o += SUB;
        ((a += SUB), ...);
    }
}

// A contiguous operand: read in place, or a short tail copied and padded.
template <class O> struct Source;
template <class T, int V> struct Source<Arr<T, V> > {
    static constexpr int64 span = 1ll << 62;   // elements one call of block() may cover
    const T* p;
    T pad[SUB];
    explicit Source(const Arr<T, V>& a) : p(a.p) {}
    const T* full(int64 i) const { return p + i; }
    const T* part(int64 i, int64 cnt) {
        for (int k = 0; k < SUB; ++k) pad[k] = p[i + (k < cnt ? k : 0)];
        return pad;
    }
};
// A scalar operand: BLOCK copies, so one call of block() covers at most BLOCK elements.
template <class T, int V> struct Source<Val<T, V> > {
    static constexpr int64 span = BLOCK;
    T buf[BLOCK];
    explicit Source(const Val<T, V>& v) { for (int k = 0; k < BLOCK; ++k) buf[k] = v.s; }
    const T* full(int64) const { return buf; }
    const T* part(int64, int64) const { return buf; }
};

// out[i, end) of a contiguous launch: whole groups in place, then the padded tail.
template <class To, class F, class... In>
inline void contiguous_blocks(To* out, int64 i, int64 end, F f, In... in) {
    constexpr int64 spans[] = {Source<In>::span...};
    int64 span = spans[0];
    for (int64 s : spans) span = s < span ? s : span;
    auto run = [&](auto&&... src) {
        while (end - i >= SUB) {
            const int64 m = (end - i < span ? end - i : span) / SUB;
            block<To>(m, out + i, f, src.full(i)...);
            i += m * SUB;
        }
        if (i < end) {
            To o[SUB];
            block<To>(1, o, f, src.part(i, end - i)...);
            for (int64 k = 0; k < end - i; ++k) out[i + k] = o[k];
        }
    };
    run(Source<In>(in)...);
}
}  // namespace cpu
#endif

// out[i] = convert<To>(f(in[i]...)) for this thread's V elements.
template <int V, class To, class F, class... In>
GA_DEVICE void map_contiguous(To* out, int64 n, F f, In... in) {
#if GA_CPU_LOOPS
    int64 base = flat_index<int64>() * GA_CPU_CHUNK;
    int64 end = n - base < GA_CPU_CHUNK ? n : base + GA_CPU_CHUNK;
    if constexpr (cpu::blocked<F, To, typename In::type...>())
        cpu::contiguous_blocks(out, base, end, f, in...);
    else
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

// This thread's chunk of a strided launch for a blocked op (Note [Value-only results],
// 2): elements gathered into buffers of BLOCK across rows, computed, scattered; the
// whole groups of a row whose operands are all unit-stride computed in place.
template <class To, class... A, std::size_t... J, int N, class F>
inline void strided_blocks(sig<To, A...>, std::index_sequence<J...>, char* const* base,
                           const Strided<N>& p, int64 n, F f) {
    std::tuple<std::array<A, BLOCK>...> buf;
    To o[BLOCK];
    char* dst[BLOCK];
    int fill = 0;
    auto flush = [&] {
        const int m = (fill + SUB - 1) / SUB;
        for (int k = fill; k < m * SUB; ++k) ((std::get<J>(buf)[k] = std::get<J>(buf)[0]), ...);
        block<To>(m, o, f, (const A*)std::get<J>(buf).data()...);
        for (int k = 0; k < fill; ++k) *(To*)dst[k] = o[k];
        fill = 0;
    };
    walk_rows<N>(base, p, n, [&](char* const* q, const int64* s, int64 cnt) {
        const bool unit = s[0] == (int64)sizeof(To) && ((s[J + 1] == (int64)sizeof(A)) && ...);
        int64 k = 0;
        while (k < cnt) {
            if (unit && fill == 0 && cnt - k >= SUB) {
                const int64 m = (cnt - k) / SUB;
                block<To>(m, (To*)q[0] + k, f, (const A*)q[J + 1] + k...);
                k += m * SUB;
            }
            for (; k < cnt && fill < BLOCK; ++k, ++fill) {
                dst[fill] = q[0] + k * s[0];
                ((std::get<J>(buf)[fill] = *(const A*)(q[J + 1] + k * s[J + 1])), ...);
            }
            if (fill == BLOCK) flush();
        }
    });
    if (fill) flush();
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
    if constexpr (cpu::blocked<F, To, typename In::type...>()) {
        cpu::strided_blocks(cpu::sig<To, typename In::type...>{}, std::index_sequence_for<In...>{},
                            base, p, (int64)n, f);
        return;
    }
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
