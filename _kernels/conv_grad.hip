// The convolution gradients and transposed convolutions (garray/nn/_conv_grad.py; the
// table is garray/_tables/conv_grad.py, the design docs/convolution-gradients.md).
//
// Note [Gather-form convolution gradients]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. Every kernel here reads one FORWARD geometry (`ConvGeom`, garray/nn/_params.py's
//    Note [Convolution geometry]): input (n, c_in, D, H, W), weight (c_out, c_in/groups,
//    kD, kH, kW), output (n, c_out, oD, oH, oW); output o reads input o*stride - pad +
//    t*dil for tap t.  The transposed convolution is the backward-data pass of the
//    geometry `transposed_geometry` returns, so it needs no kernel of its own.
// 2. Backward data (`conv_bwd_data`) is a gather, not a scatter: each thread owns input
//    elements and, for each tap t along an axis, finds the one output o with
//    o*stride == i + pad - t*dil (when the difference is a non-negative multiple of the
//    stride and o < out), then sums dy[n, co, o] * w[co, ci, t] over the output channels
//    co of its group.  Every input element is written by exactly one thread: no atomics,
//    no zero-fill pass, and the result does not depend on the launch shape.  The taps
//    that hit are found per axis once per element (D, H, W separately), so the inner loop
//    runs over hits only.  An optional bias (the transposed convolution's, one per input
//    channel of the forward geometry) starts the sum.
// 3. A thread walks `per` consecutive flat input elements.  On the CPU device (per up
//    to 64) they are cut into runs along W (one row each): the D and H hits are found
//    once per run, and for each W tap and output channel the run's outputs form an
//    arithmetic progression, so the inner loop is a strided multiply-add into a local
//    accumulator row, with no division (`bwd_data_run`).  GPUs take one element per
//    thread (per = 1).  `per` never changes a value: each element's terms come in one
//    fixed order (taps D, H, W ascending, then channels) in both forms.
// 4. Backward weight (`conv_bwd_weight`) has one thread per (chunk, co, ci, kd, kh,
//    block of up to 8 kw taps): it sums x[n, ci, o*stride - pad + t*dil] * dy[n, co, o]
//    over the output rows (n, od, oh) of its chunk [c*len, (c+1)*len) and, per tap, over
//    the ow whose input is inside the row (computed once per tap, so the inner loop is a
//    strided dot product without tests), and writes partials[c, weight element].  The
//    rows are walked with counters.  The host reduces the chunks with garray's sum (one
//    chunk: the kernel writes the weight gradient itself).  Deterministic: chunks are
//    fixed by the shapes and the device kind, and a tap's terms come in one order.
// 5. `conv_col2im` is the adjoint of the forward im2col (garray.nn._conv.im2col): the
//    column matrix of batch b, group g has rows (ci, kD, kH, kW) and columns (oD, oH, oW);
//    each input element of batches [n0, n1) gathers the column entries that read it.
//    The column layout comes as element strides (per batch, per group, per row; columns
//    are contiguous), so the host may give it a GEMM's output in any batch order.
// 6. Offsets into memory are int64 everywhere; nothing depends on the warp size or the
//    block size; no barriers (plain loops on the CPU device).
#include "garray/loops.h"
#include "garray/conv.h"

namespace ga {

namespace convgrad {

// Along one axis: the taps t (< kernel) of input coordinate i that an output o in
// [0, out) reads, with that o; returns how many (at most kernel, which the caller's
// arrays hold: kernel extents above MAX_TAPS take the slow path in the caller, which
// adds the same terms in the same order).  GPUs hold 8 (a thread's six tables are local
// memory: 384 bytes, not 768); the CPU device 16.
#if defined(GARRAY_HOST)
constexpr int MAX_TAPS = 16;
#else
constexpr int MAX_TAPS = 8;
#endif

GA_DEVICE int hits(int64 i, int64 kernel, int64 out, int64 stride, int64 pad, int64 dil,
                   int64* tap, int64* pos) {
    int h = 0;
    for (int64 t = 0; t < kernel; ++t) {
        int64 d = i + pad - t * dil;
        if (d < 0) break;                       // larger taps only lower d
        int64 o = d;
        if (stride != 1) {                      // (64-bit division is slow on GPUs)
            if (d % stride) continue;
            o = d / stride;
        }
        if (o >= out) continue;
        tap[h] = t;
        pos[h] = o;
        ++h;
    }
    return h;
}

// The flat index of input element e as (n, c, id, ih, iw).
GA_DEVICE void decode(const ConvGeom& g, int64 e, int64* n, int64* c, int64* id, int64* ih,
                      int64* iw) {
    *iw = e % g.size[2]; e /= g.size[2];
    *ih = e % g.size[1]; e /= g.size[1];
    *id = e % g.size[0]; e /= g.size[0];
    *c = e % g.c_in;
    *n = e / g.c_in;
}

GA_DEVICE void advance(const ConvGeom& g, int64* n, int64* c, int64* id, int64* ih,
                       int64* iw) {
    if (++*iw < g.size[2]) return;
    *iw = 0;
    if (++*ih < g.size[1]) return;
    *ih = 0;
    if (++*id < g.size[0]) return;
    *id = 0;
    if (++*c < g.c_in) return;
    *c = 0;
    ++*n;
}

}  // namespace convgrad

namespace convgrad {

// The data gradient of one run of input elements along W: (n, c, id, ih) fixed, iw in
// [iw0, iw1), iw1 - iw0 <= MAX_RUN (note 3).  For each D and H hit (tables), each W tap
// and each output channel, the outputs that read the run form an arithmetic progression:
// acc[ow*stride - base - iw0] += w * dy[.., ow] over it, without divisions.  Per element
// the terms come in the order of the one-element form (taps D, H, W ascending, then
// channels), so the two forms give the same bits.
constexpr int MAX_RUN = 64;

template <class T>
GA_DEVICE void bwd_data_run(const ConvGeom& g, T* dx, const T* dy, const T* w, const T* bias,
                            int64 n, int64 c, int64 id, int64 ih, int64 iw0, int64 iw1) {
    const int64 cin_g = g.cin_per_group(), cout_g = g.cout_per_group();
    const int64 taps = g.taps(), osp = g.out_spatial();
    const int64 oHW = g.out[1] * g.out[2];
    const int64 grp = c / cin_g, cl = c % cin_g;
    const int64 L = iw1 - iw0;
    T acc[MAX_RUN];
    for (int64 i = 0; i < L; ++i) acc[i] = bias ? bias[c] : T(0);
    int64 td[MAX_TAPS], pd[MAX_TAPS], th[MAX_TAPS], ph[MAX_TAPS];
    int hd = hits(id, g.kernel[0], g.out[0], g.stride[0], g.pad[0], g.dil[0], td, pd);
    int hh = hits(ih, g.kernel[1], g.out[1], g.stride[1], g.pad[1], g.dil[1], th, ph);
    const T* dyb = dy + (n * g.c_out + grp * cout_g) * osp;
    const T* wb = w + (grp * cout_g * cin_g + cl) * taps;
    const int64 s = g.stride[2];
    for (int a = 0; a < hd; ++a)
        for (int b = 0; b < hh; ++b) {
            const int64 odh = pd[a] * oHW + ph[b] * g.out[2];
            const int64 tdh = (td[a] * g.kernel[1] + th[b]) * g.kernel[2];
            for (int64 kw = 0; kw < g.kernel[2]; ++kw) {
                // iw + base == ow * s with base = pad - kw * dil
                const int64 base = g.pad[2] - kw * g.dil[2];
                const int64 q0 = iw0 + base, q1 = iw1 + base;   // ow*s in [q0, q1)
                if (q1 <= 0) continue;
                const int64 ow0 = q0 <= 0 ? 0 : (q0 + s - 1) / s;
                int64 ow1 = (q1 + s - 1) / s;
                if (ow1 > g.out[2]) ow1 = g.out[2];
                if (ow0 >= ow1) continue;
                T* ac = acc + (ow0 * s - q0);
                for (int64 co = 0; co < cout_g; ++co) {
                    const T wv = wb[co * cin_g * taps + tdh + kw];
                    const T* d = dyb + co * osp + odh;
                    for (int64 ow = ow0; ow < ow1; ++ow) ac[(ow - ow0) * s] += d[ow] * wv;
                }
            }
        }
    T* out = dx + (((n * g.c_in + c) * g.size[0] + id) * g.size[1] + ih) * g.size[2] + iw0;
    for (int64 i = 0; i < L; ++i) out[i] = acc[i];
}

}  // namespace convgrad

// dx[n, ci, i] = bias[ci] (or 0) + sum over co in ci's group, taps t with o*stride ==
// i + pad - t*dil: dy[n, co, o] * w[co, ci % cin_g, t]   (note 2).  Input elements
// [t*per, min((t+1)*per, total)) for thread t; total = n*c_in*D*H*W.  per > 1 (the CPU
// device; at most MAX_RUN) walks runs along W (bwd_data_run, compiled for the CPU only);
// per == 1 (GPUs) one element.
template <class T>
GA_GLOBAL void conv_bwd_data(T* dx, const T* dy, const T* w, const T* bias, const int64* geom,
                             int64 per, int64 total) {
    using namespace convgrad;
    const ConvGeom g = ConvGeom::load(geom);
    int64 e0 = flat_index<int64>() * per;
    if (e0 >= total) return;
    int64 e1 = e0 + per < total ? e0 + per : total;
    int64 n, c, id, ih, iw;
    decode(g, e0, &n, &c, &id, &ih, &iw);
    const bool small = g.kernel[0] <= MAX_TAPS && g.kernel[1] <= MAX_TAPS &&
                       g.kernel[2] <= MAX_TAPS;
#if defined(GARRAY_HOST)     // GPUs launch per == 1: no run buffer in their local memory
    if (per > 1 && per <= MAX_RUN && g.kernel[0] <= MAX_TAPS && g.kernel[1] <= MAX_TAPS) {
        for (int64 e = e0; e < e1;) {
            int64 iw1 = iw + (e1 - e);
            if (iw1 > g.size[2]) iw1 = g.size[2];
            bwd_data_run(g, dx, dy, w, bias, n, c, id, ih, iw, iw1);
            e += iw1 - iw;
            iw = g.size[2] - 1;
            advance(g, &n, &c, &id, &ih, &iw);      // to the next row's start
        }
        return;
    }
#endif
    const int64 cin_g = g.cin_per_group(), cout_g = g.cout_per_group();
    const int64 taps = g.taps(), osp = g.out_spatial();
    const int64 oHW = g.out[1] * g.out[2];
    int64 td[MAX_TAPS], pd[MAX_TAPS], th[MAX_TAPS], ph[MAX_TAPS], tw[MAX_TAPS], pw[MAX_TAPS];
    for (int64 e = e0; e < e1; ++e) {
        const int64 grp = c / cin_g, cl = c % cin_g;
        T acc = bias ? bias[c] : T(0);
        const T* dyb = dy + (n * g.c_out + grp * cout_g) * osp;
        const T* wb = w + (grp * cout_g * cin_g + cl) * taps;
        if (small) {
            int hd = hits(id, g.kernel[0], g.out[0], g.stride[0], g.pad[0], g.dil[0], td, pd);
            int hh = hits(ih, g.kernel[1], g.out[1], g.stride[1], g.pad[1], g.dil[1], th, ph);
            int hw = hits(iw, g.kernel[2], g.out[2], g.stride[2], g.pad[2], g.dil[2], tw, pw);
            for (int a = 0; a < hd; ++a)
                for (int b = 0; b < hh; ++b)
                    for (int q = 0; q < hw; ++q) {
                        const int64 o = pd[a] * oHW + ph[b] * g.out[2] + pw[q];
                        const int64 t = (td[a] * g.kernel[1] + th[b]) * g.kernel[2] + tw[q];
                        for (int64 co = 0; co < cout_g; ++co)
                            acc += dyb[co * osp + o] * wb[co * cin_g * taps + t];
                    }
        } else {
            // any kernel extent: one tap at a time (same order of terms)
            for (int64 kd = 0; kd < g.kernel[0]; ++kd) {
                int64 dd = id + g.pad[0] - kd * g.dil[0];
                if (dd < 0 || dd % g.stride[0] || dd / g.stride[0] >= g.out[0]) continue;
                for (int64 kh = 0; kh < g.kernel[1]; ++kh) {
                    int64 dh = ih + g.pad[1] - kh * g.dil[1];
                    if (dh < 0 || dh % g.stride[1] || dh / g.stride[1] >= g.out[1]) continue;
                    for (int64 kw = 0; kw < g.kernel[2]; ++kw) {
                        int64 dw = iw + g.pad[2] - kw * g.dil[2];
                        if (dw < 0 || dw % g.stride[2] || dw / g.stride[2] >= g.out[2])
                            continue;
                        const int64 o = (dd / g.stride[0]) * oHW + (dh / g.stride[1]) * g.out[2]
                                        + dw / g.stride[2];
                        const int64 t = (kd * g.kernel[1] + kh) * g.kernel[2] + kw;
                        for (int64 co = 0; co < cout_g; ++co)
                            acc += dyb[co * osp + o] * wb[co * cin_g * taps + t];
                    }
                }
            }
        }
        dx[e] = acc;
        advance(g, &n, &c, &id, &ih, &iw);
    }
}

// partials[ch, k] = sum over the output rows (n, od, oh) in [ch*len, min((ch+1)*len,
// n*oD*oH)) and ow of x[n, ci, o*stride - pad + t*dil] * dy[n, co, o] for weight element
// k = (co, ci % cin_g, kd, kh, kw) (note 4).  A thread computes up to KW_BLOCK
// consecutive kw taps of one (chunk, co, ci, kd, kh): thread i = (ch, kgroup) with
// kgroup = ((co, ci, kd, kh), kw block); nthreads = nchunks * groups_per_chunk.  The
// rows are walked with counters (no division per row); each tap's sum runs over rows,
// then ow, ascending, whatever the blocking.
namespace convgrad {
constexpr int KW_BLOCK = 8;
}

template <class T>
GA_GLOBAL void conv_bwd_weight(T* partials, const T* x, const T* dy, const int64* geom,
                               int64 len, int64 nchunks, int64 wtotal) {
    using namespace convgrad;
    const ConvGeom g = ConvGeom::load(geom);
    const int64 nkb = (g.kernel[2] + KW_BLOCK - 1) / KW_BLOCK;
    const int64 per_chunk = wtotal / g.kernel[2] * nkb;
    const int64 i = flat_index<int64>();
    if (i >= nchunks * per_chunk) return;
    const int64 ch = i / per_chunk;
    int64 r = i % per_chunk;
    const int64 kb = r % nkb; r /= nkb;
    const int64 kh = r % g.kernel[1]; r /= g.kernel[1];
    const int64 kd = r % g.kernel[0]; r /= g.kernel[0];
    const int64 cin_g = g.cin_per_group(), cout_g = g.cout_per_group();
    const int64 cl = r % cin_g;
    const int64 co = r / cin_g;
    const int64 ci = (co / cout_g) * cin_g + cl;
    const int64 kw0 = kb * KW_BLOCK;
    const int nk = (int)(g.kernel[2] - kw0 < KW_BLOCK ? g.kernel[2] - kw0 : KW_BLOCK);
    const int64 osp = g.out_spatial(), isp = g.in_spatial();
    const int64 rows = g.n * g.out[0] * g.out[1];
    const int64 r0 = ch * len, r1 = r0 + len < rows ? r0 + len : rows;
    // along D and H: the outputs whose input for this tap is inside [0, size)
    int64 lo[2], hi[2];
    const int64 kt[2] = {kd, kh};
    for (int a = 0; a < 2; ++a) {
        const int64 base = kt[a] * g.dil[a] - g.pad[a];   // input = o*stride + base
        lo[a] = base >= 0 ? 0 : (-base + g.stride[a] - 1) / g.stride[a];
        const int64 lim = g.size[a] - base;
        const int64 h = lim <= 0 ? 0 : (lim + g.stride[a] - 1) / g.stride[a];
        hi[a] = h < g.out[a] ? h : g.out[a];
    }
    // along W, per tap of the block
    int64 wlo[KW_BLOCK], whi[KW_BLOCK], woff[KW_BLOCK];
    T acc[KW_BLOCK];
    const int64 sw = g.stride[2];
    for (int q = 0; q < nk; ++q) {
        const int64 base = (kw0 + q) * g.dil[2] - g.pad[2];
        wlo[q] = base >= 0 ? 0 : (-base + sw - 1) / sw;
        const int64 lim = g.size[2] - base;
        const int64 h = lim <= 0 ? 0 : (lim + sw - 1) / sw;
        whi[q] = h < g.out[2] ? h : g.out[2];
        woff[q] = base;
        acc[q] = T(0);
    }
    if (r0 < r1 && lo[0] < hi[0] && lo[1] < hi[1]) {
        int64 oh = r0 % g.out[1];
        int64 q0 = r0 / g.out[1];
        int64 od = q0 % g.out[0];
        int64 n = q0 / g.out[0];
        for (int64 rr = r0; rr < r1; ++rr) {
            if (od >= lo[0] && od < hi[0] && oh >= lo[1] && oh < hi[1]) {
                const int64 idd = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
                const int64 ihh = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
                const T* xr = x + (n * g.c_in + ci) * isp + (idd * g.size[1] + ihh) * g.size[2];
                const T* dr = dy + (n * g.c_out + co) * osp + (od * g.out[1] + oh) * g.out[2];
                for (int q = 0; q < nk; ++q) {
                    const T* xq = xr + woff[q];
                    T s = acc[q];
                    for (int64 o = wlo[q]; o < whi[q]; ++o) s += xq[o * sw] * dr[o];
                    acc[q] = s;
                }
            }
            if (++oh == g.out[1]) {
                oh = 0;
                if (++od == g.out[0]) { od = 0; ++n; }
            }
        }
    }
    T* out = partials + ch * wtotal + (((co * cin_g + cl) * g.kernel[0] + kd) * g.kernel[1] + kh)
             * g.kernel[2] + kw0;
    for (int q = 0; q < nk; ++q) out[q] = acc[q];
}

// dx[b, ci, i] for batches b in [n0, n1) (dx points at batch 0 of the whole array) =
// sum over the taps t whose output o reads i: col[(b - n0)*s_n + g*s_g + (ci_l*taps + t)*s_r
// + o]  (note 5).  Input elements of those batches [t*per, ...) for thread t; total =
// (n1 - n0)*c_in*D*H*W.
template <class T>
GA_GLOBAL void conv_col2im(T* dx, const T* col, const int64* geom, int64 n0, int64 s_n,
                           int64 s_g, int64 s_r, int64 per, int64 total) {
    using namespace convgrad;
    const ConvGeom g = ConvGeom::load(geom);
    int64 e0 = flat_index<int64>() * per;
    if (e0 >= total) return;
    int64 e1 = e0 + per < total ? e0 + per : total;
    int64 n, c, id, ih, iw;
    decode(g, e0, &n, &c, &id, &ih, &iw);
    const int64 cin_g = g.cin_per_group(), taps = g.taps();
    const int64 oHW = g.out[1] * g.out[2];
    const int64 base = n0 * g.c_in * g.in_spatial();
    for (int64 e = e0; e < e1; ++e) {
        const int64 grp = c / cin_g, cl = c % cin_g;
        const T* cb = col + n * s_n + grp * s_g + cl * taps * s_r;
        T acc = T(0);
        for (int64 kd = 0; kd < g.kernel[0]; ++kd) {
            int64 dd = id + g.pad[0] - kd * g.dil[0];
            if (dd < 0) break;
            if (dd % g.stride[0] || dd / g.stride[0] >= g.out[0]) continue;
            for (int64 kh = 0; kh < g.kernel[1]; ++kh) {
                int64 dh = ih + g.pad[1] - kh * g.dil[1];
                if (dh < 0) break;
                if (dh % g.stride[1] || dh / g.stride[1] >= g.out[1]) continue;
                for (int64 kw = 0; kw < g.kernel[2]; ++kw) {
                    int64 dw = iw + g.pad[2] - kw * g.dil[2];
                    if (dw < 0) break;
                    if (dw % g.stride[2] || dw / g.stride[2] >= g.out[2]) continue;
                    const int64 o = (dd / g.stride[0]) * oHW + (dh / g.stride[1]) * g.out[2]
                                    + dw / g.stride[2];
                    const int64 t = (kd * g.kernel[1] + kh) * g.kernel[2] + kw;
                    acc += cb[t * s_r + o];
                }
            }
        }
        dx[base + e] = acc;
        advance(g, &n, &c, &id, &ih, &iw);
    }
}

}  // namespace ga
