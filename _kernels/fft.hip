// The fft family: Stockham mixed-radix and Bluestein FFTs (garray.fft in garray/fft/;
// table garray/_tables/fft.py; docs/fft.md).
//
// Note [Stockham FFT]
// ~~~~~~~~~~~~~~~~~~~
// 1. Data: `batch` contiguous rows of n complex values (the host makes the transform
//    axis last and contiguous with garray's copy kernel).  A transform of n = r_0 r_1 ...
//    r_{S-1} (radices 4, 2, 3, 5, 7) is S launches of `fft_stage`, ping-ponging between
//    two buffers (Stockham auto-sort: no bit reversal, every stage reads and writes in
//    natural order).  Stage s with radix R and ns = r_0 ... r_{s-1} does, for each
//    butterfly j < n/R of each row (k = j mod ns):
//        v[r] = src[j + r n/R] * W_n^(k r n/(ns R))      r < R   (W_n = exp(-2 pi i/n))
//        v    = DFT_R(v)
//        dst[(j - k) R + k + r ns] = v[r]
//    Inverse transforms conjugate every root (sign +).  The last stage multiplies by the
//    norm's `scale` (a double rounded to the data type).
// 2. Twiddles: one complex128 table per (n, device), tw[k] = W_n^k for k < n, built by
//    `fft_twiddle` in double precision: the angle 2 pi k/n is reduced to a quadrant with
//    integers (4k = q n + r exactly), cos/sin of pi r/(2n) are taken in double.  Both
//    dtypes multiply by the double twiddle and round the product once (single precision
//    measured 6-8x pocketfft's RMS error with twiddles rounded to float32, about 3x with
//    this).  Radix-3/5/7 butterflies read their roots W_R^p = tw[p n/R] from the same
//    table and sum in double.
// 3. Bluestein (lengths with another prime factor): with the chirp w_k = W_{2n}^(k^2)
//    (k^2 reduced mod 2n in unsigned 64-bit integers, then as in 2),
//        X_k = w_k sum_j (x_j w_j) conj(w_{k-j}),
//    a linear convolution done by power-of-two FFTs of length M >= 2n - 1:
//    `blue_pre` (a = x w, zero padded to M), forward FFT, `blue_mul` (times the FFT of the
//    filter b = conj(w) wrapped around M, built once per (n, M, direction, dtype, device)
//    by `blue_filter` and a forward FFT; times 1/M), inverse FFT, `blue_post` (times w,
//    times the norm's scale).  Inverse transforms use conj(w) for w.
// 4. Real transforms: rfft of an even length n reads the real rows as n/2 complex values
//    (a view: no copy), transforms them and untangles the spectrum with `rfft_post`
//    (odd lengths: the complex FFT of the input cast to complex); irfft of an even length
//    packs the spectrum into n/2 complex values with `irfft_pre`, runs a half-length
//    inverse and reads the result as real.  For odd lengths `fft_herm` builds the
//    Hermitian full spectrum of length n from its n//2 + 1 first values (X_k =
//    conj(X_{n-k}) above n//2) for a complex inverse whose real part the host keeps.
//    Both paths ignore the imaginary parts of X_0 and X_{n/2}, as pocketfft does.
// 5. Work split: every kernel gives a thread `per` consecutive items (butterflies or
//    elements) of the flattened (batch x items) range: per = 1 on GPUs, a run on the CPU
//    device (one loop g++ can schedule).  All indices are int64; nothing depends on the
//    warp size or on the block size.
// 6. Tiled path (the CPU device, lengths n >= 64 with n = n1 n2, n1 <= n2 <= 8192, n1 the
//    divisor nearest sqrt n): the four-step form of the same DFT,
//        X[c + n1 k] = sum_q W_n2^(q k) W_n^(q c) sum_t W_n1^(t c) x[q + n2 t],
//    in two launches of `fft_tile` instead of one per stage: (a) for each column q of x
//    read as n1 rows of n2, the n1-point DFT over t, written as row q of y (y[q n1 + c]);
//    (b) in place, for each column c of y read as n2 rows of n1, times W_n^(q c), the
//    n2-point DFT over q, times the norm's scale.  The W_n^(q c) come from a table in the
//    tiles' read order (fft_twiddle with rows = n2): one sequential stream (read as
//    [q][c] its rows were 16 KiB apart and cost as much as the data).  A thread takes a
//    tile of LANES adjacent columns: it gathers them into a buffer (real parts then
//    imaginary parts of each element, LANES each), runs the Stockham stages of item 1
//    there (radices, twiddles from the sub-length's own table, rounding as fft_stage) and
//    scatters the result.  So the data crosses memory twice instead of once per stage (10
//    stages at 2**19), each sub-transform stays in the core's cache (128 KiB at L = 1024
//    for complex128), and the butterflies are vector operations over the lanes (GCC
//    vector types).  LANES = 4: with 8, the 64-byte vectors (complex128 operands,
//    complex64's products in double) are spilled by g++: a complex128 pass took 3-4x
//    longer, complex64 measured 3x slower at 2**20 and 7x at 3**10, though a complex64
//    tile's row is then a whole cache line; plain lane loops were not vectorised at all.
//    The buffer is per OS thread on the CPU device (kept between launches); GPUs
//    (LANES = 1) take a slice of a `work` array, but run one launch per stage (item 1):
//    there the tiled kernel serves the tests' forced runs.
#include "garray/types.h"
#include "garray/loops.h"
#include "garray/math.h"

namespace ga {

namespace fftk {

// exp(-2 pi i k / n) in double, 0 <= k < n (note 2)
GA_FORCE_INLINE void root(uint64 k, uint64 n, double* c, double* s) {
    const uint64 k4 = 4 * k;
    const uint64 q = k4 / n;
    const uint64 r = k4 - q * n;
    const double a = 1.5707963267948966 * (double)r / (double)n;
    const double ca = ::cos(a), sa = ::sin(a);
    // angle = q pi/2 + a
    double cc, ss;
    if (q == 0) { cc = ca; ss = sa; }
    else if (q == 1) { cc = -sa; ss = ca; }
    else if (q == 2) { cc = -ca; ss = -sa; }
    else { cc = sa; ss = -ca; }
    *c = cc;
    *s = -ss;
}

template <class T> GA_FORCE_INLINE T cj(T v, bool c) {
    return c ? T(v.re, -v.im) : v;
}

// the chirp w_k = exp(-i pi k^2 / n) (conjugated when `inv`)
template <class T> GA_FORCE_INLINE T chirp(int64 k, int64 n, bool inv) {
    typedef typename real_of<T>::type R;
    const uint64 n2 = 2 * (uint64)n;
    const uint64 kk = (uint64)k % n2;
    const uint64 r = (kk * kk) % n2;
    double c, s;
    root(r, n2, &c, &s);
    return T((R)c, (R)(inv ? -s : s));
}

// v * (-i) (forward) or v * i (inverse)
template <class T> GA_FORCE_INLINE T rot(T v, bool inv) {
    return inv ? T(-v.im, v.re) : T(v.im, -v.re);
}

// The tiled transform's columns per tile (note 6), and their values as one operand:
// GCC vector types of LANES reals (and of LANES doubles, for the products in double) on
// the CPU device, so every butterfly is a few vector operations; a scalar on GPUs.
#if GA_CPU_LOOPS
enum { LANES = 4 };
template <class R> struct Lanes {
    typedef R vr __attribute__((vector_size(LANES * sizeof(R))));
    typedef double vd __attribute__((vector_size(LANES * sizeof(double))));
    static GA_FORCE_INLINE vr load(const R* p) {
        vr v;
        __builtin_memcpy(&v, p, sizeof v);
        return v;
    }
    static GA_FORCE_INLINE void store(R* p, vr v) { __builtin_memcpy(p, &v, sizeof v); }
    static GA_FORCE_INLINE vd wide(vr v) { return __builtin_convertvector(v, vd); }
    static GA_FORCE_INLINE vr narrow(vd v) { return __builtin_convertvector(v, vr); }
};
#else
enum { LANES = 1 };
template <class R> struct Lanes {
    typedef R vr;
    typedef double vd;
    static GA_FORCE_INLINE vr load(const R* p) { return *p; }
    static GA_FORCE_INLINE void store(R* p, vr v) { *p = v; }
    static GA_FORCE_INLINE vd wide(vr v) { return (double)v; }
    static GA_FORCE_INLINE vr narrow(vd v) { return (R)v; }
};
#endif

// the Stockham radices in the engine's order (4s first), i < 5
GA_FORCE_INLINE int radix_at(int i) {
    return i == 0 ? 4 : i == 1 ? 2 : i == 2 ? 3 : i == 3 ? 5 : 7;
}

// The tile's buffer: `count` reals, slice t of `work` when the host passes one (GPUs).
// Without (the CPU device) one buffer per OS thread, kept between launches, grown on
// demand, freed when the thread ends: a launch's tiles run one after another on each
// pool thread, so it stays in cache.  Null after a failure.
#if defined(GARRAY_HOST)
struct TileScratch {
    void* p = nullptr;
    size_t bytes = 0;
    ~TileScratch() { std::free(p); }
};
#  if defined(GA_CPU_SANITIZE)
// The sanitizer build runs a block's threads interleaved: one buffer per GPU thread, as
// the slices of `work` are on GPUs.
inline thread_local TileScratch tile_scratch[1024];
#    define GA_TILE_SCRATCH tile_scratch[threadIdx.x]
#  else
inline thread_local TileScratch tile_scratch;
#    define GA_TILE_SCRATCH tile_scratch
#  endif
template <class R> inline R* tile_buffer(void* work, int64 t, int64 count) {
    if (work) return (R*)work + t * count;
    const size_t bytes = ((size_t)count * sizeof(R) + 63) & ~(size_t)63;
    TileScratch& s = GA_TILE_SCRATCH;
    if (s.bytes < bytes) {
        std::free(s.p);
        s.p = std::aligned_alloc(64, bytes);
        s.bytes = s.p ? bytes : 0;
        if (!s.p) {
            ga_host::fail("fft: out of host memory for the tile buffer",
                          ga_host::NO_MEMORY);
            return nullptr;
        }
    }
    return (R*)s.p;
}
// the host's lane count must be this build's (a CPU build with GA_CPU_VECTOR_LOADS has 1)
GA_FORCE_INLINE bool lanes_agree(int64 lanes) {
    if (lanes == LANES) return true;
    ga_host::fail("fft_tile: launched for another lane count than it was built with");
    return false;
}
#else
template <class R> GA_FORCE_INLINE R* tile_buffer(void* work, int64 t, int64 count) {
    return (R*)work + t * count;
}
GA_FORCE_INLINE bool lanes_agree(int64 lanes) { return lanes == LANES; }
#endif

// One butterfly of radix RD on all lanes: input r at s + r is, output r at d + r os
// (LANES real parts, then LANES imaginary parts), the twiddles t[r] (TW) and the roots w
// in double.  The same arithmetic as fft_stage, lane by lane: twiddle products in
// double rounded once, radix 2 and 4 in the data's precision, 3, 5 and 7 summed in
// double.
template <class R, int RD, bool TW, bool IV>
GA_FORCE_INLINE void tile_butterfly(R* d, int64 os, const R* s, int64 is,
                                    const complex<double>* t, const complex<double>* w) {
    typedef Lanes<R> LN;
    typedef typename LN::vr VR;
    typedef typename LN::vd VD;
    const int W = LANES;
    VR vr[RD], vi[RD];
    for (int r = 0; r < RD; ++r) {
        const VR xr = LN::load(s + r * is), xi = LN::load(s + r * is + W);
        if (TW && r > 0) {
            const VD dr = LN::wide(xr), di = LN::wide(xi);
            vr[r] = LN::narrow(dr * t[r].re - di * t[r].im);
            vi[r] = LN::narrow(dr * t[r].im + di * t[r].re);
        } else {
            vr[r] = xr;
            vi[r] = xi;
        }
    }
    if (RD == 2) {
        LN::store(d, vr[0] + vr[1]);
        LN::store(d + W, vi[0] + vi[1]);
        LN::store(d + os, vr[0] - vr[1]);
        LN::store(d + os + W, vi[0] - vi[1]);
    } else if (RD == 4) {
        const VR t0r = vr[0] + vr[2], t0i = vi[0] + vi[2];
        const VR t1r = vr[0] - vr[2], t1i = vi[0] - vi[2];
        const VR t2r = vr[1] + vr[3], t2i = vi[1] + vi[3];
        const VR ur = vr[1] - vr[3], ui = vi[1] - vi[3];
        const VR t3r = IV ? -ui : ui, t3i = IV ? ur : -ur;   // rot: times -i, or i
        LN::store(d, t0r + t2r);
        LN::store(d + W, t0i + t2i);
        LN::store(d + 2 * os, t0r - t2r);
        LN::store(d + 2 * os + W, t0i - t2i);
        LN::store(d + os, t1r + t3r);
        LN::store(d + os + W, t1i + t3i);
        LN::store(d + 3 * os, t1r - t3r);
        LN::store(d + 3 * os + W, t1i - t3i);
    } else {
        VD xr[RD], xi[RD];
        for (int r = 0; r < RD; ++r) { xr[r] = LN::wide(vr[r]); xi[r] = LN::wide(vi[r]); }
        for (int q = 0; q < RD; ++q) {
            VD ar = xr[0], ai = xi[0];
            for (int r = 1; r < RD; ++r) {
                const complex<double> c = w[(q * r) % RD];
                ar = ar + (xr[r] * c.re - xi[r] * c.im);
                ai = ai + (xr[r] * c.im + xi[r] * c.re);
            }
            LN::store(d + q * os, LN::narrow(ar));
            LN::store(d + q * os + W, LN::narrow(ai));
        }
    }
}

// A tile's element from its LANES columns at se (nl < LANES: the later lanes repeat the
// last column), times the twiddles we (TW; conjugated when sg = -1), in double.
template <class T, bool TW, bool FULL>
GA_FORCE_INLINE void tile_gather(typename real_of<T>::type* ae, const T* se,
                                 const complex<double>* we, double sg, int nl) {
    typedef typename real_of<T>::type R;
    const int W = LANES;
    for (int l = 0; l < W; ++l) {
        const int lc = FULL || l < nl ? l : nl - 1;
        const T x = se[lc];
        if (TW) {
            const double wr = we[lc].re, wi = we[lc].im * sg;
            ae[l] = (R)((double)x.re * wr - (double)x.im * wi);
            ae[W + l] = (R)((double)x.re * wi + (double)x.im * wr);
        } else {
            ae[l] = x.re;
            ae[W + l] = x.im;
        }
    }
}

// One Stockham stage of radix RD (note 1) over a tile's buffer (element e of `in` at
// in + 2 LANES e).  k = 0 takes no twiddle (as fft_stage: exact for infinities too).
template <class R, int RD, bool IV>
GA_FORCE_INLINE void tile_stage(R* out, const R* in, const complex<double>* tw, int64 L,
                                int64 ns) {
    typedef complex<double> D;
    const int W = LANES;
    const int64 m = L / RD, ts = L / (ns * RD);
    D w[RD];
    for (int p = 0; p < RD; ++p) w[p] = cj(tw[p * m], IV);
    for (int64 jb = 0; jb < m; jb += ns) {
        tile_butterfly<R, RD, false, IV>(out + jb * RD * 2 * W, ns * 2 * W,
                                         in + jb * 2 * W, m * 2 * W, w, w);
        for (int64 k = 1; k < ns; ++k) {
            D t[RD];
            for (int r = 1; r < RD; ++r) t[r] = cj(tw[k * r * ts], IV);
            tile_butterfly<R, RD, true, IV>(out + (jb * RD + k) * 2 * W, ns * 2 * W,
                                            in + (jb + k) * 2 * W, m * 2 * W, t, w);
        }
    }
}

template <class R, bool IV>
GA_FORCE_INLINE void tile_stage_radix(R* out, const R* in, const complex<double>* tw,
                                      int64 L, int64 ns, int radix) {
    switch (radix) {
        case 4: tile_stage<R, 4, IV>(out, in, tw, L, ns); break;
        case 2: tile_stage<R, 2, IV>(out, in, tw, L, ns); break;
        case 3: tile_stage<R, 3, IV>(out, in, tw, L, ns); break;
        case 5: tile_stage<R, 5, IV>(out, in, tw, L, ns); break;
        default: tile_stage<R, 7, IV>(out, in, tw, L, ns); break;
    }
}

}  // namespace fftk

// (the table is complex128 for both rows: single precision applies twiddles in double)
// tw[k] = W_n^k for k < count = n; with rows > 0 the tiled path's table (note 6) for
// columns c < n / rows in tiles of `lanes`: tw[(t rows + q) lanes + l] = W_n^(q c), c =
// t lanes + l (the last tile's lanes past the columns included)
template <class T>
GA_GLOBAL void fft_twiddle(complex<double>* tw, int64 n, int64 count, int64 rows,
                           int64 lanes, int64 per) {
    const int64 k0 = flat_index<int64>() * per;
    const int64 k1 = k0 + per < count ? k0 + per : count;
    for (int64 k = k0; k < k1; ++k) {
        uint64 x = (uint64)k;
        if (rows > 0) {
            const int64 t = k / (rows * lanes), r = k - t * rows * lanes;
            const int64 q = r / lanes, c = t * lanes + (r - q * lanes);
            x = ((uint64)q * (uint64)c) % (uint64)n;
        }
        double c, s;
        fftk::root(x, (uint64)n, &c, &s);
        tw[k] = complex<double>(c, s);
    }
}

template <class T>
GA_GLOBAL void fft_stage(T* dst, const T* src, const complex<double>* tw, int64 n,
                         int64 radix, int64 ns, int64 total, int64 per, int64 inv,
                         double scale) {
    typedef typename real_of<T>::type R;
    const int64 g0 = flat_index<int64>() * per;
    const int64 g1 = g0 + per < total ? g0 + per : total;
    if (g0 >= g1) return;
    const int64 m = n / radix;
    const int64 tstride = n / (ns * radix);
    const bool iv = inv != 0;
    const bool scaled = scale != 1.0;
    const R sc = (R)scale;
    // the radix's roots W_R^p (radix 3, 5, 7)
    typedef complex<double> D;
    D w[7];
    for (int p = 0; p < radix; ++p) w[p] = fftk::cj(tw[p * m], iv);
    int64 b = g0 / m, j = g0 - b * m;
    for (int64 g = g0; g < g1; ++g) {
        const T* s = src + b * n;
        T* d = dst + b * n;
        const int64 k = j % ns;
        T v[7];
        v[0] = s[j];
        for (int r = 1; r < radix; ++r) {
            T x = s[j + r * m];
            if (k != 0) {
                const D t = fftk::cj(tw[k * r * tstride], iv);
                x = T((R)((double)x.re * t.re - (double)x.im * t.im),
                      (R)((double)x.re * t.im + (double)x.im * t.re));
            }
            v[r] = x;
        }
        T y[7];
        if (radix == 2) {
            y[0] = v[0] + v[1];
            y[1] = v[0] - v[1];
        } else if (radix == 4) {
            const T t0 = v[0] + v[2], t1 = v[0] - v[2];
            const T t2 = v[1] + v[3], t3 = fftk::rot(v[1] - v[3], iv);
            y[0] = t0 + t2;
            y[2] = t0 - t2;
            y[1] = t1 + t3;
            y[3] = t1 - t3;
        } else {
            for (int q = 0; q < radix; ++q) {
                D a = D((double)v[0].re, (double)v[0].im);
                for (int r = 1; r < radix; ++r)
                    a = a + D((double)v[r].re, (double)v[r].im) * w[(q * r) % radix];
                y[q] = T((R)a.re, (R)a.im);
            }
        }
        const int64 o = (j - k) * radix + k;
        for (int r = 0; r < radix; ++r) {
            T x = y[r];
            if (scaled) x = T(x.re * sc, x.im * sc);
            d[o + r * ns] = x;
        }
        if (++j == m) { j = 0; ++b; }
    }
}

// dst = src * scale (a transform of length 1, or a plain scaled copy)
template <class T>
GA_GLOBAL void fft_scale(T* dst, const T* src, int64 total, int64 per, double scale) {
    typedef typename real_of<T>::type R;
    const int64 g0 = flat_index<int64>() * per;
    const int64 g1 = g0 + per < total ? g0 + per : total;
    const R sc = (R)scale;
    for (int64 g = g0; g < g1; ++g) dst[g] = T(src[g].re * sc, src[g].im * sc);
}

// Bluestein (note 3): a[b, k] = x[b, k] w_k for k < n, 0 up to M
template <class T>
GA_GLOBAL void blue_pre(T* dst, const T* src, int64 n, int64 M, int64 total, int64 per,
                        int64 inv) {
    const int64 g0 = flat_index<int64>() * per;
    const int64 g1 = g0 + per < total ? g0 + per : total;
    for (int64 g = g0; g < g1; ++g) {
        const int64 b = g / M, k = g - b * M;
        dst[g] = k < n ? src[b * n + k] * fftk::chirp<T>(k, n, inv != 0) : T(0);
    }
}

// the filter b[k] = conj(w_k) for k < n, conj(w_{M-k}) for k > M - n, 0 between
template <class T>
GA_GLOBAL void blue_filter(T* dst, int64 n, int64 M, int64 per, int64 inv) {
    const int64 g0 = flat_index<int64>() * per;
    const int64 g1 = g0 + per < M ? g0 + per : M;
    for (int64 k = g0; k < g1; ++k) {
        T v = T(0);
        if (k < n) v = fftk::chirp<T>(k, n, inv == 0);
        else if (k > M - n) v = fftk::chirp<T>(M - k, n, inv == 0);
        dst[k] = v;
    }
}

// dst[b, k] = a[b, k] * f[k] * scale
template <class T>
GA_GLOBAL void blue_mul(T* dst, const T* a, const T* f, int64 M, int64 total, int64 per,
                        double scale) {
    typedef typename real_of<T>::type R;
    const int64 g0 = flat_index<int64>() * per;
    const int64 g1 = g0 + per < total ? g0 + per : total;
    const R sc = (R)scale;
    for (int64 g = g0; g < g1; ++g) {
        const T v = a[g] * f[g % M];
        dst[g] = T(v.re * sc, v.im * sc);
    }
}

// y[b, k] = c[b, k] * w_k * scale for k < n
template <class T>
GA_GLOBAL void blue_post(T* dst, const T* src, int64 n, int64 M, int64 total, int64 per,
                         int64 inv, double scale) {
    typedef typename real_of<T>::type R;
    const int64 g0 = flat_index<int64>() * per;
    const int64 g1 = g0 + per < total ? g0 + per : total;
    const R sc = (R)scale;
    for (int64 g = g0; g < g1; ++g) {
        const int64 b = g / n, k = g - b * n;
        const T v = src[b * M + k] * fftk::chirp<T>(k, n, inv != 0);
        dst[g] = T(v.re * sc, v.im * sc);
    }
}

// the Hermitian full spectrum (note 4): dst[b, k] = src[b, k] for k < h = n//2 + 1,
// conj(src[b, n - k]) above
template <class T>
GA_GLOBAL void fft_herm(T* dst, const T* src, int64 n, int64 h, int64 total, int64 per) {
    const int64 g0 = flat_index<int64>() * per;
    const int64 g1 = g0 + per < total ? g0 + per : total;
    for (int64 g = g0; g < g1; ++g) {
        const int64 b = g / n, k = g - b * n;
        dst[g] = k < h ? src[b * h + k] : fftk::cj(src[b * h + n - k], true);
    }
}

// The tiled transform (note 6): one tile = LANES (= `lanes`) columns of a batch row, `L`
// elements each at element stride `ies` (lane stride 1) in src, times W_n^(e c) (twn,
// when given: fft_twiddle's table with rows = L, lanes = LANES), DFT'd along the
// elements in a buffer, times `scale`, written to dst at element stride `oes` and lane
// stride `ols`.  dst may be src (a tile reads all it writes first).
template <class T>
GA_GLOBAL void fft_tile(T* dst, const T* src, const complex<double>* tws,
                        const complex<double>* twn, T* work, int64 L, int64 cols, int64 row,
                        int64 ies, int64 oes, int64 ols, int64 tiles, int64 lanes,
                        int64 inv, double scale) {
    typedef typename real_of<T>::type R;
    const int W = fftk::LANES;
    const int64 t = flat_index<int64>();
    if (t >= tiles || !fftk::lanes_agree(lanes)) return;
    const int64 tpr = (cols + W - 1) / W;
    const int64 b = t / tpr, c0 = (t - b * tpr) * W;
    const int nl = cols - c0 < W ? (int)(cols - c0) : W;
    R* a = fftk::tile_buffer<R>(work, t, 4 * L * W);
    if (!a) return;
    R* o = a + 2 * L * W;
    const bool iv = inv != 0;
    const T* s = src + b * row + c0;
    // gather (lanes past the last column repeat it: computed, never written)
    const double sg = iv ? -1.0 : 1.0;
    for (int64 e = 0; e < L; ++e) {
        const T* se = s + e * ies;
        R* ae = a + e * 2 * W;
        const complex<double>* we = twn ? twn + (c0 * L + e * W) : nullptr;
        if (nl == W) {
            if (we) fftk::tile_gather<T, true, true>(ae, se, we, sg, nl);
            else fftk::tile_gather<T, false, true>(ae, se, we, sg, nl);
        } else {
            if (we) fftk::tile_gather<T, true, false>(ae, se, we, sg, nl);
            else fftk::tile_gather<T, false, false>(ae, se, we, sg, nl);
        }
    }
    int64 ns = 1, rest = L;
    for (int ri = 0; ri < 5; ++ri) {
        const int r = fftk::radix_at(ri);
        while (rest % r == 0) {
            if (iv) fftk::tile_stage_radix<R, true>(o, a, tws, L, ns, r);
            else fftk::tile_stage_radix<R, false>(o, a, tws, L, ns, r);
            R* tmp = a; a = o; o = tmp;
            ns *= r;
            rest /= r;
        }
    }
    const R sc = (R)scale;
    T* d = dst + b * row + c0 * ols;
    if (ols == 1) {
        for (int64 e = 0; e < L; ++e)
            for (int l = 0; l < nl; ++l)
                d[e * oes + l] = T(a[e * 2 * W + l] * sc, a[e * 2 * W + W + l] * sc);
    } else {
        for (int l = 0; l < nl; ++l)
            for (int64 e = 0; e < L; ++e)
                d[l * ols + e * oes] = T(a[e * 2 * W + l] * sc, a[e * 2 * W + W + l] * sc);
    }
}

// rfft of even n = 2h (note 4): z holds the FFT of the rows read as h complex values
// (x[2j] + i x[2j+1]); X_k = E_k + W_n^k O_k, k <= h, with E_k = (z_k + conj(z_{h-k}))/2,
// O_k = -i (z_k - conj(z_{h-k}))/2 (indices mod h), in double, times `scale`
template <class T>
GA_GLOBAL void rfft_post(T* dst, const T* z, const complex<double>* tw, int64 h, int64 total,
                         int64 per, double scale) {
    typedef typename real_of<T>::type R;
    typedef complex<double> D;
    const int64 g0 = flat_index<int64>() * per;
    const int64 g1 = g0 + per < total ? g0 + per : total;
    for (int64 g = g0; g < g1; ++g) {
        const int64 b = g / (h + 1), k = g - b * (h + 1);
        const T* zr = z + b * h;
        const T a = zr[k == h ? 0 : k], c = zr[k == 0 ? 0 : h - k];
        const D A((double)a.re, (double)a.im), B((double)c.re, -(double)c.im);
        const D E((A.re + B.re) * 0.5, (A.im + B.im) * 0.5);
        const D O((A.im - B.im) * 0.5, -(A.re - B.re) * 0.5);
        const D X = E + tw[k] * O;
        dst[g] = T((R)(X.re * scale), (R)(X.im * scale));
    }
}

// irfft of even n = 2h (note 4): Z_k = S_k + i W_n^-k D_k, k < h, with S_k = X_k +
// conj(X_{h-k}), D_k = X_k - conj(X_{h-k}) (the imaginary parts of X_0 and X_h dropped),
// in double; the inverse h-point FFT of Z is x[2j] + i x[2j+1] (times n)
template <class T>
GA_GLOBAL void irfft_pre(T* dst, const T* x, const complex<double>* tw, int64 h, int64 total,
                         int64 per) {
    typedef typename real_of<T>::type R;
    typedef complex<double> D;
    const int64 g0 = flat_index<int64>() * per;
    const int64 g1 = g0 + per < total ? g0 + per : total;
    for (int64 g = g0; g < g1; ++g) {
        const int64 b = g / h, k = g - b * h;
        const T* xr = x + b * (h + 1);
        const T a = xr[k], c = xr[h - k];
        const D A((double)a.re, k == 0 ? 0.0 : (double)a.im);
        const D B((double)c.re, k == 0 ? 0.0 : -(double)c.im);
        const D S = A + B, Df = A - B;
        const D t(tw[k].re, -tw[k].im);
        const D P = t * Df;
        dst[g] = T((R)(S.re - P.im), (R)(S.im + P.re));
    }
}

}  // namespace ga
