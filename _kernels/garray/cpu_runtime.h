// The CPU device's host runtime (docs/architecture.md, "The CPU device"), included by platform.h when
// GARRAY_HOST is defined.
//
// Note [CPU launches]
// ~~~~~~~~~~~~~~~~~~~
// 1. A kernel without barriers or warp operations runs as plain loops over blocks and
//    threads (ga_host::launch below), compiled in the same translation unit as the
//    kernel so the body inlines into the loop.
// 2. threadIdx/blockIdx/blockDim/gridDim, the error flag, the mode and the dynamic
//    shared buffer are thread_local: a block runs on one OS thread, while the launch
//    layer releases the GIL around large launches and splits a built-in kernel's grid
//    over the launch pool (cython/_cpu_pool.h; the NAME_r range entries below).  Static
//    __shared__ variables are thread_local for the same reason.
// 3. A kernel that uses __syncthreads or warp operations is launched on fibers
//    (GA_HOST_USER_ENTRY; the compile layer picks it from the source).  The same calls
//    inside a loop-launched kernel are a kernel bug: they set an error flag that the
//    launcher reports, instead of hanging.
// 4. User kernels' fiber stacks and dynamic shared memory end at guard pages, and a
//    fault there becomes an error code instead of a crash (Note [CPU launch guards]).
#pragma once
#include <atomic>
#include <cmath>
#include <csetjmp>
#include <cstdlib>
// glibc's <signal.h> includes <unistd.h> (for SIGSTKSZ), whose names (sync, ...) would
// clash with user kernels of the same name: skip it, garray needs none of them.
#if defined(__GLIBC__) && !defined(_UNISTD_H)
#  define _UNISTD_H 1
#  include <csignal>
#  undef _UNISTD_H
#else
#  include <csignal>
#endif
#include <sys/mman.h>
#include <ucontext.h>
#include <cstring>
#include <cstdint>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "cpu_vector_math.h"

// GA_NOSAN: the runtime's own code, never instrumented in a sanitizer build (Note [CPU
// sanitizer] in cpu_sanitizer.h): only the kernels' loads and stores are checked.
#if defined(GA_CPU_SANITIZE)
#  define GA_NOSAN __attribute__((no_sanitize_thread))
#else
#  define GA_NOSAN
#endif

struct ga_dim3 {
    unsigned int x, y, z;
};

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
// Static shared memory is per block, and a block runs on one OS thread.
#define __shared__ static thread_local

// Launch state is per OS thread (Note [CPU launches], 2).  Constant-initialised
// thread_local ints cost no init call.
// Every variable of the runtime is `inline` (one definition per shared library), not
// `static` (one per translation unit): the ahead-of-time library links many units, and
// an inline function of one (fiber_main, flat_index ...) may be the copy another calls,
// so they must all see the same state.  Hidden visibility keeps it per library.
// One thread_local object for the launch state a loop launch touches, so that a launch
// pays one TLS address lookup (__tls_get_addr in a shared library), not one per variable.
struct ga_launch_state {
    ga_dim3 thread_idx, block_idx, block_dim, grid_dim;
    int error;      // set when a launch hit a kernel bug
    int mode;       // 0: loop launch, 1: fiber launch
};
inline thread_local ga_launch_state ga_launch = {{0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, 0, 0};
#define threadIdx (ga_launch.thread_idx)
#define blockIdx (ga_launch.block_idx)
#define blockDim (ga_launch.block_dim)
#define gridDim (ga_launch.grid_dim)

namespace ga_host {
template <class... P> constexpr std::index_sequence_for<P...> arity_seq(void (*)(P...)) { return {}; }

// Launch results (the entry's return value; garray/kernels/_raw.py turns them into exceptions).
enum { OK = 0, KERNEL_BUG = 1, STACK_OVERFLOW = 2, SHARED_OVERRUN = 3, BAD_LAUNCH = 4,
       NO_MEMORY = 5, SANITIZER = 6 };

inline thread_local const char* error_what = "";
inline thread_local unsigned char* shared_buf = nullptr;   // this launch's dynamic shared
inline thread_local size_t pending_shared = 0;     // bytes for the next launch (see entries)
inline std::atomic<size_t> fiber_stack{256 * 1024};  // GARRAY_CPU_FIBER_STACK, set by kernels/_raw.py

GA_NOSAN inline void* dynamic_shared() { return shared_buf; }
// The last failure's description, process-wide: a launch split over the pool fails on a
// worker, and the launcher reads the message on its own thread.
inline std::atomic<const char*> last_what{""};
GA_NOSAN inline int fail(const char* what, int code = KERNEL_BUG) {
    if (!ga_launch.error) { ga_launch.error = code; error_what = what; last_what.store(what); }
    return ga_launch.error;
}

#include "cpu_guards.h"

// ---- fibers (Note [CPU fibers]) ----------------------------------------------------
// Each thread of a block is a ucontext fiber on one OS thread.  The scheduler runs every
// ready fiber until it finishes or waits (block barrier or warp exchange), then releases
// a warp whose lanes all wait at the same warp operation, else the block if every thread
// waits at the same __syncthreads; anything else (threads exited while others wait, or
// waiting at different barriers) is a kernel bug reported as an error, never a hang.
// The sanitizer build (Note [CPU sanitizer]) runs the ready fibers in a seeded
// permutation, tells the shadow memory of every barrier and warp release, and checks
// the lanes' masks.
enum { F_READY, F_DONE, F_WAIT_BLOCK, F_WAIT_WARP };
struct Fiber { ucontext_t ctx; int state; long id; unsigned long long mask; unsigned char slot[16]; };
inline thread_local Fiber* fibers = nullptr;   // this launch's block, slot = warp mailbox
inline thread_local int cur = 0;
inline thread_local unsigned nblock = 0;
inline thread_local ucontext_t sched_ctx;
inline thread_local void (*body)(void*) = nullptr;
inline thread_local void* body_arg = nullptr;
}  // namespace ga_host

#if defined(GA_CPU_SANITIZE)
#  include <mutex>
#  include "cpu_sanitizer.h"
#  define GA_SAN(...) __VA_ARGS__
#else
#  define GA_SAN(...)
#endif

namespace ga_host {
GA_NOSAN inline void fiber_main() {
    body(body_arg);
    fibers[cur].state = F_DONE;    // returning resumes the scheduler (uc_link)
}

GA_NOSAN inline void wait_as(int state, long id) {
    fibers[cur].state = state;
    fibers[cur].id = id;
    swapcontext(&fibers[cur].ctx, &sched_ctx);
}

GA_NOSAN inline void barrier(long site) {
    if (ga_launch.mode != 1) { fail("__syncthreads"); return; }
#if defined(GA_CPU_SANITIZE)
    if (site == san::drop_line.load(std::memory_order_relaxed)) return;   // a mutant
    {
        san::st.busy = true;        // the lock's own memory is not the kernel's
        std::lock_guard<std::mutex> g(san::sites_lock);
        bool seen = false;
        for (int i = 0; i < san::nsites; ++i) seen |= san::sites[i] == site;
        if (!seen && san::nsites < 256) san::sites[san::nsites++] = site;
        san::st.busy = false;
    }
#endif
    wait_as(F_WAIT_BLOCK, site);
}

GA_NOSAN inline bool warp_sync(long id) {
    if (ga_launch.mode != 1) { fail("a warp operation (shuffle/ballot)"); return false; }
    wait_as(F_WAIT_WARP, id);
    return true;
}

// A kernel bug the scheduler found: a sanitizer `sync` finding in the sanitizer build.
GA_NOSAN inline int sync_bug(const char* what) {
#if defined(GA_CPU_SANITIZE)
    if (san::enabled(san::SYNC)) { san::sync_error(what); return 1; }
#endif
    fail(what);
    return 1;
}

// Whether lanes [lo, hi) of a warp may be released together: in the sanitizer build,
// every lane's mask names it and the lanes agree on the mask.
GA_NOSAN inline bool warp_masks_ok(unsigned lo, unsigned hi) {
#if defined(GA_CPU_SANITIZE)
    if (!san::enabled(san::SYNC)) return true;
    for (unsigned t = lo; t < hi; ++t) {
        if (!((fibers[t].mask >> (t - lo)) & 1)) {
            std::snprintf(san::st.msg, sizeof san::st.msg,
                          "lane %u (thread %u of block %u) calls a warp operation whose mask "
                          "0x%llx leaves it out", t - lo, t, blockIdx.x, fibers[t].mask);
            san::sync_error(nullptr);
            return false;
        }
        if (fibers[t].mask != fibers[lo].mask) {
            std::snprintf(san::st.msg, sizeof san::st.msg,
                          "lanes %u and %u (block %u) call one warp operation with different "
                          "masks 0x%llx and 0x%llx", 0u, t - lo, blockIdx.x, fibers[lo].mask,
                          fibers[t].mask);
            san::sync_error(nullptr);
            return false;
        }
    }
#else
    (void)lo; (void)hi;
#endif
    return true;
}

GA_NOSAN inline int run_block(char* stacks, size_t stack) {
    for (unsigned t = 0; t < nblock; ++t) {
        Fiber& f = fibers[t];
        getcontext(&f.ctx);
        f.ctx.uc_stack.ss_sp = stacks + t * (kGuard + stack) + kGuard;
        f.ctx.uc_stack.ss_size = stack;
        f.ctx.uc_link = &sched_ctx;
        makecontext(&f.ctx, (void (*)())fiber_main, 0);
        f.state = F_READY;
        f.mask = ~0ull;
    }
    const unsigned ws = GA_WARP_SIZE;
    unsigned order[kMaxBlock];
    for (unsigned t = 0; t < nblock; ++t) order[t] = t;
    GA_SAN(san::new_block();)
    for (;;) {
        GA_SAN(san::shuffle(order, nblock);)
        for (unsigned i = 0; i < nblock; ++i) {
            unsigned t = order[i];
            if (fibers[t].state != F_READY) continue;
            cur = (int)t;
            threadIdx.x = t;
            swapcontext(&sched_ctx, &fibers[t].ctx);
            if (ga_launch.error) return 1;
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
            if (!all) return sync_bug("a warp operation not reached by every lane of its warp");
            if (!warp_masks_ok(lo, hi)) return 1;
            for (unsigned t = lo; t < hi; ++t) fibers[t].state = F_READY;
            GA_SAN(san::on_warp(w);)
            released = true;
        }
        if (released) continue;
        long site = -1;
        for (unsigned t = 0; t < nblock; ++t) {
            if (fibers[t].state == F_DONE)
                return sync_bug("__syncthreads not reached by every thread of the block");
            if (site == -1) site = fibers[t].id;
            if (fibers[t].id != site)
                return sync_bug("threads waiting at different __syncthreads calls");
        }
        for (unsigned t = 0; t < nblock; ++t) fibers[t].state = F_READY;
        GA_SAN(san::on_barrier();)
    }
}

template <auto K, class... P, std::size_t... I>
GA_NOSAN inline void call_unpacked(void** args, std::index_sequence<I...>) {
    K(*static_cast<std::remove_reference_t<P>*>(args[I])...);
}
template <auto K, class... P>
GA_NOSAN inline void thunk(void* a) { call_unpacked<K, P...>((void**)a, std::index_sequence_for<P...>{}); }
template <auto K, class... P>
constexpr void (*thunk_of(void (*)(P...)))(void*) { return &thunk<K, P...>; }
// The bytes of each parameter (the sanitizer's parameter regions and pointer words).
template <class... P>
GA_NOSAN inline size_t param_sizes(void (*)(P...), size_t* out) {
    size_t n = 0;
    ((out[n++] = sizeof(std::remove_reference_t<P>)), ...);
    return n;
}
// What each parameter is, for the GPU stubs' hazard checker (GA_HOST_PARAM_INFO): 'r' a
// pointer to const (the kernel reads through it), 'x' another pointer (reads and
// writes), 's' anything else (a scalar, or a struct such as Strided<N>, passed by value).
template <class P> constexpr char param_kind() {
    using T = std::remove_reference_t<P>;
    if constexpr (std::is_pointer_v<T>)
        return std::is_const_v<std::remove_pointer_t<T>> ? 'r' : 'x';
    return 's';
}
template <class... P>
GA_NOSAN inline int param_info(void (*)(P...), unsigned long long* sizes, char* kinds, int max) {
    int n = 0;
    ((n < max ? (sizes[n] = sizeof(std::remove_reference_t<P>), kinds[n] = param_kind<P>()) : 0,
      ++n), ...);
    return n;
}

// Warp exchange: write my value, sync the warp, read the source lane's, sync again so
// the mailbox is not overwritten before every lane has read it.  `site` (the sanitizer
// build's call line) tells warp operations apart; `mask` is checked there (Note [CPU
// sanitizer], 6).
inline long warp_id(long site, int phase) {
#if defined(GA_CPU_SANITIZE)
    if (site) return 2000000 + 2 * site + phase;
#endif
    (void)site;
    return 1000001 + phase;
}
template <class T>
GA_NOSAN inline T exchange(T v, int kind, int arg, unsigned long long mask = ~0ull, long site = 0) {
    static_assert(sizeof(T) <= 16, "warp shuffles move at most 16 bytes");
    unsigned tid = threadIdx.x, ws = GA_WARP_SIZE, lane = tid % ws, base = tid - lane;
    std::memcpy(fibers[tid].slot, &v, sizeof(T));
    fibers[tid].mask = mask;
    if (!warp_sync(warp_id(site, 0))) return v;
    int src;
    switch (kind) {
        case 0: src = (int)lane + arg; break;                  // down
        case 1: src = (int)lane - arg; break;                  // up
        case 2: src = (int)(lane ^ (unsigned)arg); break;      // xor
        default: src = ((arg % (int)ws) + (int)ws) % (int)ws;   // indexed
    }
    T r = v;
    if (src >= 0 && src < (int)ws && base + src < nblock) std::memcpy(&r, fibers[base + src].slot, sizeof(T));
    warp_sync(warp_id(site, 1));
    return r;
}
template <class T> GA_NOSAN inline T shfl_down(T v, int d, unsigned long long m = ~0ull, long site = 0) { return exchange(v, 0, d, m, site); }
template <class T> GA_NOSAN inline T shfl_up(T v, int d, unsigned long long m = ~0ull, long site = 0) { return exchange(v, 1, d, m, site); }
template <class T> GA_NOSAN inline T shfl_xor(T v, int x, unsigned long long m = ~0ull, long site = 0) { return exchange(v, 2, x, m, site); }
template <class T> GA_NOSAN inline T shfl(T v, int l, unsigned long long m = ~0ull, long site = 0) { return exchange(v, 3, l, m, site); }
GA_NOSAN inline unsigned long long ballot(int p, unsigned long long mask = ~0ull, long site = 0) {
    unsigned tid = threadIdx.x, ws = GA_WARP_SIZE, lane = tid % ws, base = tid - lane;
    fibers[tid].slot[0] = p != 0;
    fibers[tid].mask = mask;
    if (!warp_sync(warp_id(site, 0) + 4)) return 0;
    unsigned long long m = 0;
    for (unsigned l = 0; l < ws && base + l < nblock; ++l) m |= (unsigned long long)fibers[base + l].slot[0] << l;
    warp_sync(warp_id(site, 1) + 4);
    (void)lane;
    return m;
}

// Loop launch: unpack void** kernel arguments (the cuLaunchKernel convention) once, then
// run the kernel for every (block, thread) of blocks [b0, b1).  K is a template constant,
// and `flatten` inlines its body (and what it calls) into the loop: by-value parameters
// (Strided<N>, ~800 bytes) are not copied per element, and the thread_local index
// variables' address is computed once per launch instead of by a __tls_get_addr call per
// element, which made strided kernels 2x slower when the kernel stayed a call.
template <auto K, class... P>
__attribute__((flatten)) inline void loops(unsigned b0, unsigned b1, unsigned grid,
                                           unsigned block, std::remove_reference_t<P>&... p) {
    gridDim.x = grid; blockDim.x = block;
    for (unsigned b = b0; b < b1; ++b) {
        blockIdx.x = b;
        for (unsigned t = 0; t < block; ++t) {
            threadIdx.x = t;
            K(p...);
        }
    }
}

template <auto K, class... P, std::size_t... I>
inline void unpack(void (*)(P...), unsigned b0, unsigned b1, unsigned grid, unsigned block,
                   void** args, std::index_sequence<I...>) {
    loops<K, P...>(b0, b1, grid, block, *static_cast<std::remove_reference_t<P>*>(args[I])...);
}

// Blocks [b0, b1) of a grid: the whole launch (0, grid), or one chunk of it on a thread
// of the launch pool (cython/_cpu_pool.h, Note [CPU launch pool]).
template <auto K>
inline int launch(unsigned b0, unsigned b1, unsigned grid, unsigned block, void** args) {
    ga_launch.error = 0;
    ga_launch.mode = 0;
    unpack<K>(K, b0, b1, grid, block, args, arity_seq(K));
    return ga_launch.error;
}

// A user kernel's launch (RawKernel): Fibers for kernels with barriers or warp
// operations, Guarded for those and for kernels that use dynamic shared memory (Note
// [CPU launch guards]).  The dynamic shared size is the one ga_host_set_dynamic_shared
// gave on this OS thread just before (the GPU stubs call it the same way); it is
// consumed here, so it never leaks into the next launch.  In the sanitizer build every
// kernel launches here, on fibers, its blocks in a seeded order.
template <auto K, bool Fibers, bool Guarded>
GA_NOSAN inline int launch_user(unsigned b0, unsigned b1, unsigned grid, unsigned block,
                                void** args, const char* name = "") {
    const size_t shared = pending_shared;
    pending_shared = 0;
    ga_launch.error = 0;
    error_what = "";
    ga_launch.mode = 0;
    (void)name;
    if (grid == 0 || block == 0 || block > (unsigned)kMaxBlock)
        return fail("a launch shape outside 1..1024 threads per block or an empty grid",
                    BAD_LAUNCH);
    if (!Guarded) {
        shared_buf = nullptr;
        unpack<K>(K, b0, b1, grid, block, args, arity_seq(K));
        return ga_launch.error;
    }
    unsigned char* buf = shared_buffer(shared);
    if (!buf) return fail("out of host memory for dynamic shared memory", NO_MEMORY);
    const size_t stack = round_up(fiber_stack.load(std::memory_order_relaxed), page_size());
    char* stacks = nullptr;
    Fiber* fs = nullptr;
    if (Fibers) {
        stacks = fiber_stacks(block, stack);
        fs = (Fiber*)std::malloc(block * sizeof(Fiber));
        if (!stacks || !fs) { std::free(fs); return fail("out of host memory for fibers", NO_MEMORY); }
    }
    if (!arm()) { std::free(fs); return fail("sigaction/sigaltstack failed", NO_MEMORY); }
#if defined(GA_CPU_SANITIZE)
    {
        size_t sizes[64];
        size_t np = param_sizes(K, sizes);
        san::begin(name, args, sizes, np);
        san::st.stack = {(uintptr_t)stack_region.base,
                         (uintptr_t)stack_region.base + (uintptr_t)stack_slots * stack_slot};
        san::st.dyn = {(uintptr_t)buf, (uintptr_t)(shared_region.base + shared_region.len - kGuard)};
    }
    unsigned* blocks = (unsigned*)std::malloc((size_t)(b1 - b0) * sizeof(unsigned));
    if (!blocks) { std::free(fs); disarm(); return fail("out of host memory for the block order", NO_MEMORY); }
    for (unsigned b = b0; b < b1; ++b) blocks[b - b0] = b;
    for (size_t i = b1 - b0; i > 1; --i) {
        size_t j = san::next_rand() % i;
        unsigned x = blocks[i - 1]; blocks[i - 1] = blocks[j]; blocks[j] = x;
    }
#endif
    sigjmp_buf jb;
    if (sigsetjmp(jb, 1) == 0) {
        jump = &jb;
        shared_buf = buf;
        gridDim.x = grid;
        blockDim.x = block;
        if (Fibers) {
            fibers = fs;
            nblock = block;
            body = thunk_of<K>(K);
            body_arg = args;
            ga_launch.mode = 1;
            GA_SAN(san::st.active = true;)
            for (unsigned b = b0; b < b1 && !ga_launch.error; ++b) {
#if defined(GA_CPU_SANITIZE)
                blockIdx.x = blocks[b - b0];
#else
                blockIdx.x = b;
#endif
                run_block(stacks, stack);
            }
        } else {
            unpack<K>(K, b0, b1, grid, block, args, arity_seq(K));
        }
    } else {
        fail(fault_code == STACK_OVERFLOW ? "fiber stack overflow"
                                          : "dynamic shared memory overrun", fault_code);
    }
    GA_SAN(san::end(); std::free(blocks);)
    jump = nullptr;
    disarm();
#if defined(GA_CPU_SANITIZE)
    // Every sanitizer build is a library of its own with its own stacks: give them back,
    // or hundreds of loaded builds exhaust the process's memory mappings.
    unmap_region(stack_region);
    stack_slots = 0;
    unmap_region(shared_region);
#endif
    ga_launch.mode = 0;
    fibers = nullptr;
    shared_buf = nullptr;
    std::free(fs);
    return ga_launch.error;
}
}  // namespace ga_host

#include "cpu_entries.h"
