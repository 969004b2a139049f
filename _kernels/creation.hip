// Creation kernels: fills and values generated from the index (arange, linspace, eye,
// tril/triu).  One element per thread on every device (launched by
// cython/_creation_kernels.pxi); only the defining scalars come from the host.
#include "garray/indexer.h"
#include "garray/loops.h"

namespace ga {

template <class T>
GA_GLOBAL void fill_c(T* out, T v, int64 n) {
    int64 i = flat_index<int64>();
    if (i < n) out[i] = v;
}

// NumPy's arange: out[i] = start + i * delta, in the output dtype, with
// delta = (start + step) - start computed in that dtype by the launch layer.
template <class T>
GA_GLOBAL void arange_c(T* out, T start, T second, T delta, int64 n) {
    int64 i = flat_index<int64>();
    if (i >= n) return;
    out[i] = i == 0 ? start : (i == 1 ? second : (T)(start + convert<T>(i) * delta));
}

// NumPy's linspace: computed in C (double or complex<double>), then converted;
// flags: 1 = endpoint (the last sample is exactly `stop`), 2 = the step underflowed to
// zero (then i / div * delta, as NumPy does).
template <class T, class C>
GA_GLOBAL void linspace_c(T* out, C start, C step, C stop, C delta, double div, int64 n,
                          int flags) {
    int64 i = flat_index<int64>();
    if (i >= n) return;
    C y = (flags & 2) ? convert<C>((double)i / div) * delta : convert<C>(i) * step;
    y = y + start;
    if ((flags & 1) && i == n - 1 && n > 1) y = stop;
    out[i] = convert<T>(y);
}

template <class T>
GA_GLOBAL void eye_c(T* out, int64 n_cols, int64 k, int64 n) {
    int64 i = flat_index<int64>();
    if (i < n) out[i] = convert<T>((i % n_cols) - (i / n_cols) == k);
}

// tril / triu over the last two axes: out is C-contiguous, x any strides.
template <class T, class I>
GA_GLOBAL void tri_s(char* out, const char* x, GA_BYVAL(Strided<2>) p, I n, I rows, I cols,
                     I k, int lower) {
    I i = flat_index<I>();
    if (i >= n) return;
    I off[2];
    p.offsets(i, off);
    I c = i % cols, r = (i / cols) % rows;
    bool keep = lower ? (c - r <= k) : (c - r >= k);
    *(T*)(out + off[0]) = keep ? *(const T*)(x + off[1]) : T(0);
}

}  // namespace ga
