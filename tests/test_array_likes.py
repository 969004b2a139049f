"""Array-likes (Python scalars, lists, nested sequences) are taken wherever NumPy takes
them, converted onto the default device; a NumPy array is refused with a TypeError naming
the argument (garray never copies a host array to a device unseen)."""

import numpy
import pytest

import garray
from xp import assert_xp_close

L = [[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]
cases = [
 ("flip",(L,)),("fliplr",(L,)),("flipud",(L,)),("roll",(L,1)),("rollaxis",(L,1)),("moveaxis",(L,0,1)),("swapaxes",(L,0,1)),
 ("nan_to_num",(L,)),("squeeze",([[1]],)),("expand_dims",(L,0)),("transpose",(L,)),("reshape",(L,(3,2))),
 ("permute_dims",(L,(1,0))),("broadcast_to",([1,2],(2,2))),("tile",(L,2)),("repeat",(L,2)),("rot90",(L,)),
 ("atleast_2d",([1],)),("ravel",(L,)),("diagonal",(L,)),("trace",(L,)),("diag",([1,2],)),("tril",(L,)),("triu",(L,)),
 ("sort",(L,)),("argsort",(L,)),("unique",(L,)),("cumsum",(L,)),("cumprod",(L,)),("diff",(L,)),("clip",(L,0,1)),
 ("around",(L,)),("round",(L,)),("sum",(L,)),("mean",(L,)),("std",(L,)),("max",(L,)),("argmax",(L,)),("all",(L,)),
 ("median",(L,)),("percentile",(L,50)),("nansum",(L,)),("nanmax",(L,)),("ptp",(L,)),("average",(L,)),("count_nonzero",(L,)),
 ("nonzero",(L,)),("argwhere",(L,)),("flatnonzero",(L,)),("where",([True,False],[1,2],[3,4])),("where",([True, False],1,0.5)),
 ("searchsorted",([1,2,3],2)),("take",(L,[0,1])),("concatenate",((L,L),)),("stack",((L,L),)),("vstack",((L,L),)),("split",(L,2)),
 ("pad",(L,1)),("append",(L,L)),("insert",([1,2],1,5)),("delete",([1,2],0)),("copy",(L,)),("outer",([1,2],[3,4])),("dot",([1,2],[3,4])),
 ("matmul",(L,[[1],[2],[3]])),("tensordot",(L,L,([0,1],[0,1]))),("einsum",("ij->j",L)),("cross",([1,2,3],[3,2,1])),("kron",([1,2],[3,4])),
 ("isclose",(L,L)),("allclose",(L,L)),("array_equal",(L,L)),("isnan",(L,)),("real",(L,)),("imag",(L,)),("conj",(L,)),("angle",(L,)),
 ("sign",(L,)),("abs",(L,)),("exp",(L,)),("add",(L,L)),("maximum",(L,1)),("square",(L,)),("interp",([1.5],[1,2],[3,4])),
 ("bincount",([1,2,2],)),("histogram",([1,2,2],)),("digitize",([1,2],[1.5])),("convolve",([1,2],[1,1])),("correlate",([1,2],[1,1])),
 ("trim_zeros",([0,1,0],)),("resize",([1,2],(3,))),("atleast_1d",(1,)),("zeros_like",(L,)),("ones_like",(L,)),("full_like",(L,3)),("empty_like",(L,)),
 ("linspace",(0,1,3)),("meshgrid",([1,2],[3])),("gradient",([1.0,4.0,9.0],)),("cov",(L,)),("corrcoef",(L,)),("var",(L,)),("prod",(L,)),
 ("min",(L,)),("argmin",(L,)),("any",(L,)),("cumulative_sum",([1,2],)),("vecdot",([1,2],[3,4])),("matrix_transpose",(L,)),("unstack",(L,)),
 ("isin",([1,2],[2])),("setdiff1d",([1,2],[2])),("union1d",([1,2],[3])),("intersect1d",([1,2],[2])),("unique_values",([1,2,2],)),("lexsort",(([1,2],[2,1]),)),
 ("partition",([3,1,2],1)),("quantile",([1,2,3],0.5)),("nanmedian",([1,2],)),("ravel", (L,)),
 ("sinc",(L,)),("i0",(L,)),("heaviside",(L,0.5)),("logaddexp",(L,L)),("hypot",(L,L)),("fabs",(L,)),("signbit",(L,)),
 ("fft.fft",([1,2,3],)),("linalg.norm",(L,)),("linalg.inv",([[1,2],[3,4]],)),("linalg.det",([[1,2],[3,4]],)),("linalg.solve",([[1,2],[3,4]],[1,2])),
 ("linalg.svd",([[1,2],[3,4]],)),("linalg.eigh",([[2,1],[1,2]],)),("linalg.qr",([[1,2],[3,4]],)),("linalg.matrix_rank",([[1,2],[3,4]],)),("linalg.pinv",([[1,2],[3,4]],)),
]

# garray.linalg's solvers outside garray.linalg._common.GPU_FUNCTIONS (none today) run
# on the CPU device only: elsewhere they raise a NotImplementedError naming the function
_SOLVERS = {c[0] for c in cases if c[0].split(".")[-1] in ("eig", "eigvals", "lstsq")}
assert not {n.split(".")[1] for n in _SOLVERS} & garray.linalg._common.GPU_FUNCTIONS
_ON_GPU = garray.default_device().kind != "cpu"

# where NumPy's own function does not convert a list (so there is nothing to compare)
_NUMPY_NEEDS_ARRAYS = {"rollaxis", "split", "unstack"}


def _call(mod, name, args):
    for part in name.split("."):
        mod = getattr(mod, part)
    return mod(*args)


@pytest.mark.parametrize("name, args", [c for c in cases if c[0] not in _NUMPY_NEEDS_ARRAYS],
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(cases)
                              if c[0] not in _NUMPY_NEEDS_ARRAYS])
def test_array_likes_are_taken_as_numpy_takes_them(name, args):
    with numpy.errstate(all="ignore"):
        want = _call(numpy, name, args)
    if _ON_GPU and name in _SOLVERS:
        with pytest.raises(NotImplementedError, match=f"garray.{name} on "):
            _call(garray, name, args)
        return
    got = _call(garray, name, args)
    if name in ("linalg.svd", "linalg.eigh", "linalg.qr"):      # signs are free
        return
    if name == "unique_values":             # NumPy's order is its hash table's
        got, want = garray.sort(got), numpy.sort(want)
    if name in ("empty_like",):
        assert got.shape == want.shape and got.dtype == want.dtype
        return
    assert_xp_close(got, want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name, args", [
    ("flip", (numpy.ones(3),)), ("reshape", (numpy.ones(4), (2, 2))),
    ("squeeze", (numpy.ones((1, 2)),)), ("expand_dims", (numpy.ones(2), 0)),
    ("broadcast_to", (numpy.ones(2), (2, 2))), ("permute_dims", (numpy.ones((1, 2)), (1, 0))),
    ("where", (numpy.ones(2, bool), 1.0, 2.0)), ("nonzero", (numpy.ones(2),)),
    ("take", (numpy.ones(3), [0])), ("stack", ((numpy.ones(2), numpy.ones(2)),)),
    ("tril", (numpy.ones((2, 2)),)), ("matrix_transpose", (numpy.ones((2, 2)),)),
    ("transpose", (numpy.ones((2, 2)),)), ("nan_to_num", (numpy.ones(2),)),
])
def test_numpy_arrays_are_refused_naming_the_argument(name, args):
    with pytest.raises(TypeError, match=r"expected a garray\.ndarray, got numpy\.ndarray"):
        _call(garray, name, args)


@pytest.mark.parametrize("x1, x2", [(1, 0.5), (1, 2), (True, 2), (1.5, 2j), ([1, 2], 0.5),
                                    (1, [0.5, 2.5])])
def test_where_with_scalars_and_sequences(x1, x2):
    c = [True, False]
    assert_xp_close(garray.where(c, x1, x2), numpy.where(c, x1, x2))
