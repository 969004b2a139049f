// The convolution family's shared geometry (garray/nn/_params.py, Note [Convolution
// geometry]): every convolution is a forward 3-d one, lower ranks padded at the front
// with unit sizes.  The host packs the geometry as int64[24] (Geometry.packed()) and
// passes it as one device pointer; `ConvGeom::load` reads it into registers.
#pragma once
#include "types.h"

namespace ga {

struct ConvGeom {
    int64 n, c_in, c_out, groups;
    int64 size[3];      // input D, H, W
    int64 kernel[3];    // kD, kH, kW
    int64 out[3];       // output D, H, W
    int64 stride[3];
    int64 pad[3];       // low padding (the high one is implied by out)
    int64 dil[3];

    static GA_DEVICE ConvGeom load(const int64* p) {
        ConvGeom g;
        g.n = p[0]; g.c_in = p[1]; g.c_out = p[2]; g.groups = p[3];
        for (int i = 0; i < 3; ++i) {
            g.size[i] = p[4 + i];
            g.kernel[i] = p[7 + i];
            g.out[i] = p[10 + i];
            g.stride[i] = p[13 + i];
            g.pad[i] = p[16 + i];
            g.dil[i] = p[19 + i];
        }
        return g;
    }
    GA_DEVICE int64 cin_per_group() const { return c_in / groups; }
    GA_DEVICE int64 cout_per_group() const { return c_out / groups; }
    GA_DEVICE int64 in_spatial() const { return size[0] * size[1] * size[2]; }
    GA_DEVICE int64 out_spatial() const { return out[0] * out[1] * out[2]; }
    GA_DEVICE int64 taps() const { return kernel[0] * kernel[1] * kernel[2]; }
};

}  // namespace ga
