// The CPU runtime's guarded memory (Note [CPU launch guards]): fiber stacks and the
// dynamic shared buffer between PROT_NONE guards, and the SIGSEGV handler that turns a
// fault in a guard into a launch error.  Included by cpu_runtime.h inside ga_host.
#pragma once

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
GA_NOSAN inline size_t page_size() { return 64 * 1024; }
GA_NOSAN inline size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

GA_NOSAN inline void on_fault(int sig, siginfo_t* si, void*) {
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

GA_NOSAN inline bool map_region(Region& r, size_t len) {
    void* p = mmap(nullptr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    r.base = (char*)p;
    r.len = len;
    return true;
}
GA_NOSAN inline void unmap_region(Region& r) {
    if (r.base) munmap(r.base, r.len);
    r.base = nullptr;
    r.len = 0;
}

// `block` fiber stacks of `stack` bytes each (a multiple of the page size).
GA_NOSAN inline char* fiber_stacks(unsigned block, size_t stack) {
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
GA_NOSAN inline unsigned char* shared_buffer(size_t n) {
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

GA_NOSAN inline bool ours(const struct sigaction& a) {
    return (a.sa_flags & SA_SIGINFO) && a.sa_sigaction == on_fault;
}

// Install on_fault for this launch (and an alternate signal stack on this thread).  The
// first of concurrent guarded launches installs it, the last puts the old one back.
GA_NOSAN inline bool arm() {
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

GA_NOSAN inline void disarm() {
    ArmLock lock;
    struct sigaction now;
    if (--armed == 0 && sigaction(SIGSEGV, nullptr, &now) == 0 && ours(now))
        sigaction(SIGSEGV, &prev_segv, nullptr);
}
