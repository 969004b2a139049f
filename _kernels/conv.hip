// The forward convolution family: garray.nn.conv1d/2d/3d (launched by garray/nn/_conv.py
// through cython/_launch.pxi's _family_launch; the table is garray/_convtable.py, the
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
//    DV = 8 consecutive outputs along W (the CPU device, per == DV: the 8-wide inner loop
//    is what g++ vectorises).  It sums over the group's channels and the taps, rows of
//    taps whose D or H coordinate falls outside the input skipped whole.  The path for
//    depthwise convolutions (Cg == 1: K is the taps alone, too short for a GEMM tile) and
//    tiny layers.
// 4. `conv_igemm_rt` (the CPU device's implicit GEMM, barrier-free like gemm.hip's
//    gemm_rt): one thread computes CM = 4 output channels x CN = 16 consecutive output
//    positions of one sample, 64 accumulators in registers.  Per row k it gathers the 16
//    input values into a small array (contiguous loads when the 16 positions are in one
//    output row, stride 1 and inside the input; a bounds-tested gather otherwise) and
//    adds w[co, k] * xv[q]: the 16-wide loops vectorise.  Threads are ordered with the
//    channel tiles fastest, so the threads one CPU worker runs in sequence reuse the
//    same input panel while it is in cache.
// 5. `conv_igemm_tiled` (the GPU kernel, like gemm_tiled): a block of 256 threads
//    computes a 64 (output channels) x 64 ((n, p) columns) tile of Y_g; per step of 16
//    along k it stages a 64 x 16 tile of W_g and a 16 x 64 tile of X^_g (gathered, zero
//    past every edge) in shared memory, and each thread accumulates a 4 x 4 register
//    block whose rows and columns are 16 apart.  A staging thread's column is the same at
//    every step (256 is a multiple of 64), so it decodes (n, od, oh, ow) once; it decodes
//    (ci, kd, kh, kw) of its rows per step.  256 threads is the launch block on every
//    device: nothing depends on the warp size.  On the CPU device it runs on fibers
//    (about 10x slower); tests run it there at tiny sizes through a hook.
// 6. `conv_im2col`: one thread per run of `per` outputs along W of one row (sample,
//    group, k, od, oh) of X^ for samples [n0, n0 + nb): the whole row on the CPU device,
//    one element on GPUs.  Layout (nb, groups, K, OS), rows (ci, kd, kh, kw), columns
//    (od, oh, ow).
#include "garray/loops.h"
#include "garray/conv.h"

namespace ga {
namespace conv {

enum { DV = 8 };                       // conv_direct's run on the CPU device
enum { CM = 4, CN = 16 };              // conv_igemm_rt's register tile
enum { TM = 64, TN = 64, TK = 16, THREADS = 256, RM = 4, RN = 4 };   // conv_igemm_tiled

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
    T acc[conv::DV];
    for (int j = 0; j < conv::DV; ++j) acc[j] = T(0);
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
                    const T wv = wr[kw];
                    const int64 iw0 = ow0 * sw - pw + kw * dw;
                    if (sw == 1 && iw0 >= 0 && iw0 + conv::DV <= W) {
                        const T* xp = xr + iw0;
                        for (int j = 0; j < conv::DV; ++j) acc[j] += wv * xp[j];
                    } else {
                        for (int j = 0; j < conv::DV; ++j) {
                            const int64 iw = iw0 + j * sw;
                            acc[j] += (iw >= 0 && iw < W) ? wv * xr[iw] : T(0);
                        }
                    }
                }
            }
        }
    const int64 m = OW - ow0 < conv::DV ? OW - ow0 : conv::DV;
    for (int64 j = 0; j < m; ++j) ys[ow0 + j] = acc[j] + b;
}

// Arguments: y, x, w, bias (null: none), geometry (note 4).
template <class T>
GA_GLOBAL void conv_igemm_rt(T* y, const T* x, const T* w, const T* bias, const int64* gp) {
    const ConvGeom g = ConvGeom::load(gp);
    const int64 cg = g.cin_per_group(), cog = g.cout_per_group();
    const int64 OS = g.out_spatial();
    const int64 tiles_m = (cog + conv::CM - 1) / conv::CM;
    const int64 tiles_n = (OS + conv::CN - 1) / conv::CN;
    int64 t = flat_index<int64>();
    if (t >= tiles_m * tiles_n * g.n * g.groups) return;
    const int64 tm = t % tiles_m;
    t /= tiles_m;
    const int64 tn = t % tiles_n;
    t /= tiles_n;
    const int64 grp = t % g.groups;
    const int64 n = t / g.groups;
    const int64 co0 = grp * cog + tm * conv::CM;
    const int64 p0 = tn * conv::CN;
    const int mr = (int)(cog - tm * conv::CM < conv::CM ? cog - tm * conv::CM : conv::CM);
    const int nr = (int)(OS - p0 < conv::CN ? OS - p0 : conv::CN);
    const int64 D = g.size[0], H = g.size[1], W = g.size[2];
    const int64 OH = g.out[1], OW = g.out[2];
    const int64 KD = g.kernel[0], KH = g.kernel[1], KW = g.kernel[2];
    const int64 taps = KD * KH * KW;
    const int64 sw = g.stride[2], pw = g.pad[2], dw = g.dil[2];
    const T* xs = x + (n * g.c_in + grp * cg) * (D * H * W);
    // rows of w for this tile (rows past cog repeat the last one: computed, not stored)
    const T* wrow[conv::CM];
    for (int r = 0; r < conv::CM; ++r)
        wrow[r] = w + (co0 + (r < mr ? r : mr - 1)) * cg * taps;
    T acc[conv::CM][conv::CN];
    for (int r = 0; r < conv::CM; ++r)
        for (int q = 0; q < conv::CN; ++q) acc[r][q] = T(0);
    T xv[conv::CN];
    const int64 ow0 = p0 % OW, oh0 = (p0 / OW) % OH, od0 = p0 / (OW * OH);
    if (ow0 + conv::CN <= OW) {
        // one output row: D and H coordinates shared by the 16 positions
        for (int64 ci = 0; ci < cg; ++ci)
            for (int64 kd = 0; kd < KD; ++kd) {
                const int64 id = od0 * g.stride[0] - g.pad[0] + kd * g.dil[0];
                if (id < 0 || id >= D) continue;
                for (int64 kh = 0; kh < KH; ++kh) {
                    const int64 ih = oh0 * g.stride[1] - g.pad[1] + kh * g.dil[1];
                    if (ih < 0 || ih >= H) continue;
                    const T* xr = xs + ((ci * D + id) * H + ih) * W;
                    const int64 k0 = ((ci * KD + kd) * KH + kh) * KW;
                    for (int64 kw = 0; kw < KW; ++kw) {
                        const int64 iw0 = ow0 * sw - pw + kw * dw;
                        if (sw == 1 && iw0 >= 0 && iw0 + conv::CN <= W) {
                            for (int q = 0; q < conv::CN; ++q) xv[q] = xr[iw0 + q];
                        } else {
                            for (int q = 0; q < conv::CN; ++q) {
                                const int64 iw = iw0 + q * sw;
                                xv[q] = (iw >= 0 && iw < W) ? xr[iw] : T(0);
                            }
                        }
                        for (int r = 0; r < conv::CM; ++r) {
                            const T wv = wrow[r][k0 + kw];
                            for (int q = 0; q < conv::CN; ++q) acc[r][q] += wv * xv[q];
                        }
                    }
                }
            }
    } else {
        // the tile spans output rows (or the end): per-position coordinates
        int64 bd[conv::CN], bh[conv::CN], bw[conv::CN];
        for (int q = 0; q < conv::CN; ++q) {
            const int64 p = p0 + (q < nr ? q : nr - 1);
            bw[q] = (p % OW) * sw - pw;
            bh[q] = ((p / OW) % OH) * g.stride[1] - g.pad[1];
            bd[q] = (p / (OW * OH)) * g.stride[0] - g.pad[0];
        }
        for (int64 ci = 0; ci < cg; ++ci)
            for (int64 kd = 0; kd < KD; ++kd)
                for (int64 kh = 0; kh < KH; ++kh)
                    for (int64 kw = 0; kw < KW; ++kw) {
                        const int64 k = ((ci * KD + kd) * KH + kh) * KW + kw;
                        for (int q = 0; q < conv::CN; ++q) {
                            const int64 id = bd[q] + kd * g.dil[0];
                            const int64 ih = bh[q] + kh * g.dil[1];
                            const int64 iw = bw[q] + kw * dw;
                            xv[q] = (id >= 0 && id < D && ih >= 0 && ih < H && iw >= 0 &&
                                     iw < W) ? xs[((ci * D + id) * H + ih) * W + iw] : T(0);
                        }
                        for (int r = 0; r < conv::CM; ++r) {
                            const T wv = wrow[r][k];
                            for (int q = 0; q < conv::CN; ++q) acc[r][q] += wv * xv[q];
                        }
                    }
    }
    for (int r = 0; r < mr; ++r) {
        const T b = bias ? bias[co0 + r] : T(0);
        T* yr = y + (n * g.c_out + co0 + r) * OS + p0;
        for (int q = 0; q < nr; ++q) yr[q] = acc[r][q] + b;
    }
}

// Arguments: y, x, w, bias (null: none), geometry (note 5).  Launched with 256 threads
// per block, tiles_m * tiles_n * groups blocks.
template <class T>
GA_GLOBAL void conv_igemm_tiled(T* y, const T* x, const T* w, const T* bias,
                                const int64* gp) {
    __shared__ T as[conv::TK][conv::TM + 1];
    __shared__ T bs[conv::TK][conv::TN];
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
                const int64 kw = gk % KW;
                const int64 kh = (gk / KW) % KH;
                const int64 kd = (gk / (KW * KH)) % KD;
                const int64 ci = gk / taps;
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

// Arguments: col, x, geometry, n0 (first sample), nb (samples), per (outputs along W per
// thread) (note 6).
template <class T>
GA_GLOBAL void conv_im2col(T* col, const T* x, const int64* gp, int64 n0, int64 nb,
                           int64 per) {
    const ConvGeom g = ConvGeom::load(gp);
    const int64 OD = g.out[0], OH = g.out[1], OW = g.out[2];
    const int64 KD = g.kernel[0], KH = g.kernel[1], KW = g.kernel[2];
    const int64 taps = KD * KH * KW;
    const int64 cg = g.cin_per_group();
    const int64 K = cg * taps;
    const int64 runs = (OW + per - 1) / per;
    int64 t = flat_index<int64>();
    if (t >= nb * g.groups * K * OD * OH * runs) return;
    const int64 ow0 = (t % runs) * per;
    t /= runs;
    const int64 oh = t % OH;
    t /= OH;
    const int64 od = t % OD;
    t /= OD;
    const int64 k = t % K;
    t /= K;
    const int64 grp = t % g.groups;
    const int64 b = t / g.groups;
    const int64 kw = k % KW, kh = (k / KW) % KH, kd = (k / (KW * KH)) % KD, ci = k / taps;
    const int64 D = g.size[0], H = g.size[1], W = g.size[2];
    const int64 id = od * g.stride[0] - g.pad[0] + kd * g.dil[0];
    const int64 ih = oh * g.stride[1] - g.pad[1] + kh * g.dil[1];
    const int64 ow1 = ow0 + per < OW ? ow0 + per : OW;
    T* cr = col + (((b * g.groups + grp) * K + k) * OD + od) * OH * OW + oh * OW;
    if (id < 0 || id >= D || ih < 0 || ih >= H) {
        for (int64 ow = ow0; ow < ow1; ++ow) cr[ow] = T(0);
        return;
    }
    const T* xr = x + ((((n0 + b) * g.c_in + grp * cg + ci) * D + id) * H + ih) * W;
    const int64 sw = g.stride[2], base = kw * g.dil[2] - g.pad[2];
    for (int64 ow = ow0; ow < ow1; ++ow) {
        const int64 iw = ow * sw + base;
        cr[ow] = (iw >= 0 && iw < W) ? xr[iw] : T(0);
    }
}

}  // namespace ga
