// The loop skeletons every kernel family shares: the flat thread index, and the
// contiguous map (V elements per thread, moved as aligned vectors where possible).
//
// Note [Contiguous kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. Each thread handles V consecutive elements [base, base + V).  V = vec_width<To, T>:
//    1 for 16-byte types, 2 for 8-byte, else 4 (16-byte moves for 4-byte types), taken
//    from the larger of the input and output item sizes.  The launch layer sizes the
//    grid by the same rule (cython/_launch.pxi, _threads_for).
// 2. Vector moves need the pointer aligned to sizeof(T) * V; a misaligned operand
//    (a slice starting at element 1) moves element by element, same result.
// 3. The last thread may have fewer than V elements: it runs the scalar tail.
// 4. The CPU device uses V = 1 unless built with GA_CPU_VECTOR_LOADS (tests), since one
//    element per thread lets g++ vectorise the launch loop itself.
// 5. Operands are wrappers with one interface: Arr (a contiguous array) loads V values,
//    Val (a scalar passed by value) repeats one; so one body serves x, (a, b), (a, s)
//    and (s, b) forms.
#pragma once
#include "platform.h"
#include "types.h"

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
    int64 base = flat_index<int64>() * V;
    if (base + V <= n) {
        (in.load(base), ...);
        To vo[V];
        for (int k = 0; k < V; ++k) vo[k] = convert<To>(f(in.lane(k)...));
        store_vec<V>(out + base, vo);
    } else {
        for (int64 i = base; i < n; ++i) out[i] = convert<To>(f(in.at(i)...));
    }
}

}  // namespace ga
