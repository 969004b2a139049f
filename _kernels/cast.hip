// Casts between the 13 dtypes (NumPy's unsafe casting, garray/types.h convert<>); with
// To == From they are the strided copies of GPU devices.
#include "garray/indexer.h"
#include "garray/loops.h"

namespace ga {

struct identity {
    static constexpr int exact = 2;
    template <class T> GA_DEVICE T operator()(T x) const { return x; }
};

template <class To, class From>
GA_GLOBAL void cast_c(To* out, const From* x, int64 n) {
    constexpr int V = vec_width<To, From>();
    map_contiguous<V>(out, n, identity(), Arr<From, V>{x});
}

template <class To, class From, class I>
GA_GLOBAL void cast_s(char* out, const char* x, GA_BYVAL(Strided<2>) p, I n) {
    map_strided<To>(out, p, n, identity(), Ptr<From>{x});
}

}  // namespace ga
