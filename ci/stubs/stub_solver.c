// A stub cuSOLVER (libcusolver.so.12, -DSTUB_CUDA: the cusolverDn API) or hipSOLVER (libhipsolver.so,
// -DSTUB_HIP: its cuSOLVER-compatible hipsolverDn API) for the stub GPU devices of
// ../shared/gpu-stub: the dense entry points garray's vendor solver path calls
// (garray/_vendor/gpusolver.py), computed by LAPACK (scipy-openblas32's LAPACKE) on the driver
// stub's "device" memory.
//
//   {cusolverDn,hipsolverDn}Create, Destroy, SetStream,
//   {D,Z}getrf(_bufferSize), {D,Z}getrs, {D,Z}potrf(_bufferSize), Dsyevd / Zheevd(_bufferSize),
//   {D,Z}geqrf(_bufferSize), Dorgqr / Zungqr(_bufferSize), {D,Z}gesvd(_bufferSize),
//   CreateParams, DestroyParams, Xgeev(_bufferSize)
//   fake_solver_stats(u64 out[4]): handles made, routines run, calls refused, matrices factorised
//
// Facts kept from the real headers (cusolverDn.h of CUDA 13; hipsolver-compat.h and
// hipsolver-types.h of hipSOLVER, whose hipsolverDn functions take cuSOLVER's parameter lists):
// the argument lists below; handles are pointers; info is a device int (devInfo) the routine
// writes; ipiv is 1-based; the enums differ by vendor: fill mode (cuBLAS lower 0 / upper 1,
// hipBLAS upper 121 / lower 122), operation N (0 / 111), eig mode (novector 0, vector 1 /
// 201, 202); statuses SUCCESS 0, NOT_INITIALIZED 1, INVALID_VALUE 3, EXECUTION_FAILED (6 / 5).
// The stub asks for a workspace (its _bufferSize answers are not 0) and refuses a call whose
// workspace, matrices or info lie outside one live allocation on the handle's device, or that
// runs with another device current.
#include <complex.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>

typedef unsigned long long u64;
typedef double complex zc;
#define LP(f) scipy_LAPACKE_##f##_work   // scipy-openblas32's prefix; the _work entry points, which,
                                          // as the real vendors, do not scan the input for NaN

#if defined(STUB_CUDA)
#define API(f) cusolverDn##f
#define DRIVER "libcuda.so.1"
#define TAG "stub cusolver"
#define LOG_ENV "FAKE_CUSOLVER_LOG"
enum { FILL_LOWER = 0, FILL_UPPER = 1, OP_N = 0, OP_T = 1, OP_C = 2, EIG_NOVECTOR = 0, EIG_VECTOR = 1,
       S_EXECUTION_FAILED = 6 };
#elif defined(STUB_HIP)
#define API(f) hipsolverDn##f
#define DRIVER "libamdhip64.so"
#define TAG "stub hipsolver"
#define LOG_ENV "FAKE_HIPSOLVER_LOG"
enum { FILL_UPPER = 121, FILL_LOWER = 122, OP_N = 111, OP_T = 112, OP_C = 113, EIG_NOVECTOR = 201,
       EIG_VECTOR = 202, S_EXECUTION_FAILED = 5 };
#else
#error "define STUB_CUDA or STUB_HIP"
#endif
enum { S_OK = 0, S_NOT_INITIALIZED = 1, S_INVALID_VALUE = 3 };

static int log_on = -1;
#define LOG(...) do { if (log_on < 0) log_on = getenv(LOG_ENV) != NULL; \
    if (log_on) { fprintf(stderr, "[" TAG "] " __VA_ARGS__); fputc('\n', stderr); } } while (0)

static u64 stats[4];
static void count(int i, u64 n) { __atomic_fetch_add(&stats[i], n, __ATOMIC_RELAXED); }
void fake_solver_stats(u64* out) { for (int i = 0; i < 4; ++i) out[i] = __atomic_load_n(&stats[i], __ATOMIC_RELAXED); }

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
    if (!drv.open_rw || !drv.close_rw || !drv.alloc_device || !drv.current) { LOG("%s is not the stub driver", DRIVER); return 0; }
    drv.lib = h; return 1;
}

struct handle { u64 magic; int dev; void* stream; };
#define MAGIC 0x53545542534f4cULL
typedef struct handle* handle_t;
static int live(handle_t h) { return h && h->magic == MAGIC; }

int API(Create)(handle_t* out) {
    if (!out) return S_INVALID_VALUE;
    if (!load_driver()) return S_NOT_INITIALIZED;
    int dev = -1;
    if (drv.current(&dev) || dev < 0) { LOG("Create: no current device"); return S_NOT_INITIALIZED; }
    handle_t h = calloc(1, sizeof *h);
    if (!h) return S_NOT_INITIALIZED;
    h->magic = MAGIC; h->dev = dev;
    count(0, 1);
    *out = h; return S_OK;
}
int API(Destroy)(handle_t h) { if (!live(h)) return S_NOT_INITIALIZED; h->magic = 0; free(h); return S_OK; }
int API(SetStream)(handle_t h, void* s) { if (!live(h)) return S_NOT_INITIALIZED; h->stream = s; return S_OK; }

// ---- checks shared by every routine ----
static int refuse(const char* fn, int s) { count(2, 1); LOG("%s -> status %d", fn, s); return s; }
static int enter(const char* fn, handle_t h) {
    if (!live(h)) return refuse(fn, S_NOT_INITIALIZED);
    int dev = -1;
    drv.current(&dev);
    if (dev != h->dev) { LOG("%s: device %d is current, the handle is device %d's", fn, dev, h->dev); return refuse(fn, S_EXECUTION_FAILED); }
    return S_OK;
}
// [p, p + bytes) inside one live allocation on the handle's device
static int on_dev(const char* fn, const char* what, handle_t h, const void* p, size_t bytes) {
    if (!p || drv.alloc_device(p, bytes ? bytes : 1) != h->dev) {
        LOG("%s: %s %p (+%zu bytes) is not in one allocation on device %d", fn, what, p, bytes, h->dev);
        return 0;
    }
    return 1;
}
static size_t mat_bytes(int rows_ld, int cols, size_t elem) { return cols > 0 ? (size_t)rows_ld * cols * elem : 0; }
static int fill_char(int uplo, char* c) {
    if (uplo == FILL_LOWER) { *c = 'L'; return 1; }
    if (uplo == FILL_UPPER) { *c = 'U'; return 1; }
    return 0;
}
// workspace: the stub asks for WORK(n) elements and checks that at least lwork were given
#define WORK(n) ((n) > 0 ? 64 * (n) : 64)
static void put_info(int* info, int v) { *info = v; }

// ---- getrf ----
#define GETRF(L, T, lp)                                                                             \
int API(L##getrf_bufferSize)(handle_t h, int m, int n, T* A, int lda, int* lwork) {                 \
    (void)A; (void)lda; if (!live(h)) return S_NOT_INITIALIZED; if (!lwork || m < 0 || n < 0) return S_INVALID_VALUE; \
    *lwork = WORK(m > n ? m : n); return S_OK;                                                      \
}                                                                                                   \
int API(L##getrf)(handle_t h, int m, int n, T* A, int lda, T* work, int* ipiv, int* info) {         \
    const char* fn = #L "getrf"; int s = enter(fn, h); if (s) return s;                             \
    int k = m < n ? m : n, w = WORK(m > n ? m : n);                                                  \
    if (m < 0 || n < 0 || lda < (m > 1 ? m : 1)) return refuse(fn, S_INVALID_VALUE);                 \
    if (!on_dev(fn, "A", h, A, mat_bytes(lda, n, sizeof(T))) || !on_dev(fn, "work", h, work, (size_t)w * sizeof(T)) \
        || !on_dev(fn, "ipiv", h, ipiv, (size_t)(k ? k : 1) * 4) || !on_dev(fn, "info", h, info, 4)) \
        return refuse(fn, S_EXECUTION_FAILED);                                                      \
    drv.open_rw();                                                                                  \
    int r = (m && n) ? LP(lp)(LAPACK_COL_MAJOR, m, n, A, lda, ipiv) : 0;                           \
    put_info(info, r); drv.close_rw(); count(1, 1); count(3, 1); return S_OK;                       \
}
GETRF(D, double, dgetrf)
GETRF(Z, zc, zgetrf)

// ---- getrs ----
#define GETRS(L, T, lp)                                                                             \
int API(L##getrs)(handle_t h, int trans, int n, int nrhs, const T* A, int lda, const int* ipiv,     \
                  T* B, int ldb, int* info) {                                                       \
    const char* fn = #L "getrs"; int s = enter(fn, h); if (s) return s;                             \
    char t = trans == OP_N ? 'N' : trans == OP_T ? 'T' : trans == OP_C ? 'C' : 0;                   \
    if (!t || n < 0 || nrhs < 0 || lda < (n > 1 ? n : 1) || ldb < (n > 1 ? n : 1)) return refuse(fn, S_INVALID_VALUE); \
    if (!on_dev(fn, "A", h, A, mat_bytes(lda, n, sizeof(T))) || !on_dev(fn, "ipiv", h, ipiv, (size_t)(n ? n : 1) * 4) \
        || !on_dev(fn, "B", h, B, mat_bytes(ldb, nrhs, sizeof(T))) || !on_dev(fn, "info", h, info, 4)) \
        return refuse(fn, S_EXECUTION_FAILED);                                                      \
    drv.open_rw();                                                                                  \
    int r = (n && nrhs) ? LP(lp)(LAPACK_COL_MAJOR, t, n, nrhs, (T*)A, lda, ipiv, B, ldb) : 0;      \
    put_info(info, r); drv.close_rw(); count(1, 1); return S_OK;                                    \
}
GETRS(D, double, dgetrs)
GETRS(Z, zc, zgetrs)

// ---- potrf ----
#define POTRF(L, T, lp)                                                                             \
int API(L##potrf_bufferSize)(handle_t h, int uplo, int n, T* A, int lda, int* lwork) {              \
    (void)A; (void)lda; char c; if (!live(h)) return S_NOT_INITIALIZED;                             \
    if (!lwork || n < 0 || !fill_char(uplo, &c)) return S_INVALID_VALUE;                            \
    *lwork = WORK(n); return S_OK;                                                                  \
}                                                                                                   \
int API(L##potrf)(handle_t h, int uplo, int n, T* A, int lda, T* work, int lwork, int* info) {     \
    const char* fn = #L "potrf"; int s = enter(fn, h); if (s) return s; char c;                     \
    if (!fill_char(uplo, &c) || n < 0 || lda < (n > 1 ? n : 1) || lwork < WORK(n)) return refuse(fn, S_INVALID_VALUE); \
    if (!on_dev(fn, "A", h, A, mat_bytes(lda, n, sizeof(T))) || !on_dev(fn, "work", h, work, (size_t)lwork * sizeof(T)) \
        || !on_dev(fn, "info", h, info, 4)) return refuse(fn, S_EXECUTION_FAILED);                  \
    drv.open_rw();                                                                                  \
    int r = n ? LP(lp)(LAPACK_COL_MAJOR, c, n, A, lda) : 0;                                         \
    put_info(info, r); drv.close_rw(); count(1, 1); count(3, 1); return S_OK;                       \
}
POTRF(D, double, dpotrf)
POTRF(Z, zc, zpotrf)

// ---- syevd / heevd, geqrf, orgqr / ungqr: the LAPACK call with its own workspace query ----
#define QUERY_THEN_RUN(T, call_q, call_r, nw) do {                                                 \
    T wq[2] = {0};                                                                                  \
    int r_ = (call_q);                                                                              \
    if (r_) return r_;                                                                              \
    int lw_ = (int)creal((zc)wq[0]);                                                                \
    T* w_ = malloc(sizeof(T) * (size_t)(lw_ > 1 ? lw_ : 1) * (nw));                                 \
    if (!w_) return -1000;                                                                          \
    r_ = (call_r);                                                                                  \
    free(w_);                                                                                       \
    return r_;                                                                                      \
} while (0)
static int dsyevd_run(char j, char u, int n, double* a, int lda, double* w) {
    double q = 0; int iq = 0;
    int r = LP(dsyevd)(LAPACK_COL_MAJOR, j, u, n, a, lda, w, &q, -1, &iq, -1);
    if (r) return r;
    int lw = (int)q, liw = iq; double* wk = malloc(sizeof(double) * (lw > 1 ? lw : 1)); int* iw = malloc(sizeof(int) * (liw > 1 ? liw : 1));
    r = (wk && iw) ? LP(dsyevd)(LAPACK_COL_MAJOR, j, u, n, a, lda, w, wk, lw, iw, liw) : -1000;
    free(wk); free(iw); return r;
}
static int zheevd_run(char j, char u, int n, zc* a, int lda, double* w) {
    zc q = 0; double rq = 0; int iq = 0;
    int r = LP(zheevd)(LAPACK_COL_MAJOR, j, u, n, a, lda, w, &q, -1, &rq, -1, &iq, -1);
    if (r) return r;
    int lw = (int)creal(q), lrw = (int)rq, liw = iq;
    zc* wk = malloc(sizeof(zc) * (lw > 1 ? lw : 1)); double* rw = malloc(sizeof(double) * (lrw > 1 ? lrw : 1));
    int* iw = malloc(sizeof(int) * (liw > 1 ? liw : 1));
    r = (wk && rw && iw) ? LP(zheevd)(LAPACK_COL_MAJOR, j, u, n, a, lda, w, wk, lw, rw, lrw, iw, liw) : -1000;
    free(wk); free(rw); free(iw); return r;
}
static int dgeqrf_run(int m, int n, double* a, int lda, double* tau) {
    QUERY_THEN_RUN(double, LP(dgeqrf)(LAPACK_COL_MAJOR, m, n, a, lda, tau, wq, -1),
                   LP(dgeqrf)(LAPACK_COL_MAJOR, m, n, a, lda, tau, w_, lw_), 1);
}
static int zgeqrf_run(int m, int n, zc* a, int lda, zc* tau) {
    QUERY_THEN_RUN(zc, LP(zgeqrf)(LAPACK_COL_MAJOR, m, n, a, lda, tau, wq, -1),
                   LP(zgeqrf)(LAPACK_COL_MAJOR, m, n, a, lda, tau, w_, lw_), 1);
}
static int dorgqr_run(int m, int n, int k, double* a, int lda, double* tau) {
    QUERY_THEN_RUN(double, LP(dorgqr)(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, wq, -1),
                   LP(dorgqr)(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, w_, lw_), 1);
}
static int zungqr_run(int m, int n, int k, zc* a, int lda, zc* tau) {
    QUERY_THEN_RUN(zc, LP(zungqr)(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, wq, -1),
                   LP(zungqr)(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, w_, lw_), 1);
}

// ---- syevd / heevd ----
#define EVD(L, name, T, lp)                                                                         \
int API(L##name##_bufferSize)(handle_t h, int jobz, int uplo, int n, const T* A, int lda,           \
                              const double* W, int* lwork) {                                        \
    (void)A; (void)lda; (void)W; char c; if (!live(h)) return S_NOT_INITIALIZED;                    \
    if (!lwork || n < 0 || !fill_char(uplo, &c) || (jobz != EIG_VECTOR && jobz != EIG_NOVECTOR)) return S_INVALID_VALUE; \
    *lwork = WORK(n); return S_OK;                                                                  \
}                                                                                                   \
int API(L##name)(handle_t h, int jobz, int uplo, int n, T* A, int lda, double* W, T* work,          \
                 int lwork, int* info) {                                                            \
    const char* fn = #L #name; int s = enter(fn, h); if (s) return s; char c;                       \
    if (!fill_char(uplo, &c) || (jobz != EIG_VECTOR && jobz != EIG_NOVECTOR) || n < 0               \
        || lda < (n > 1 ? n : 1) || lwork < WORK(n)) return refuse(fn, S_INVALID_VALUE);            \
    if (!on_dev(fn, "A", h, A, mat_bytes(lda, n, sizeof(T))) || !on_dev(fn, "W", h, W, (size_t)(n ? n : 1) * 8) \
        || !on_dev(fn, "work", h, work, (size_t)lwork * sizeof(T)) || !on_dev(fn, "info", h, info, 4)) \
        return refuse(fn, S_EXECUTION_FAILED);                                                      \
    drv.open_rw();                                                                                  \
    int r = n ? lp##_run(jobz == EIG_VECTOR ? 'V' : 'N', c, n, A, lda, W) : 0;                     \
    put_info(info, r); drv.close_rw(); count(1, 1); count(3, 1); return S_OK;                       \
}
EVD(D, syevd, double, dsyevd)
EVD(Z, heevd, zc, zheevd)

// ---- geqrf ----
#define GEQRF(L, T, lp)                                                                             \
int API(L##geqrf_bufferSize)(handle_t h, int m, int n, T* A, int lda, int* lwork) {                 \
    (void)A; (void)lda; if (!live(h)) return S_NOT_INITIALIZED; if (!lwork || m < 0 || n < 0) return S_INVALID_VALUE; \
    *lwork = WORK(n); return S_OK;                                                                  \
}                                                                                                   \
int API(L##geqrf)(handle_t h, int m, int n, T* A, int lda, T* tau, T* work, int lwork, int* info) { \
    const char* fn = #L "geqrf"; int s = enter(fn, h); if (s) return s; int k = m < n ? m : n;      \
    if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || lwork < WORK(n)) return refuse(fn, S_INVALID_VALUE); \
    if (!on_dev(fn, "A", h, A, mat_bytes(lda, n, sizeof(T))) || !on_dev(fn, "tau", h, tau, (size_t)(k ? k : 1) * sizeof(T)) \
        || !on_dev(fn, "work", h, work, (size_t)lwork * sizeof(T)) || !on_dev(fn, "info", h, info, 4)) \
        return refuse(fn, S_EXECUTION_FAILED);                                                      \
    drv.open_rw();                                                                                  \
    int r = (m && n) ? lp##_run(m, n, A, lda, tau) : 0;                                            \
    put_info(info, r); drv.close_rw(); count(1, 1); count(3, 1); return S_OK;                       \
}
GEQRF(D, double, dgeqrf)
GEQRF(Z, zc, zgeqrf)

// ---- orgqr / ungqr ----
#define ORGQR(L, name, T, lp)                                                                       \
int API(L##name##_bufferSize)(handle_t h, int m, int n, int k, const T* A, int lda, const T* tau,   \
                              int* lwork) {                                                         \
    (void)A; (void)lda; (void)tau; if (!live(h)) return S_NOT_INITIALIZED;                          \
    if (!lwork || m < 0 || n < 0 || n > m || k < 0 || k > n) return S_INVALID_VALUE;               \
    *lwork = WORK(n); return S_OK;                                                                  \
}                                                                                                   \
int API(L##name)(handle_t h, int m, int n, int k, T* A, int lda, const T* tau, T* work, int lwork,  \
                 int* info) {                                                                       \
    const char* fn = #L #name; int s = enter(fn, h); if (s) return s;                               \
    if (m < 0 || n < 0 || n > m || k < 0 || k > n || lda < (m > 1 ? m : 1) || lwork < WORK(n))     \
        return refuse(fn, S_INVALID_VALUE);                                                         \
    if (!on_dev(fn, "A", h, A, mat_bytes(lda, n, sizeof(T))) || !on_dev(fn, "tau", h, tau, (size_t)(k ? k : 1) * sizeof(T)) \
        || !on_dev(fn, "work", h, work, (size_t)lwork * sizeof(T)) || !on_dev(fn, "info", h, info, 4)) \
        return refuse(fn, S_EXECUTION_FAILED);                                                      \
    drv.open_rw();                                                                                  \
    int r = (m && n) ? lp##_run(m, n, k, A, lda, (T*)tau) : 0;                                     \
    put_info(info, r); drv.close_rw(); count(1, 1); return S_OK;                                    \
}
ORGQR(D, orgqr, double, dorgqr)
ORGQR(Z, ungqr, zc, zungqr)

// ---- gesvd: cuSOLVER takes m >= n only (the stub refuses the rest, as cuSOLVER does) ----
static int dgesvd_run(char ju, char jv, int m, int n, double* a, int lda, double* s, double* u, int ldu,
                      double* vt, int ldvt) {
    double q = 0;
    int r = LP(dgesvd)(LAPACK_COL_MAJOR, ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt, &q, -1);
    if (r) return r;
    int lw = (int)q; double* w = malloc(sizeof(double) * (lw > 1 ? lw : 1));
    r = w ? LP(dgesvd)(LAPACK_COL_MAJOR, ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt, w, lw) : -1000;
    free(w); return r;
}
static int zgesvd_run(char ju, char jv, int m, int n, zc* a, int lda, double* s, zc* u, int ldu,
                      zc* vt, int ldvt) {
    zc q = 0; int k = m < n ? m : n;
    double* rw = malloc(sizeof(double) * (5 * k > 1 ? 5 * k : 1));
    int r = rw ? LP(zgesvd)(LAPACK_COL_MAJOR, ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt, &q, -1, rw) : -1000;
    if (r) { free(rw); return r; }
    int lw = (int)creal(q); zc* w = malloc(sizeof(zc) * (lw > 1 ? lw : 1));
    r = w ? LP(zgesvd)(LAPACK_COL_MAJOR, ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt, w, lw, rw) : -1000;
    free(w); free(rw); return r;
}
static int job_rows(signed char j, int m, int k) { return j == 'A' ? m : j == 'S' ? k : 0; }
#define GESVD(L, T, lp)                                                                             \
int API(L##gesvd_bufferSize)(handle_t h, int m, int n, int* lwork) {                                \
    if (!live(h)) return S_NOT_INITIALIZED;                                                          \
    if (!lwork || m < 0 || n < 0) return S_INVALID_VALUE;                                           \
    *lwork = WORK(m > n ? m : n); return S_OK;                                                      \
}                                                                                                   \
int API(L##gesvd)(handle_t h, signed char jobu, signed char jobvt, int m, int n, T* A, int lda,     \
                  double* S, T* U, int ldu, T* VT, int ldvt, T* work, int lwork, double* rwork,     \
                  int* info) {                                                                      \
    const char* fn = #L "gesvd"; int s = enter(fn, h); if (s) return s; int k = m < n ? m : n;     \
    (void)rwork;                                                                                    \
    if (m < n || (jobu != 'A' && jobu != 'S' && jobu != 'N') || (jobvt != 'A' && jobvt != 'S' && jobvt != 'N') \
        || lda < (m > 1 ? m : 1) || lwork < WORK(m > n ? m : n)                                      \
        || (jobu != 'N' && ldu < (m > 1 ? m : 1)) || (jobvt == 'A' && ldvt < (n > 1 ? n : 1))       \
        || (jobvt == 'S' && ldvt < (k > 1 ? k : 1))) return refuse(fn, S_INVALID_VALUE);            \
    int ucols = job_rows(jobu, m, k), vcols = jobvt == 'N' ? 0 : n;                                 \
    if (!on_dev(fn, "A", h, A, mat_bytes(lda, n, sizeof(T))) || !on_dev(fn, "S", h, S, (size_t)(k ? k : 1) * 8) \
        || (ucols && !on_dev(fn, "U", h, U, mat_bytes(ldu, ucols, sizeof(T))))                      \
        || (vcols && !on_dev(fn, "VT", h, VT, mat_bytes(ldvt, vcols, sizeof(T))))                   \
        || !on_dev(fn, "work", h, work, (size_t)lwork * sizeof(T)) || !on_dev(fn, "info", h, info, 4)) \
        return refuse(fn, S_EXECUTION_FAILED);                                                      \
    drv.open_rw();                                                                                  \
    int r = (m && n) ? lp##_run(jobu, jobvt, m, n, A, lda, S, U, ldu > 0 ? ldu : 1, VT, ldvt > 0 ? ldvt : 1) : 0; \
    put_info(info, r); drv.close_rw(); count(1, 1); count(3, 1); return S_OK;                       \
}
GESVD(D, double, dgesvd)
GESVD(Z, zc, zgesvd)

// ---- Xgeev (the 64-bit API): a params object, data-type enums (cudaDataType and hipDataType
// share R_64F = 1, C_64F = 5), complex W (real A's eigenvalues as complex values), right
// eigenvectors only (both vendors refuse left ones), and a host workspace beside the device one.
// bufferSize asks for both; the call refuses less than it asked for.
enum { DT_R_64F = 1, DT_C_64F = 5 };
struct params { u64 magic; };
#define PMAGIC 0x5041524d53ULL
int API(CreateParams)(void** out) {
    if (!out) return S_INVALID_VALUE;
    struct params* p = calloc(1, sizeof *p);
    if (!p) return S_NOT_INITIALIZED;
    p->magic = PMAGIC; *out = p; return S_OK;
}
int API(DestroyParams)(void* p) {
    struct params* q = p;
    if (!q || q->magic != PMAGIC) return S_INVALID_VALUE;
    q->magic = 0; free(q); return S_OK;
}
static size_t geev_dev_bytes(int64_t n) { return (size_t)WORK(n) * 16; }
static size_t geev_host_bytes(int64_t n) { return (size_t)WORK(n) * 8 + 64; }
// the types: all R_64F but W C_64F (dgeev), or all C_64F (zgeev); 0 when neither
static int geev_kind(int ta, int tw, int tvl, int tvr, int tc) {
    if (ta == DT_R_64F && tw == DT_C_64F && tvl == DT_R_64F && tvr == DT_R_64F && tc == DT_R_64F) return 'D';
    if (ta == DT_C_64F && tw == DT_C_64F && tvl == DT_C_64F && tvr == DT_C_64F && tc == DT_C_64F) return 'Z';
    return 0;
}
static int geev_args(handle_t h, void* params, int jobvl, int jobvr, int64_t n, int64_t lda,
                     int64_t ldvl, int64_t ldvr) {
    struct params* p = params;
    if (!p || p->magic != PMAGIC) return S_INVALID_VALUE;
    if (jobvl != EIG_NOVECTOR) return S_INVALID_VALUE;         // left vectors: not supported
    if (jobvr != EIG_NOVECTOR && jobvr != EIG_VECTOR) return S_INVALID_VALUE;
    if (n < 0 || n > 46340 || lda < (n > 1 ? n : 1) || ldvl < 1 || lda > 46340
        || ldvr < (jobvr == EIG_VECTOR ? (n > 1 ? n : 1) : 1)) return S_INVALID_VALUE;
    (void)h; return S_OK;
}
int API(Xgeev_bufferSize)(handle_t h, void* params, int jobvl, int jobvr, int64_t n, int ta, const void* A,
                          int64_t lda, int tw, const void* W, int tvl, const void* VL, int64_t ldvl, int tvr,
                          const void* VR, int64_t ldvr, int tc, size_t* dev_bytes, size_t* host_bytes) {
    (void)A; (void)W; (void)VL; (void)VR;
    if (!live(h)) return S_NOT_INITIALIZED;
    if (!dev_bytes || !host_bytes || !geev_kind(ta, tw, tvl, tvr, tc)) return S_INVALID_VALUE;
    int s = geev_args(h, params, jobvl, jobvr, n, lda, ldvl, ldvr); if (s) return s;
    *dev_bytes = geev_dev_bytes(n); *host_bytes = geev_host_bytes(n); return S_OK;
}
static int dgeev_run(char jr, int n, double* a, int lda, zc* w, double* vr, int ldvr) {
    double q = 0, vl = 0;
    double* wr = malloc(sizeof(double) * 2 * (size_t)n);
    if (!wr) return -1000;
    double* wi = wr + n;
    int r = LP(dgeev)(LAPACK_COL_MAJOR, 'N', jr, n, a, lda, wr, wi, &vl, 1, vr, ldvr, &q, -1);
    if (!r) {
        int lw = (int)q; double* wk = malloc(sizeof(double) * (lw > 1 ? lw : 1));
        r = wk ? LP(dgeev)(LAPACK_COL_MAJOR, 'N', jr, n, a, lda, wr, wi, &vl, 1, vr, ldvr, wk, lw) : -1000;
        free(wk);
    }
    if (!r) for (int i = 0; i < n; ++i) w[i] = wr[i] + I * wi[i];
    free(wr); return r;
}
static int zgeev_run(char jr, int n, zc* a, int lda, zc* w, zc* vr, int ldvr) {
    zc q = 0, vl = 0;
    double* rw = malloc(sizeof(double) * 2 * (size_t)n);
    if (!rw) return -1000;
    int r = LP(zgeev)(LAPACK_COL_MAJOR, 'N', jr, n, a, lda, w, &vl, 1, vr, ldvr, &q, -1, rw);
    if (!r) {
        int lw = (int)creal(q); zc* wk = malloc(sizeof(zc) * (lw > 1 ? lw : 1));
        r = wk ? LP(zgeev)(LAPACK_COL_MAJOR, 'N', jr, n, a, lda, w, &vl, 1, vr, ldvr, wk, lw, rw) : -1000;
        free(wk);
    }
    free(rw); return r;
}
int API(Xgeev)(handle_t h, void* params, int jobvl, int jobvr, int64_t n, int ta, void* A, int64_t lda,
               int tw, void* W, int tvl, void* VL, int64_t ldvl, int tvr, void* VR, int64_t ldvr, int tc,
               void* dwork, size_t dbytes, void* hwork, size_t hbytes, int* info) {
    const char* fn = "Xgeev"; int s = enter(fn, h); if (s) return s;
    int kind = geev_kind(ta, tw, tvl, tvr, tc);
    if (!kind) return refuse(fn, S_INVALID_VALUE);
    if ((s = geev_args(h, params, jobvl, jobvr, n, lda, ldvl, ldvr))) return refuse(fn, s);
    if (dbytes < geev_dev_bytes(n) || hbytes < geev_host_bytes(n) || !hwork) return refuse(fn, S_INVALID_VALUE);
    size_t es = kind == 'D' ? 8 : 16;
    int vec = jobvr == EIG_VECTOR;
    (void)VL;
    if (!on_dev(fn, "A", h, A, mat_bytes((int)lda, (int)n, es)) || !on_dev(fn, "W", h, W, (size_t)(n ? n : 1) * 16)
        || (vec && !on_dev(fn, "VR", h, VR, mat_bytes((int)ldvr, (int)n, es)))
        || !on_dev(fn, "work", h, dwork, dbytes) || !on_dev(fn, "info", h, info, 4))
        return refuse(fn, S_EXECUTION_FAILED);
    if (drv.alloc_device(hwork, 1) >= 0) { LOG("%s: the host workspace %p is device memory", fn, hwork); return refuse(fn, S_INVALID_VALUE); }
    memset(hwork, 0, hbytes);                 // the host workspace must be writable host memory
    drv.open_rw();
    int r = 0;
    if (n) r = kind == 'D' ? dgeev_run(vec ? 'V' : 'N', (int)n, A, (int)lda, W, vec ? VR : NULL, vec ? (int)ldvr : 1)
                           : zgeev_run(vec ? 'V' : 'N', (int)n, A, (int)lda, W, vec ? VR : NULL, vec ? (int)ldvr : 1);
    put_info(info, r); drv.close_rw(); count(1, 1); count(3, 1); return S_OK;
}
