// The indexing family: gathers and scatters through an offset array, the index
// arithmetic that builds it (bounds checked on the device), last-write-wins resolution
// for repeated indices, and the compaction behind nonzero and boolean masks.
//
// Note [Advanced indexing kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// 1. The launch layer (cython/_gather.pxi) turns every integer-array index into one
//    int64 array `off` of the broadcast index shape B: the byte offset of each indexed
//    element from the start of the view that basic indexing left (index_step_s, once
//    per index array: off += normalise(idx) * stride).  An index outside its axis is
//    recorded in err (a flag and the value) and reported on the host as IndexError.
// 2. A gather is then out[r] = src[soff(r) + off[b(r)]] over the result shape R, where
//    src and off are views broadcast to R (stride 0 on the axes the other owns): the
//    iterator's Strided<3>, walked by rows on the CPU (cpu::walk_rows).
// 3. A scatter writes dst[soff(r) + off[b(r)]] = val[r] where keep[b(r)].  NumPy's
//    rule for repeated indices is that the last one (in C order of B) wins; kernels run
//    in any order, so keep marks the winners first: index_winner_c takes the atomic
//    maximum of b + 1 per target (lin: the target's flat index among the indexed
//    axes), index_keep_c keeps the b that won.  Boolean masks never repeat and skip it.
// 4. Gathers and scatters move bytes: one instantiation per item size (uint8 ... the
//    16-byte complex), not per dtype.
// 5. x[idx] for one C-contiguous int64 idx on the first axis of x, whose other axes are
//    C-contiguous (a 1-d x may have any stride), is one pass, take_c: the bounds check
//    and the gather together, with no offset array (the per-call path, and half the
//    memory traffic of steps 1-2 for a large take).
//    x[idx] = value on the same terms is two: index_check_c reads every index first
//    (NumPy writes nothing when one is out of range), then put_c writes.  A value of
//    one element is written everywhere; a value array of the target's shape is written
//    in C order by one thread of the CPU device (repeated targets: the last wins), and
//    GPUs take steps 1-3 for it.
//    repeat by one count of a C-contiguous array is one pass too (repeat_c).
// 6. nonzero of a contiguous mask: each piece of `per` elements is counted, the counts
//    scanned (garray's cumsum), then each piece writes its flat indices in order.
#include "garray/indexer.h"
#include "garray/loops.h"

namespace ga {

template <class T, class I>
GA_GLOBAL void gather_s(char* out, const char* src, const char* off, GA_BYVAL(Strided<3>) p,
                        I n) {
#if GA_CPU_LOOPS
    char* const base[] = {out, (char*)src, (char*)off};
    cpu::walk_rows<3>(base, p, (int64)n, [](char* const* q, const int64* s, int64 cnt) {
        for (int64 k = 0; k < cnt; ++k)
            *(T*)(q[0] + k * s[0]) = *(const T*)(q[1] + k * s[1] + *(const int64*)(q[2] + k * s[2]));
    });
#else
    I i = flat_index<I>();
    if (i >= n) return;
    I o[3];
    p.offsets(i, o);
    *(T*)(out + o[0]) = *(const T*)(src + o[1] + *(const int64*)(off + o[2]));
#endif
}

template <class T, class I>
GA_GLOBAL void scatter_s(char* dst, const char* val, const char* off, const char* keep,
                         GA_BYVAL(Strided<4>) p, I n) {
#if GA_CPU_LOOPS
    char* const base[] = {dst, (char*)val, (char*)off, (char*)keep};
    cpu::walk_rows<4>(base, p, (int64)n, [](char* const* q, const int64* s, int64 cnt) {
        for (int64 k = 0; k < cnt; ++k)
            if (*(const bool*)(q[3] + k * s[3]))
                *(T*)(q[0] + k * s[0] + *(const int64*)(q[2] + k * s[2])) = *(const T*)(q[1] + k * s[1]);
    });
#else
    I i = flat_index<I>();
    if (i >= n) return;
    I o[4];
    p.offsets(i, o);
    if (*(const bool*)(keep + o[3]))
        *(T*)(dst + o[0] + *(const int64*)(off + o[2])) = *(const T*)(val + o[1]);
#endif
}

// An index outside its axis: every thread that meets one records it (the host reports
// any one), through stores the sanitizer build sees as atomic.
GA_DEVICE void record_bad_index(int64* err, int64 x) {
    ga_store_repeatable(err, (int64)1);
    atomicExch((unsigned long long*)(err + 1), (unsigned long long)x);
}

// One step of the offset arithmetic: acc + normalise(idx) * stride, where
// normalise maps [-size, size) onto [0, size).  Out-of-range indices set err[0] and
// leave their value in err[1] (any one of them: the host reports it).
template <class TI> struct index_step {
    int64 size, stride;
    int64* err;
    GA_DEVICE int64 operator()(TI v, int64 acc) const {
        int64 x = (int64)v;
        bool bad = (TI)-1 > (TI)0 ? (uint64)v >= (uint64)size     // unsigned: no wrap
                                  : (x < -size || x >= size);
        if (bad) {
            record_bad_index(err, x);
            return acc;
        }
        if (x < 0) x += size;
        return acc + x * stride;
    }
};

template <class TI, class I>
GA_GLOBAL void index_step_s(char* out, const char* idx, const char* acc, GA_BYVAL(Strided<3>) p,
                            I n, int64 size, int64 stride, int64* err) {
    map_strided<int64>(out, p, n, index_step<TI>{size, stride, err}, Ptr<TI>{idx},
                       Ptr<int64>{acc});
}

// x[idx] in one pass (Note 5): out[i * row + j] = src[norm(idx[i]) * stride + j] over
// n = len(idx) * row items; an index outside [-size, size) sets err as index_step does
// (its item of out is left unwritten: the host raises).
template <class T>
GA_GLOBAL void take_c(T* out, const char* src, const int64* idx, int64 n, int64 row,
                      int64 size, int64 stride, int64* err) {
#if GA_CPU_LOOPS
    if (row == 1) {
        // one element per index: the source of the index 16 ahead is prefetched (random
        // gathers wait on memory; a prefetch never faults, so a bad index costs nothing)
        const int64 base = flat_index<int64>() * GA_CPU_CHUNK;
        const int64 end = n - base < GA_CPU_CHUNK ? n : base + GA_CPU_CHUNK;
        for (int64 e = base; e < end; ++e) {
            if (e + 16 < n) {   // unsigned arithmetic: any index, no overflow
                const int64 y = idx[e + 16];
                __builtin_prefetch((const char*)((uint64)src +
                                                 (uint64)(y < 0 ? y + size : y) * (uint64)stride));
            }
            int64 x = idx[e];
            if (x < -size || x >= size) {
                record_bad_index(err, x);
                return;
            }
            if (x < 0) x += size;
            out[e] = *(const T*)(src + x * stride);
        }
        return;
    }
#endif
    for_each_index(n, [=](int64 e) {
        const int64 i = row == 1 ? e : e / row;
        int64 x = idx[i];
        if (x < -size || x >= size) {
            record_bad_index(err, x);
            return;
        }
        if (x < 0) x += size;
        out[e] = ((const T*)(src + x * stride))[e - i * row];
    });
}

// Every index of idx[0:n] in [-size, size), or err set as index_step does.
GA_GLOBAL void index_check_c(const int64* idx, int64 n, int64 size, int64* err) {
    // x in [-size, size) exactly when x + size (unsigned, no overflow) is below 2 size
    const uint64 lo = (uint64)size, span = 2 * (uint64)size;
#if GA_CPU_LOOPS
    const int64 base = flat_index<int64>() * GA_CPU_CHUNK;
    const int64 end = n - base < GA_CPU_CHUNK ? n : base + GA_CPU_CHUNK;
    bool bad = false;                   // a vector loop; the culprit found after
    for (int64 i = base; i < end; ++i) bad |= (uint64)idx[i] + lo >= span;
    if (!bad) return;
    for (int64 i = base; i < end; ++i)
        if ((uint64)idx[i] + lo >= span) {
            record_bad_index(err, idx[i]);
            return;
        }
#else
    const int64 i = flat_index<int64>();
    if (i < n && (uint64)idx[i] + lo >= span) record_bad_index(err, idx[i]);
#endif
}

// x[idx] = val after index_check_c (Note 5): dst[norm(idx[i]) * stride + j] =
// val[(i * row + j) * vstep] over n = len(idx) * row items.  One value (vstep 0): every
// thread stores it (repeated targets store the same value).  A value array (vstep 1, the
// CPU device only): thread 0 writes all in C order, so the last of repeated targets wins.
template <class T>
GA_GLOBAL void put_c(char* dst, const T* val, int64 vstep, const int64* idx, int64 n,
                     int64 row, int64 size, int64 stride) {
    auto target = [=](int64 e) {
        const int64 i = row == 1 ? e : e / row;
        int64 x = idx[i];
        if (x < 0) x += size;
        return (T*)(dst + x * stride) + (e - i * row);
    };
    if (vstep) {
        if (flat_index<int64>() == 0)
            for (int64 e = 0; e < n; ++e) *target(e) = val[e];
        return;
    }
    const T v = val[0];
    for_each_index(n, [=](int64 e) { ga_store_repeatable(target(e), v); });
}

// repeat(x, r, axis) of a C-contiguous x by one count: source row i (inner items, the
// axes after `axis`) is stored r times in a row, out[(i * r + k) * inner + j] = src[i *
// inner + j], over m = (items before and along the axis) source rows.
template <class T>
GA_GLOBAL void repeat_c(T* out, const T* src, int64 m, int64 r, int64 inner) {
    for_each_index(m, [=](int64 i) {
        const T* s = src + i * inner;
        T* o = out + i * r * inner;
        if (inner == 1) {
            const T v = s[0];
            for (int64 k = 0; k < r; ++k) o[k] = v;
        } else {
            for (int64 k = 0; k < r; ++k)
                for (int64 j = 0; j < inner; ++j) o[k * inner + j] = s[j];
        }
    });
}

// win[lin[b]] = max(b) + 1 over the b that target it (win starts at zero).
GA_GLOBAL void index_winner_c(unsigned long long* win, const int64* lin, int64 n) {
    for_each_index(n, [=](int64 b) { atomicMax(win + lin[b], (unsigned long long)(b + 1)); });
}

GA_GLOBAL void index_keep_c(bool* keep, const unsigned long long* win, const int64* lin,
                            int64 n) {
    for_each_index(n, [=](int64 b) { keep[b] = win[lin[b]] == (unsigned long long)(b + 1); });
}

// nonzero in two passes over pieces of `per` mask elements (one piece per index):
// count the set elements of each piece, then (after an inclusive scan of the counts,
// `ends`) write each piece's flat indices from where the previous piece ended.  A mask
// byte is set when nonzero, the same test in both passes (so a piece writes exactly the
// slots it counted).
GA_GLOBAL void nonzero_count_c(int64* counts, const bool* mask, int64 n, int64 per,
                               int64 pieces) {
    for_each_index(pieces, [=](int64 t) {
        const int64 end = n - t * per < per ? n : (t + 1) * per;
        const uint8* m = (const uint8*)mask;
        int64 c = 0, i = t * per;
        for (; i + 256 <= end; i += 256) {     // 16-bit partial sums: a vector loop
            uint16 s = 0;
            for (int k = 0; k < 256; ++k) s += m[i + k] != 0;
            c += s;
        }
        for (; i < end; ++i) c += m[i] != 0;
        counts[t] = c;
    });
}

#if GA_CPU_LOOPS
namespace cpu {
// Bit j set where byte j of w is nonzero.
inline unsigned set_bytes(uint64 w) {
    w |= w >> 4;
    w |= w >> 2;
    w |= w >> 1;
    return (unsigned)(((w & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56);
}
// pos[b]: the positions of b's set bits, ascending.
struct SetPositions {
    uint8 pos[256][8];
    constexpr SetPositions() : pos() {
        for (int b = 0; b < 256; ++b)
            for (int j = 0, k = 0; j < 8; ++j)
                if (b >> j & 1) pos[b][k++] = (uint8)j;
    }
};
inline constexpr SetPositions set_positions{};
}  // namespace cpu
#endif

GA_GLOBAL void nonzero_write_c(int64* out, const bool* mask, const int64* ends, int64 n,
                               int64 per, int64 pieces) {
    for_each_index(pieces, [=](int64 t) {
        const int64 end = n - t * per < per ? n : (t + 1) * per;
        const uint8* m = (const uint8*)mask;
        int64 k = t ? ends[t - 1] : 0;
        const int64 kend = ends[t];
        int64 i = t * per;
#if GA_CPU_LOOPS
        // 8 mask bytes at a time: their set positions from a table, stored as 8 slots
        // (the unused ones rewritten by the next word) while 8 slots of this piece's
        // range [ends[t-1], ends[t]) remain, then only the set ones
        for (; i + 8 <= end; i += 8) {
            uint64 w;
            __builtin_memcpy(&w, m + i, 8);
            if (!w) continue;
            const unsigned b = cpu::set_bytes(w);
            const uint8* p = cpu::set_positions.pos[b];
            const int c = __builtin_popcount(b);
            if (k + 8 <= kend) {
#if defined(__AVX2__) && defined(__GNUC__)
                // two 4-lane vectors: the positions widened to int64 (vpmovzxbq) plus i
                // (the scalar loop was 8 loads, adds and stores per word)
                typedef long long V4 __attribute__((vector_size(32)));
                typedef long long Q2 __attribute__((vector_size(16)));
                typedef char C16 __attribute__((vector_size(16)));
                uint64 pw;
                __builtin_memcpy(&pw, p, 8);
                const V4 at = (V4){0, 0, 0, 0} + (long long)i;
                const Q2 w0 = {(long long)pw, 0}, w1 = {(long long)(pw >> 32), 0};
                const V4 a = (V4)__builtin_ia32_pmovzxbq256((C16)w0) + at;
                const V4 c2 = (V4)__builtin_ia32_pmovzxbq256((C16)w1) + at;
                __builtin_memcpy(out + k, &a, sizeof(V4));
                __builtin_memcpy(out + k + 4, &c2, sizeof(V4));
#else
                for (int j = 0; j < 8; ++j) out[k + j] = i + p[j];
#endif
            } else
                for (int j = 0; j < c; ++j) out[k + j] = i + p[j];
            k += c;
        }
#endif
        // branch-free: every index is written at k, which moves on past set elements;
        // k stays inside this piece's slots
        for (; i < end && k < kend; ++i) {
            out[k] = i;
            k += m[i] != 0;
        }
    });
}

}  // namespace ga
