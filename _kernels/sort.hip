// Sorting and searching kernels (docs/sorting.md; launched by garray/_sort/sorting.py).
//
// Note [Radix sort]
// ~~~~~~~~~~~~~~~~~
// 1. Every kernel is barrier-free (plain loops on the CPU device, one thread per item on
//    GPUs) and indexes in 64 bits.  The data is a C-contiguous batch of `rows` rows of
//    `n` elements (the launcher moves the sorted axis last).
// 2. Keys: `sort_key` turns each element into an unsigned key whose unsigned order is
//    NumPy's order: bool -> 0/1, signed ints flip the sign bit, floats flip the sign bit
//    (positives) or every bit (negatives); both zeros get 0.0's key and every NaN the
//    largest key, so they compare equal and keep their order (NumPy's stable sort).
//    `descending` inverts every key bit: equal keys stay equal, so the sort stays
//    stable, and NaNs come first (the Array API's stable descending sort is the
//    reverse of NumPy's order with ties in input order).
// 3. Complex numbers sort by three stable passes (least significant first): imaginary
//    key, real key, then a class (NaN pattern) key, which gives NumPy's order
//    [R + Rj, R + nanj, nan + Rj, nan + nanj].  Each pass reads the element through the
//    permutation built so far (the int64 payload).
// 4. Payload: none (integer values come back from their keys, `sort_unkey`), the value
//    bits (float sort: -0.0 and NaN payloads come back as they were) or an int64 index
//    within the row (argsort, complex).
// 5. Long rows (few of them): LSD passes of one digit (7.), three kernels a pass:
//    `radix_hist` (one thread per (row, chunk): a chunk's digit counts, stored digit
//    major), `radix_scan` (one thread per (row, digit): exclusive scan over the chunks,
//    the digit's total), `radix_scatter` (one thread per (row, chunk): digit bases from
//    the totals, then the chunk's elements in order -> stable).
//    Short or many rows: `radix_rows`, one thread sorts a whole row (insertion sort up to
//    16 elements, else LSD passes with several passes' histograms from one read, skipping
//    passes where every key has the same digit).
// 6. Searching: `searchsorted` is one binary search per needle under the same order
//    (`ga::sort::less`).
// 7. Digit width per device kind (the launcher's `_RADIX`): the CPU device takes 8-bit
//    digits and counts every pass of a row from one read (16 KiB of counts per thread
//    for 8-byte keys, in cache); GPUs take 4-bit digits and four passes per read, so a
//    thread keeps 128 bytes of digit counts (512 in radix_rows), not the 2-16 KiB that
//    would sit in local memory (off-chip) for every resident thread.  The digit width
//    and slot count are arguments, so the CPU device runs the GPUs' widths in the tests;
//    the arrays' capacity is the platform's (GA_RADIX_MAX_BINS, GA_RADIX_ROW_SLOTS).
// 8. `radix_scatter` writes each element straight to its digit's next place on every
//    device.  A CPU build that combined the writes in software (each digit's next 8-16
//    keys and payloads in an L1 buffer, then one run) gained 10-15% on one x86 machine
//    and ran 2.5 times slower than these plain stores on an AMD EPYC (2**20 8-byte keys
//    with int64 payloads in chunks of 2**14: 4.9 ms against 2.0 ms on one thread), whose
//    store buffers combine the runs themselves.
// 9. Uniformly random 64-bit keys (permutations, garray/random/_sampling.py): stable
//    passes over the top bits only leave groups of equal top bits a few keys long, and
//    `radix_settle` sorts each group by its whole key (insertion sort, stable), which
//    completes the stable sort: the full sort's result, bit for bit, in 2 passes instead
//    of 8 for 2**20 keys.  A thread takes the groups that start in its `seg` positions;
//    it reads the passes' output and writes its groups into a second buffer, so threads
//    share nothing.  Only for random keys: a group of g keys costs O(g**2).
#include "garray/loops.h"

namespace ga {
namespace sort {

struct nil {};      // "no payload"

template <class K> struct bits_of;
template <> struct bits_of<float> { typedef uint32 type; };
template <> struct bits_of<double> { typedef uint64 type; };

template <class F> GA_DEVICE typename bits_of<F>::type float_bits(F x) {
    union { F f; typename bits_of<F>::type u; } c;
    c.f = x;
    return c.u;
}

// Order-preserving key of one real value (comp is ignored).
template <class K, class T> GA_DEVICE K key_of(T x) { return (K)x; }
template <> GA_DEVICE uint8 key_of<uint8, bool>(bool x) { return x ? 1 : 0; }
template <> GA_DEVICE uint8 key_of<uint8, int8>(int8 x) { return (uint8)x ^ (uint8)0x80u; }
template <> GA_DEVICE uint16 key_of<uint16, int16>(int16 x) {
    return (uint16)x ^ (uint16)0x8000u;
}
template <> GA_DEVICE uint32 key_of<uint32, int32>(int32 x) { return (uint32)x ^ 0x80000000u; }
template <> GA_DEVICE uint64 key_of<uint64, int64>(int64 x) {
    return (uint64)x ^ 0x8000000000000000ull;
}
template <class K, class F> GA_DEVICE K float_key(F x) {
    const K top = (K)1 << (8 * sizeof(K) - 1);
    if (x != x) return ~(K)0;               // every NaN: the largest key
    if (x == F(0)) return top;              // -0.0 == 0.0
    K u = float_bits(x);
    return (u & top) ? ~u : (u | top);
}
template <> GA_DEVICE uint32 key_of<uint32, float>(float x) { return float_key<uint32>(x); }
template <> GA_DEVICE uint64 key_of<uint64, double>(double x) { return float_key<uint64>(x); }

// The key of component `comp` of x: 0 the value (complex: real part), 1 the imaginary
// part, 2 the NaN class of a complex value.
template <class K, class T> struct keyer {
    static GA_DEVICE K get(T x, int) { return key_of<K, T>(x); }
};
template <class K, class F> struct keyer<K, complex<F> > {
    static GA_DEVICE K get(complex<F> x, int comp) {
        if (comp == 2) return (K)(2 * (x.re != x.re) + (x.im != x.im));
        return key_of<K, F>(comp == 1 ? x.im : x.re);
    }
};

// The value of a bool/integer key (the inverse of key_of).
template <class T, class K> GA_DEVICE T value_of(K k) {
    return (T)(k ^ (K)((T)-1 < (T)0 ? (K)1 << (8 * sizeof(K) - 1) : 0));
}
template <> GA_DEVICE bool value_of<bool, uint8>(uint8 k) { return k != 0; }

// The key type of each dtype (its width).
template <int S> struct uint_of;
template <> struct uint_of<1> { typedef uint8 type; };
template <> struct uint_of<2> { typedef uint16 type; };
template <> struct uint_of<4> { typedef uint32 type; };
template <> struct uint_of<8> { typedef uint64 type; };
template <class T> struct key_type { typedef typename uint_of<sizeof(T)>::type type; };
template <class F> struct key_type<complex<F> > { typedef typename key_type<F>::type type; };

// NumPy's sort order (NaNs last; complex: NaN class, then real, then imaginary part).
template <class T> GA_DEVICE bool less(T a, T b) {
    typedef typename key_type<T>::type K;
    return key_of<K, T>(a) < key_of<K, T>(b);
}
template <class T> GA_DEVICE bool less_c(T a, T b) {
    typedef typename key_type<T>::type K;
    K ca = keyer<K, T>::get(a, 2), cb = keyer<K, T>::get(b, 2);
    if (ca != cb) return ca < cb;
    K ra = keyer<K, T>::get(a, 0), rb = keyer<K, T>::get(b, 0);
    if (ra != rb) return ra < rb;
    return keyer<K, T>::get(a, 1) < keyer<K, T>::get(b, 1);
}
template <> GA_DEVICE bool less<complex<float> >(complex<float> a, complex<float> b) {
    return less_c(a, b);
}
template <> GA_DEVICE bool less<complex<double> >(complex<double> a, complex<double> b) {
    return less_c(a, b);
}

// The bits of a float as its key type (the float sort's payload); 0 for other types.
template <class K, class T> GA_DEVICE K bits_as(T) { return 0; }
template <> GA_DEVICE uint32 bits_as<uint32, float>(float x) { return float_bits(x); }
template <> GA_DEVICE uint64 bits_as<uint64, double>(double x) { return float_bits(x); }

// Payload moves; with no payload (nil, null pointers) they touch nothing.
// searchsorted's comparisons: on keys for real types (a needle's key is made once),
// on the values for complex ones.
template <class T> struct order {
    typedef typename key_type<T>::type K;
    static GA_DEVICE K make(T x) { return key_of<K, T>(x); }
    static GA_DEVICE bool lt(K a, K b) { return a < b; }
};
template <class F> struct order<complex<F> > {
    typedef complex<F> K;
    static GA_DEVICE K make(K x) { return x; }
    static GA_DEVICE bool lt(K a, K b) { return less(a, b); }
};

template <class P> GA_DEVICE void move_pay(P* dst, int64 q, const P* src, int64 i) {
    dst[q] = src[i];
}
template <> GA_DEVICE void move_pay<nil>(nil*, int64, const nil*, int64) {}
template <class P> GA_DEVICE P load_pay(const P* p, int64 i) { return p[i]; }
template <> GA_DEVICE nil load_pay<nil>(const nil*, int64) { return nil(); }

}  // namespace sort

// keys[i] = key of x[row, j] with j = idx[i] (idx != 0) or i's own column; mode 1 also
// writes idx[i] = column (argsort's start), mode 2 writes the value bits to pay.
template <class T, class K>
GA_GLOBAL void sort_key(const T* x, int64* idx, K* keys, K* pay, int64 rows, int64 n,
                        int64 comp, int64 desc, int64 mode) {
    for_each_index(rows * n, [=](int64 i) {
        T v;
        if (mode == 0 && idx) {
            v = x[(i / n) * n + idx[i]];
        } else {
            v = x[i];
            if (mode == 1) idx[i] = i % n;
        }
        K k = sort::keyer<K, T>::get(v, (int)comp);
        keys[i] = desc ? (K)~k : k;
        if (mode == 2) pay[i] = sort::bits_as<K>(v);
    });
}

// out[i] = the bool/integer value of keys[i] (sort without payload).
template <class T, class K>
GA_GLOBAL void sort_unkey(const K* keys, T* out, int64 total, int64 desc) {
    for_each_index(total, [=](int64 i) {
        K k = keys[i];
        out[i] = sort::value_of<T, K>(desc ? (K)~k : k);
    });
}

// out[r, j] = x[r, idx[r, j]] for rows of n inputs and m outputs (take_along_axis).
template <class T>
GA_GLOBAL void take_rows(const T* x, const int64* idx, T* out, int64 rows, int64 n, int64 m) {
    for_each_index(rows * m, [=](int64 i) { out[i] = x[(i / m) * n + idx[i]]; });
}

// The capacity of the per-thread digit arrays (Note [Radix sort] 7): the largest digit
// (bins) and the histogram slots radix_rows fills from one read of its row.
#if defined(GARRAY_HOST)
#  define GA_RADIX_MAX_BINS 256         // 8-bit digits
#  define GA_RADIX_ROW_SLOTS 2048       // every pass of an 8-byte key at 8 bits: one read
#else
#  define GA_RADIX_MAX_BINS 16          // 4-bit digits: 128 bytes of counts per thread
#  define GA_RADIX_ROW_SLOTS 64         // four passes per read: 512 bytes per thread
#endif

// One thread per (row, chunk): its counts of the `bits`-bit digit at `shift`, stored at
// counts[(row * bins + d) * nch + chunk].
template <class K>
GA_GLOBAL void radix_hist(const K* keys, int64* counts, int64 rows, int64 n, int64 chunk,
                          int64 nch, int64 shift, int64 bits) {
    int64 t = flat_index<int64>();
    const int nb = 1 << bits;
    if (t >= rows * nch || nb > GA_RADIX_MAX_BINS) return;  // the launcher never asks more
    int64 r = t / nch, c = t % nch;
    int64 h[GA_RADIX_MAX_BINS];
    for (int d = 0; d < nb; ++d) h[d] = 0;
    int64 lo = c * chunk, hi = lo + chunk < n ? lo + chunk : n;
    const K* p = keys + r * n;
    for (int64 i = lo; i < hi; ++i) h[(p[i] >> shift) & (nb - 1)]++;
    for (int d = 0; d < nb; ++d) counts[(r * nb + d) * nch + c] = h[d];
}

// One thread per (row, digit), `lines` = rows * bins of them: exclusive scan of the
// digit's chunk counts; its total.
// A template (instantiated for int64 only) so that the units including this file can
// share one library (a plain function would be defined once per unit).
template <class I>
GA_GLOBAL void radix_scan(I* counts, I* totals, I lines, I nch) {
    I t = flat_index<I>();
    if (t >= lines) return;
    I* p = counts + t * nch;
    I acc = 0;
    for (I c = 0; c < nch; ++c) {
        I v = p[c];
        p[c] = acc;
        acc += v;
    }
    totals[t] = acc;
}

// One thread per (row, chunk): moves the chunk's keys (and payload) to their places.
template <class K, class P>
GA_GLOBAL void radix_scatter(const K* keys, const P* pay, K* keys2, P* pay2,
                             const int64* counts, const int64* totals, int64 rows, int64 n,
                             int64 chunk, int64 nch, int64 shift, int64 bits) {
    int64 t = flat_index<int64>();
    const int nb = 1 << bits;
    if (t >= rows * nch || nb > GA_RADIX_MAX_BINS) return;
    int64 r = t / nch, c = t % nch;
    int64 pos[GA_RADIX_MAX_BINS];
    int64 run = r * n;
    for (int d = 0; d < nb; ++d) {
        pos[d] = run + counts[(r * nb + d) * nch + c];
        run += totals[r * nb + d];
    }
    int64 lo = r * n + c * chunk, hi = lo + chunk < (r + 1) * n ? lo + chunk : (r + 1) * n;
    for (int64 i = lo; i < hi; ++i) {
        K k = keys[i];
        int64 q = pos[(k >> shift) & (nb - 1)]++;
        keys2[q] = k;
        sort::move_pay<P>(pay2, q, pay, i);
    }
}

// One thread per row: the whole stable sort of the row's keys (and payload) in place,
// with keys2/pay2 as the row's scratch; `bits`-bit digits, the histograms of as many
// passes as `slots` counts hold (at most GA_RADIX_ROW_SLOTS) from each read of the row.
template <class K, class P>
GA_GLOBAL void radix_rows(K* keys, P* pay, K* keys2, P* pay2, int64 rows, int64 n,
                          int64 bits, int64 slots) {
    int64 r = flat_index<int64>();
    const int nb = 1 << bits;
    if (r >= rows || nb > GA_RADIX_MAX_BINS) return;
    K* k = keys + r * n;
    P* p = pay + r * n;
    if (n <= 16) {                              // stable insertion sort
        for (int64 i = 1; i < n; ++i) {
            K v = k[i];
            P pv = sort::load_pay<P>(p, i);
            int64 j = i;
            for (; j > 0 && k[j - 1] > v; --j) {
                k[j] = k[j - 1];
                sort::move_pay<P>(p, j, p, j - 1);
            }
            k[j] = v;
            sort::move_pay<P>(p, j, &pv, 0);
        }
        return;
    }
    const int passes = (int)(8 * sizeof(K) / bits);
    const K mask = (K)(nb - 1);
    int64 s = slots < nb ? nb : (slots > GA_RADIX_ROW_SLOTS ? GA_RADIX_ROW_SLOTS : slots);
    const int per = (int)(s / nb);              // passes counted per read of the row
    int64 h[GA_RADIX_ROW_SLOTS];
    K* src = k;
    P* ps = p;
    K* dst = keys2 + r * n;
    P* pd = pay2 + r * n;
    for (int b0 = 0; b0 < passes; b0 += per) {
        const int g = passes - b0 < per ? passes - b0 : per;
        for (int j = 0; j < g * nb; ++j) h[j] = 0;
        for (int64 i = 0; i < n; ++i) {        // a digit's counts do not depend on order
            K v = src[i];
            for (int j = 0; j < g; ++j) h[j * nb + ((v >> (bits * (b0 + j))) & mask)]++;
        }
        for (int j = 0; j < g; ++j) {
            int64* hb = h + j * nb;
            const int shift = (int)bits * (b0 + j);
            int64 run = 0;
            bool trivial = false;
            for (int d = 0; d < nb; ++d) {
                int64 c = hb[d];
                if (c == n) trivial = true;
                hb[d] = run;
                run += c;
            }
            if (trivial) continue;              // every key has this digit
            for (int64 i = 0; i < n; ++i) {
                K v = src[i];
                int64 q = hb[(v >> shift) & mask]++;
                dst[q] = v;
                sort::move_pay<P>(pd, q, ps, i);
            }
            K* tk = src; src = dst; dst = tk;
            P* tp = ps; ps = pd; pd = tp;
        }
    }
    if (src != k) {
        for (int64 i = 0; i < n; ++i) {
            k[i] = src[i];
            sort::move_pay<P>(p, i, ps, i);
        }
    }
}

// out[i] = the insertion point of v[i] in a (sorted, or sorted through `sorter`):
// side 0 the first, side 1 the last.
template <class T>
GA_GLOBAL void searchsorted(const T* a, const int64* sorter, int64 na, const T* v,
                            int64* out, int64 nv, int64 side) {
    int64 i = flat_index<int64>();
    if (i >= nv) return;
    typedef sort::order<T> O;
    typename O::K x = O::make(v[i]);
    int64 lo = 0, hi = na;
    while (lo < hi) {
        int64 mid = lo + (hi - lo) / 2;
        typename O::K y = O::make(a[sorter ? sorter[mid] : mid]);
        bool right = side ? !O::lt(x, y) : O::lt(y, x);
        if (right) lo = mid + 1; else hi = mid;
    }
    out[i] = lo;
}

// Note [Radix sort] 9: keys sorted on their bits at `shift` and above (src) -> fully
// sorted (dst); one thread per `seg` positions.
template <class K>    // uint64 (a template: sort.hip is in several compile units)
GA_GLOBAL void radix_settle(const K* keys, const int64* idx, K* okeys, int64* oidx, int64 n,
                            int64 seg, int64 shift) {
    const int64 t = flat_index<int64>();
    int64 s = t * seg;
    if (s >= n) return;
    int64 e = n - s < seg ? n : s + seg;
    // the groups that start in [s, e): past a group the previous thread finishes, and to
    // the end of the last one
    while (s < n && s > 0 && (keys[s] >> shift) == (keys[s - 1] >> shift)) ++s;
    while (e < n && (keys[e] >> shift) == (keys[e - 1] >> shift)) ++e;
    for (int64 i = s; i < e; ++i) {
        const K k = keys[i];
        const int64 v = idx[i];
        int64 j = i;
        for (; j > s && okeys[j - 1] > k; --j) {
            okeys[j] = okeys[j - 1];
            oidx[j] = oidx[j - 1];
        }
        okeys[j] = k;
        oidx[j] = v;
    }
}

}  // namespace ga
