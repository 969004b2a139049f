// The CPU device's host runtime (DESIGN.md section 4), included by platform.h when
// GARRAY_HOST is defined.
//
// Note [CPU launches]
// ~~~~~~~~~~~~~~~~~~~
// 1. A kernel without barriers or warp operations runs as plain loops over blocks and
//    threads (ga_host::launch below), compiled in the same translation unit as the
//    kernel so the body inlines into the loop.
// 2. threadIdx/blockIdx/blockDim/gridDim are plain globals of the module: one launch
//    runs on one OS thread at a time (the Python layer holds a per-module lock).
// 3. __syncthreads() and warp operations inside a loop-launched kernel are a kernel
//    bug on this runtime (they need the fiber runtime): they set an error flag that
//    the launcher reports, instead of hanging.
#pragma once
#include <cmath>
#include <cstring>
#include <cstdint>
#include <cstddef>
#include <type_traits>
#include <utility>

struct ga_dim3 {
    unsigned int x, y, z;
};

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static

static ga_dim3 threadIdx = {0, 0, 0};
static ga_dim3 blockIdx = {0, 0, 0};
static ga_dim3 blockDim = {1, 1, 1};
static ga_dim3 gridDim = {1, 1, 1};

namespace ga_host {
template <class... P> constexpr std::index_sequence_for<P...> arity_seq(void (*)(P...)) { return {}; }

static int error = 0;                 // 1: barrier or warp op in a loop-launched kernel
static const char* error_what = "";
static unsigned char* shared_buf = nullptr;

inline void* dynamic_shared() { return shared_buf; }

template <class T> inline T shfl_down(T v, int) {
    error = 1; error_what = "warp shuffle"; return v;
}
template <class T> inline T shfl(T v, int) {
    error = 1; error_what = "warp shuffle"; return v;
}
inline unsigned long long ballot(int) { error = 1; error_what = "ballot"; return 0; }

// Unpack void** kernel arguments (the cuLaunchKernel convention) once, then run the
// kernel for every (block, thread).  K is a template constant, so the body inlines
// into the loop and by-value parameters (Strided<N>, ~800 bytes) are not copied per
// element.
template <auto K, class... P>
inline void loops(unsigned grid, unsigned block, std::remove_reference_t<P>&... p) {
    gridDim.x = grid; blockDim.x = block;
    for (unsigned b = 0; b < grid; ++b) {
        blockIdx.x = b;
        for (unsigned t = 0; t < block; ++t) {
            threadIdx.x = t;
            K(p...);
        }
    }
}

template <auto K, class... P, std::size_t... I>
inline void unpack(void (*)(P...), unsigned grid, unsigned block, void** args,
                   std::index_sequence<I...>) {
    loops<K, P...>(grid, block, *static_cast<std::remove_reference_t<P>*>(args[I])...);
}

template <auto K>
inline int launch(unsigned grid, unsigned block, void** args) {
    error = 0;
    unpack<K>(K, grid, block, args, arity_seq(K));
    return error;
}
}  // namespace ga_host

inline void __syncthreads() { ga_host::error = 1; ga_host::error_what = "__syncthreads"; }

// One C entry point per instantiated kernel: int NAME(grid, block, void** args)
// returns 0, or 1 when the kernel used a barrier/warp operation (see the Note).
#define GA_HOST_ENTRY(entry, ...)                                                   \
    extern "C" __attribute__((visibility("default")))                               \
    int entry(unsigned grid, unsigned block, void** args) {                         \
        return ga_host::launch<&__VA_ARGS__>(grid, block, args);                    \
    }
extern "C" __attribute__((visibility("default"))) const char* ga_host_error_what() {
    return ga_host::error_what;
}
