// The CPU device's kernel sanitizer (GARRAY_CPU_SANITIZE), included by cpu_runtime.h in
// the sanitizer build of a unit (GA_CPU_SANITIZE defined; garray/_compiler/gxx.py).
//
// Note [CPU sanitizer]
// ~~~~~~~~~~~~~~~~~~~~
// 1. The build.  The same kernel source, compiled by g++ with -fsanitize=thread: every
//    load and store of the kernel's code becomes a call of __tsan_readN/__tsan_writeN
//    (address), which this file defines (the object is linked without the TSan runtime,
//    and function entry/exit hooks are off).  The runtime's own functions are GA_NOSAN
//    (not instrumented), so only kernel code reports; memcpy/memset calls are not seen.
//    Every kernel of the build launches on fibers with the scheduler below.
// 2. Schedules.  In each barrier interval the ready threads run in a fresh seeded
//    permutation (warps and lanes alike; lanes meet only at warp operations), and the
//    blocks of a grid in a permuted order, so a result that depends on an order changes
//    with the seed (GARRAY_CPU_SANITIZE_SEED; the message of a finding names it).
// 3. Happens-before.  A thread's position is (block, k, wk): k counts the block's
//    barriers, wk its warp's warp operations and barriers.  An earlier access by another
//    thread is ordered before this one when it is of the same block and an earlier k,
//    or of the same warp and an earlier wk.  Blocks are never ordered.
// 4. Shadow memory, per launch: for every byte touched, the last write and up to two
//    reads (thread, block, k, wk, atomic), and whether more threads read it.  `race`:
//    an access that conflicts (a write, unless both are atomics) with one not ordered
//    before it.  `init`: a read of shared memory (static __shared__, or the dynamic
//    buffer) of which no byte was written by the block; a read with some bytes written
//    passes (struct padding).  Shared memory is per block: an access of another block
//    to the same bytes (the CPU reuses them) starts them afresh.  Static __shared__
//    variables (`static thread_local` on the CPU) announce themselves: the built-in
//    kernels by GA_SHARED_VAR after each declaration, user sources by the line the
//    compile layer adds after it (garray/_compiler/gxx.py); other thread-locals of the
//    CPU build (a tile's scratch buffer, the runtime's state) are host data, not checked.
// 5. `bounds`: a global access (not the fiber's stack, shared memory, the kernel's
//    parameters or the library's own data) must lie in an array that a parameter word
//    points into: the core's registry (cython/_san_registry.h) knows every array
//    allocated while the sanitizer is on, with the bytes it asked for, and the pool's
//    segments; each array allocated then gets a 64-byte redzone after it.  Reported:
//    bytes past the end of a passed array, inside an array the kernel was not given, or
//    in pool memory no array holds.  An access that lands inside another array passed
//    to the same kernel is not told from a legal one (the check knows addresses, not
//    which pointer an address came from).  Not judged: memory garray
//    did not allocate (wrapped NumPy arrays, DLPack imports) or allocated before the
//    sanitizer was turned on.
// 6. `sync`: a barrier not reached by every thread, or warp operations whose lanes
//    disagree (different call sites or masks), or whose mask leaves out a calling lane.
// 7. A finding stops the launch at once (the fiber never resumes) with SANITIZER and
//    a message naming the check, the kernel, the threads and the offset; the launch
//    layer raises garray.kernels.SanitizerError from it.
// 8. Mutants, for the tests that prove the checks can fail on real kernels:
//    ga_host_san_mutate drops the barrier of one source line, or treats one shared
//    write as not made; ga_host_san_sites lists the barrier lines launches passed.
#pragma once
#include <link.h>
#include <cstdio>
#include <mutex>

namespace ga_host {
namespace san {
enum { RACE = 1, INIT = 2, SYNC = 4, BOUNDS = 8 };
enum { W = 1, ATOMIC = 2 };

inline std::atomic<unsigned> mask{RACE | INIT | SYNC | BOUNDS};
inline std::atomic<unsigned long long> seed{0};
inline std::atomic<unsigned long long> launches{0};
inline std::atomic<long> drop_line{-1};        // mutant: the barrier of this line is skipped
inline std::atomic<long> skip_write{-1};       // mutant: this shared write (per launch) is not recorded
typedef int (*lookup_fn)(uintptr_t, uintptr_t*, size_t*, size_t*);
inline std::atomic<lookup_fn> lookup{nullptr};
inline std::mutex sites_lock;
inline long sites[256];                        // barrier lines passed (ga_host_san_sites)
inline int nsites = 0;

struct Acc { uint32_t blk, k, wk; uint16_t thr; uint8_t atomic, used; };
struct Cell { Acc w, r1, r2; uint8_t many; };
static const size_t kPage = 4096;
struct Range { uintptr_t lo, hi; };

struct PageSlot { uintptr_t page; Cell* cells; };
// Fixed-capacity range lists: the state is plain data, so its thread_local has no
// initialiser function (which this build would instrument, and the hook would re-enter).
template <int N> struct Ranges {
    Range r[N];
    int n;
    GA_NOSAN void clear() { n = 0; }
    GA_NOSAN void add(uintptr_t lo, uintptr_t hi) { if (n < N) r[n++] = {lo, hi}; }
};

// Per launch, on the launching OS thread (every fiber of the launch runs there).
struct State {
    bool active;
    bool busy;                  // inside the hook or a runtime call of library code
                                // (instrumented in this build too): not checked
    const char* kernel;
    unsigned long long launch_seed, rng;
    uint32_t k;
    uint32_t wk[kMaxBlock / 32 + 1];
    PageSlot* pages;            // open addressing by page number, `cap` a power of two
    size_t cap, count;
    uintptr_t last_page;
    Cell* last_cells;
    Ranges<64> params, allowed;
    Ranges<32> image, shared;   // shared: the static __shared__ variables met so far
    Range tls, dyn, stack, launch_state;
    long shared_writes;
    char msg[1024];
};
inline thread_local State st;

GA_NOSAN inline bool enabled(unsigned check) { return (mask.load(std::memory_order_relaxed) & check) != 0; }

GA_NOSAN inline unsigned long long next_rand() {
    unsigned long long x = st.rng;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    st.rng = x;
    return x;
}

// A permutation of 0..n-1 (Fisher-Yates on the seeded generator).
GA_NOSAN inline void shuffle(unsigned* order, unsigned n) {
    for (unsigned i = 0; i < n; ++i) order[i] = i;
    for (unsigned i = n; i > 1; --i) {
        unsigned j = (unsigned)(next_rand() % i);
        unsigned t = order[i - 1]; order[i - 1] = order[j]; order[j] = t;
    }
}

// ---- regions of the launch --------------------------------------------------------
struct PhdrArg { uintptr_t self; State* s; };
GA_NOSAN inline int on_phdr(struct dl_phdr_info* info, size_t, void* data) {
    PhdrArg* a = (PhdrArg*)data;
    bool mine = false;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& p = info->dlpi_phdr[i];
        if (p.p_type != PT_LOAD) continue;
        uintptr_t lo = info->dlpi_addr + p.p_vaddr, hi = lo + p.p_memsz;
        if (a->self >= lo && a->self < hi) mine = true;
    }
    if (!mine) return 0;
    a->s->image.clear();
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& p = info->dlpi_phdr[i];
        if (p.p_type == PT_LOAD)
            a->s->image.add(info->dlpi_addr + p.p_vaddr, info->dlpi_addr + p.p_vaddr + p.p_memsz);
        if (p.p_type == PT_TLS && info->dlpi_tls_data)
            a->s->tls = {(uintptr_t)info->dlpi_tls_data, (uintptr_t)info->dlpi_tls_data + p.p_memsz};
    }
    return 1;
}

GA_NOSAN inline bool in(const Range& r, uintptr_t a) { return a >= r.lo && a < r.hi; }

// A static __shared__ variable of `n` bytes (GA_SHARED_VAR).
GA_NOSAN inline void shared_var(const void* p, size_t n) {
    uintptr_t a = (uintptr_t)p;
    for (int i = 0; i < st.shared.n; ++i) if (st.shared.r[i].lo == a) return;
    st.shared.add(a, a + n);
}

// The launch's regions: this library's image and thread-local block, the kernel's
// parameters, and the arrays its parameter words point into (Note [CPU sanitizer], 5).
GA_NOSAN inline void begin(const char* kernel, void** args, const size_t* sizes, size_t nargs) {
    st.kernel = kernel;
    st.busy = false;
    st.last_page = 0;
    st.last_cells = nullptr;
    st.params.clear();
    st.allowed.clear();
    st.shared_writes = 0;
    st.shared.clear();
    st.k = 0;
    unsigned long long n = launches.fetch_add(1);
    st.launch_seed = seed.load() ^ (n * 0x9E3779B97F4A7C15ull);
    st.rng = st.launch_seed | 1;
    PhdrArg pa{(uintptr_t)&on_phdr, &st};
    st.tls = {0, 0};
    dl_iterate_phdr(on_phdr, &pa);
    st.launch_state = {(uintptr_t)&ga_launch, (uintptr_t)&ga_launch + sizeof ga_launch};
    lookup_fn look = lookup.load();
    for (size_t i = 0; i < nargs; ++i) {
        uintptr_t p = (uintptr_t)args[i];
        st.params.add(p, p + sizes[i]);
        for (size_t off = 0; off + 8 <= sizes[i]; off += 8) {
            uintptr_t w;
            std::memcpy(&w, (const char*)args[i] + off, 8);
            if (w < 4096) continue;
            uintptr_t base; size_t len, cap;
            int kind = look ? look(w, &base, &len, &cap) : 0;
            if (kind == 1) st.allowed.add(base, base + len);
        }
    }
}

GA_NOSAN inline void end() {
    st.active = false;
    for (size_t i = 0; i < st.cap; ++i) std::free(st.pages[i].cells);
    std::free(st.pages);
    st.pages = nullptr;
    st.cap = st.count = 0;
    st.last_page = 0;
    st.last_cells = nullptr;
    st.active = false;
}

GA_NOSAN inline void new_block() {
    st.k = 0;
    for (auto& w : st.wk) w = 0;
}
GA_NOSAN inline void on_barrier() {
    ++st.k;
    for (auto& w : st.wk) ++w;
}
GA_NOSAN inline void on_warp(unsigned w) { ++st.wk[w]; }

GA_NOSAN inline Cell* cell(uintptr_t a) {
    uintptr_t page = a / kPage;
    if (page != st.last_page || !st.last_cells) {
        if (2 * (st.count + 1) > st.cap) {           // grow, keeping the table half empty
            size_t cap = st.cap ? 2 * st.cap : 64;
            PageSlot* t = (PageSlot*)std::calloc(cap, sizeof(PageSlot));
            if (!t) return nullptr;
            for (size_t i = 0; i < st.cap; ++i) {
                if (!st.pages[i].cells) continue;
                size_t j = (st.pages[i].page * 0x9E3779B97F4A7C15ull) & (cap - 1);
                while (t[j].cells) j = (j + 1) & (cap - 1);
                t[j] = st.pages[i];
            }
            std::free(st.pages);
            st.pages = t;
            st.cap = cap;
        }
        size_t j = (page * 0x9E3779B97F4A7C15ull) & (st.cap - 1);
        while (st.pages[j].cells && st.pages[j].page != page) j = (j + 1) & (st.cap - 1);
        if (!st.pages[j].cells) {
            Cell* c = (Cell*)std::calloc(kPage, sizeof(Cell));
            if (!c) return nullptr;
            st.pages[j] = {page, c};
            ++st.count;
        }
        st.last_page = page;
        st.last_cells = st.pages[j].cells;
    }
    return st.last_cells + a % kPage;
}

GA_NOSAN inline Acc now(bool atomic) {
    Acc c;
    c.blk = blockIdx.x;
    c.thr = (uint16_t)threadIdx.x;
    c.k = st.k;
    c.wk = st.wk[threadIdx.x / GA_WARP_SIZE];
    c.atomic = atomic;
    c.used = 1;
    return c;
}

// Whether access p happens before the current access c (Note [CPU sanitizer], 3).
GA_NOSAN inline bool ordered(const Acc& p, const Acc& c) {
    if (!p.used) return true;
    if (p.blk != c.blk) return false;
    if (p.thr == c.thr || p.k < c.k) return true;
    return p.thr / GA_WARP_SIZE == c.thr / GA_WARP_SIZE && p.wk < c.wk;
}
// Stale: of an earlier barrier interval of the current block, so ordered before every
// access the block makes from now on.
GA_NOSAN inline bool stale(const Acc& p, const Acc& c) {
    return !p.used || (p.blk == c.blk && p.k < c.k);
}

// Stop the launch: the finding is the launch's error, and the fiber never resumes.
GA_NOSAN inline void stop(int) {
    st.busy = false;
    ga_launch.error = SANITIZER;
    error_what = st.msg;
    last_what.store(st.msg);
    fibers[cur].state = F_DONE;
    swapcontext(&fibers[cur].ctx, &sched_ctx);
}

GA_NOSAN inline void describe(char* out, size_t n, uintptr_t a, int kind) {
    if (kind == 1)
        std::snprintf(out, n, "dynamic shared memory at offset %lu", (unsigned long)(a - st.dyn.lo));
    else if (kind == 2)
        std::snprintf(out, n, "static shared memory at byte %lu of the kernel library's shared block",
                      (unsigned long)(a - st.tls.lo));
    else {
        uintptr_t base; size_t len, cap;
        lookup_fn look = lookup.load();
        if (look && look(a, &base, &len, &cap) == 1)
            std::snprintf(out, n, "global memory at offset %lu of the %lu-byte array at 0x%lx",
                          (unsigned long)(a - base), (unsigned long)len, (unsigned long)base);
        else
            std::snprintf(out, n, "global memory at 0x%lx", (unsigned long)a);
    }
}

GA_NOSAN inline void report(const char* check, uintptr_t a, size_t n, int kind, const char* what) {
    char where[256];
    describe(where, sizeof where, a, kind);
    std::snprintf(st.msg, sizeof st.msg,
                  "%s: kernel %s: thread %u of block %u %s %s (%lu bytes) [GARRAY_CPU_SANITIZE_SEED=%llu]",
                  check, st.kernel, threadIdx.x, blockIdx.x, what, where, (unsigned long)n,
                  (unsigned long long)seed.load());
    stop(0);
}

GA_NOSAN inline void report_race(uintptr_t a, size_t n, int kind, bool write, const Acc& other,
                                 bool other_write) {
    char where[256], tail[256];
    describe(where, sizeof where, a, kind);
    if (other.blk != blockIdx.x)
        std::snprintf(tail, sizeof tail, "thread %u of block %u %s it, and blocks are not ordered",
                      other.thr, other.blk, other.atomic ? "updated (atomically)" : other_write ? "wrote" : "read");
    else
        std::snprintf(tail, sizeof tail, "thread %u of the block %s it with no %s between",
                      other.thr, other.atomic ? "updated (atomically)" : other_write ? "wrote" : "read",
                      other.thr / GA_WARP_SIZE == threadIdx.x / GA_WARP_SIZE
                          ? "__syncthreads or warp operation" : "__syncthreads");
    std::snprintf(st.msg, sizeof st.msg,
                  "race: kernel %s: thread %u of block %u %s %s (%lu bytes); %s "
                  "[GARRAY_CPU_SANITIZE_SEED=%llu]",
                  st.kernel, threadIdx.x, blockIdx.x, write ? "writes" : "reads", where,
                  (unsigned long)n, tail, (unsigned long long)seed.load());
    stop(0);
}

// what == nullptr: the description is in st.msg already.
GA_NOSAN inline void sync_error(const char* what) {
    char text[768];
    std::snprintf(text, sizeof text, "%s", what ? what : st.msg);
    std::snprintf(st.msg, sizeof st.msg, "sync: kernel %s: %s [GARRAY_CPU_SANITIZE_SEED=%llu]",
                  st.kernel, text, (unsigned long long)seed.load());
    ga_launch.error = SANITIZER;
    error_what = st.msg;
    last_what.store(st.msg);
}

// ---- the access hook ---------------------------------------------------------------
GA_NOSAN inline void bounds(uintptr_t a, size_t n) {
    for (int i = 0; i < st.allowed.n; ++i)
        if (a >= st.allowed.r[i].lo && a + n <= st.allowed.r[i].hi) return;
    lookup_fn look = lookup.load();
    if (!look) return;
    uintptr_t base; size_t len, cap;
    int kind = look(a, &base, &len, &cap);
    if (kind == 0 && n > 1) kind = look(a + n - 1, &base, &len, &cap);
    if (kind == 0) return;          // memory garray did not allocate: not judged
    char what[200];
    if (kind == 2) {
        std::snprintf(what, sizeof what, "accesses pool memory that no array holds at 0x%lx",
                      (unsigned long)a);
    } else {
        bool passed = false;
        for (int i = 0; i < st.allowed.n; ++i) passed |= st.allowed.r[i].lo == base;
        if (passed)
            std::snprintf(what, sizeof what, "accesses byte %lu of a %lu-byte array passed to it "
                          "(past its end)", (unsigned long)(a - base), (unsigned long)len);
        else
            std::snprintf(what, sizeof what, "accesses byte %lu of a %lu-byte array that was not "
                          "passed to it", (unsigned long)(a - base), (unsigned long)len);
    }
    std::snprintf(st.msg, sizeof st.msg, "bounds: kernel %s: thread %u of block %u %s (%lu bytes) "
                  "[GARRAY_CPU_SANITIZE_SEED=%llu]", st.kernel, threadIdx.x, blockIdx.x, what,
                  (unsigned long)n, (unsigned long long)seed.load());
    stop(0);
}

GA_NOSAN inline void check(uintptr_t a, size_t n, int flags);
GA_NOSAN inline void access(uintptr_t a, size_t n, int flags) {
    State& s = st;
    if (!s.active || s.busy || n == 0) return;
    s.busy = true;
    check(a, n, flags);
    s.busy = false;
}

GA_NOSAN inline void check(uintptr_t a, size_t n, int flags) {
    if (in(st.stack, a)) return;
    for (int i = 0; i < st.params.n; ++i) if (in(st.params.r[i], a)) return;
    int kind = 0;                       // 0 global, 1 dynamic shared, 2 static shared, 3 image
    if (in(st.dyn, a)) kind = 1;
    else if (in(st.tls, a)) {
        for (int i = 0; i < st.shared.n; ++i) if (in(st.shared.r[i], a)) { kind = 2; break; }
        if (kind != 2) return;          // host thread-local data of the CPU build
    } else {
        for (int i = 0; i < st.image.n; ++i) if (in(st.image.r[i], a)) { kind = 3; break; }
    }
    if (kind == 0 && enabled(BOUNDS)) bounds(a, n);
    const bool write = flags & W, atomic = flags & ATOMIC;
    const bool shared = kind == 1 || kind == 2;
    bool skipped = false;
    if (shared && write && !atomic) skipped = st.shared_writes++ == skip_write.load(std::memory_order_relaxed);
    const bool race = enabled(RACE), init = shared && !write && enabled(INIT);
    if (!race && !init && !skipped) return;
    const Acc c = now(atomic);
    size_t unwritten = 0;
    for (size_t i = 0; i < n; ++i) {
        Cell* x = cell(a + i);
        if (!x) return;
        if (shared && !(x->w.used && x->w.blk == c.blk) && !(x->r1.used && x->r1.blk == c.blk) &&
            !(x->r2.used && x->r2.blk == c.blk))
            *x = Cell();                // another block's use of the same bytes
        if (init && (!x->w.used || x->w.blk != c.blk)) ++unwritten;
        if (race) {
            if (!ordered(x->w, c) && !(atomic && x->w.atomic)) report_race(a, n, kind, write, x->w, true);
            if (write) {
                if (!ordered(x->r1, c) && x->r1.thr != c.thr && !(atomic && x->r1.atomic))
                    report_race(a, n, kind, true, x->r1, false);
                if (!ordered(x->r2, c) && x->r2.thr != c.thr && !(atomic && x->r2.atomic))
                    report_race(a, n, kind, true, x->r2, false);
                if (x->many && !(stale(x->r1, c) && stale(x->r2, c)))
                    report_race(a, n, kind, true, x->r1.thr != c.thr ? x->r1 : x->r2, false);
            }
        }
        if (write) {
            if (skipped) x->w.used = 0;
            else x->w = c;
            if (atomic) { x->r1 = c; x->r1.atomic = 1; }
        } else {
            if (stale(x->r1, c)) { x->r1 = x->r2; x->r2.used = 0; }
            if (stale(x->r1, c)) { x->r1.used = 0; x->many = 0; }
            if (stale(x->r2, c)) x->r2.used = 0;
            if (x->r1.used && x->r1.thr == c.thr) x->r1 = c;
            else if (x->r2.used && x->r2.thr == c.thr) x->r2 = c;
            else if (!x->r1.used) x->r1 = c;
            else if (!x->r2.used) x->r2 = c;
            else x->many = 1;
        }
    }
    if (init && unwritten == n) {
        report("init", a, n, kind, "reads, before any thread of the block wrote it,");
    }
}
}  // namespace san
}  // namespace ga_host

// The instrumentation's calls (g++ -fsanitize=thread, which instruments every load and
// store: -fsanitize=kernel-address skips a store to an address a load of the same basic
// block already checked, which is right for bounds and wrong for races).
#define GA_SAN_HOOK(n)                                                                        \
    extern "C" GA_NOSAN void __tsan_read##n(void* a) { ga_host::san::access((uintptr_t)a, n, 0); } \
    extern "C" GA_NOSAN void __tsan_write##n(void* a) { ga_host::san::access((uintptr_t)a, n, ga_host::san::W); } \
    extern "C" GA_NOSAN void __tsan_unaligned_read##n(void* a) { ga_host::san::access((uintptr_t)a, n, 0); } \
    extern "C" GA_NOSAN void __tsan_unaligned_write##n(void* a) { ga_host::san::access((uintptr_t)a, n, ga_host::san::W); } \
    extern "C" GA_NOSAN void __tsan_volatile_read##n(void* a) { ga_host::san::access((uintptr_t)a, n, 0); } \
    extern "C" GA_NOSAN void __tsan_volatile_write##n(void* a) { ga_host::san::access((uintptr_t)a, n, ga_host::san::W); }
GA_SAN_HOOK(1) GA_SAN_HOOK(2) GA_SAN_HOOK(4) GA_SAN_HOOK(8) GA_SAN_HOOK(16)
#undef GA_SAN_HOOK
extern "C" GA_NOSAN void __tsan_read_range(void* a, unsigned long n) { ga_host::san::access((uintptr_t)a, n, 0); }
extern "C" GA_NOSAN void __tsan_write_range(void* a, unsigned long n) { ga_host::san::access((uintptr_t)a, n, ga_host::san::W); }
extern "C" GA_NOSAN void __tsan_init() {}
extern "C" GA_NOSAN void __tsan_func_entry(void*) {}
extern "C" GA_NOSAN void __tsan_func_exit() {}
extern "C" GA_NOSAN void __tsan_vptr_read(void**) {}
extern "C" GA_NOSAN void __tsan_vptr_update(void**, void*) {}
// Atomic operations in instrumented library code (std::atomic, std::mutex inlined into
// this build): done as the builtins would, unchecked (kernels' atomics are the
// runtime's atomicAdd ..., recorded by ga_atomic_update).
#define GA_SAN_ATOMIC(n, T)                                                                   \
    extern "C" GA_NOSAN T __tsan_atomic##n##_load(const volatile T* a, int) { return __atomic_load_n(a, __ATOMIC_SEQ_CST); } \
    extern "C" GA_NOSAN void __tsan_atomic##n##_store(volatile T* a, T v, int) { __atomic_store_n(a, v, __ATOMIC_SEQ_CST); } \
    extern "C" GA_NOSAN T __tsan_atomic##n##_exchange(volatile T* a, T v, int) { return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); } \
    extern "C" GA_NOSAN T __tsan_atomic##n##_fetch_add(volatile T* a, T v, int) { return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); } \
    extern "C" GA_NOSAN T __tsan_atomic##n##_fetch_sub(volatile T* a, T v, int) { return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); } \
    extern "C" GA_NOSAN T __tsan_atomic##n##_fetch_and(volatile T* a, T v, int) { return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); } \
    extern "C" GA_NOSAN T __tsan_atomic##n##_fetch_or(volatile T* a, T v, int) { return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); } \
    extern "C" GA_NOSAN T __tsan_atomic##n##_fetch_xor(volatile T* a, T v, int) { return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); } \
    extern "C" GA_NOSAN int __tsan_atomic##n##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) { \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); } \
    extern "C" GA_NOSAN int __tsan_atomic##n##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) { \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); } \
    extern "C" GA_NOSAN T __tsan_atomic##n##_compare_exchange_val(volatile T* a, T c, T v, int, int) { \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return c; }
GA_SAN_ATOMIC(8, unsigned char) GA_SAN_ATOMIC(16, unsigned short) GA_SAN_ATOMIC(32, unsigned int)
GA_SAN_ATOMIC(64, unsigned long long)
#undef GA_SAN_ATOMIC
extern "C" GA_NOSAN void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" GA_NOSAN void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

// Configuration from the launch layer (garray/_compiler/gxx.py: CpuModule.sanitize).
extern "C" __attribute__((visibility("default"))) GA_NOSAN void ga_host_san_config(
        unsigned checks, unsigned long long seed, void* lookup) {
    ga_host::san::mask.store(checks);
    ga_host::san::seed.store(seed);
    ga_host::san::lookup.store((ga_host::san::lookup_fn)lookup);
}
extern "C" __attribute__((visibility("default"))) GA_NOSAN void ga_host_san_mutate(
        long drop_barrier_line, long skip_shared_write) {
    ga_host::san::drop_line.store(drop_barrier_line);
    ga_host::san::skip_write.store(skip_shared_write);
}
// The barrier lines passed since the last call (up to n), cleared by the call.
extern "C" __attribute__((visibility("default"))) GA_NOSAN int ga_host_san_sites(long* out, int n) {
    std::lock_guard<std::mutex> g(ga_host::san::sites_lock);
    int k = 0;
    for (int i = 0; i < ga_host::san::nsites; ++i) if (k < n) out[k++] = ga_host::san::sites[i];
    ga_host::san::nsites = 0;
    return k;
}
