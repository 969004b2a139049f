// The fft family: Stockham mixed-radix and Bluestein FFTs (garray.fft in garray/fft/;
// table garray/_ffttable.py; docs/fft.md).
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

}  // namespace fftk

// (the table is complex128 for both rows: single precision applies twiddles in double)
template <class T>
GA_GLOBAL void fft_twiddle(complex<double>* tw, int64 n, int64 per) {
    const int64 k0 = flat_index<int64>() * per;
    const int64 k1 = k0 + per < n ? k0 + per : n;
    for (int64 k = k0; k < k1; ++k) {
        double c, s;
        fftk::root((uint64)k, (uint64)n, &c, &s);
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
