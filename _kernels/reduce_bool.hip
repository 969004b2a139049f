// Boolean reductions (all, any): one thread per output element looping over the
// reduced elements.  Barrier-free and deterministic for any strides; the reduction
// family proper (block trees, scans) builds on the same launch layer.
#include "garray/indexer.h"
#include "garray/loops.h"

namespace ga {
namespace op {
struct all_r {
    GA_DEVICE static bool init() { return true; }
    GA_DEVICE bool operator()(bool acc, bool v) const { return acc && v; }
};
struct any_r {
    GA_DEVICE static bool init() { return false; }
    GA_DEVICE bool operator()(bool acc, bool v) const { return acc || v; }
};
}  // namespace op

// po: kept axes (strides of out, of x); pr: reduced axes (strides of x).
template <class R, class To, class T, class I>
GA_GLOBAL void reduce_s(char* out, const char* x, GA_BYVAL(Strided<2>) po,
                        GA_BYVAL(Strided<1>) pr, I n_out, I n_red) {
    I i = flat_index<I>();
    if (i >= n_out) return;
    I off[2];
    po.offsets(i, off);
    const char* base = x + off[1];
    To acc = R::init();
    for (I j = 0; j < n_red; ++j) {
        I r[1];
        pr.offsets(j, r);
        acc = R()(acc, convert<To>(*(const T*)(base + r[0])));
    }
    *(To*)(out + off[0]) = acc;
}

}  // namespace ga
