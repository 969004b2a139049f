/* The CPU device's launch pool (docs/performance.md, "Multi-core launches").
 *
 * Note [CPU launch pool]
 * ~~~~~~~~~~~~~~~~~~~~~~
 * 1. A kernel's CPU build exports a range entry, entry(b0, b1, grid, block, args), that
 *    runs blocks [b0, b1) of a grid (_kernels/garray/cpu_runtime.h).  ga_pool_run splits
 *    the grid into chunks of blocks that the calling thread and the pool's workers take
 *    from one atomic counter until none is left, then returns the first error any chunk
 *    reported.  Blocks are independent on every device (no grid-wide sync), so any
 *    split gives the serial result, bit for bit.
 * 2. One launch uses the pool at a time.  A launch that finds it busy (another Python
 *    thread's launch, the GIL being released around launches) runs on its own thread:
 *    never a wait on another launch, so no deadlock and no oversubscription.
 * 3. Workers start on first use, up to threads - 1.  Between launches a worker spins for
 *    about GA_POOL_SPIN polls (some 50-100 microseconds) watching for the next launch, then
 *    sleeps on a condition variable: back-to-back launches (a script's loop over array
 *    ops) skip the wake-up latency, an idle pool costs nothing.  The launching thread
 *    waits for the workers the same way.  A forked child starts with no workers (pthread_atfork), since
 *    threads do not survive fork.
 * 4. Launch state (threadIdx, blockIdx, the error flag, fiber stacks, guard regions) is
 *    thread_local in the kernel runtime, so workers share nothing but the counter.
 * 5. Cores other processes hold: a launch uses at most the online cores less the threads
 *    of others that are runnable (the kernel's count in /proc/loadavg, less the caller
 *    and this pool's polling workers), read at most every GA_POOL_LOAD_MS.  A worker on
 *    a core that another process also wants gets half of it, and a launch waits for its
 *    last chunk: with one of two cores busy, a reduction split in two took 2.5 times its
 *    quiet time, where one thread takes twice it (NumPy's loss).  Only the thread
 *    count changes; which blocks compute what does not, so results are the same.  The
 *    launch layer turns it off where a thread count is forced (tests, adapt = 0).
 */
#ifndef GARRAY_CPU_POOL_H
#define GARRAY_CPU_POOL_H

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef int (*ga_range_entry)(unsigned int, unsigned int, unsigned int, unsigned int, void**);

#define GA_POOL_MAX 256

static pthread_mutex_t ga_pool_submit = PTHREAD_MUTEX_INITIALIZER;  /* one launch at a time */
static pthread_mutex_t ga_pool_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ga_pool_work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t ga_pool_done = PTHREAD_COND_INITIALIZER;
#define GA_POOL_SPIN 4000
static int ga_pool_workers = 0;          /* started */
static atomic_int ga_pool_active;        /* workers still inside the current job */
static atomic_ulong ga_pool_generation;  /* bumped (under ga_pool_m) per launch */
static int ga_pool_atfork = 0;
static atomic_int ga_pool_polling;       /* workers polling for the next launch (runnable) */
#define GA_POOL_LOAD_MS 20
static atomic_long ga_pool_load_at;      /* when /proc/loadavg was last read (ms, +1) */
static atomic_int ga_pool_free;          /* cores free of other threads at that reading */

static struct {
    ga_range_entry fn;
    unsigned int grid, block, chunk;
    void** args;
    atomic_uint next;
    atomic_int err;
    atomic_int seats;                    /* workers that may still join this job */
} ga_pool_job;

static void ga_pool_chunks(void) {
    unsigned int grid = ga_pool_job.grid, chunk = ga_pool_job.chunk;
    for (;;) {
        unsigned int b = atomic_fetch_add(&ga_pool_job.next, chunk);
        if (b >= grid) return;
        unsigned int e = grid - b < chunk ? grid : b + chunk;
        int r = ga_pool_job.fn(b, e, grid, ga_pool_job.block, ga_pool_job.args);
        if (r) {
            int zero = 0;
            atomic_compare_exchange_strong(&ga_pool_job.err, &zero, r);
            atomic_store(&ga_pool_job.next, grid);    /* stop handing out chunks */
        }
    }
}

/* `start`: the generation when the worker was created (before the job it is created
 * for is posted): reading it in the new thread instead could miss that job. */
static inline void ga_pool_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Cores not held by runnable threads of other processes (note 5): at least 1. */
static int ga_pool_free_cores(void) {
    struct timespec ts;
    long now, at;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    now = (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + 1;
    at = atomic_load(&ga_pool_load_at);
    if (at == 0 || now - at >= GA_POOL_LOAD_MS) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN), running = -1, others;
        char buf[128];
        int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
        atomic_store(&ga_pool_load_at, now);
        if (fd >= 0) {
            ssize_t k = read(fd, buf, sizeof buf - 1);
            close(fd);
            if (k > 0) {          /* "0.80 1.54 2.39 2/115 11916": the running count */
                char* p = buf;
                buf[k] = 0;
                for (int f = 0; f < 3 && p; ++f) {
                    while (*p && *p != ' ') ++p;
                    while (*p == ' ') ++p;
                }
                if (*p >= '0' && *p <= '9') running = strtol(p, NULL, 10);
            }
        }
        if (running < 0 || cores < 1) {
            atomic_store(&ga_pool_free, GA_POOL_MAX);    /* unknown: no limit */
        } else {
            others = running - 1 - atomic_load(&ga_pool_polling);
            if (others < 0) others = 0;
            atomic_store(&ga_pool_free, cores - others < 1 ? 1 : (int)(cores - others));
        }
    }
    return atomic_load(&ga_pool_free);
}

static void* ga_pool_worker(void* start) {
    unsigned long seen = (unsigned long)(uintptr_t)start;
    atomic_fetch_add(&ga_pool_polling, 1);
    for (;;) {
        for (int k = 0; k < GA_POOL_SPIN && atomic_load(&ga_pool_generation) == seen; ++k)
            ga_pool_pause();
        atomic_fetch_sub(&ga_pool_polling, 1);     /* to sleep, or to the job */
        pthread_mutex_lock(&ga_pool_m);
        while (atomic_load(&ga_pool_generation) == seen)
            pthread_cond_wait(&ga_pool_work, &ga_pool_m);
        seen = atomic_load(&ga_pool_generation);
        pthread_mutex_unlock(&ga_pool_m);
        if (atomic_fetch_sub(&ga_pool_job.seats, 1) > 0) ga_pool_chunks();
        /* polling again before the launcher can return and the next launch read the
         * running count */
        atomic_fetch_add(&ga_pool_polling, 1);
        if (atomic_fetch_sub(&ga_pool_active, 1) == 1) {
            pthread_mutex_lock(&ga_pool_m);      /* the launcher may be asleep */
            pthread_cond_signal(&ga_pool_done);
            pthread_mutex_unlock(&ga_pool_m);
        }
    }
    return NULL;
}

static void ga_pool_after_fork(void) {
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    ga_pool_submit = m;
    ga_pool_m = m;
    ga_pool_work = c;
    ga_pool_done = c;
    ga_pool_workers = 0;
    atomic_store(&ga_pool_active, 0);
    atomic_store(&ga_pool_polling, 0);
}

/* Start workers until `want` run (called with ga_pool_submit held); returns how many run. */
static int ga_pool_grow(int want) {
    if (want > GA_POOL_MAX) want = GA_POOL_MAX;
    if (!ga_pool_atfork) {
        pthread_atfork(NULL, NULL, ga_pool_after_fork);
        ga_pool_atfork = 1;
    }
    while (ga_pool_workers < want) {
        pthread_t t;
        pthread_attr_t attr;
        int ok;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        /* the fiber launches of barrier kernels run on workers too: room for their frames */
        pthread_attr_setstacksize(&attr, 8u << 20);
        ok = pthread_create(&t, &attr, ga_pool_worker,
                            (void*)(uintptr_t)atomic_load(&ga_pool_generation)) == 0;
        pthread_attr_destroy(&attr);
        if (!ok) break;
        pthread_mutex_lock(&ga_pool_m);
        ga_pool_workers++;
        pthread_mutex_unlock(&ga_pool_m);
    }
    return ga_pool_workers;
}

/* Run blocks [0, grid) of fn on up to `threads` OS threads (the caller included); with
 * `adapt`, no more than the cores other processes leave free (note 5). */
static int ga_pool_run(ga_range_entry fn, unsigned int grid, unsigned int block, void** args,
                       int threads, int adapt) {
    int workers, err;
    unsigned int chunk;
    if (threads > (int)grid) threads = (int)grid;
    if (threads <= 1 || pthread_mutex_trylock(&ga_pool_submit) != 0)
        return fn(0, grid, grid, block, args);
    if (adapt) {
        int free = ga_pool_free_cores();
        if (free < threads) threads = free;
        if (threads <= 1) {
            pthread_mutex_unlock(&ga_pool_submit);
            return fn(0, grid, grid, block, args);
        }
    }
    workers = ga_pool_grow(threads - 1);
    if (workers > threads - 1) workers = threads - 1;
    if (workers == 0) {
        pthread_mutex_unlock(&ga_pool_submit);
        return fn(0, grid, grid, block, args);
    }
    /* about four chunks per thread: balance without contention on the counter */
    chunk = grid / (unsigned int)(4 * (workers + 1));
    if (chunk == 0) chunk = 1;
    pthread_mutex_lock(&ga_pool_m);
    ga_pool_job.fn = fn;
    ga_pool_job.grid = grid;
    ga_pool_job.block = block;
    ga_pool_job.chunk = chunk;
    ga_pool_job.args = args;
    atomic_store(&ga_pool_job.next, 0u);
    atomic_store(&ga_pool_job.err, 0);
    atomic_store(&ga_pool_job.seats, workers);
    /* every started worker wakes; `workers` of them join */
    atomic_store(&ga_pool_active, ga_pool_workers);
    atomic_fetch_add(&ga_pool_generation, 1);
    pthread_cond_broadcast(&ga_pool_work);
    pthread_mutex_unlock(&ga_pool_m);
    ga_pool_chunks();
    for (int k = 0; k < GA_POOL_SPIN && atomic_load(&ga_pool_active) > 0; ++k)
        ga_pool_pause();
    if (atomic_load(&ga_pool_active) > 0) {
        pthread_mutex_lock(&ga_pool_m);
        while (atomic_load(&ga_pool_active) > 0) pthread_cond_wait(&ga_pool_done, &ga_pool_m);
        pthread_mutex_unlock(&ga_pool_m);
    }
    err = atomic_load(&ga_pool_job.err);
    pthread_mutex_unlock(&ga_pool_submit);
    return err;
}

#endif
