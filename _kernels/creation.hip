// Creation kernels: fills and values generated from the index (arange, linspace, eye,
// tril/triu).  One element per GPU thread; a CPU thread walks GA_CPU_CHUNK of them
// (for_each_index: one element per CPU thread cost 3 ns each, a 2**22 fill 13 ms).
// Launched by cython/_creation_kernels.pxi; only the defining scalars come from the host.
#include "garray/indexer.h"
#include "garray/loops.h"

namespace ga {

template <class T>
GA_GLOBAL void fill_c(T* out, T v, int64 n) {
    for_each_index(n, [=](int64 i) { out[i] = v; });
}

// NumPy's arange: out[i] = start + i * delta, in the output dtype, with
// delta = (start + step) - start computed in that dtype by the launch layer (D = T), or
// in float for the narrow floats (D = float: NumPy's float16 fill and ml_dtypes' compute
// start + i * delta in float, rounding once).
template <class T, class D>
GA_GLOBAL void arange_c(T* out, T start, T second, D delta, int64 n) {
    for_each_index(n, [=](int64 i) {
        out[i] = i == 0 ? start : (i == 1 ? second : (T)(start + convert<T>(i) * delta));
    });
}

// NumPy's linspace: computed in C (double or complex<double>), then converted;
// flags: 1 = endpoint (the last sample is exactly `stop`), 2 = the step underflowed to
// zero (then i / div * delta, as NumPy does).
template <class T, class C>
GA_GLOBAL void linspace_c(T* out, C start, C step, C stop, C delta, double div, int64 n,
                          int flags) {
    for_each_index(n, [=](int64 i) {
        C y = (flags & 2) ? convert<C>((double)i / div) * delta : convert<C>(i) * step;
        y = y + start;
        if ((flags & 1) && i == n - 1 && n > 1) y = stop;
        out[i] = convert<T>(y);
    });
}

template <class T>
GA_GLOBAL void eye_c(T* out, int64 n_cols, int64 k, int64 n) {
#if GA_CPU_LOOPS
    // a chunk of zeros (a vector loop), then the ones of the rows it meets
    const int64 base = flat_index<int64>() * GA_CPU_CHUNK;
    const int64 end = n - base < GA_CPU_CHUNK ? n : base + GA_CPU_CHUNK;
    const T zero = convert<T>(false), one = convert<T>(true);
    for (int64 i = base; i < end; ++i) out[i] = zero;
    for (int64 r = base / n_cols; r <= (end - 1) / n_cols; ++r) {
        const int64 c = r + k, i = r * n_cols + c;
        if (c >= 0 && c < n_cols && i >= base && i < end) out[i] = one;
    }
#else
    for_each_index(n, [=](int64 i) { out[i] = convert<T>((i % n_cols) - (i / n_cols) == k); });
#endif
}

// tril / triu over the last two axes: out is C-contiguous, x any strides.
template <class T, class I>
GA_GLOBAL void tri_s(char* out, const char* x, GA_BYVAL(Strided<2>) p, I n, I rows, I cols,
                     I k, int lower) {
#if GA_CPU_LOOPS
    // the chunk row by row (walk_rows): the position (r, c) from one division per row
    // segment, then stepped along (out is C-contiguous, so flat index i is its C order)
    char* const base[] = {out, (char*)x};
    int64 i = flat_index<int64>() * GA_CPU_CHUNK;
    cpu::walk_rows<2>(base, p, (int64)n, [&](char* const* q, const int64* s, int64 cnt) {
        int64 c = i % cols, r = (i / cols) % rows;
        for (int64 j = 0; j < cnt; ++j) {
            const T v = *(const T*)(q[1] + j * s[1]);
            const bool keep = lower ? (c - r <= (int64)k) : (c - r >= (int64)k);
            *(T*)(q[0] + j * s[0]) = keep ? v : T(0);
            if (++c == cols) {
                c = 0;
                r = r + 1 == rows ? 0 : r + 1;
            }
        }
        i += cnt;
    });
#else
    for_each_index((int64)n, [=, &p](int64 e) {
        I i = (I)e;
        I off[2];
        p.offsets(i, off);
        I c = i % cols, r = (i / cols) % rows;
        bool keep = lower ? (c - r <= k) : (c - r >= k);
        *(T*)(out + off[0]) = keep ? *(const T*)(x + off[1]) : T(0);
    });
#endif
}

}  // namespace ga
