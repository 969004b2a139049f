// The CUDA/HIP spellings of the CPU runtime (warp operations, votes, atomics) and the
// C entry points of a CPU kernel library.  Included by cpu_runtime.h at its end.
#pragma once

// CUDA/HIP spellings on the CPU device.  Masks are honoured by votes; the sanitizer
// build also checks every mask and tells call sites apart (Note [CPU sanitizer], 6).
#define warpSize GA_WARP_SIZE
// CUDA code's full mask 0xffffffff means the whole warp, also at warp size 64.
inline unsigned long long ga_lane_mask(unsigned long long m) { return (GA_WARP_SIZE == 64 && m == 0xffffffffull) ? ~0ull : m; }
#if defined(GA_CPU_SANITIZE)
#  define __syncthreads() ga_host::barrier(__LINE__)
#  define __syncwarp(...) ga_host::san_syncwarp(__LINE__, 0 __VA_OPT__(,) __VA_ARGS__)
#  define __shfl_down_sync(m, ...) ga_host::san_shfl<0>(__LINE__, (m), __VA_ARGS__)
#  define __shfl_up_sync(m, ...) ga_host::san_shfl<1>(__LINE__, (m), __VA_ARGS__)
#  define __shfl_xor_sync(m, ...) ga_host::san_shfl<2>(__LINE__, (m), __VA_ARGS__)
#  define __shfl_sync(m, ...) ga_host::san_shfl<3>(__LINE__, (m), __VA_ARGS__)
#  define __shfl_down(...) ga_host::san_shfl<0>(__LINE__, ~0ull, __VA_ARGS__)
#  define __shfl_up(...) ga_host::san_shfl<1>(__LINE__, ~0ull, __VA_ARGS__)
#  define __shfl_xor(...) ga_host::san_shfl<2>(__LINE__, ~0ull, __VA_ARGS__)
#  define __shfl(...) ga_host::san_shfl<3>(__LINE__, ~0ull, __VA_ARGS__)
#  define __ballot_sync(m, p) ga_host::san_vote(__LINE__, (m), (p), 0)
#  define __any_sync(m, p) ga_host::san_vote(__LINE__, (m), (p), 1)
#  define __all_sync(m, p) ga_host::san_vote(__LINE__, (m), (p), 2)
#  define __ballot(p) ga_host::san_vote(__LINE__, ~0ull, (p), 0)
#  define __any(p) ga_host::san_vote(__LINE__, ~0ull, (p), 1)
#  define __all(p) ga_host::san_vote(__LINE__, ~0ull, (p), 2)
namespace ga_host {
GA_NOSAN inline void san_syncwarp(long site, int, unsigned long long mask = ~0ull) {
    (void)exchange(0, 3, 0, ga_lane_mask(mask), site);
}
template <int Kind, class T>
GA_NOSAN inline T san_shfl(long site, unsigned long long mask, T v, int arg, int = GA_WARP_SIZE) {
    return exchange(v, Kind, arg, ga_lane_mask(mask), site);
}
GA_NOSAN inline unsigned long long san_vote(long site, unsigned long long mask, int p, int kind) {
    unsigned long long m = ga_lane_mask(mask);
    if (kind == 2) return (ballot(!p, m, site) & m) == 0;
    unsigned long long b = ballot(p, m, site) & m;
    if (kind == 1) return b != 0;
    return b;
}
}  // namespace ga_host
#else
#define __syncthreads() ga_host::barrier(__LINE__)
#define __syncwarp(...) ((void)ga_host::exchange(0, 3, 0))
template <class T> inline T __shfl_down_sync(unsigned long long, T v, int d, int = GA_WARP_SIZE) { return ga_host::shfl_down(v, d); }
template <class T> inline T __shfl_up_sync(unsigned long long, T v, int d, int = GA_WARP_SIZE) { return ga_host::shfl_up(v, d); }
template <class T> inline T __shfl_xor_sync(unsigned long long, T v, int m, int = GA_WARP_SIZE) { return ga_host::shfl_xor(v, m); }
template <class T> inline T __shfl_sync(unsigned long long, T v, int l, int = GA_WARP_SIZE) { return ga_host::shfl(v, l); }
template <class T> inline T __shfl_down(T v, int d, int = GA_WARP_SIZE) { return ga_host::shfl_down(v, d); }
template <class T> inline T __shfl_up(T v, int d, int = GA_WARP_SIZE) { return ga_host::shfl_up(v, d); }
template <class T> inline T __shfl_xor(T v, int m, int = GA_WARP_SIZE) { return ga_host::shfl_xor(v, m); }
template <class T> inline T __shfl(T v, int l, int = GA_WARP_SIZE) { return ga_host::shfl(v, l); }
// Votes honour the mask, as CUDA's do; ballots are GA_WARP_SIZE bits wide.
inline unsigned long long __ballot_sync(unsigned long long mask, int p) { return ga_host::ballot(p) & ga_lane_mask(mask); }
inline unsigned long long __ballot(int p) { return ga_host::ballot(p); }
inline int __any_sync(unsigned long long mask, int p) { return (ga_host::ballot(p) & ga_lane_mask(mask)) != 0; }
inline int __all_sync(unsigned long long mask, int p) { return (ga_host::ballot(!p) & ga_lane_mask(mask)) == 0; }
inline int __any(int p) { return ga_host::ballot(p) != 0; }
inline int __all(int p) { return ga_host::ballot(!p) == 0; }
#endif

// Atomics are real host atomics (a large launch runs on several OS threads of the
// launch pool): one compare-and-swap loop serves every type and operation.  The
// sanitizer build records each as an atomic access (atomics never race each other).
template <class T, class F> GA_NOSAN inline T ga_atomic_update(T* p, F f) {
    GA_SAN(ga_host::san::access((uintptr_t)p, sizeof(T), ga_host::san::W | ga_host::san::ATOMIC);)
    T old, nv;
    __atomic_load(p, &old, __ATOMIC_SEQ_CST);
    do { nv = f(old); } while (!__atomic_compare_exchange(p, &old, &nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return old;
}
template <class T> GA_NOSAN inline T atomicAdd(T* p, T v) { return ga_atomic_update(p, [v](T o) { return (T)(o + v); }); }
template <class T> GA_NOSAN inline T atomicMax(T* p, T v) { return ga_atomic_update(p, [v](T o) { return v > o ? v : o; }); }
template <class T> GA_NOSAN inline T atomicMin(T* p, T v) { return ga_atomic_update(p, [v](T o) { return v < o ? v : o; }); }
template <class T> GA_NOSAN inline T atomicExch(T* p, T v) {
    GA_SAN(ga_host::san::access((uintptr_t)p, sizeof(T), ga_host::san::W | ga_host::san::ATOMIC);)
    T old; __atomic_exchange(p, &v, &old, __ATOMIC_SEQ_CST); return old;
}
// A store that other threads may repeat with the same value (one value written over
// repeated targets, _kernels/index.hip): racing stores of one value leave that value on
// every device.  The sanitizer build records it as an atomic update, so the repeats are
// not reported as races.
template <class T> GA_NOSAN inline void ga_store_repeatable(T* p, T v) {
    GA_SAN(ga_host::san::access((uintptr_t)p, sizeof(T), ga_host::san::W | ga_host::san::ATOMIC);)
    __builtin_memcpy((void*)p, (const void*)&v, sizeof(T));
}
template <class T> GA_NOSAN inline T atomicCAS(T* p, T cmp, T v) {
    GA_SAN(ga_host::san::access((uintptr_t)p, sizeof(T), ga_host::san::W | ga_host::san::ATOMIC);)
    __atomic_compare_exchange(p, &cmp, &v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return cmp;
}

#if defined(GA_CPU_SANITIZE)
// The sanitizer build: every entry launches on fibers under the sanitizer, named.
#define GA_HOST_SAN_ENTRY(entry, ...)                                               \
    extern "C" __attribute__((visibility("default")))                               \
    int entry##_r(unsigned b0, unsigned b1, unsigned grid, unsigned block, void** args) { \
        return ga_host::launch_user<&__VA_ARGS__, 1, 1>(b0, b1, grid, block, args, #__VA_ARGS__); \
    }                                                                               \
    extern "C" __attribute__((visibility("default")))                               \
    int entry(unsigned grid, unsigned block, void** args) {                         \
        return ga_host::launch_user<&__VA_ARGS__, 1, 1>(0, grid, grid, block, args, #__VA_ARGS__); \
    }
#define GA_HOST_ENTRY(entry, ...) GA_HOST_SAN_ENTRY(entry, __VA_ARGS__)
#define GA_HOST_FIBER_ENTRY(entry, ...) GA_HOST_SAN_ENTRY(entry, __VA_ARGS__)
#define GA_HOST_USER_ENTRY(entry, fibers, guarded, ...) GA_HOST_SAN_ENTRY(entry, __VA_ARGS__)
#else
// One C entry point per instantiated kernel: int NAME(grid, block, void** args)
// returns 0, or a ga_host error code (1 when the kernel used a barrier/warp operation
// in a loop launch, see the Note; user kernels: the launch results above).  Built-in
// kernels also export NAME_r(b0, b1, grid, block, args), blocks [b0, b1) only, which the
// launch pool calls from several OS threads (cython/_cpu_pool.h).
#define GA_HOST_ENTRY(entry, ...)                                                   \
    extern "C" __attribute__((visibility("default")))                               \
    int entry##_r(unsigned b0, unsigned b1, unsigned grid, unsigned block, void** args) { \
        return ga_host::launch<&__VA_ARGS__>(b0, b1, grid, block, args);            \
    }                                                                               \
    extern "C" __attribute__((visibility("default")))                               \
    int entry(unsigned grid, unsigned block, void** args) {                         \
        return ga_host::launch<&__VA_ARGS__>(0, grid, grid, block, args);           \
    }
// User kernels: fibers (0/1) and guarded (0/1) as chosen by garray/_compiler/gxx.py.
// They run on the launching thread only: their atomics are plain read-modify-writes.
#define GA_HOST_USER_ENTRY(entry, fibers, guarded, ...)                             \
    extern "C" __attribute__((visibility("default")))                               \
    int entry(unsigned grid, unsigned block, void** args) {                         \
        return ga_host::launch_user<&__VA_ARGS__, fibers, guarded>(0, grid, grid, block, args); \
    }
// Built-in barrier kernels (the reduction family's block trees) split over the pool too.
#define GA_HOST_FIBER_ENTRY(entry, ...)                                             \
    extern "C" __attribute__((visibility("default")))                               \
    int entry##_r(unsigned b0, unsigned b1, unsigned grid, unsigned block, void** args) { \
        return ga_host::launch_user<&__VA_ARGS__, 1, 1>(b0, b1, grid, block, args); \
    }                                                                               \
    extern "C" __attribute__((visibility("default")))                               \
    int entry(unsigned grid, unsigned block, void** args) {                         \
        return ga_host::launch_user<&__VA_ARGS__, 1, 1>(0, grid, grid, block, args); \
    }
#endif
// GA_PARAM_INFO builds (the GPU stubs' stand-ins, garray/testing/gpu_stub.py) also export
// int NAME_p(sizes, kinds, max): the kernel's parameter count, and the bytes and kind
// (ga_host::param_kind) of the first max of them, from which the stub hook annotates
// each built-in launch with the arrays it touches.
#if defined(GA_PARAM_INFO)
#define GA_HOST_PARAM_INFO(entry, ...)                                              \
    extern "C" __attribute__((visibility("default")))                               \
    int entry##_p(unsigned long long* sizes, char* kinds, int max) {                \
        return ga_host::param_info(&__VA_ARGS__, sizes, kinds, max);                \
    }
#else
#define GA_HOST_PARAM_INFO(entry, ...)
#endif
// The module-level helpers.  The ahead-of-time library (garray/_compiler/aot.py) links
// many translation units into one shared library, each naming its helpers with its own
// GA_HOST_SYMBOL_PREFIX.
#define GA_HOST_CAT2(a, b) a##b
#define GA_HOST_CAT(a, b) GA_HOST_CAT2(a, b)
#ifdef GA_HOST_SYMBOL_PREFIX
#  define GA_HOST_SYM(name) GA_HOST_CAT(GA_HOST_SYMBOL_PREFIX, name)
#else
#  define GA_HOST_SYM(name) name
#endif
extern "C" __attribute__((visibility("default"))) const char* GA_HOST_SYM(ga_host_error_what)() {
    return ga_host::last_what.load();
}
// The dynamic shared bytes of the next user-kernel launch on the calling OS thread.
extern "C" __attribute__((visibility("default"))) int GA_HOST_SYM(ga_host_set_dynamic_shared)(size_t n) {
    ga_host::pending_shared = n;
    return 0;
}
// The fiber stack size (bytes) of this module's later fiber launches.
extern "C" __attribute__((visibility("default"))) void GA_HOST_SYM(ga_host_set_fiber_stack)(size_t n) {
    ga_host::fiber_stack.store(n, std::memory_order_relaxed);
}
extern "C" __attribute__((visibility("default"))) size_t GA_HOST_SYM(ga_host_fiber_stack)() {
    return ga_host::fiber_stack.load(std::memory_order_relaxed);
}
