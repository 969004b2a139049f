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
       NO_MEMORY = 5 };

inline thread_local const char* error_what = "";
inline thread_local unsigned char* shared_buf = nullptr;   // this launch's dynamic shared
inline thread_local size_t pending_shared = 0;     // bytes for the next launch (see entries)
inline std::atomic<size_t> fiber_stack{256 * 1024};  // GARRAY_CPU_FIBER_STACK, set by kernels/_raw.py

inline void* dynamic_shared() { return shared_buf; }
// The last failure's description, process-wide: a launch split over the pool fails on a
// worker, and the launcher reads the message on its own thread.
inline std::atomic<const char*> last_what{""};
inline int fail(const char* what, int code = KERNEL_BUG) {
    if (!ga_launch.error) { ga_launch.error = code; error_what = what; last_what.store(what); }
    return ga_launch.error;
}

// ---- guarded memory (Note [CPU launch guards]) -------------------------------------
// Note [CPU launch guards]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// 1. Fiber stacks and the dynamic shared buffer are mmap'd (MAP_NORESERVE: untouched
//    pages cost nothing) with PROT_NONE guard regions: below each stack, and on both
//    sides of the shared buffer, whose end is placed at the upper guard (rounded up to
//    16 bytes for alignment), so an access past shared_mem bytes faults.  User kernels
//    are compiled with -fstack-clash-protection, so a large frame touches the guard
//    below its stack before anything under it.
// 2. A guarded launch installs on_fault for SIGSEGV (SA_ONSTACK, on a per-thread
//    alternate stack when the thread has none: a stack overflow leaves no stack to run
//    a handler on), sets `jump`, and runs.  A fault inside one of this launch's guards
//    siglongjmps back to the launcher, which reports STACK_OVERFLOW or SHARED_OVERRUN;
//    any other fault restores the handler that was there before and returns, so the
//    fault repeats under it and a real crash still crashes.  The last guarded launch
//    running puts the old handler back when it ends (unless another handler replaced
//    ours meanwhile; a later fault then passes through ours to the one it replaced).
// 3. The handler reads only this thread's launch state (thread_local, touched by the
//    launch before it ran, so already allocated) and calls sigaction/siglongjmp, which
//    are async-signal-safe.
// 4. Regions are cached per OS thread (reused while big enough) and unmapped when the
//    thread exits.
// What stays unguarded: accesses that skip a whole guard (an index far past the shared
// buffer), out-of-bounds global memory, and overflows of the OS thread's own stack in
// loop-launched kernels.
struct Region {
    char* base = nullptr;
    size_t len = 0;
    ~Region() { if (base) munmap(base, len); }
};
static const size_t kGuard = 64 * 1024;
static const int kMaxBlock = 1024;
inline thread_local Region stack_region;    // [guard][stack 0][guard][stack 1]...
inline thread_local size_t stack_slot = 0;  // guard + stack bytes per fiber
inline thread_local unsigned stack_slots = 0;
inline thread_local Region shared_region;   // [guard][data][guard]
// The alternate signal stack garray gives a thread that has none; switched off before it
// is unmapped at thread exit.
struct AltStack : Region {
    ~AltStack() {
        stack_t cur;
        if (base && sigaltstack(nullptr, &cur) == 0 && cur.ss_sp == base) {
            stack_t off;
            std::memset(&off, 0, sizeof off);
            off.ss_flags = SS_DISABLE;
            sigaltstack(&off, nullptr);
        }
    }
};
inline thread_local AltStack alt_stack;
// volatile: only the signal handler reads them, so the compiler must not drop the stores
inline thread_local sigjmp_buf* volatile jump = nullptr;  // set while a guarded launch runs
inline thread_local volatile int fault_code = 0;
inline struct sigaction prev_segv;             // the handler on_fault replaced
inline int armed = 0;                          // guarded launches running (all threads)
inline std::atomic_flag arm_lock = ATOMIC_FLAG_INIT;

// Mappings are sized in 64 KiB units: a multiple of the page size on every Linux target
// (4, 16 or 64 KiB pages), without <unistd.h>'s names (a kernel may be called `sync`).
inline size_t page_size() { return 64 * 1024; }
inline size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

inline void on_fault(int sig, siginfo_t* si, void*) {
    sigjmp_buf* j = jump;
    if (j) {
        char* a = (char*)si->si_addr;
        const Region& s = stack_region;
        if (stack_slots && a >= s.base && a < s.base + (size_t)stack_slots * stack_slot &&
            (size_t)(a - s.base) % stack_slot < kGuard) {
            fault_code = STACK_OVERFLOW;
            siglongjmp(*j, 1);
        }
        const Region& r = shared_region;
        if (r.base && ((a >= r.base && a < r.base + kGuard) ||
                       (a >= r.base + r.len - kGuard && a < r.base + r.len))) {
            fault_code = SHARED_OVERRUN;
            siglongjmp(*j, 1);
        }
    }
    sigaction(sig, &prev_segv, nullptr);    // not ours: the fault repeats under the old handler
}

inline bool map_region(Region& r, size_t len) {
    void* p = mmap(nullptr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    r.base = (char*)p;
    r.len = len;
    return true;
}
inline void unmap_region(Region& r) {
    if (r.base) munmap(r.base, r.len);
    r.base = nullptr;
    r.len = 0;
}

// `block` fiber stacks of `stack` bytes each (a multiple of the page size).
inline char* fiber_stacks(unsigned block, size_t stack) {
    if (stack_region.base && stack_slot == kGuard + stack && stack_slots >= block)
        return stack_region.base;
    unmap_region(stack_region);
    stack_slots = 0;
    size_t slot = kGuard + stack;
    if (!map_region(stack_region, (size_t)block * slot)) return nullptr;
    for (unsigned t = 0; t < block; ++t) {
        if (mprotect(stack_region.base + t * slot + kGuard, stack, PROT_READ | PROT_WRITE)) {
            unmap_region(stack_region);
            return nullptr;
        }
    }
    stack_slot = slot;
    stack_slots = block;
    return stack_region.base;
}

// The dynamic shared buffer of `n` bytes, ending at the upper guard (n == 0: the guard
// itself, so any access faults).
inline unsigned char* shared_buffer(size_t n) {
    size_t data = round_up(n, page_size());
    if (!shared_region.base || shared_region.len - 2 * kGuard < data) {
        unmap_region(shared_region);
        if (!map_region(shared_region, data + 2 * kGuard)) return nullptr;
        if (data && mprotect(shared_region.base + kGuard, data, PROT_READ | PROT_WRITE)) {
            unmap_region(shared_region);
            return nullptr;
        }
    }
    return (unsigned char*)(shared_region.base + shared_region.len - kGuard - round_up(n, 16));
}

struct ArmLock {
    ArmLock() { while (arm_lock.test_and_set(std::memory_order_acquire)) {} }
    ~ArmLock() { arm_lock.clear(std::memory_order_release); }
};

inline bool ours(const struct sigaction& a) {
    return (a.sa_flags & SA_SIGINFO) && a.sa_sigaction == on_fault;
}

// Install on_fault for this launch (and an alternate signal stack on this thread).  The
// first of concurrent guarded launches installs it, the last puts the old one back.
inline bool arm() {
    (void)stack_region.base;     // construct the thread_locals the handler reads now,
    (void)shared_region.base;    // not inside the handler
    stack_t cur;
    if (sigaltstack(nullptr, &cur)) return false;
    if (cur.ss_flags & SS_DISABLE) {
        if (!alt_stack.base) {
            void* p = mmap(nullptr, 64 * 1024, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED) return false;
            alt_stack.base = (char*)p;
            alt_stack.len = 64 * 1024;
        }
        stack_t ss;
        ss.ss_sp = alt_stack.base;
        ss.ss_size = alt_stack.len;
        ss.ss_flags = 0;
        if (sigaltstack(&ss, nullptr)) return false;
    }
    ArmLock lock;
    struct sigaction now;
    if (sigaction(SIGSEGV, nullptr, &now)) return false;
    if (!ours(now)) {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_fault;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGSEGV, &sa, &prev_segv)) return false;
    }
    ++armed;
    return true;
}

inline void disarm() {
    ArmLock lock;
    struct sigaction now;
    if (--armed == 0 && sigaction(SIGSEGV, nullptr, &now) == 0 && ours(now))
        sigaction(SIGSEGV, &prev_segv, nullptr);
}

// ---- fibers (Note [CPU fibers]) ----------------------------------------------------
// Each thread of a block is a ucontext fiber on one OS thread.  The scheduler runs every
// ready fiber until it finishes or waits (block barrier or warp exchange), then releases
// a warp whose lanes all wait at the same warp operation, else the block if every thread
// waits at the same __syncthreads; anything else (threads exited while others wait, or
// waiting at different barriers) is a kernel bug reported as an error, never a hang.
enum { F_READY, F_DONE, F_WAIT_BLOCK, F_WAIT_WARP };
struct Fiber { ucontext_t ctx; int state; long id; unsigned char slot[16]; };
inline thread_local Fiber* fibers = nullptr;   // this launch's block, slot = warp mailbox
inline thread_local int cur = 0;
inline thread_local unsigned nblock = 0;
inline thread_local ucontext_t sched_ctx;
inline thread_local void (*body)(void*) = nullptr;
inline thread_local void* body_arg = nullptr;

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
    if (ga_launch.mode != 1) { fail("__syncthreads"); return; }
    wait_as(F_WAIT_BLOCK, site);
}

inline bool warp_sync(long id) {
    if (ga_launch.mode != 1) { fail("a warp operation (shuffle/ballot)"); return false; }
    wait_as(F_WAIT_WARP, id);
    return true;
}

inline int run_block(char* stacks, size_t stack) {
    for (unsigned t = 0; t < nblock; ++t) {
        Fiber& f = fibers[t];
        getcontext(&f.ctx);
        f.ctx.uc_stack.ss_sp = stacks + t * (kGuard + stack) + kGuard;
        f.ctx.uc_stack.ss_size = stack;
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

// Warp exchange: write my value, sync the warp, read the source lane's, sync again so
// the mailbox is not overwritten before every lane has read it.
template <class T>
inline T exchange(T v, int kind, int arg) {
    static_assert(sizeof(T) <= 16, "warp shuffles move at most 16 bytes");
    unsigned tid = threadIdx.x, ws = GA_WARP_SIZE, lane = tid % ws, base = tid - lane;
    std::memcpy(fibers[tid].slot, &v, sizeof(T));
    if (!warp_sync(1000001)) return v;
    int src;
    switch (kind) {
        case 0: src = (int)lane + arg; break;                  // down
        case 1: src = (int)lane - arg; break;                  // up
        case 2: src = (int)(lane ^ (unsigned)arg); break;      // xor
        default: src = ((arg % (int)ws) + (int)ws) % (int)ws;   // indexed
    }
    T r = v;
    if (src >= 0 && src < (int)ws && base + src < nblock) std::memcpy(&r, fibers[base + src].slot, sizeof(T));
    warp_sync(1000002);
    return r;
}
template <class T> inline T shfl_down(T v, int d) { return exchange(v, 0, d); }
template <class T> inline T shfl_up(T v, int d) { return exchange(v, 1, d); }
template <class T> inline T shfl_xor(T v, int m) { return exchange(v, 2, m); }
template <class T> inline T shfl(T v, int l) { return exchange(v, 3, l); }
inline unsigned long long ballot(int p) {
    unsigned tid = threadIdx.x, ws = GA_WARP_SIZE, lane = tid % ws, base = tid - lane;
    fibers[tid].slot[0] = p != 0;
    if (!warp_sync(1000003)) return 0;
    unsigned long long m = 0;
    for (unsigned l = 0; l < ws && base + l < nblock; ++l) m |= (unsigned long long)fibers[base + l].slot[0] << l;
    warp_sync(1000004);
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
// consumed here, so it never leaks into the next launch.
template <auto K, bool Fibers, bool Guarded>
inline int launch_user(unsigned b0, unsigned b1, unsigned grid, unsigned block, void** args) {
    const size_t shared = pending_shared;
    pending_shared = 0;
    ga_launch.error = 0;
    error_what = "";
    ga_launch.mode = 0;
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
            for (unsigned b = b0; b < b1 && !ga_launch.error; ++b) {
                blockIdx.x = b;
                run_block(stacks, stack);
            }
        } else {
            unpack<K>(K, b0, b1, grid, block, args, arity_seq(K));
        }
    } else {
        fail(fault_code == STACK_OVERFLOW ? "fiber stack overflow"
                                          : "dynamic shared memory overrun", fault_code);
    }
    jump = nullptr;
    disarm();
    ga_launch.mode = 0;
    fibers = nullptr;
    shared_buf = nullptr;
    std::free(fs);
    return ga_launch.error;
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

// Atomics are real host atomics (a large launch runs on several OS threads of the
// launch pool): one compare-and-swap loop serves every type and operation.
template <class T, class F> inline T ga_atomic_update(T* p, F f) {
    T old, nv;
    __atomic_load(p, &old, __ATOMIC_SEQ_CST);
    do { nv = f(old); } while (!__atomic_compare_exchange(p, &old, &nv, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return old;
}
template <class T> inline T atomicAdd(T* p, T v) { return ga_atomic_update(p, [v](T o) { return (T)(o + v); }); }
template <class T> inline T atomicMax(T* p, T v) { return ga_atomic_update(p, [v](T o) { return v > o ? v : o; }); }
template <class T> inline T atomicMin(T* p, T v) { return ga_atomic_update(p, [v](T o) { return v < o ? v : o; }); }
template <class T> inline T atomicExch(T* p, T v) { T old; __atomic_exchange(p, &v, &old, __ATOMIC_SEQ_CST); return old; }
template <class T> inline T atomicCAS(T* p, T cmp, T v) { __atomic_compare_exchange(p, &cmp, &v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return cmp; }

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
