// The forward convolution family: garray.nn.conv1d/2d/3d (launched by garray/nn/_conv.py
// through cython/_launch.pxi's _family_launch; the table is garray/_tables/conv.py, the
// design docs/convolution.md).
//
// Note [Forward convolution kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. Every convolution is a 3-d one (garray/nn/_params.py, Note [Convolution geometry];
//    `ConvGeom` in garray/conv.h): the geometry arrives as one device pointer to int64[24]
//    and every kernel reads it with `ConvGeom::load`.  x, w, y are C-contiguous: x
//    (N, C_in, D, H, W), w (C_out, C_in / groups, kD, kH, kW), y (N, C_out, oD, oH, oW).
//    Output o reads input o * stride - pad + t * dilation for tap t; outside the input
//    the value is zero.  Every offset into memory is int64.  T accumulates in T (float32
//    in float32, as cuDNN, MIOpen and PyTorch's CPU kernels do).  `bias` may be null.
// 2. As a matrix product (per group g, Cg = C_in / groups, Cog = C_out / groups,
//    K = Cg * taps, OS = oD * oH * oW):  Y_g[co, (n, p)] = W_g[co, k] X^_g[k, (n, p)],
//    where row k = (ci, kd, kh, kw) and X^_g[k, (n, p)] is the input element that tap
//    (kd, kh, kw) of output p reads in channel g * Cg + ci of sample n (or zero).
//    `conv_im2col` materialises X^ for a range of samples (the vendor path on the CPU
//    device hands it to the BLAS GEMM); the implicit-GEMM kernels gather it on the fly.
// 3. `conv_direct`: one thread per output element (GPUs, per == 1) or per run of
//    DV = 8 consecutive outputs along W (the CPU device, per == DV: the run is read as
//    in note 4 and accumulated in `RtVec` vectors).  It sums over the group's channels
//    and the taps, rows of taps whose D or H coordinate falls outside the input skipped
//    whole.  The path for depthwise convolutions (Cg == 1: K is the taps alone, too
//    short for a GEMM tile) and tiny layers.
// 4. `conv_igemm_rt` (the CPU device's implicit GEMM, barrier-free like gemm.hip's
//    gemm_rt): one thread computes CM = 4 output channels x CN consecutive outputs along
//    W of one output row (CN = 64 bytes of T: 16 float32, 8 float64; the last tile of a
//    row is partial).  On the CPU device the accumulators are GCC vectors of 32 bytes
//    (`RtVec`), 8 of them, which g++ keeps in registers (plain arrays it kept in memory).
//    It loops over the taps outside and the channels inside (bounds tests once per tap;
//    the channel loop only moves pointers).  For each row k = (ci, kd, kh, kw) the CN
//    inputs are read in place when they lie inside the input row with stride 1, or run
//    past its end only in lanes past the output row's end (never stored) while staying
//    inside the buffer; else they are gathered into a small zero-padded array.  Then
//    acc[r][q] += w[co + r, k] * x[q].  The
//    launcher copies an input padded along W into a zero-padded buffer first (stride 1),
//    so the gathers are for W strides > 1 only.  Rows whose D or H coordinate is in the
//    padding are skipped whole.  Threads are ordered with the channel tiles fastest, so
//    the threads one CPU worker runs in sequence reuse the same input rows in cache.
// 5. `conv_igemm_tiled` (the GPU kernel, like gemm_tiled): a block of 256 threads
//    computes a 64 (output channels) x 64 ((n, p) columns) tile of Y_g; per step of 16
//    along k it stages a 64 x 16 tile of W_g and a 16 x 64 tile of X^_g (gathered, zero
//    past every edge) in shared memory, and each thread accumulates a 4 x 4 register
//    block whose rows and columns are 16 apart.  A staging thread's column is the same at
//    every step (256 is a multiple of 64), so it decodes (n, od, oh, ow) once; it decodes
//    (ci, kd, kh, kw) of its rows per step, in 32-bit arithmetic (K < 2**31).  256 threads is the launch block on every
//    device: nothing depends on the warp size.  On the CPU device it runs on fibers
//    (about 10x slower); tests run it there at tiny sizes through a hook.
// 6. `conv_im2col`: X^ for samples [n0, n0 + nb), layout (nb, groups, K, OS), rows
//    (ci, kd, kh, kw), columns (od, oh, ow).  On the CPU device one thread writes a
//    whole row (sample, group, k): per output row of W it zero-fills the padding and
//    copies the inside run (a plain copy for stride 1); on GPUs one thread per element.
#include "garray/loops.h"
#include "garray/conv.h"

namespace ga {
namespace conv {

enum { DV = 8 };                       // conv_direct's run on the CPU device
enum { CM = 4, RT_BYTES = 64 };        // conv_igemm_rt's tile: 4 x (64 bytes of T)
enum { TM = 64, TN = 64, TK = 16, THREADS = 256, RM = 4, RN = 4 };   // conv_igemm_tiled

// conv_igemm_rt's vectors (note 4): on the CPU device GCC vector types of 32 bytes (so
// the accumulators stay in registers: plain arrays were kept in memory, a load and a
// store per multiply-add); elsewhere the scalar (the kernel is the CPU device's).
#ifdef GARRAY_HOST
#define GA_CONV_UNROLL _Pragma("GCC unroll 16")
template <class T> struct RtVec {
    typedef T V __attribute__((vector_size(32)));
    enum { L = 32 / (int)sizeof(T) };
    static V load(const T* p) { V v; __builtin_memcpy(&v, p, sizeof(V)); return v; }
    static V splat(T s) { return V{} + s; }
    static T lane(const V& v, int i) { return v[i]; }
};
#else
#define GA_CONV_UNROLL _Pragma("unroll")
template <class T> struct RtVec {
    typedef T V;
    enum { L = 1 };
    static GA_DEVICE V load(const T* p) { return *p; }
    static GA_DEVICE V splat(T s) { return s; }
    static GA_DEVICE T lane(const V& v, int) { return v; }
};
#endif

}  // namespace conv

// Arguments: y, x, w, bias (null: none), geometry, per (1 or conv::DV).
template <class T>
GA_GLOBAL void conv_direct(T* y, const T* x, const T* w, const T* bias, const int64* gp,
                           int64 per) {
    const ConvGeom g = ConvGeom::load(gp);
    const int64 OW = g.out[2], OH = g.out[1], OD = g.out[0];
    const int64 runs = (OW + per - 1) / per;
    int64 t = flat_index<int64>();
    if (t >= g.n * g.c_out * OD * OH * runs) return;
    const int64 ow0 = (t % runs) * per;
    t /= runs;
    const int64 oh = t % OH;
    t /= OH;
    const int64 od = t % OD;
    t /= OD;
    const int64 co = t % g.c_out;
    const int64 n = t / g.c_out;
    const int64 cg = g.cin_per_group();
    const int64 grp = co / g.cout_per_group();
    const int64 D = g.size[0], H = g.size[1], W = g.size[2];
    const int64 KD = g.kernel[0], KH = g.kernel[1], KW = g.kernel[2];
    const int64 sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
    const T* xs = x + (n * g.c_in + grp * cg) * (D * H * W);
    const T* ws = w + co * cg * (KD * KH * KW);
    T* ys = y + ((n * g.c_out + co) * OD + od) * OH * OW + oh * OW;
    const T b = bias ? bias[co] : T(0);
    if (per == 1) {
        T acc = T(0);
        const int64 iwb = ow0 * sw - pw;
        for (int64 ci = 0; ci < cg; ++ci)
            for (int64 kd = 0; kd < KD; ++kd) {
                const int64 id = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
                if (id < 0 || id >= D) continue;
                for (int64 kh = 0; kh < KH; ++kh) {
                    const int64 ih = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
                    if (ih < 0 || ih >= H) continue;
                    const T* xr = xs + ((ci * D + id) * H + ih) * W;
                    const T* wr = ws + ((ci * KD + kd) * KH + kh) * KW;
                    for (int64 kw = 0; kw < KW; ++kw) {
                        const int64 iw = iwb + kw * dw;
                        if (iw >= 0 && iw < W) acc += wr[kw] * xr[iw];
                    }
                }
            }
        ys[ow0] = acc + b;
        return;
    }
#if defined(GARRAY_HOST)     // GPUs launch per == 1: no run buffers in their local memory
    typedef conv::RtVec<T> RV;
    typedef typename RV::V V;
    enum { L = RV::L, NV = conv::DV / L };
    // runs may pass a row's end only in lanes past the output row (see conv_igemm_rt)
    const int64 xleft = g.n * g.c_in * D * H * W - (xs - x);
    const bool overrun_ok = pw == 0 && OW - 1 + (KW - 1) * dw < W;
    V acc[NV];
    GA_CONV_UNROLL
    for (int v = 0; v < NV; ++v) acc[v] = RV::splat(T(0));
    T xv[conv::DV];
    for (int64 ci = 0; ci < cg; ++ci)
        for (int64 kd = 0; kd < KD; ++kd) {
            const int64 id = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
            if (id < 0 || id >= D) continue;
            for (int64 kh = 0; kh < KH; ++kh) {
                const int64 ih = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
                if (ih < 0 || ih >= H) continue;
                const T* xr = xs + ((ci * D + id) * H + ih) * W;
                const T* wr = ws + ((ci * KD + kd) * KH + kh) * KW;
                for (int64 kw = 0; kw < KW; ++kw) {
                    const V wv = RV::splat(wr[kw]);
                    const int64 iw0 = ow0 * sw - pw + kw * dw;
                    const T* xp = xv;
                    if (sw == 1 && iw0 >= 0 &&
                        (iw0 + conv::DV <= W ||
                         (overrun_ok && (xr - xs) + iw0 + conv::DV <= xleft))) {
                        xp = xr + iw0;
                    } else {
                        for (int j = 0; j < conv::DV; ++j) {
                            const int64 iw = iw0 + j * sw;
                            xv[j] = (iw >= 0 && iw < W) ? xr[iw] : T(0);
                        }
                    }
                    GA_CONV_UNROLL
                    for (int v = 0; v < NV; ++v) acc[v] += wv * RV::load(xp + v * L);
                }
            }
        }
    const int64 m = OW - ow0 < conv::DV ? OW - ow0 : conv::DV;
    for (int64 j = 0; j < m; ++j) ys[ow0 + j] = RV::lane(acc[j / L], (int)(j % L)) + b;
#endif
}

// Arguments: y, x, w, bias (null: none), geometry (note 4).
template <class T>
GA_GLOBAL void conv_igemm_rt(T* y, const T* x, const T* w, const T* bias, const int64* gp) {
    typedef conv::RtVec<T> RV;
    typedef typename RV::V V;
    enum { CN = conv::RT_BYTES / (int)sizeof(T), L = RV::L, NV = CN / L };
    const ConvGeom g = ConvGeom::load(gp);
    const int64 cg = g.cin_per_group(), cog = g.cout_per_group();
    const int64 OD = g.out[0], OH = g.out[1], OW = g.out[2];
    const int64 tiles_m = (cog + conv::CM - 1) / conv::CM;
    const int64 tiles_w = (OW + CN - 1) / CN;
    int64 t = flat_index<int64>();
    if (t >= tiles_m * tiles_w * OD * OH * g.groups * g.n) return;
    const int64 tm = t % tiles_m;
    t /= tiles_m;
    const int64 tw = t % tiles_w;
    t /= tiles_w;
    const int64 oh = t % OH;
    t /= OH;
    const int64 od = t % OD;
    t /= OD;
    const int64 grp = t % g.groups;
    const int64 n = t / g.groups;
    const int64 co0 = grp * cog + tm * conv::CM;
    const int64 ow0 = tw * CN;
    const int mr = (int)(cog - tm * conv::CM < conv::CM ? cog - tm * conv::CM : conv::CM);
    const int nr = (int)(OW - ow0 < CN ? OW - ow0 : CN);
    const int64 D = g.size[0], H = g.size[1], W = g.size[2];
    const int64 KD = g.kernel[0], KH = g.kernel[1], KW = g.kernel[2];
    const int64 taps = KD * KH * KW;
    const int64 sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
    const T* xs = x + (n * g.c_in + grp * cg) * (D * H * W);
    // a run of CN inputs may pass the end of its row when the lanes past it are outputs
    // past the row's end (no padding after W): they read the next row, in the buffer
    const int64 xleft = g.n * g.c_in * D * H * W - (xs - x);
    const bool overrun_ok = pw == 0 && g.out[2] - 1 + (KW - 1) * dw < W;
    // rows of w for this tile (rows past cog repeat the last one: computed, not stored)
    const T* wrow[conv::CM];
    for (int r = 0; r < conv::CM; ++r)
        wrow[r] = w + (co0 + (r < mr ? r : mr - 1)) * cg * taps;
    V acc[conv::CM][NV];
    GA_CONV_UNROLL
    for (int r = 0; r < conv::CM; ++r)
        GA_CONV_UNROLL
        for (int v = 0; v < NV; ++v) acc[r][v] = RV::splat(T(0));
    T xv[CN];
    const int64 plane = D * H * W;
    // taps outside, channels inside: the bounds tests run once per tap, and the channel
    // loop (the long one) only moves pointers
    for (int64 kd = 0; kd < KD; ++kd) {
        const int64 id = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
        if (id < 0 || id >= D) continue;
        for (int64 kh = 0; kh < KH; ++kh) {
            const int64 ih = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
            if (ih < 0 || ih >= H) continue;
            const int64 row = (id * H + ih) * W;
            for (int64 kw = 0; kw < KW; ++kw) {
                const int64 iw0 = ow0 * sw - pw + kw * dw;
                const int64 tap = (kd * KH + kh) * KW + kw;
                const T* w0 = wrow[0] + tap;
                const T* w1 = wrow[1] + tap;
                const T* w2 = wrow[2] + tap;
                const T* w3 = wrow[3] + tap;
                if (sw == 1 && iw0 >= 0 &&
                    (iw0 + CN <= W ||
                     (overrun_ok && (cg - 1) * plane + row + iw0 + CN <= xleft))) {
                    // inside (or past the row's end only in unstored lanes): in place
                    const T* xp = xs + row + iw0;
                    for (int64 ci = 0; ci < cg; ++ci, xp += plane) {
                        V xq[NV];
                        GA_CONV_UNROLL
                        for (int v = 0; v < NV; ++v) xq[v] = RV::load(xp + v * L);
                        const int64 wk = ci * taps;
                        const V a0 = RV::splat(w0[wk]), a1 = RV::splat(w1[wk]);
                        const V a2 = RV::splat(w2[wk]), a3 = RV::splat(w3[wk]);
                        GA_CONV_UNROLL
                        for (int v = 0; v < NV; ++v) {
                            acc[0][v] += a0 * xq[v];
                            acc[1][v] += a1 * xq[v];
                            acc[2][v] += a2 * xq[v];
                            acc[3][v] += a3 * xq[v];
                        }
                    }
                    continue;
                }
                for (int64 ci = 0; ci < cg; ++ci) {
                    const T* xr = xs + ci * plane + row;
                    if (sw == 1) {
                        // the padding: zeros outside [qlo, qhi)
                        const int64 qlo = iw0 < 0 ? -iw0 : 0;
                        const int64 qhi = W - iw0 < CN ? W - iw0 : CN;
                        for (int q = 0; q < CN; ++q) xv[q] = T(0);
                        for (int64 q = qlo; q < qhi; ++q) xv[q] = xr[iw0 + q];
                    } else {
                        for (int q = 0; q < CN; ++q) {
                            const int64 iw = iw0 + q * sw;
                            xv[q] = (iw >= 0 && iw < W) ? xr[iw] : T(0);
                        }
                    }
                    V xq[NV];
                    GA_CONV_UNROLL
                    for (int v = 0; v < NV; ++v) xq[v] = RV::load(xv + v * L);
                    const int64 wk = ci * taps;
                    const V a0 = RV::splat(w0[wk]), a1 = RV::splat(w1[wk]);
                    const V a2 = RV::splat(w2[wk]), a3 = RV::splat(w3[wk]);
                    GA_CONV_UNROLL
                    for (int v = 0; v < NV; ++v) {
                        acc[0][v] += a0 * xq[v];
                        acc[1][v] += a1 * xq[v];
                        acc[2][v] += a2 * xq[v];
                        acc[3][v] += a3 * xq[v];
                    }
                }
            }
        }
    }
    for (int r = 0; r < mr; ++r) {
        const T b = bias ? bias[co0 + r] : T(0);
        T* yr = y + ((n * g.c_out + co0 + r) * OD + od) * OH * OW + oh * OW + ow0;
        for (int q = 0; q < nr; ++q) yr[q] = RV::lane(acc[r][q / L], q % L) + b;
    }
}

// Arguments: y, x, w, bias (null: none), geometry (note 5).  Launched with 256 threads
// per block, tiles_m * tiles_n * groups blocks.
template <class T>
GA_GLOBAL void conv_igemm_tiled(T* y, const T* x, const T* w, const T* bias,
                                const int64* gp) {
    __shared__ T as[conv::TK][conv::TM + 1];
    __shared__ T bs[conv::TK][conv::TN];
    GA_SHARED_VAR(as);
    GA_SHARED_VAR(bs);
    const ConvGeom g = ConvGeom::load(gp);
    const int64 cg = g.cin_per_group(), cog = g.cout_per_group();
    const int64 OS = g.out_spatial();
    const int64 KD = g.kernel[0], KH = g.kernel[1], KW = g.kernel[2];
    const int64 taps = KD * KH * KW;
    const int64 K = cg * taps;
    const int64 cols = g.n * OS;
    const int64 tiles_m = (cog + conv::TM - 1) / conv::TM;
    const int64 tiles_n = (cols + conv::TN - 1) / conv::TN;
    int64 blk = GA_BLOCK_LINEAR(int64);
    const int tid = (int)threadIdx.x;
    if (blk >= tiles_m * tiles_n * g.groups) return;   // uniform over the block
    const int64 tn = blk % tiles_n;
    blk /= tiles_n;
    const int64 tm = blk % tiles_m;
    const int64 grp = blk / tiles_m;
    const int64 m0 = tm * conv::TM, c0 = tn * conv::TN;
    const int64 D = g.size[0], H = g.size[1], W = g.size[2];
    const int64 OH = g.out[1], OW = g.out[2];
    const T* wg = w + grp * cog * K;
    // this thread's staging column of X^ (fixed across steps)
    const int sj = tid % conv::TN;
    const int64 col = c0 + sj;
    const bool col_ok = col < cols;
    const int64 cn = col_ok ? col / OS : 0;
    const int64 cp = col_ok ? col % OS : 0;
    const int64 bw = (cp % OW) * g.stride[2] - g.pad[2];
    const int64 bh = ((cp / OW) % OH) * g.stride[1] - g.pad[1];
    const int64 bd = (cp / (OW * OH)) * g.stride[0] - g.pad[0];
    const T* xs = x + (cn * g.c_in + grp * cg) * (D * H * W);
    const int ty = tid / 16, tx = tid % 16;
    T acc[conv::RM][conv::RN];
    for (int r = 0; r < conv::RM; ++r)
        for (int q = 0; q < conv::RN; ++q) acc[r][q] = T(0);
    for (int64 k0 = 0; k0 < K; k0 += conv::TK) {
        for (int e = tid; e < conv::TM * conv::TK; e += conv::THREADS) {
            const int i = e / conv::TK, kk = e % conv::TK;
            const int64 gi = m0 + i, gk = k0 + kk;
            as[kk][i] = (gi < cog && gk < K) ? wg[gi * K + gk] : T(0);
        }
        for (int e = tid; e < conv::TK * conv::TN; e += conv::THREADS) {
            const int kk = e / conv::TN;
            const int64 gk = k0 + kk;
            T v = T(0);
            if (col_ok && gk < K) {
                // 32-bit division (K < 2**31: the launcher checks): a 64-bit one is
                // tens of instructions on GPUs, and this runs per staged element
                const uint32 k32 = (uint32)gk, kw32 = (uint32)KW, kh32 = (uint32)KH;
                const uint32 q1 = k32 / kw32, q2 = q1 / kh32, q3 = q2 / (uint32)KD;
                const int64 kw = (int64)(k32 - q1 * kw32);
                const int64 kh = (int64)(q1 - q2 * kh32);
                const int64 kd = (int64)(q2 - q3 * (uint32)KD);
                const int64 ci = (int64)q3;
                const int64 id = bd + kd * g.dil[0];
                const int64 ih = bh + kh * g.dil[1];
                const int64 iw = bw + kw * g.dil[2];
                if (id >= 0 && id < D && ih >= 0 && ih < H && iw >= 0 && iw < W)
                    v = xs[((ci * D + id) * H + ih) * W + iw];
            }
            bs[kk][sj] = v;
        }
        GA_SYNCTHREADS();
        for (int kk = 0; kk < conv::TK; ++kk) {
            T av[conv::RM], bv[conv::RN];
            for (int r = 0; r < conv::RM; ++r) av[r] = as[kk][ty + 16 * r];
            for (int q = 0; q < conv::RN; ++q) bv[q] = bs[kk][tx + 16 * q];
            for (int r = 0; r < conv::RM; ++r)
                for (int q = 0; q < conv::RN; ++q) acc[r][q] += av[r] * bv[q];
        }
        GA_SYNCTHREADS();
    }
    for (int r = 0; r < conv::RM; ++r) {
        const int64 gi = m0 + ty + 16 * r;
        if (gi >= cog) continue;
        const int64 co = grp * cog + gi;
        const T b = bias ? bias[co] : T(0);
        for (int q = 0; q < conv::RN; ++q) {
            const int64 gc = c0 + tx + 16 * q;
            if (gc >= cols) continue;
            const int64 n = gc / OS, p = gc % OS;
            y[(n * g.c_out + co) * OS + p] = acc[r][q] + b;
        }
    }
}

// Arguments: col, x, geometry, n0 (first sample), nb (samples), whole (note 6): whole
// != 0 gives each thread a whole row k of X^ (the CPU device), else one element.
template <class T>
GA_GLOBAL void conv_im2col(T* col, const T* x, const int64* gp, int64 n0, int64 nb,
                           int64 whole) {
    const ConvGeom g = ConvGeom::load(gp);
    const int64 OD = g.out[0], OH = g.out[1], OW = g.out[2];
    const int64 KD = g.kernel[0], KH = g.kernel[1], KW = g.kernel[2];
    const int64 taps = KD * KH * KW;
    const int64 cg = g.cin_per_group();
    const int64 K = cg * taps;
    const int64 OS = OD * OH * OW;
    int64 t = flat_index<int64>();
    int64 p = 0;
    if (!whole) {
        if (t >= nb * g.groups * K * OS) return;
        p = t % OS;
        t /= OS;
    } else if (t >= nb * g.groups * K) {
        return;
    }
    const int64 k = t % K;
    t /= K;
    const int64 grp = t % g.groups;
    const int64 b = t / g.groups;
    const int64 kw = k % KW, kh = (k / KW) % KH, kd = (k / (KW * KH)) % KD, ci = k / taps;
    const int64 D = g.size[0], H = g.size[1], W = g.size[2];
    const T* xc = x + (((n0 + b) * g.c_in + grp * cg + ci) * D) * H * W;
    T* cr = col + ((b * g.groups + grp) * K + k) * OS;
    const int64 sw = g.stride[2], base = kw * g.dil[2] - g.pad[2];
    if (!whole) {
        const int64 ow = p % OW, oh = (p / OW) % OH, od = p / (OW * OH);
        const int64 id = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
        const int64 ih = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
        const int64 iw = ow * sw + base;
        cr[p] = (id >= 0 && id < D && ih >= 0 && ih < H && iw >= 0 && iw < W)
                    ? xc[(id * H + ih) * W + iw] : T(0);
        return;
    }
    // outputs [lo, hi) of a row read inside the input (iw = ow * sw + base in [0, W)):
    // zeros before and after, a plain copy (stride 1) or a strided gather between
    int64 lo = base >= 0 ? 0 : (-base + sw - 1) / sw;
    int64 hi = W - base <= 0 ? 0 : (W - base + sw - 1) / sw;
    lo = lo > OW ? OW : lo;
    hi = hi < lo ? lo : (hi > OW ? OW : hi);
    for (int64 od = 0; od < OD; ++od) {
        const int64 id = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
        for (int64 oh = 0; oh < OH; ++oh) {
            const int64 ih = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
            T* c = cr + (od * OH + oh) * OW;
            if (id < 0 || id >= D || ih < 0 || ih >= H) {
                for (int64 ow = 0; ow < OW; ++ow) c[ow] = T(0);
                continue;
            }
            const T* xr = xc + (id * H + ih) * W;
            for (int64 ow = 0; ow < lo; ++ow) c[ow] = T(0);
            if (sw == 1) {
                const T* xb = xr + base;
                for (int64 ow = lo; ow < hi; ++ow) c[ow] = xb[ow];
            } else {
                for (int64 ow = lo; ow < hi; ++ow) c[ow] = xr[ow * sw + base];
            }
            for (int64 ow = hi; ow < OW; ++ow) c[ow] = T(0);
        }
    }
}

}  // namespace ga
