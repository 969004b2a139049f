// The CPU device's host runtime (docs/architecture.md, "The CPU device"), included by platform.h when
// GARRAY_HOST is defined.
//
// Note [CPU launches]
// ~~~~~~~~~~~~~~~~~~~
// 1. A kernel without barriers or warp operations runs as plain loops over blocks and
//    threads (ga_host::launch below), compiled in the same translation unit as the
//    kernel so the body inlines into the loop.
// 2. threadIdx/blockIdx/blockDim/gridDim are plain globals of the module: one launch
//    runs on one OS thread at a time: the launch layer calls the entry holding the GIL
//    (it does not release it), so launches never overlap within a process.
// 3. A kernel that uses __syncthreads or warp operations is launched on fibers
//    (GA_HOST_FIBER_ENTRY; the compile layer picks it from the source).  The same calls
//    inside a loop-launched kernel are a kernel bug: they set an error flag that the
//    launcher reports, instead of hanging.
#pragma once
#include <cmath>
#include <cstdlib>
#include <ucontext.h>
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

static int error = 0;                 // set when a launch hit a kernel bug (see the Note)
static const char* error_what = "";
static unsigned char* shared_buf = nullptr;
static size_t shared_bytes = 0;
static int mode = 0;                  // 0: loop launch, 1: fiber launch

inline void* dynamic_shared() { return shared_buf; }
inline void fail(const char* what) { if (!error) { error = 1; error_what = what; } }

// ---- fibers (Note [CPU fibers]) ----------------------------------------------------
// Each thread of a block is a ucontext fiber on one OS thread.  The scheduler runs every
// ready fiber until it finishes or waits (block barrier or warp exchange), then releases
// a warp whose lanes all wait at the same warp operation, else the block if every thread
// waits at the same __syncthreads; anything else (threads exited while others wait, or
// waiting at different barriers) is a kernel bug reported as an error, never a hang.
enum { F_READY, F_DONE, F_WAIT_BLOCK, F_WAIT_WARP };
struct Fiber { ucontext_t ctx; int state; long id; };
static const size_t kStack = 64 * 1024;
static const int kMaxBlock = 1024;
static Fiber* fibers = nullptr;
static int cur = 0;
static unsigned nblock = 0;
static ucontext_t sched_ctx;
static void (*body)(void*) = nullptr;
static void* body_arg = nullptr;
static unsigned char slots[kMaxBlock][16];   // warp-exchange mailbox, one per thread

inline void fiber_main() {
    body(body_arg);
    fibers[cur].state = F_DONE;    // returning resumes the scheduler (uc_link)
}

inline void wait_as(int state, long id) {
    fibers[cur].state = state;
    fibers[cur].id = id;
    swapcontext(&fibers[cur].ctx, &sched_ctx);
}

inline void barrier(long site) {
    if (mode != 1) { fail("__syncthreads"); return; }
    wait_as(F_WAIT_BLOCK, site);
}

inline bool warp_sync(long id) {
    if (mode != 1) { fail("a warp operation (shuffle/ballot)"); return false; }
    wait_as(F_WAIT_WARP, id);
    return true;
}

inline int run_block(char* stacks) {
    for (unsigned t = 0; t < nblock; ++t) {
        Fiber& f = fibers[t];
        getcontext(&f.ctx);
        f.ctx.uc_stack.ss_sp = stacks + t * kStack;
        f.ctx.uc_stack.ss_size = kStack;
        f.ctx.uc_link = &sched_ctx;
        makecontext(&f.ctx, (void (*)())fiber_main, 0);
        f.state = F_READY;
    }
    const unsigned ws = GA_WARP_SIZE;
    for (;;) {
        for (unsigned t = 0; t < nblock; ++t) {
            if (fibers[t].state != F_READY) continue;
            cur = (int)t;
            threadIdx.x = t;
            swapcontext(&sched_ctx, &fibers[t].ctx);
            if (error) return 1;
        }
        unsigned done = 0;
        for (unsigned t = 0; t < nblock; ++t) done += fibers[t].state == F_DONE;
        if (done == nblock) return 0;
        bool released = false;
        for (unsigned w = 0; w * ws < nblock; ++w) {
            unsigned lo = w * ws, hi = lo + ws < nblock ? lo + ws : nblock;
            bool any = false, all = true;
            for (unsigned t = lo; t < hi; ++t) {
                if (fibers[t].state == F_WAIT_WARP) any = true;
                if (fibers[t].state != F_WAIT_WARP || fibers[t].id != fibers[lo].id) all = false;
            }
            if (!any) continue;
            if (!all) { fail("a warp operation not reached by every lane of its warp"); return 1; }
            for (unsigned t = lo; t < hi; ++t) fibers[t].state = F_READY;
            released = true;
        }
        if (released) continue;
        long site = -1;
        for (unsigned t = 0; t < nblock; ++t) {
            if (fibers[t].state == F_DONE) {
                fail("__syncthreads not reached by every thread of the block");
                return 1;
            }
            if (site == -1) site = fibers[t].id;
            if (fibers[t].id != site) {
                fail("threads waiting at different __syncthreads calls");
                return 1;
            }
        }
        for (unsigned t = 0; t < nblock; ++t) fibers[t].state = F_READY;
    }
}

template <auto K, class... P, std::size_t... I>
inline void call_unpacked(void** args, std::index_sequence<I...>) {
    K(*static_cast<std::remove_reference_t<P>*>(args[I])...);
}
template <auto K, class... P>
inline void thunk(void* a) { call_unpacked<K, P...>((void**)a, std::index_sequence_for<P...>{}); }
template <auto K, class... P>
constexpr void (*thunk_of(void (*)(P...)))(void*) { return &thunk<K, P...>; }

template <auto K>
inline int launch_fibers(unsigned grid, unsigned block, void** args) {
    error = 0;
    if (block > (unsigned)kMaxBlock) { fail("block larger than 1024 threads"); return error; }
    char* stacks = (char*)std::malloc(block * kStack);
    Fiber* fs = (Fiber*)std::malloc(block * sizeof(Fiber));
    if (!stacks || !fs) { std::free(stacks); std::free(fs); fail("out of host memory for fibers"); return error; }
    fibers = fs;
    nblock = block;
    body = thunk_of<K>(K);
    body_arg = args;
    mode = 1;
    gridDim.x = grid; blockDim.x = block;
    for (unsigned b = 0; b < grid && !error; ++b) {
        blockIdx.x = b;
        run_block(stacks);
    }
    mode = 0;
    std::free(stacks);
    std::free(fs);
    return error;
}

// Warp exchange: write my value, sync the warp, read the source lane's, sync again so
// the mailbox is not overwritten before every lane has read it.
template <class T>
inline T exchange(T v, int kind, int arg) {
    static_assert(sizeof(T) <= 16, "warp shuffles move at most 16 bytes");
    unsigned tid = threadIdx.x, ws = GA_WARP_SIZE, lane = tid % ws, base = tid - lane;
    std::memcpy(slots[tid], &v, sizeof(T));
    if (!warp_sync(1000001)) return v;
    int src;
    switch (kind) {
        case 0: src = (int)lane + arg; break;                  // down
        case 1: src = (int)lane - arg; break;                  // up
        case 2: src = (int)(lane ^ (unsigned)arg); break;      // xor
        default: src = ((arg % (int)ws) + (int)ws) % (int)ws;   // indexed
    }
    T r = v;
    if (src >= 0 && src < (int)ws && base + src < nblock) std::memcpy(&r, slots[base + src], sizeof(T));
    warp_sync(1000002);
    return r;
}
template <class T> inline T shfl_down(T v, int d) { return exchange(v, 0, d); }
template <class T> inline T shfl_up(T v, int d) { return exchange(v, 1, d); }
template <class T> inline T shfl_xor(T v, int m) { return exchange(v, 2, m); }
template <class T> inline T shfl(T v, int l) { return exchange(v, 3, l); }
inline unsigned long long ballot(int p) {
    unsigned tid = threadIdx.x, ws = GA_WARP_SIZE, lane = tid % ws, base = tid - lane;
    slots[tid][0] = p != 0;
    if (!warp_sync(1000003)) return 0;
    unsigned long long m = 0;
    for (unsigned l = 0; l < ws && base + l < nblock; ++l) m |= (unsigned long long)slots[base + l][0] << l;
    warp_sync(1000004);
    (void)lane;
    return m;
}

// Loop launch: unpack void** kernel arguments (the cuLaunchKernel convention) once, then
// run the kernel for every (block, thread).  K is a template constant, so the body
// inlines into the loop and by-value parameters (Strided<N>, ~800 bytes) are not copied
// per element.
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
    mode = 0;
    unpack<K>(K, grid, block, args, arity_seq(K));
    return error;
}
}  // namespace ga_host

// CUDA/HIP spellings on the CPU device (masks and widths are ignored: full warps).
#define __syncthreads() ga_host::barrier(__LINE__)
#define __syncwarp(...) ((void)ga_host::exchange(0, 3, 0))
#define warpSize GA_WARP_SIZE
template <class T> inline T __shfl_down_sync(unsigned long long, T v, int d, int = GA_WARP_SIZE) { return ga_host::shfl_down(v, d); }
template <class T> inline T __shfl_up_sync(unsigned long long, T v, int d, int = GA_WARP_SIZE) { return ga_host::shfl_up(v, d); }
template <class T> inline T __shfl_xor_sync(unsigned long long, T v, int m, int = GA_WARP_SIZE) { return ga_host::shfl_xor(v, m); }
template <class T> inline T __shfl_sync(unsigned long long, T v, int l, int = GA_WARP_SIZE) { return ga_host::shfl(v, l); }
template <class T> inline T __shfl_down(T v, int d, int = GA_WARP_SIZE) { return ga_host::shfl_down(v, d); }
template <class T> inline T __shfl_up(T v, int d, int = GA_WARP_SIZE) { return ga_host::shfl_up(v, d); }
template <class T> inline T __shfl_xor(T v, int m, int = GA_WARP_SIZE) { return ga_host::shfl_xor(v, m); }
template <class T> inline T __shfl(T v, int l, int = GA_WARP_SIZE) { return ga_host::shfl(v, l); }
// Votes honour the mask, as CUDA's do; ballots are GA_WARP_SIZE bits wide.  CUDA code's
// full mask 0xffffffff means the whole warp, also at warp size 64.
inline unsigned long long ga_lane_mask(unsigned long long m) { return (GA_WARP_SIZE == 64 && m == 0xffffffffull) ? ~0ull : m; }
inline unsigned long long __ballot_sync(unsigned long long mask, int p) { return ga_host::ballot(p) & ga_lane_mask(mask); }
inline unsigned long long __ballot(int p) { return ga_host::ballot(p); }
inline int __any_sync(unsigned long long mask, int p) { return (ga_host::ballot(p) & ga_lane_mask(mask)) != 0; }
inline int __all_sync(unsigned long long mask, int p) { return (ga_host::ballot(!p) & ga_lane_mask(mask)) == 0; }
inline int __any(int p) { return ga_host::ballot(p) != 0; }
inline int __all(int p) { return ga_host::ballot(!p) == 0; }

// Atomics: one OS thread runs a launch (fibers switch only at barriers and warp
// operations), so a plain read-modify-write is atomic with respect to the kernel's
// other threads.  The integer atomicAdd overloads use real host atomics anyway; the
// generic templates (float add, max, min, exch, CAS) are plain read-modify-writes and
// would need __atomic builtins before launches ever run on several OS threads.
template <class T> inline T atomicAdd(T* p, T v) { T old = *p; *p = old + v; return old; }
inline int atomicAdd(int* p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
inline unsigned atomicAdd(unsigned* p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
template <class T> inline T atomicMax(T* p, T v) { T old = *p; if (v > old) *p = v; return old; }
template <class T> inline T atomicMin(T* p, T v) { T old = *p; if (v < old) *p = v; return old; }
template <class T> inline T atomicExch(T* p, T v) { T old = *p; *p = v; return old; }
template <class T> inline T atomicCAS(T* p, T cmp, T v) { T old = *p; if (old == cmp) *p = v; return old; }

// One C entry point per instantiated kernel: int NAME(grid, block, void** args)
// returns 0, or 1 when the kernel used a barrier/warp operation (see the Note).
#define GA_HOST_ENTRY(entry, ...)                                                   \
    extern "C" __attribute__((visibility("default")))                               \
    int entry(unsigned grid, unsigned block, void** args) {                         \
        return ga_host::launch<&__VA_ARGS__>(grid, block, args);                    \
    }
#define GA_HOST_FIBER_ENTRY(entry, ...)                                             \
    extern "C" __attribute__((visibility("default")))                               \
    int entry(unsigned grid, unsigned block, void** args) {                         \
        return ga_host::launch_fibers<&__VA_ARGS__>(grid, block, args);             \
    }
extern "C" __attribute__((visibility("default"))) const char* ga_host_error_what() {
    return ga_host::error_what;
}
extern "C" __attribute__((visibility("default"))) int ga_host_set_dynamic_shared(size_t n) {
    if (n > ga_host::shared_bytes) {
        std::free(ga_host::shared_buf);
        ga_host::shared_buf = (unsigned char*)std::calloc(n, 1);
        ga_host::shared_bytes = ga_host::shared_buf ? n : 0;
    }
    return ga_host::shared_buf || n == 0 ? 0 : 1;
}
