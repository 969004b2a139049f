// The pooling family: max and average pooling over 1-, 2- and 3-d windows (launched by
// garray/nn/_pool.py through _family_launch; the table is garray/_tables/pool.py,
// docs/pooling.md).
//
// Note [Pooling kernels]
// ~~~~~~~~~~~~~~~~~~~~~~
// 1. Every pool is 3-d: the host pads lower ranks at the FRONT with unit size, kernel,
//    stride and dilation and zero padding (as the convolutions do, Note [Convolution
//    geometry] in garray/nn/_params.py), and folds batch and channels into one "plane"
//    index p = n * C + c.  The geometry travels as one int64 vector on the device
//    (`pool::Geom`, layout below, written by garray/nn/_pool.py's `_launch` and
//    `_pool_backward`).
// 2. The input is read in place through signed ELEMENT strides (n, c, d, h, w): a
//    sliced, transposed or negative-stride view needs no copy.  The output (and the
//    indices) are C-contiguous.  Every offset is an int64.
// 3. One thread computes `per` consecutive outputs along W of one (plane, od, oh) row:
//    per = 1 on GPUs, POOL_CPU_PER on the CPU device, where the taps loop outside the
//    outputs loop so that g++ can vectorise across the row.  For each tap the outputs
//    whose input lies inside [0, W) are one run computed up front (`valid_run`), so the
//    inner loop has no bounds tests, and with unit W stride (input and window) it reads
//    a contiguous run.  For a given output the taps are visited in (d, h, w) order
//    either way, so `per` never changes a result.
// 4. Max pooling is PyTorch's rule exactly: start from -inf and the index of the first
//    valid tap, take a tap when `v > max || v != v` (strictly greater: the first of equal
//    maxima wins; NaN always wins, so NaN propagates and the index is the LAST NaN's).
//    The index is flat over the input's spatial extent, (d * H + h) * W + w.  A window
//    with no valid tap (a dilated window that straddles the input) gives -inf and that
//    first-tap index, as PyTorch's CPU kernel does.
// 5. Average pooling is PyTorch's rule: the window is first clipped to the input grown
//    by the (low) padding on both sides; its size there is the divisor when
//    count_include_pad; then clipped to the input, where the values are summed (in T)
//    and whose size is the divisor otherwise; a divisor_override (nonzero) replaces
//    both.  A window with no input element gives 0.
// 6. The backward kernels gather: one thread per INPUT element walks the outputs whose
//    window covers it (per axis o = (i + pad - t * dil) / stride for the taps t that
//    divide evenly and land in [0, out)), in ascending output order, so the sum is the
//    one PyTorch's CPU kernel makes when it scatters output by output, and there are no
//    atomics and no dependence on scheduling.  Max: an output contributes its gradient
//    where its index is this element's (the forward's index always lies in its window,
//    except for a window with no valid tap, whose gradient is dropped here as in
//    PyTorch's CUDA kernel, while its CPU kernel scatters it to that index); average:
//    gradient / that output's divisor.
//    grad_output, indices and grad_input are C-contiguous.
#include "garray/loops.h"

#if defined(GARRAY_HOST)
#  define POOL_CPU_PER 64
#else
#  define POOL_CPU_PER 1
#endif

namespace ga {
namespace pool {

// The packed geometry (note 1): planes, C, size[3], kernel[3], out[3], stride[3],
// pad[3], dil[3], input strides (n, c, d, h, w), per, count_include_pad, divisor.
enum { LEN = 28 };

struct Geom {
    int64 planes, channels;
    int64 size[3], kernel[3], out[3], stride[3], pad[3], dil[3];
    int64 sn, sc, sd, sh, sw;
    int64 per, include_pad, divisor;

    static GA_DEVICE Geom load(const int64* p) {
        Geom g;
        g.planes = p[0];
        g.channels = p[1];
        for (int i = 0; i < 3; ++i) {
            g.size[i] = p[2 + i];
            g.kernel[i] = p[5 + i];
            g.out[i] = p[8 + i];
            g.stride[i] = p[11 + i];
            g.pad[i] = p[14 + i];
            g.dil[i] = p[17 + i];
        }
        g.sn = p[20]; g.sc = p[21]; g.sd = p[22]; g.sh = p[23]; g.sw = p[24];
        g.per = p[25]; g.include_pad = p[26]; g.divisor = p[27];
        return g;
    }
};

// The thread's row: plane, od, oh and its outputs [w0, w0 + cnt).  False when the
// thread is past the end.
struct Row {
    int64 plane, od, oh, w0, cnt;
};

GA_DEVICE bool thread_row(const Geom& g, Row* r) {
    int64 t = flat_index<int64>();
    int64 chunks = (g.out[2] + g.per - 1) / g.per;
    int64 wc = t % chunks;
    t /= chunks;
    r->oh = t % g.out[1];
    t /= g.out[1];
    r->od = t % g.out[0];
    r->plane = t / g.out[0];
    if (r->plane >= g.planes) return false;
    r->w0 = wc * g.per;
    int64 end = r->w0 + g.per < g.out[2] ? r->w0 + g.per : g.out[2];
    r->cnt = end - r->w0;
    return true;
}

// The first valid tap at or after `start` (start + j * dil >= 0), PyTorch's
// `while (i0 < 0) i0 += dil`.
GA_DEVICE int64 first_valid(int64 start, int64 dil) {
    return start >= 0 ? start : start + ((-start + dil - 1) / dil) * dil;
}

// a / b rounded up, for b > 0 and any sign of a.
GA_DEVICE int64 ceil_div(int64 a, int64 b) {
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

// The outputs j in [0, cnt) whose tap j * stride + off lies in [0, W): [*j0, *j1)
// (empty when *j0 >= *j1).  The tap loops then run without bounds tests (note 3).
GA_DEVICE void valid_run(int64 off, int64 stride, int64 W, int64 cnt, int64* j0,
                         int64* j1) {
    int64 lo = ceil_div(-off, stride);
    int64 hi = ceil_div(W - off, stride);
    *j0 = lo > 0 ? lo : 0;
    *j1 = hi < cnt ? hi : cnt;
}

}  // namespace pool

// y[p, od, oh, ow] = max over the window; idx (may be null) its flat spatial index.
template <class T>
GA_GLOBAL void pool_max(const T* x, T* y, int64* idx, const int64* geom, double neg_inf) {
    const pool::Geom g = pool::Geom::load(geom);
    pool::Row r;
    if (!pool::thread_row(g, &r)) return;
    const int64 D = g.size[0], H = g.size[1], W = g.size[2];
    const int64 n = r.plane / g.channels, c = r.plane % g.channels;
    const T* xp = x + n * g.sn + c * g.sc;
    const bool unit = g.sw == 1 && g.stride[2] == 1;
    const int64 d0 = r.od * g.stride[0] - g.pad[0];
    const int64 h0 = r.oh * g.stride[1] - g.pad[1];
    const int64 d1 = d0 + (g.kernel[0] - 1) * g.dil[0] + 1 < D
                         ? d0 + (g.kernel[0] - 1) * g.dil[0] + 1 : D;
    const int64 h1 = h0 + (g.kernel[1] - 1) * g.dil[1] + 1 < H
                         ? h0 + (g.kernel[1] - 1) * g.dil[1] + 1 : H;
    const int64 dv = pool::first_valid(d0, g.dil[0]);
    const int64 hv = pool::first_valid(h0, g.dil[1]);
    T m[POOL_CPU_PER];
    int64 mi[POOL_CPU_PER];
    for (int64 j = 0; j < r.cnt; ++j) {
        int64 w0 = (r.w0 + j) * g.stride[2] - g.pad[2];
        m[j] = (T)neg_inf;
        mi[j] = (dv * H + hv) * W + pool::first_valid(w0, g.dil[2]);
    }
    for (int64 id = dv; id < d1; id += g.dil[0]) {
        for (int64 ih = hv; ih < h1; ih += g.dil[1]) {
            const T* row = xp + id * g.sd + ih * g.sh;
            const int64 base = (id * H + ih) * W;
            for (int64 kw = 0; kw < g.kernel[2]; ++kw) {
                const int64 off = r.w0 * g.stride[2] + kw * g.dil[2] - g.pad[2];
                int64 j0, j1;
                pool::valid_run(off, g.stride[2], W, r.cnt, &j0, &j1);
                if (unit) {           // unit strides: a contiguous run (vectorises)
                    const T* rp = row + off;
                    const int64 bo = base + off;
                    for (int64 j = j0; j < j1; ++j) {
                        const T v = rp[j];
                        const bool take = v > m[j] || v != v;
                        m[j] = take ? v : m[j];
                        mi[j] = take ? bo + j : mi[j];
                    }
                } else {
                    for (int64 j = j0; j < j1; ++j) {
                        const int64 iw = j * g.stride[2] + off;
                        const T v = row[iw * g.sw];
                        const bool take = v > m[j] || v != v;
                        m[j] = take ? v : m[j];
                        mi[j] = take ? base + iw : mi[j];
                    }
                }
            }
        }
    }
    const int64 o = ((r.plane * g.out[0] + r.od) * g.out[1] + r.oh) * g.out[2] + r.w0;
    for (int64 j = 0; j < r.cnt; ++j) y[o + j] = m[j];
    if (idx)
        for (int64 j = 0; j < r.cnt; ++j) idx[o + j] = mi[j];
}

// y[p, od, oh, ow] = sum over the window / divisor (note 5).
template <class T>
GA_GLOBAL void pool_avg(const T* x, T* y, const int64* geom) {
    const pool::Geom g = pool::Geom::load(geom);
    pool::Row r;
    if (!pool::thread_row(g, &r)) return;
    const int64 D = g.size[0], H = g.size[1], W = g.size[2];
    const int64 n = r.plane / g.channels, c = r.plane % g.channels;
    const T* xp = x + n * g.sn + c * g.sc;
    const bool unit = g.sw == 1 && g.stride[2] == 1;
    // d and h: the window clipped to the padded input (pool size), then to the input
    int64 d0 = r.od * g.stride[0] - g.pad[0];
    int64 h0 = r.oh * g.stride[1] - g.pad[1];
    int64 d1 = d0 + g.kernel[0] < D + g.pad[0] ? d0 + g.kernel[0] : D + g.pad[0];
    int64 h1 = h0 + g.kernel[1] < H + g.pad[1] ? h0 + g.kernel[1] : H + g.pad[1];
    const int64 pool_dh = (d1 - d0) * (h1 - h0);
    d0 = d0 > 0 ? d0 : 0;
    h0 = h0 > 0 ? h0 : 0;
    d1 = d1 < D ? d1 : D;
    h1 = h1 < H ? h1 : H;
    const int64 in_dh = (d1 - d0) * (h1 - h0);
    T s[POOL_CPU_PER];
    for (int64 j = 0; j < r.cnt; ++j) s[j] = (T)0;
    for (int64 id = d0; id < d1; ++id) {
        for (int64 ih = h0; ih < h1; ++ih) {
            const T* row = xp + id * g.sd + ih * g.sh;
            for (int64 kw = 0; kw < g.kernel[2]; ++kw) {
                const int64 off = r.w0 * g.stride[2] + kw - g.pad[2];
                int64 j0, j1;
                pool::valid_run(off, g.stride[2], W, r.cnt, &j0, &j1);
                if (unit) {
                    const T* rp = row + off;
                    for (int64 j = j0; j < j1; ++j) s[j] += rp[j];
                } else {
                    for (int64 j = j0; j < j1; ++j) s[j] += row[(j * g.stride[2] + off) * g.sw];
                }
            }
        }
    }
    const int64 o = ((r.plane * g.out[0] + r.od) * g.out[1] + r.oh) * g.out[2] + r.w0;
    for (int64 j = 0; j < r.cnt; ++j) {
        int64 w0 = (r.w0 + j) * g.stride[2] - g.pad[2];
        int64 w1 = w0 + g.kernel[2] < W + g.pad[2] ? w0 + g.kernel[2] : W + g.pad[2];
        const int64 pool_size = pool_dh * (w1 - w0);
        w0 = w0 > 0 ? w0 : 0;
        w1 = w1 < W ? w1 : W;
        if (d0 >= d1 || h0 >= h1 || w0 >= w1) {
            y[o + j] = (T)0;
            continue;
        }
        const int64 div = g.divisor != 0 ? g.divisor
                        : g.include_pad ? pool_size : in_dh * (w1 - w0);
        y[o + j] = s[j] / (T)div;
    }
}

// Backward kernels (note 6): gx[p, d, h, w] for every input element; `total` = N*C*D*H*W.
#define GA_POOL_BWD_PROLOGUE                                                          \
    const pool::Geom g = pool::Geom::load(geom);                                      \
    const int64 t = flat_index<int64>();                                              \
    if (t >= total) return;                                                           \
    const int64 D = g.size[0], H = g.size[1], W = g.size[2];                          \
    const int64 iw = t % W, ih = (t / W) % H, id = (t / (W * H)) % D;                 \
    const int64 plane = t / (W * H * D);                                              \
    T acc = (T)0;

// The output along one axis whose tap `tap` reads input i, or -1.
namespace pool {
GA_DEVICE int64 covering(const Geom& g, int a, int64 i, int64 tap) {
    const int64 num = i + g.pad[a] - tap * g.dil[a];
    if (num < 0 || num % g.stride[a] != 0) return -1;
    const int64 o = num / g.stride[a];
    return o < g.out[a] ? o : -1;
}
}  // namespace pool

template <class T>
GA_GLOBAL void pool_max_backward(const T* gy, const int64* idx, T* gx, const int64* geom,
                                 int64 total) {
    GA_POOL_BWD_PROLOGUE
    const int64 flat = (id * H + ih) * W + iw;
    for (int64 td = g.kernel[0] - 1; td >= 0; --td) {
        const int64 od = pool::covering(g, 0, id, td);
        if (od < 0) continue;
        for (int64 th = g.kernel[1] - 1; th >= 0; --th) {
            const int64 oh = pool::covering(g, 1, ih, th);
            if (oh < 0) continue;
            const int64 orow = ((plane * g.out[0] + od) * g.out[1] + oh) * g.out[2];
            for (int64 tw = g.kernel[2] - 1; tw >= 0; --tw) {
                const int64 ow = pool::covering(g, 2, iw, tw);
                if (ow >= 0 && idx[orow + ow] == flat) acc += gy[orow + ow];
            }
        }
    }
    gx[t] = acc;
}

namespace pool {
// Output o's window along axis a: its size in the padded input (*pool) and in the
// input (*in), as the forward average (note 5).
GA_DEVICE void avg_extent(const Geom& g, int a, int64 o, int64* pool, int64* in) {
    int64 lo = o * g.stride[a] - g.pad[a];
    int64 hi = lo + g.kernel[a] < g.size[a] + g.pad[a] ? lo + g.kernel[a]
                                                        : g.size[a] + g.pad[a];
    *pool = hi - lo;
    lo = lo > 0 ? lo : 0;
    hi = hi < g.size[a] ? hi : g.size[a];
    *in = hi - lo;
}
}  // namespace pool

template <class T>
GA_GLOBAL void pool_avg_backward(const T* gy, T* gx, const int64* geom, int64 total) {
    GA_POOL_BWD_PROLOGUE
    for (int64 td = g.kernel[0] - 1; td >= 0; --td) {
        const int64 od = pool::covering(g, 0, id, td);
        if (od < 0) continue;
        int64 pd, nd_;
        pool::avg_extent(g, 0, od, &pd, &nd_);
        for (int64 th = g.kernel[1] - 1; th >= 0; --th) {
            const int64 oh = pool::covering(g, 1, ih, th);
            if (oh < 0) continue;
            int64 ph, nh;
            pool::avg_extent(g, 1, oh, &ph, &nh);
            const int64 orow = ((plane * g.out[0] + od) * g.out[1] + oh) * g.out[2];
            for (int64 tw = g.kernel[2] - 1; tw >= 0; --tw) {
                const int64 ow = pool::covering(g, 2, iw, tw);
                if (ow < 0) continue;
                int64 pw, nw;
                pool::avg_extent(g, 2, ow, &pw, &nw);
                const int64 div = g.divisor != 0 ? g.divisor
                                : g.include_pad ? pd * ph * pw : nd_ * nh * nw;
                acc += gy[orow + ow] / (T)div;
            }
        }
    }
    gx[t] = acc;
}
#undef GA_POOL_BWD_PROLOGUE

}  // namespace ga
