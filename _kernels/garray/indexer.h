// Strided N-d indexing for kernels: byte strides, shape collapsed by the launch layer.
//
// Note [Strided indexing]
// ~~~~~~~~~~~~~~~~~~~~~~~
// The launch layer broadcasts (stride 0), drops size-1 axes and merges axes that are
// contiguous in every operand, so ndim is usually 1-3.  A flat index is decomposed
// from the innermost axis outward.  The index type I (int32 or int64) is chosen at
// run time by the launch layer from the element count and byte extents, so the
// common case avoids 64-bit division on GPUs.
#pragma once
#include "platform.h"

#define GA_MAX_NDIM 24

namespace ga {

template <int NARR>
struct Strided {
    int ndim;
    int64 shape[GA_MAX_NDIM];
    int64 strides[NARR][GA_MAX_NDIM];

    // Byte offsets of flat element i in each operand.
    template <class I>
    GA_DEVICE void offsets(I i, I* off) const {
        if (ndim == 1) {                  // the common case after collapsing: no division
            for (int a = 0; a < NARR; ++a) off[a] = i * (I)strides[a][0];
            return;
        }
        if (ndim == 2) {
            I n1 = (I)shape[1];
            I q = i / n1, r = i - q * n1;
            for (int a = 0; a < NARR; ++a) off[a] = q * (I)strides[a][0] + r * (I)strides[a][1];
            return;
        }
        for (int a = 0; a < NARR; ++a) off[a] = 0;
        for (int d = ndim - 1; d >= 0; --d) {
            I n = (I)shape[d];
            I k = i % n;
            i = i / n;
            for (int a = 0; a < NARR; ++a) off[a] += k * (I)strides[a][d];
        }
    }
};

}  // namespace ga
