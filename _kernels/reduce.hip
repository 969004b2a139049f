// The reduction family: reductions and scans over any set of axes, with the reducers of
// garray/reducers.h.
//
// Note [Reduction strategies]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The launch layer (cython/_reduce.pxi) collapses the kept axes (po: strides of out and
// x) and the reduced axes (pr: strides of x) and picks one of three schedules:
//   reduce_nb    barrier-free, one thread per output.  Pairwise: blocks of 128 elements
//                summed in 8 interleaved lanes, merged by a binary counter (NumPy's
//                pairwise summation, error O(log n)).  Many short reductions on GPUs,
//                and the CPU device's path.
//   reduce_cols  barrier-free, one thread per W adjacent outputs, when the innermost kept
//                axis is contiguous in x (sum(axis=0) of a C array): W accumulators the
//                compiler vectorises, one reduced row after another, as NumPy's own
//                loop for this layout (same order, same error).  CPU device.
//   reduce_bt    block tree: a block of RED_BLOCK threads per (output, segment), each
//                thread accumulating its strided share, then a shared-memory tree down to
//                one warp and warp shuffles for the last stage.  One segment per output
//                writes the result; more write partials that reduce_bt_part reduces in a
//                second launch.  No atomics: the same launch shape gives the same bits.
//                Long reductions on GPUs; on the CPU device a fiber (correctness) path.
// Scans run along one axis (pr is that axis):
//   scan_nb      one thread per line, in order (NumPy's sequential result); the only
//                schedule of ordered rows (red::first: subtract.accumulate ...).
//   reduce_bt + scan_part + scan_bt
//                reduce-then-scan: segment totals, an exclusive scan of the totals per
//                line, then each block scans its segment from that carry (a block scan
//                of per-thread chunks).  No block waits for another, so nothing can
//                deadlock on the CPU device's one-block-at-a-time launches.
#include "garray/indexer.h"
#include "garray/loops.h"
#include "garray/reducers.h"

#define GA_RED_BLOCK 256

namespace ga {

template <class R> using acc_t = typename R::acc;
template <class R> using out_t = typename result_type<typename R::acc>::type;

// One value moved down the warp by 32-bit words, so any accumulator (a complex number,
// a (value, index) pair) uses the platform's word shuffle.
template <class A> GA_DEVICE A shfl_down_any(A v, int d) {
    constexpr int W = (int)((sizeof(A) + 3) / 4);
    union U {
        A a;
        unsigned int w[W];
        GA_DEVICE U() {}
    } u;
    u.a = v;
    for (int k = 0; k < W; ++k) u.w[k] = GA_SHFL_DOWN(u.w[k], d);
    return u.a;
}

// Element j of a reduced range starting at base.
template <class T, class I> GA_DEVICE T load_reduced(const char* base, const Strided<1>& pr, I j) {
    I r[1];
    pr.offsets(j, r);
    return *(const T*)(base + r[0]);
}

// Strided elements [j0, j0 + m) (m <= GA_RED_CHUNK): with one reduced axis (a constant
// stride) in 8 interleaved lanes; otherwise in order, through the one general offset
// computation (it divides: written once, so GPU compilers inline it once).
template <class R, class T, class I>
GA_DEVICE acc_t<R> reduce_chunk(const R& r, const char* base, const Strided<1>& pr, I j0, I m,
                                acc_t<R> id) {
    if (pr.ndim > 1 || m < 8) {
        acc_t<R> a = id;
#pragma unroll 1
        for (I k = 0; k < m; ++k) {
            acc_t<R> v = r.map(load_reduced<T>(base, pr, j0 + k), (int64)(j0 + k));
            a = k == 0 ? red::lead(r, id, v, (int64)j0) : r.combine(a, v);
        }
        return a;
    }
    const I s = pr.ndim == 1 ? (I)pr.strides[0][0] : (I)0;
    const char* p = base + j0 * s;
    acc_t<R> l[8];
    for (int u = 0; u < 8; ++u) l[u] = r.map(*(const T*)(p + u * s), (int64)(j0 + u));
    l[0] = red::lead(r, id, l[0], (int64)j0);
    I k = 8;
#pragma unroll 1
    for (; k + 8 <= m; k += 8)
        for (int u = 0; u < 8; ++u)
            l[u] = r.combine(l[u], r.map(*(const T*)(p + (k + u) * s), (int64)(j0 + k + u)));
    for (; k < m; ++k) l[0] = r.combine(l[0], r.map(*(const T*)(p + k * s), (int64)(j0 + k)));
    return red::merge8(r, l);
}

// Pairwise reduction of n elements (red::pairwise); contiguous ranges go through
// red::range where a reducer specialises it (argmax/argmin of real values,
// count_nonzero), else through red::chunk inside the same pairwise counter as strided
// ones: one counter per kernel, sized for I (a second, 64-bit one for the contiguous
// case doubled a 32-bit kernel's local memory on GPUs).
template <class R, class T, class I>
GA_DEVICE acc_t<R> reduce_range(const R& r, const char* base, const Strided<1>& pr, I n,
                                acc_t<R> id) {
    const bool contiguous = pr.ndim == 1 && pr.strides[0][0] == (int64)sizeof(T);
    if constexpr (!__is_base_of(red::range_pairwise<R, T>, red::range<R, T>)) {
        if (contiguous) return red::range<R, T>::run(r, (const T*)base, (int64)n, id);
    }
    return red::pairwise<R, I>(r, id, n, [&](I j, I m) {
        return contiguous ? red::chunk<R, T>::run(r, (const T*)base + j, (int64)j, (int)m, id)
                          : reduce_chunk<R, T, I>(r, base, pr, j, m, id);
    });
}

template <class R, class T, class I>
GA_GLOBAL void reduce_nb(char* out, const char* x, GA_BYVAL(Strided<2>) po,
                         GA_BYVAL(Strided<1>) pr, I n_out, I n_red, typename R::param p) {
    I i = flat_index<I>();
    if (i >= n_out) return;
    I off[2];
    po.offsets(i, off);
    R r;
    *(out_t<R>*)(out + off[0]) = result_of(reduce_range<R, T, I>(r, x + off[1], pr, n_red, R::ident(p)));
}

// Up to W adjacent outputs per thread along po's innermost axis, whose x stride is
// sizeof(T): each reduced row is a contiguous run of x that W accumulators consume.
// W = 4096 covers whole rows of most arrays, so memory streams row after row.
template <class R, class T, class I, int W>
GA_GLOBAL void reduce_cols(char* out, const char* x, GA_BYVAL(Strided<2>) po,
                           GA_BYVAL(Strided<1>) pr, I n_out, I n_red, typename R::param p) {
    typedef acc_t<R> A;
    const int d = po.ndim - 1;
    const I inner = (I)po.shape[d];
    const I chunks = (inner + W - 1) / W;
    I t = flat_index<I>();
    if (t >= (n_out / inner) * chunks) return;
    I row = t / chunks, i0 = (t - row * chunks) * W;
    const int wn = inner - i0 < W ? (int)(inner - i0) : W;
    I off[2];
    po.offsets(row * inner + i0, off);
    const I so = (I)po.strides[0][d];
    const char* base = x + off[1];
    R r;
    const A id = R::ident(p);
    A acc[W];
    {                       // the first row starts the accumulators (after the identity)
        const T* q = (const T*)base;
        for (int w = 0; w < wn; ++w) acc[w] = r.combine(id, r.map(q[w], (int64)0));
    }
    for (I k = 1; k < n_red; ++k) {
        I r0[1];
        pr.offsets(k, r0);
        const T* q = (const T*)(base + r0[0]);
        if (wn == W)          // a constant trip count: the loop the compiler vectorises
#pragma unroll 1
            for (int w = 0; w < W; ++w) acc[w] = r.combine(acc[w], r.map(q[w], (int64)k));
        else
            for (int w = 0; w < wn; ++w) acc[w] = r.combine(acc[w], r.map(q[w], (int64)k));
    }
    for (int w = 0; w < wn; ++w) *(out_t<R>*)(out + off[0] + w * so) = result_of(acc[w]);
}

// The block's values combined; the result is valid in thread 0.
template <class R> GA_DEVICE acc_t<R> block_reduce(const R& r, acc_t<R> v) {
    typedef acc_t<R> A;
    __shared__ unsigned long long raw[(GA_RED_BLOCK * sizeof(A) + 7) / 8];
    GA_SHARED_VAR(raw);
    A* sh = (A*)raw;
    const unsigned t = threadIdx.x;
    sh[t] = v;
    GA_SYNCTHREADS();
    for (unsigned s = GA_RED_BLOCK / 2; s >= GA_WARP_SIZE; s >>= 1) {
        if (t < s) sh[t] = r.combine(sh[t], sh[t + s]);
        GA_SYNCTHREADS();
    }
    if (t < GA_WARP_SIZE) {
        v = sh[t];
        for (int d = GA_WARP_SIZE / 2; d > 0; d >>= 1) v = r.combine(v, shfl_down_any(v, d));
    }
    return v;
}

// Block b reduces segment b % nblk of output b / nblk: elements [lo, lo + per_blk).
// Without a partials buffer (one segment per output) it writes the result.
template <class R, class T, class I>
GA_GLOBAL void reduce_bt(char* out, char* part, const char* x, GA_BYVAL(Strided<2>) po,
                         GA_BYVAL(Strided<1>) pr, I n_red, I per_blk, I nblk,
                         typename R::param p) {
    I b = GA_BLOCK_LINEAR(I);
    I o = b / nblk, seg = b - o * nblk;
    I off[2];
    po.offsets(o, off);
    I lo = seg * per_blk, hi = n_red - lo < per_blk ? n_red : lo + per_blk;
    R r;
    acc_t<R> a = R::ident(p);
    for (I j = lo + (I)threadIdx.x; j < hi; j += (I)blockDim.x)
        a = r.combine(a, r.map(load_reduced<T>(x + off[1], pr, j), (int64)j));
    a = block_reduce(r, a);
    if (threadIdx.x != 0) return;
    if (part == nullptr) *(out_t<R>*)(out + off[0]) = result_of(a);
    else ((acc_t<R>*)part)[b] = a;
}

// Second pass: block o combines output o's nblk partials.
template <class R, class I>
GA_GLOBAL void reduce_bt_part(char* out, const char* part, GA_BYVAL(Strided<2>) po, I nblk,
                              typename R::param p) {
    I o = GA_BLOCK_LINEAR(I);
    I off[2];
    po.offsets(o, off);
    R r;
    const acc_t<R>* q = (const acc_t<R>*)part + o * nblk;
    acc_t<R> a = R::ident(p);
    for (I k = (I)threadIdx.x; k < nblk; k += (I)blockDim.x) a = r.combine(a, q[k]);
    a = block_reduce(r, a);
    if (threadIdx.x == 0) *(out_t<R>*)(out + off[0]) = result_of(a);
}

// ---- scans --------------------------------------------------------------------------
// po: the lines (strides of out and x); the scan axis has n elements, strides so and sx.
template <class R, class T, class I>
GA_GLOBAL void scan_nb(char* out, const char* x, GA_BYVAL(Strided<2>) po, I n_lines, I n,
                       I so, I sx, typename R::param p) {
    I i = flat_index<I>();
    if (i >= n_lines) return;
    I off[2];
    po.offsets(i, off);
    R r;
    acc_t<R> a = R::ident(p);
    I j = 0;
    if (n == 0) return;
    // out[0] is x[0] (NumPy's accumulate copies it: cumsum([-0.0]) keeps the sign), and
    // ordered rows have no identity to start from anyway
    a = r.map(*(const T*)(x + off[1]), (int64)0);
    *(acc_t<R>*)(out + off[0]) = a;
    j = 1;
    for (; j < n; ++j) {
        a = r.combine(a, r.map(*(const T*)(x + off[1] + j * sx), (int64)j));
        *(acc_t<R>*)(out + off[0] + j * so) = a;
    }
}

// The segment totals of each line become exclusive prefixes, in order.
template <class R, class I>
GA_GLOBAL void scan_part(char* part, I n_lines, I nblk, typename R::param p) {
    I i = flat_index<I>();
    if (i >= n_lines) return;
    R r;
    acc_t<R>* q = (acc_t<R>*)part + i * nblk;
    acc_t<R> carry = R::ident(p);
    for (I k = 0; k < nblk; ++k) {
        acc_t<R> t = q[k];
        q[k] = carry;
        carry = r.combine(carry, t);
    }
}

// Block b scans segment b % nblk of line b / nblk from the carry part[b]: each thread
// takes a contiguous chunk, the chunk totals are scanned across the block
// (Hillis-Steele in shared memory), then each thread rescans its chunk from its prefix.
template <class R, class T, class I>
GA_GLOBAL void scan_bt(char* out, const char* x, const char* part, GA_BYVAL(Strided<2>) po,
                       I n, I so, I sx, I per_blk, I nblk, typename R::param p) {
    typedef acc_t<R> A;
    __shared__ unsigned long long raw[(GA_RED_BLOCK * sizeof(A) + 7) / 8];
    GA_SHARED_VAR(raw);
    A* sh = (A*)raw;
    I b = GA_BLOCK_LINEAR(I);
    I line = b / nblk, seg = b - line * nblk;
    I off[2];
    po.offsets(line, off);
    I lo = seg * per_blk, hi = n - lo < per_blk ? n : lo + per_blk;
    I c = (hi - lo + (I)blockDim.x - 1) / (I)blockDim.x;
    const unsigned t = threadIdx.x;
    I j0 = lo + (I)t * c, j1 = j0 + c < hi ? j0 + c : hi;
    R r;
    const A id = R::ident(p);
    A a = id;
    for (I j = j0; j < j1; ++j) a = r.combine(a, r.map(*(const T*)(x + off[1] + j * sx), (int64)j));
    sh[t] = a;
    GA_SYNCTHREADS();
    for (unsigned d = 1; d < GA_RED_BLOCK; d <<= 1) {
        A v = t >= d ? r.combine(sh[t - d], sh[t]) : sh[t];
        GA_SYNCTHREADS();
        sh[t] = v;
        GA_SYNCTHREADS();
    }
    a = r.combine(((const A*)part)[b], t > 0 ? sh[t - 1] : id);
    for (I j = j0; j < j1; ++j) {
        A v = r.map(*(const T*)(x + off[1] + j * sx), (int64)j);
        a = j == 0 ? v : r.combine(a, v);         // the line's first element is x[0]
        *(A*)(out + off[0] + j * so) = a;
    }
}

}  // namespace ga
