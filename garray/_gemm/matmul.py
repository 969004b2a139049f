"""matmul and the ``@`` / ``@=`` operators (NumPy's gufunc ``(n?,k),(k,m?)->(n?,m?)``).

This layer does what NumPy's ufunc machinery does around the core: operands, 1-d
promotion and removal, broadcast batch axes, the result dtype, ``dtype=``/``casting=``
checks, ``out=`` (its shape may carry extra batch axes, as NumPy's) and aliasing.  The
product itself is garray._gemm.engine.gemm (Note [GEMM dispatch] there, docs/gemm.md).
"""

from .._core import _matmul_fast, broadcast_shapes, broadcast_to, empty, ndarray
from .. import _dtypes
from .._dtypes import can_cast, normalize_dtype, result_type
from .._inquiry import may_share_memory
from .._args import as_array
from .engine import gemm
from .._array_utils import asfortranarray

__all__ = ["matmul"]

_SIG = "with gufunc signature (n?,k),(k,m?)->(n?,m?)"


def _operands(x1, x2):
    """x1, x2 as garray arrays on one device (lists and scalars go to the other's)."""
    dev = next((x.device for x in (x1, x2) if isinstance(x, ndarray)), None)
    a = as_array(x1, "x1", dev)
    b = as_array(x2, "x2", dev)
    if a.device != b.device:
        raise ValueError(f"matmul: x1 is on {a.device} and x2 on {b.device}; move one "
                         f"with to_device() first")
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise ValueError(f"matmul: Input operand {i} does not have enough dimensions "
                             f"(has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) "
                             f"requires 1)")
    return a, b


def _cast_name(dt):
    return f"dtype('{dt.name}')"


def _out_batch(out, core, batch, a, b):
    """The batch shape to compute over, checking out's shape as NumPy does."""
    if not isinstance(out, ndarray):
        raise TypeError(f"matmul: out must be a garray.ndarray, got {type(out).__name__}")
    nc = len(core)
    if out.ndim < nc:
        raise ValueError(f"matmul: Output operand 0 does not have enough dimensions (has "
                         f"{out.ndim}, gufunc core {_SIG[5:]} requires {nc})")
    for i in range(nc):
        got = out.shape[out.ndim - nc + i]
        if got != core[i]:
            raise ValueError(f"matmul: Output operand 0 has a mismatch in its core "
                             f"dimension {i}, {_SIG} (size {got} is different from "
                             f"{core[i]})")
    ob = tuple(out.shape[:out.ndim - nc])
    try:
        full = broadcast_shapes(batch, ob)
    except ValueError:
        full = None
    if full != ob:
        raise ValueError(f"matmul: non-broadcastable output operand with shape {out.shape} "
                         f"doesn't match the broadcast shape {tuple(batch) + tuple(core)} "
                         f"(x1 {a.shape}, x2 {b.shape})")
    if out.device != a.device:
        raise ValueError(f"matmul: out is on {out.device} and the operands on {a.device}")
    if not out.flags.writeable:     # the gemm writes through the pointer, unchecked
        raise ValueError("matmul: out: output array is read-only")
    return ob


def matmul(x1, x2, /, out=None, *, dtype=None, casting="same_kind", order="K",
           subok=True):
    """Matrix product of two arrays, as NumPy's ``matmul`` ufunc and the Array API's.

    Stacks of matrices broadcast over their leading (batch) axes; a 1-d ``x1`` is a row
    vector and a 1-d ``x2`` a column vector, their added axis removed from the result.
    Floating and complex dtypes use the device's vendor BLAS (OpenBLAS on the CPU device,
    cuBLAS, hipBLAS), integer and bool dtypes garray's GEMM kernels
    (``GARRAY_GEMM=kernel|vendor|auto`` picks, see the GEMM page); integer products wrap as
    NumPy's, bool is OR of ANDs.  Both operands must be on one device.

    Parameters
    ----------
    x1, x2 : ndarray or array_like
        Arrays (scalars and lists are converted) with at least one dimension;
        ``x1.shape[-1]`` must equal ``x2.shape[-2]`` (``x2.shape[0]`` for 1-d).
    out : ndarray, optional
        A garray array of the result's shape (extra leading batch axes allowed, as
        NumPy's) whose dtype the result casts to under ``casting``; it may alias an input
        (the product is computed into a temporary first).
    dtype : dtype, optional
        The dtype to compute in (the inputs are cast to it under ``casting``); default
        ``result_type(x1, x2)``.
    casting : str, optional
        NumPy's casting rule for the input and output casts.
    order : {"K", "A", "C", "F"}, optional
        The memory layout of a new result.
    subok : bool, optional
        Accepted for NumPy compatibility.

    Returns
    -------
    ndarray
        The product; ``out`` when given.

    See Also
    --------
    numpy.matmul

    Examples
    --------
    >>> a = garray.arange(6.0).reshape(2, 3)
    >>> (a @ a.T).tolist()
    [[5.0, 14.0], [14.0, 50.0]]
    """
    if (out is None and dtype is None and type(x1) is ndarray and type(x2) is ndarray
            and casting == "same_kind" and order == "K"):
        r = _matmul_fast(x1, x2)      # the per-call path (cython/_gemm.pxi)
        if r is not None:
            return r
    a, b = _operands(x1, x2)
    if order not in ("K", "A", "C", "F"):
        raise ValueError(f"matmul: order must be one of 'K', 'A', 'C', 'F', got {order!r}")
    ct = result_type(a.dtype, b.dtype) if dtype is None else normalize_dtype(dtype)
    for i, x in enumerate((a, b)):
        if x.dtype != ct and not can_cast(x.dtype, ct, casting):
            raise TypeError(f"Cannot cast ufunc 'matmul' input {i} from "
                            f"{_cast_name(x.dtype)} to {_cast_name(ct)} with casting rule "
                            f"{casting!r}")
    # ml_dtypes' matmul loops give float32 sums for bfloat16 and the float8 formats
    rt = _dtypes.float32 if _dtypes.is_ml_format(ct) else ct
    if out is not None and isinstance(out, ndarray) and out.dtype != rt and \
            not can_cast(rt, out.dtype, casting):
        raise TypeError(f"Cannot cast ufunc 'matmul' output from {_cast_name(rt)} to "
                        f"{_cast_name(out.dtype)} with casting rule {casting!r}")
    a2 = a.reshape((1,) + a.shape) if a.ndim == 1 else a
    b2 = b.reshape(b.shape + (1,)) if b.ndim == 1 else b
    m, k = a2.shape[-2:]
    k2, n = b2.shape[-2:]
    if k != k2:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, "
                         f"{_SIG} (size {k2} is different from {k}): x1 has shape "
                         f"{a.shape}, x2 has shape {b.shape}")
    try:
        batch = broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    except ValueError:
        raise ValueError(f"matmul: operands could not be broadcast together: x1 has shape "
                         f"{a.shape} and x2 has shape {b.shape} (batch shapes "
                         f"{a2.shape[:-2]} and {b2.shape[:-2]})") from None
    core = (() if a.ndim == 1 else (m,)) + (() if b.ndim == 1 else (n,))
    if out is not None:
        batch = _out_batch(out, core, batch, a, b)
    batch = tuple(batch)
    a3 = broadcast_to(a2.astype(ct, copy=False), batch + (m, k))
    b3 = broadcast_to(b2.astype(ct, copy=False), batch + (k, n))
    full = batch + (m, n)
    if (out is not None and out.dtype == rt and not may_share_memory(out, a)
            and not may_share_memory(out, b)):
        # straight into out, seen with the 1-d operands' axes restored (length 1)
        view = _restored_view(out, full)
        if view is not None:
            gemm(view, a3, b3)
        else:
            _into(out, a3, b3, full, rt)
        return out
    c = empty(full, dtype=rt, device=a.device,
              order="F" if order == "F" and len(full) == 2 else "C")
    gemm(c, a3, b3)
    r = c.reshape(batch + core) if len(core) < 2 else c
    if out is not None:
        out[...] = r
        return out
    if order == "F" and r.ndim > 2:
        r = asfortranarray(r)
    return r


def matmul_keeping_dtype(x1, x2):
    """matmul whose float32 sums of bfloat16 or float8 operands are rounded back to their
    dtype: NumPy's dot, tensordot, einsum, inner and vdot keep an ml_dtypes dtype, only
    its matmul gives float32."""
    r = matmul(x1, x2)
    if _dtypes.is_ml_format(x1.dtype) or _dtypes.is_ml_format(x2.dtype):
        dt = result_type(x1.dtype, x2.dtype)
        return r.astype(dt) if r.dtype != dt else r
    return r


def _restored_view(out, full):
    """out viewed with shape ``full`` (length-1 axes added), or None when that view would
    be a copy."""
    if out.shape == full:
        return out
    try:
        v = out.reshape(full)
    except ValueError:
        return None
    return v if v.ptr == out.ptr and may_share_memory(v, out) else None


def _into(out, a3, b3, full, ct):
    c = empty(full, dtype=ct, device=a3.device)
    gemm(c, a3, b3)
    out[...] = c.reshape(out.shape)


def _matmul_inplace(a, b):
    """``a @= b``: NumPy's ``matmul(a, b, out=a)`` (its error when the shape would
    change, or when the result does not cast to a's dtype under 'same_kind')."""
    return matmul(a, b, out=a)
