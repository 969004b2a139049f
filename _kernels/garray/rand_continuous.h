// Continuous distributions on a Philox element stream (kinds 0-63 of rng_dist in
// _kernels/random.hip; named in garray/random/_continuous.py).
#pragma once
#include "philox.h"

namespace ga {
namespace rng {

GA_DEVICE double param(const double* p, double v, int64 i) { return p ? p[i] : v; }

enum {
    D_STD_EXPONENTIAL = 0,   // -log(u), u in (0, 1]
};

GA_DEVICE double dist_continuous(int64 kind, Stream& st, double a, double b, double c) {
    (void)a; (void)b; (void)c;
    switch (kind) {
    case D_STD_EXPONENTIAL: return -log_portable(st.uniform_open());
    default: return 0.0;     // unreachable: the launcher passes known kinds only
    }
}

}  // namespace rng
}  // namespace ga
