"""Products built on matmul: vecdot, tensordot, dot, vdot, inner, outer, kron, cross,
einsum, einsum_path (einsum in garray/_gemm/einsum.py).

Note [Contractions reach one matmul]
1. Every contraction (tensordot, dot, inner, vdot, vecdot, each pairwise step of einsum)
   is rewritten on the host, from shapes alone, as ONE garray.matmul call: the operands
   are transposed (a view) so that free axes come first and summed axes last (a) or
   first (b), reshaped to (M, K) and (K, N) (a copy only when the view is not
   contiguous), multiplied, and the (M, N) product reshaped to the free axes.
2. matmul carries the semantics (dtype of the result, integer wrap-around, bool as
   logical or-of-ands, empty K giving zeros); whatever engine computes it (the interim
   multiply+sum, the GEMM kernels, the vendor BLAS) serves every function here.
3. Products that sum nothing (outer, kron, cross, dot with a 0-d operand) are garray
   elementwise ops on broadcast views.
Nothing here touches array data on the host; NumPy is only used for dtype rules.
"""

from .._dtypes import kind_of as _kind_of
import math
import operator
import warnings

from .._core import broadcast_to, ndarray
from .._dtypes import result_type
from .._args import as_array, check_array, normalize_axis
from .._manip.common import axis_error, check_cast
from .matmul import matmul as _matmul_f32, matmul_keeping_dtype as matmul
from .._elementwise.ufuncs import multiply
from .einsum import einsum, einsum_path
from .._manip.manipulation import stack

__all__ = ["vecdot", "matvec", "vecmat", "tensordot", "dot", "vdot", "inner", "outer",
           "kron", "cross", "einsum", "einsum_path"]


def _operands(x1, x2, n1, n2):
    a = as_array(x1, n1)
    b = as_array(x2, n2, device=a.device)
    if a.device != b.device:
        raise ValueError(f"{n1} and {n2} are on different devices ({a.device} and "
                         f"{b.device})")
    return a, b


def _conj(x):
    return x.conj() if _kind_of(x.dtype) == "c" else x


def _contract(a, b, axes_a, axes_b, rt):
    """sum over axes_a of a and axes_b of b (paired in order) as one matmul; the result
    has a's free axes then b's (Note [Contractions reach one matmul])."""
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    m = math.prod(a.shape[i] for i in free_a)
    k = math.prod(a.shape[i] for i in axes_a)
    n = math.prod(b.shape[i] for i in free_b)
    a2 = a.astype(rt, copy=False).transpose(free_a + list(axes_a)).reshape(m, k)
    b2 = b.astype(rt, copy=False).transpose(list(axes_b) + free_b).reshape(k, n)
    r = matmul(a2, b2)
    return r.reshape(tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b))


# vecdot, matvec and vecmat are matmul-like gufuncs in NumPy: float32 for bfloat16 and the
# float8s, as matmul (_matmul_f32); dot, tensordot, inner and vdot keep the dtype.


def _axes_list(v, ndim, argname):
    try:
        seq = list(v)
    except TypeError:
        seq = [v]
    return [normalize_axis(x, ndim, argname) for x in seq]


def tensordot(x1, x2, /, axes=2):
    """Sum of products over the given axes: ``axes=N`` pairs the last N axes of x1 with
    the first N of x2; ``axes=(axes1, axes2)`` pairs the listed axes in order. The
    result has x1's remaining axes followed by x2's. One matmul over reshaped operands.

    >>> garray.tensordot(garray.ones((2, 3)), garray.ones((3, 4)), axes=1).shape
    (2, 4)

    Parameters
    ----------
    x1 : ndarray
        First operand.
    x2 : ndarray
        Second operand.
    axes : int or pair of sequences, optional
        The axes to sum over.

    Returns
    -------
    ndarray
        In the operands' result_type.

    See Also
    --------
    numpy.tensordot
    """
    a, b = _operands(x1, x2, "x1", "x2")
    if isinstance(axes, bool):
        raise TypeError("axes: expected an integer or a pair of sequences, got bool")
    if hasattr(type(axes), "__index__"):
        n = operator.index(axes)
        if n >= 2**63:      # NumPy's conversion to ssize_t
            raise OverflowError(f"axes: {n} is too large to convert to C ssize_t")
        if n > a.ndim or n > b.ndim:
            raise axis_error(f"axes: {n} summed axes but x1 has shape {a.shape} and x2 "
                             f"has shape {b.shape}")
        # NumPy's reading of an integer (a negative one sums nothing)
        axes_a = list(range(a.ndim - n, a.ndim)) if n > 0 else []
        axes_b = list(range(n)) if n > 0 else []
    else:
        try:
            pair = list(axes)
        except TypeError:
            raise TypeError("axes: expected an integer or a pair of sequences of axes, "
                            f"got {axes!r}") from None
        if len(pair) != 2:
            raise ValueError(f"axes: expected a pair of sequences of axes, got {axes!r}")
        pa, pb = pair
        axes_a = _axes_list(pa, a.ndim, "axes[0]")
        axes_b = _axes_list(pb, b.ndim, "axes[1]")
    if len(axes_a) != len(axes_b) or any(a.shape[i] != b.shape[j]
                                         for i, j in zip(axes_a, axes_b)):
        raise ValueError(f"tensordot: shape-mismatch for sum: x1 has shape {a.shape} "
                         f"summed over axes {tuple(axes_a)}, x2 has shape {b.shape} "
                         f"summed over axes {tuple(axes_b)}")
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError(f"axes: repeated axis in {tuple(axes_a)} or {tuple(axes_b)}")
    return _contract(a, b, axes_a, axes_b, result_type(a.dtype, b.dtype))


def vecdot(x1, x2, /, out=None, *, axis=-1, dtype=None):
    """Dot product of vectors along ``axis`` (conj(x1) . x2 for complex input), the
    other axes broadcast together. One batched matmul of (..., 1, n) by (..., n, 1).

    >>> garray.vecdot(garray.asarray([1, 2, 3]), garray.asarray([4, 5, 6]))
    array(32)

    Parameters
    ----------
    x1 : ndarray
        First vectors (conjugated when complex).
    x2 : ndarray
        Second vectors.
    out : ndarray, optional
        A garray array of the result's shape to write into (NumPy's gufunc keyword).
    axis : int, optional
        The vector axis.
    dtype : dtype, optional
        The computation and result dtype (NumPy's gufunc keyword).

    Returns
    -------
    ndarray
        The broadcast shape less axis.

    See Also
    --------
    numpy.vecdot
    """
    a, b = _gufunc_operands(x1, x2, dtype, None, "vecdot")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"vecdot: x1 (shape {a.shape}) and x2 (shape {b.shape}) need at "
                         "least one dimension")
    ia = normalize_axis(axis, a.ndim, "axis")
    ib = normalize_axis(axis, b.ndim, "axis")
    if a.shape[ia] != b.shape[ib]:
        raise ValueError(f"vecdot: x1 has shape {a.shape} and x2 has shape {b.shape}: "
                         f"sizes {a.shape[ia]} and {b.shape[ib]} along axis {axis} differ")
    rt = result_type(a.dtype, b.dtype)
    av = _move_to_last(_conj(a.astype(rt, copy=False)), ia)[..., None, :]
    bv = _move_to_last(b.astype(rt, copy=False), ib)[..., :, None]
    return _gufunc_out(_matmul_f32(av, bv)[..., 0, 0], out)


def _gufunc_operands(x1, x2, dtype, axes, fname):
    """Operands of matvec/vecmat in their computation dtype (``dtype=`` casts them, under
    same_kind, as the gufunc's loop selection does)."""
    if axes is not None:
        raise NotImplementedError(f"{fname}: the gufunc keyword axes= is not supported "
                                  "(move the axes with garray.moveaxis)")
    a, b = _operands(x1, x2, "x1", "x2")
    if dtype is None:
        return a, b
    for x in (a, b):
        check_cast(x.dtype, dtype, "same_kind", f"{fname} input")
    return a.astype(dtype, copy=False), b.astype(dtype, copy=False)


def _gufunc_out(r, out):
    if out is None:
        return r
    if isinstance(out, tuple):
        (out,) = out
    check_cast(r.dtype, out.dtype, "same_kind", "output")
    if out.shape != r.shape:
        raise ValueError(f"out: has shape {out.shape}, the result has shape {r.shape}")
    out[...] = r
    return out


def matvec(x1, x2, /, out=None, *, dtype=None, axes=None):
    """Matrix-vector product over the last axes: ``x1`` (..., m, n) times ``x2`` (..., n)
    gives (..., m), batch axes broadcast; one batched matmul.

    >>> garray.matvec(garray.eye(2), garray.asarray([3., 4.]))
    array([3., 4.])

    Parameters
    ----------
    x1 : ndarray
        Matrices (..., m, n).
    x2 : ndarray
        Vectors (..., n).
    out : ndarray, optional
        A garray array of the result's shape to write into.
    dtype : dtype, optional
        The computation and result dtype.
    axes : list of tuple, optional
        NumPy's gufunc axes (the default layout only).

    Returns
    -------
    ndarray
        (..., m).

    See Also
    --------
    numpy.matvec
    """
    a, b = _gufunc_operands(x1, x2, dtype, axes, "matvec")
    if a.ndim < 2 or b.ndim < 1:
        raise ValueError(f"matvec: x1 (shape {a.shape}) needs 2 and x2 (shape {b.shape}) "
                         "1 core dimension")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"matvec: x1 has shape {a.shape} and x2 has shape {b.shape}: "
                         f"core sizes {a.shape[-1]} and {b.shape[-1]} differ")
    return _gufunc_out(_matmul_f32(a, b[..., None])[..., 0], out)


def vecmat(x1, x2, /, out=None, *, dtype=None, axes=None):
    """Vector-matrix product over the last axes, conjugating the vector: ``x1`` (..., n)
    and ``x2`` (..., n, m) give (..., m), batch axes broadcast; one batched matmul. See
    also numpy.vecmat.

    >>> garray.vecmat(garray.asarray([3., 4.]), garray.eye(2))
    array([3., 4.])

    Parameters
    ----------
    x1 : ndarray
        Vectors (..., n), conjugated.
    x2 : ndarray
        Matrices (..., n, m).
    out : ndarray, optional
        A garray array of the result's shape to write into.
    dtype : dtype, optional
        The computation and result dtype.
    axes : list of tuple, optional
        NumPy's gufunc axes (the default layout only).

    Returns
    -------
    ndarray
        (..., m).
    """
    a, b = _gufunc_operands(x1, x2, dtype, axes, "vecmat")
    if a.ndim < 1 or b.ndim < 2:
        raise ValueError(f"vecmat: x1 (shape {a.shape}) needs 1 and x2 (shape {b.shape}) "
                         "2 core dimensions")
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"vecmat: x1 has shape {a.shape} and x2 has shape {b.shape}: "
                         f"core sizes {a.shape[-1]} and {b.shape[-2]} differ")
    r = _matmul_f32(_conj(a)[..., None, :], b)[..., 0, :]
    return _gufunc_out(r, out)


def _check_out(out, r, fname):
    """NumPy's rule for dot's ``out=``: exactly the result's dtype and shape, C order."""
    check_array(out, "out")
    if out.dtype != r.dtype or out.shape != r.shape or not out.flags.c_contiguous:
        raise ValueError(f"out: {fname} output array is not acceptable: it has dtype "
                         f"{out.dtype}, shape {out.shape} and must be C-contiguous; the "
                         f"result has dtype {r.dtype} and shape {r.shape}")
    out[...] = r
    return out


def dot(a, b, out=None):
    """Dot product with NumPy's rules: a 0-d operand multiplies; 1-d . 1-d is the inner
    product; N-d . 1-d sums over the last axis of ``a``; N-d . M-d sums the last axis of
    ``a`` against the second-to-last of ``b``. ``out`` must have exactly the result's
    dtype and shape.

    >>> garray.dot(garray.eye(2), garray.asarray([3., 4.]))
    array([3., 4.])

    Parameters
    ----------
    a : ndarray or array_like
        First operand.
    b : ndarray or array_like
        Second operand.
    out : ndarray, optional
        A garray array of exactly the result's dtype and shape.

    Returns
    -------
    ndarray
        The product (out when given).

    See Also
    --------
    numpy.dot
    """
    a, b = _operands(a, b, "a", "b")
    if a.ndim == 0 or b.ndim == 0:
        r = a * b
    else:
        jb = 0 if b.ndim == 1 else b.ndim - 2
        if a.shape[-1] != b.shape[jb]:
            raise ValueError(f"dot: shapes {a.shape} and {b.shape} not aligned: "
                             f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[jb]} (dim {jb})")
        rt = result_type(a.dtype, b.dtype)
        if a.ndim <= 2 and b.ndim <= 2:
            r = matmul(a.astype(rt, copy=False), b.astype(rt, copy=False))
        else:
            r = _contract(a, b, [a.ndim - 1], [jb], rt)
    return r if out is None else _check_out(out, r, "dot")


def vdot(a, b, /):
    """Dot product of the flattened operands, conjugating ``a`` when complex.

    >>> garray.vdot(garray.asarray([1j, 2]), garray.asarray([1j, 3]))
    array(7.+0.j)

    Parameters
    ----------
    a : ndarray or array_like
        First operand (flattened, conjugated when complex).
    b : ndarray or array_like
        Second operand (flattened).

    Returns
    -------
    ndarray
        0-d.

    See Also
    --------
    numpy.vdot
    """
    a, b = _operands(a, b, "a", "b")
    if a.size != b.size:
        raise ValueError(f"vdot: a (shape {a.shape}) and b (shape {b.shape}) have "
                         f"different sizes ({a.size} != {b.size})")
    rt = result_type(a.dtype, b.dtype)
    return matmul(_conj(a.astype(rt, copy=False)).reshape(-1),
                  b.astype(rt, copy=False).reshape(-1))


def inner(a, b, /):
    """Sum of products over the last axes of ``a`` and ``b`` (a 0-d operand multiplies).

    >>> garray.inner(garray.ones((2, 3)), garray.ones(3))
    array([3., 3.])

    Parameters
    ----------
    a : ndarray or array_like
        First operand.
    b : ndarray or array_like
        Second operand.

    Returns
    -------
    ndarray
        Of shape a.shape[:-1] + b.shape[:-1].

    See Also
    --------
    numpy.inner
    """
    a, b = _operands(a, b, "a", "b")
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"inner: shapes {a.shape} and {b.shape} not aligned: "
                         f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[-1]} "
                         f"(dim {b.ndim - 1})")
    return _contract(a, b, [a.ndim - 1], [b.ndim - 1], result_type(a.dtype, b.dtype))


def outer(a, b, out=None):
    """Outer product of the flattened operands: ``r[i, j] = a.ravel()[i] *
    b.ravel()[j]``.

    >>> garray.outer(garray.asarray([1, 2]), garray.asarray([1, 10, 100])).shape
    (2, 3)

    Parameters
    ----------
    a : ndarray or array_like
        First operand (flattened).
    b : ndarray or array_like
        Second operand (flattened).
    out : ndarray, optional
        A garray array of the result's shape to write into.

    Returns
    -------
    ndarray
        2-d, (a.size, b.size).

    See Also
    --------
    numpy.outer
    """
    a, b = _operands(a, b, "a", "b")
    # the ufunc's out= rules (same_kind casting, exact shape), as NumPy's outer
    return multiply(a.reshape(-1)[:, None], b.reshape(-1)[None, :], out=out)


def kron(a, b, /):
    """Kronecker product: blocks ``a[i, j] * b`` (the shorter shape padded with leading
    ones), as one broadcast multiply of interleaved views.

    >>> garray.kron(garray.eye(2), garray.ones((2, 2))).shape
    (4, 4)

    Parameters
    ----------
    a : ndarray or array_like
        First operand.
    b : ndarray or array_like
        Second operand.

    Returns
    -------
    ndarray
        In the operands' result_type.

    See Also
    --------
    numpy.kron
    """
    a, b = _operands(a, b, "a", "b")
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    # a's axis i at 2i, b's at 2i+1: the product's (2i, 2i+1) merge into axis i
    av = a.reshape(tuple(d for s in sa for d in (s, 1)))
    bv = b.reshape(tuple(d for s in sb for d in (1, s)))
    return (av * bv).reshape(tuple(x * y for x, y in zip(sa, sb)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 2- or 3-vectors along ``axisa`` of ``a`` and ``axisb`` of ``b``
    (``axis`` sets all three), other axes broadcast; the vectors of the result lie
    along ``axisc`` (two 2-vectors give the scalar z component).

    >>> garray.cross(garray.asarray([1., 0, 0]), garray.asarray([0., 1, 0]))
    array([0., 0., 1.])

    Parameters
    ----------
    a : ndarray or array_like
        First vectors (length 2 or 3 along axisa).
    b : ndarray or array_like
        Second vectors (length 2 or 3 along axisb).
    axisa : int, optional
        The vector axis of a.
    axisb : int, optional
        The vector axis of b.
    axisc : int, optional
        The vector axis of the result.
    axis : int, optional
        Sets all three.

    Returns
    -------
    ndarray
        In the operands' result_type.

    See Also
    --------
    numpy.cross
    """
    a, b = _operands(a, b, "a", "b")
    if axis is not None:
        axisa = axisb = axisc = axis
    if a.ndim == 0 or b.ndim == 0:
        raise axis_error(f"cross: a (shape {a.shape}) and b (shape {b.shape}) need at "
                         "least one dimension")
    a = _move_to_last(a, normalize_axis(axisa, a.ndim, "axisa"))
    b = _move_to_last(b, normalize_axis(axisb, b.ndim, "axisb"))
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be "
                         f"2 or 3): a has {na} and b has {nb} components")
    if na == 2 and nb == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
        return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    if na == 2 or nb == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    a2 = a[..., 2] if na == 3 else None
    b2 = b[..., 2] if nb == 3 else None
    if a2 is None:
        c0, c1 = a1 * b2, -(a0 * b2)
    elif b2 is None:
        c0, c1 = -(a2 * b1), a2 * b0
    else:
        c0, c1 = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2
    c2 = a0 * b1 - a1 * b0
    shape = _broadcast_shape(c0.shape, c1.shape, c2.shape)
    c = stack([broadcast_to(c, shape) for c in (c0, c1, c2)], axis=-1)
    return _move_from_last(c, normalize_axis(axisc, c.ndim, "axisc"))


def _broadcast_shape(*shapes):
    nd = max(len(s) for s in shapes)
    out = []
    for dims in zip(*[(1,) * (nd - len(s)) + tuple(s) for s in shapes]):
        big = max(dims)
        if any(d not in (1, big) for d in dims):
            raise ValueError(f"shape mismatch: shapes {shapes} cannot be broadcast to a "
                             "single shape")
        out.append(0 if 0 in dims else big)
    return tuple(out)


def _move_to_last(x, src):
    # a moveaxis, not a swap: the other axes keep their order, as NumPy's
    return x.transpose([i for i in range(x.ndim) if i != src] + [src])


def _move_from_last(x, dest):
    perm = list(range(x.ndim - 1))
    perm.insert(dest, x.ndim - 1)
    return x.transpose(perm)
