// A stub cuFFT (libcufft.so.12, -DSTUB_CUDA) or hipFFT (libhipfft.so, -DSTUB_HIP) for the stub GPU
// devices of ../shared/gpu-stub: the entry points garray's vendor FFT path calls
// (garray/_vendor/gpufft.py), computed in double precision on the driver stub's "device" memory.
//
//   {cufft,hipfft}Create, PlanMany, SetStream, Exec{C2C,Z2Z,R2C,D2Z,C2R,Z2D}, Destroy, GetVersion
//   fake_fft_stats(u64 out[4]): plans made, plans destroyed, transforms executed, calls refused
//
// Facts kept from the real libraries (cufft.h of CUDA 13, hipfft.h of ROCm 6/7): a cufftHandle is
// an int, a hipfftHandle a pointer; the type codes (C2C 0x29, R2C 0x2a, C2R 0x2c, Z2Z 0x69,
// D2Z 0x6a, Z2D 0x6c), directions (forward -1, inverse +1) and status numbers are the same in both
// (cuFFT's NOT_SUPPORTED is 16, hipFFT's 15); a plan belongs to the device current when it was
// made; PlanMany with NULL embeds means contiguous rows (stride and dist are ignored); transforms
// are unnormalised both ways; a complex-to-real transform may overwrite its input (the stub
// always does: it fills the input with NaN, so a caller that reads it afterwards is caught).
// The stub refuses what garray never asks for: rank > 1, non-NULL embeds.  Operands must lie in
// one live allocation on the plan's device (the driver stub's fake_alloc_device).
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long u64;
typedef double complex cplx;

#if defined(STUB_CUDA)
#define API(f) cufft##f
#define DRIVER "libcuda.so.1"
#define TAG "stub cufft"
#define LOG_ENV "FAKE_CUFFT_LOG"
#define S_NOT_SUPPORTED 16
typedef int handle_t;
#elif defined(STUB_HIP)
#define API(f) hipfft##f
#define DRIVER "libamdhip64.so"
#define TAG "stub hipfft"
#define LOG_ENV "FAKE_HIPFFT_LOG"
#define S_NOT_SUPPORTED 15
typedef struct plan* handle_t;
#else
#error "define STUB_CUDA or STUB_HIP"
#endif

enum { S_OK = 0, S_INVALID_PLAN = 1, S_ALLOC_FAILED = 2, S_INVALID_TYPE = 3, S_INVALID_VALUE = 4,
       S_EXEC_FAILED = 6, S_INVALID_SIZE = 8 };
enum { C2C = 0x29, R2C = 0x2a, C2R = 0x2c, Z2Z = 0x69, D2Z = 0x6a, Z2D = 0x6c };

static int log_on = -1;
#define LOG(...) do { if (log_on < 0) log_on = getenv(LOG_ENV) != NULL; \
    if (log_on) { fprintf(stderr, "[" TAG "] " __VA_ARGS__); fputc('\n', stderr); } } while (0)

static u64 stats[4];
static void count(int i) { __atomic_fetch_add(&stats[i], 1, __ATOMIC_RELAXED); }
void fake_fft_stats(u64* out) { for (int i = 0; i < 4; ++i) out[i] = __atomic_load_n(&stats[i], __ATOMIC_RELAXED); }

static struct {
    void* lib;
    void (*open_rw)(void), (*close_rw)(void);
    int (*alloc_device)(const void*, size_t);
    int (*current)(int*);          // cuCtxGetDevice / hipGetDevice
} drv;
static int load_driver(void) {
    if (drv.lib) return 1;
    void* h = dlopen(DRIVER, RTLD_NOW | RTLD_NOLOAD);
    if (!h) h = dlopen(DRIVER, RTLD_NOW);
    if (!h) { LOG("cannot load %s: %s", DRIVER, dlerror()); return 0; }
    drv.open_rw = (void (*)(void))dlsym(h, "fake_open_rw");
    drv.close_rw = (void (*)(void))dlsym(h, "fake_close_rw");
    drv.alloc_device = (int (*)(const void*, size_t))dlsym(h, "fake_alloc_device");
#if defined(STUB_CUDA)
    drv.current = (int (*)(int*))dlsym(h, "cuCtxGetDevice");
#else
    drv.current = (int (*)(int*))dlsym(h, "hipGetDevice");
#endif
    if (!drv.open_rw || !drv.close_rw || !drv.alloc_device || !drv.current) {
        LOG("%s is not the stub driver", DRIVER); return 0;
    }
    drv.lib = h; return 1;
}

struct plan { int live, made, type, n, batch, dev; void* stream; };

// Plans live in a fixed table; a cufftHandle is its index + 1, a hipfftHandle its address.
#define MAX_PLANS 4096
static struct plan plans[MAX_PLANS];
static int lock_word;
static void lock(void) { while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE)) {} }
static void unlock(void) { __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE); }

#if defined(STUB_CUDA)
static struct plan* plan_of(handle_t h) { return h >= 1 && h <= MAX_PLANS && plans[h - 1].live ? &plans[h - 1] : NULL; }
static handle_t handle_of(struct plan* p) { return (handle_t)(p - plans) + 1; }
#else
static struct plan* plan_of(handle_t h) { return h >= plans && h < plans + MAX_PLANS && h->live ? h : NULL; }
static handle_t handle_of(struct plan* p) { return p; }
#endif

static int done(const char* fn, int s) { if (s) { count(3); LOG("%s -> status %d", fn, s); } return s; }

int API(GetVersion)(int* v) { if (!v) return S_INVALID_VALUE; *v = 12000; return S_OK; }

int API(Create)(handle_t* out) {
    if (!out) return done("Create", S_INVALID_VALUE);
    lock();
    for (int i = 0; i < MAX_PLANS; ++i)
        if (!plans[i].live) {
            memset(&plans[i], 0, sizeof plans[i]); plans[i].live = 1;
            unlock(); *out = handle_of(&plans[i]); return S_OK;
        }
    unlock();
    return done("Create", S_ALLOC_FAILED);
}

static int make(struct plan* p, int rank, int* n, int* inembed, int* onembed, int type, int batch) {
    if (!load_driver()) return S_INVALID_PLAN;
    if (rank != 1 || inembed || onembed) { LOG("PlanMany: rank %d, embeds %p %p: not supported", rank, (void*)inembed, (void*)onembed); return S_NOT_SUPPORTED; }
    if (!n || n[0] < 1 || batch < 1) return S_INVALID_SIZE;
    if (type != C2C && type != Z2Z && type != R2C && type != D2Z && type != C2R && type != Z2D) return S_INVALID_TYPE;
    int dev = -1;
    if (drv.current(&dev) || dev < 0) { LOG("PlanMany: no current device"); return S_INVALID_VALUE; }
    p->made = 1; p->type = type; p->n = n[0]; p->batch = batch; p->dev = dev; p->stream = NULL;
    count(0);
    LOG("plan type 0x%x n %d batch %d on device %d", type, n[0], batch, dev);
    return S_OK;
}

// PlanMany(plan*, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch): a new
// handle for the plan, as cufftPlanMany / hipfftPlanMany.
int API(PlanMany)(handle_t* out, int rank, int* n, int* inembed, int istride, int idist,
                  int* onembed, int ostride, int odist, int type, int batch) {
    (void)istride; (void)idist; (void)ostride; (void)odist;
    int s = API(Create)(out);
    if (s) return s;
    s = make(plan_of(*out), rank, n, inembed, onembed, type, batch);
    if (s) { plan_of(*out)->live = 0; }
    return done("PlanMany", s);
}

int API(SetStream)(handle_t h, void* stream) {
    struct plan* p = plan_of(h);
    if (!p) return done("SetStream", S_INVALID_PLAN);
    p->stream = stream; return S_OK;
}

int API(Destroy)(handle_t h) {
    struct plan* p = plan_of(h);
    if (!p) return done("Destroy", S_INVALID_PLAN);
    if (p->made) count(1);
    p->live = 0; return S_OK;
}

// ---- the transform: radix-2 for powers of two, Bluestein's chirp for other lengths ----
static void radix2(cplx* a, int n, int sign) {
    for (int i = 1, j = 0; i < n; ++i) {          // bit reversal
        int bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) { cplx t = a[i]; a[i] = a[j]; a[j] = t; }
    }
    for (int len = 2; len <= n; len <<= 1) {
        for (int k = 0; k < len / 2; ++k) {
            double ang = sign * 2.0 * M_PI * (double)k / (double)len;
            cplx w = cos(ang) + I * sin(ang);
            for (int i = 0; i < n; i += len) {
                cplx u = a[i + k], v = a[i + k + len / 2] * w;
                a[i + k] = u + v; a[i + k + len / 2] = u - v;
            }
        }
    }
}

static int dft(cplx* a, int n, int sign) {      // in place; 0 or S_ALLOC_FAILED
    if ((n & (n - 1)) == 0) { radix2(a, n, sign); return 0; }
    int m = 1;
    while (m < 2 * n - 1) m <<= 1;
    cplx *chirp = malloc(sizeof(cplx) * n), *x = calloc(m, sizeof(cplx)), *f = calloc(m, sizeof(cplx));
    if (!chirp || !x || !f) { free(chirp); free(x); free(f); return S_ALLOC_FAILED; }
    for (long long k = 0; k < n; ++k) {
        double ang = sign * M_PI * (double)((k * k) % (2LL * n)) / (double)n;
        chirp[k] = cos(ang) + I * sin(ang);
    }
    for (int k = 0; k < n; ++k) x[k] = a[k] * chirp[k];
    f[0] = conj(chirp[0]);
    for (int k = 1; k < n; ++k) f[k] = f[m - k] = conj(chirp[k]);
    radix2(x, m, -1); radix2(f, m, -1);
    for (int k = 0; k < m; ++k) x[k] *= f[k];
    radix2(x, m, 1);
    for (int k = 0; k < n; ++k) a[k] = x[k] * chirp[k] / m;
    free(chirp); free(x); free(f);
    return 0;
}

static size_t elem_in(int t) { return t == C2C ? 8 : t == Z2Z ? 16 : t == R2C ? 4 : t == D2Z ? 8 : t == C2R ? 8 : 16; }
static size_t elem_out(int t) { return t == C2C ? 8 : t == Z2Z ? 16 : t == R2C ? 8 : t == D2Z ? 16 : t == C2R ? 4 : 8; }

static int exec(const char* fn, handle_t h, int want_type, void* in, void* out, int sign) {
    struct plan* p = plan_of(h);
    if (!p || !p->made) return done(fn, S_INVALID_PLAN);
    if (p->type != want_type) { LOG("%s on a plan of type 0x%x", fn, p->type); return done(fn, S_INVALID_TYPE); }
    if (sign != -1 && sign != 1) return done(fn, S_INVALID_VALUE);
    int n = p->n, t = p->type, real_in = t == R2C || t == D2Z, real_out = t == C2R || t == Z2D;
    size_t rows_in = real_out ? (size_t)(n / 2 + 1) : (size_t)n;
    size_t rows_out = real_in ? (size_t)(n / 2 + 1) : (size_t)n;
    size_t bin = elem_in(t) * rows_in * p->batch, bout = elem_out(t) * rows_out * p->batch;
    int dev = -1;
    drv.current(&dev);
    if (dev != p->dev) { LOG("%s: the current device %d is not the plan's (%d)", fn, dev, p->dev); return done(fn, S_EXEC_FAILED); }
    if (!in || !out || drv.alloc_device(in, bin) != p->dev || drv.alloc_device(out, bout) != p->dev) {
        LOG("%s: operands %p (+%zu) / %p (+%zu) are not on device %d", fn, in, bin, out, bout, p->dev);
        return done(fn, S_EXEC_FAILED);
    }
    cplx* a = malloc(sizeof(cplx) * n);
    if (!a) return done(fn, S_ALLOC_FAILED);
    int single = t == C2C || t == R2C || t == C2R;
    int s = 0;
    drv.open_rw();
    for (int b = 0; b < p->batch && !s; ++b) {
        if (real_in) {
            for (int k = 0; k < n; ++k)
                a[k] = single ? ((float*)in)[(size_t)b * n + k] : ((double*)in)[(size_t)b * n + k];
        } else if (real_out) {                       // a Hermitian spectrum: n/2 + 1 given
            size_t h2 = n / 2 + 1;
            for (size_t k = 0; k < h2; ++k) {
                size_t i = b * h2 + k;
                a[k] = single ? ((float complex*)in)[i] : ((cplx*)in)[i];
            }
            a[0] = creal(a[0]);
            if (n % 2 == 0) a[n / 2] = creal(a[n / 2]);
            for (int k = n / 2 + 1; k < n; ++k) a[k] = conj(a[n - k]);
        } else {
            for (int k = 0; k < n; ++k) {
                size_t i = (size_t)b * n + k;
                a[k] = single ? ((float complex*)in)[i] : ((cplx*)in)[i];
            }
        }
        s = dft(a, n, sign);
        if (s) break;
        for (size_t k = 0; k < rows_out; ++k) {
            size_t i = b * rows_out + k;
            if (real_out) { if (single) ((float*)out)[i] = (float)creal(a[k]); else ((double*)out)[i] = creal(a[k]); }
            else if (single) ((float complex*)out)[i] = (float complex)a[k];
            else ((cplx*)out)[i] = a[k];
        }
    }
    if (!s && real_out && in != out) {              // C2R may overwrite its input: the stub does
        size_t words = bin / sizeof(float);
        for (size_t i = 0; i < words; ++i) ((float*)in)[i] = NAN;
    }
    drv.close_rw();
    free(a);
    if (!s) count(2);
    return done(fn, s);
}

int API(ExecC2C)(handle_t h, void* in, void* out, int dir) { return exec("ExecC2C", h, C2C, in, out, dir); }
int API(ExecZ2Z)(handle_t h, void* in, void* out, int dir) { return exec("ExecZ2Z", h, Z2Z, in, out, dir); }
int API(ExecR2C)(handle_t h, void* in, void* out) { return exec("ExecR2C", h, R2C, in, out, -1); }
int API(ExecD2Z)(handle_t h, void* in, void* out) { return exec("ExecD2Z", h, D2Z, in, out, -1); }
int API(ExecC2R)(handle_t h, void* in, void* out) { return exec("ExecC2R", h, C2R, in, out, 1); }
int API(ExecZ2D)(handle_t h, void* in, void* out) { return exec("ExecZ2D", h, Z2D, in, out, 1); }
