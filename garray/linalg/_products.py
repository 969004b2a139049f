"""garray.linalg functions built from products and the solvers: matrix_power,
tensorinv, tensorsolve, multi_dot.  Products go through garray.matmul, so the positive
powers and multi_dot run on every device; inverses and solves need the device's vendor
solver (garray/linalg/_solve.py)."""

import operator

from numpy.linalg import LinAlgError

from ._solve import inv, solve
from .._args import as_array
from .._core import empty
from .._creation.ranges import eye
from .._elementwise.ufuncs import multiply
from .._gemm.contract import dot
from .._gemm.matmul import matmul

__all__ = ["matrix_power", "tensorinv", "tensorsolve", "multi_dot"]


def matrix_power(a, n):
    """``a`` raised to the integer power ``n`` by repeated squaring (garray.matmul);
    ``n == 0`` gives identities, ``n < 0`` powers of ``inv(a)``.

    >>> garray.linalg.matrix_power(garray.asarray([[0, 1], [-1, 0]]), 2)   # -I

    Parameters
    ----------
    a : ndarray
        (..., M, M) matrices.
    n : int
        The power.

    Returns
    -------
    ndarray
        In a's dtype (floating for n < 0).

    See Also
    --------
    numpy.linalg.matrix_power
    """
    a = as_array(a, "a")
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("matrix_power: exponent n must be an integer, got "
                        f"{type(n).__name__}") from e
    if n == 0:
        r = empty(a.shape, dtype=a.dtype, device=a.device)
        r[...] = eye(a.shape[-1], dtype=a.dtype, device=a.device)
        return r
    if n < 0:
        a = inv(a)
        n = -n
    if n == 1:
        return a
    if n == 2:
        return matmul(a, a)
    if n == 3:
        return matmul(matmul(a, a), a)
    # binary decomposition: a, a^2, a^4, ... multiplied in where n has a bit set
    z = result = None
    while n > 0:
        z = a if z is None else matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else matmul(result, z)
    return result


def _prod(shape):
    p = 1
    for s in shape:
        p *= s
    return p


def tensorinv(a, ind=2):
    """The inverse of ``a`` with respect to ``tensordot(., ., ind)``: ``a`` reshaped to a
    square (prod(shape[:ind]), prod(shape[ind:])) matrix, inverted, and shaped
    ``shape[ind:] + shape[:ind]``.

    Parameters
    ----------
    a : ndarray
        Input tensor.
    ind : int, optional
        Number of leading axes in the inverse's product.

    Returns
    -------
    ndarray
        Of shape a.shape[ind:] + a.shape[:ind].

    See Also
    --------
    numpy.linalg.tensorinv
    """
    a = as_array(a, "a")
    ind = operator.index(ind)
    if ind <= 0:
        raise ValueError(f"tensorinv: invalid ind argument {ind} (must be positive)")
    old = a.shape
    inv_shape = old[ind:] + old[:ind]
    rows = _prod(old[ind:])
    if rows == 0 or a.size % rows:
        raise LinAlgError(f"tensorinv: a of shape {old} does not make a square matrix "
                          f"with ind={ind}")
    ia = inv(a.reshape(rows, a.size // rows))
    return ia.reshape(inv_shape)


def tensorsolve(a, b, axes=None):
    """Solve ``tensordot(a, x, axes=x.ndim) == b`` for x: ``a`` (optionally with
    ``axes`` moved to the end) reshaped to a square matrix, b flattened.

    Parameters
    ----------
    a : ndarray
        Coefficient tensor.
    b : ndarray
        Right-hand side.
    axes : tuple of int, optional
        Axes of a moved to the end first.

    Returns
    -------
    ndarray
        x, of shape a.shape[b.ndim:].

    See Also
    --------
    numpy.linalg.tensorsolve
    """
    a = as_array(a, "a")
    b = as_array(b, "b")
    an = a.ndim
    if axes is not None:
        order = list(range(an))
        for k in axes:
            order.remove(operator.index(k) % an if an else k)
            order.insert(an, operator.index(k) % an)
        a = a.transpose(order)
    old = a.shape[-(an - b.ndim):] if an > b.ndim else ()
    prod = _prod(old)
    if a.size != prod ** 2:
        raise LinAlgError("tensorsolve: input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim]), got a "
                          f"{a.shape} and b {b.shape}")
    return solve(a.reshape(prod, prod), b.reshape(-1)).reshape(old)


def _chain_order(shapes):
    """NumPy's dynamic programme for the cheapest parenthesisation (Cormen 15.2):
    ``s[i][j]`` is the split of the chain i..j."""
    n = len(shapes)
    p = [shapes[0][0]] + [s[1] for s in shapes]
    m = [[0] * n for _ in range(n)]
    s = [[0] * n for _ in range(n)]
    for ln in range(1, n):
        for i in range(n - ln):
            j = i + ln
            m[i][j] = None
            for k in range(i, j):
                c = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if m[i][j] is None or c < m[i][j]:
                    m[i][j] = c
                    s[i][j] = k
    return s


def _multiply_chain(arrays, order, i, j, out=None):
    if i == j:
        return arrays[i]
    k = order[i][j]
    return matmul(_multiply_chain(arrays, order, i, k),
                  _multiply_chain(arrays, order, k + 1, j), out=out)


def multi_dot(arrays, *, out=None):
    """The product of two or more arrays in the cheapest order (NumPy's chain-order
    rule); the first may be 1-d (a row vector) and the last 1-d (a column vector), the
    others 2-d.

    Parameters
    ----------
    arrays : sequence of ndarray
        Two or more operands.
    out : ndarray, optional
        A garray array of the result's shape to write into.

    Returns
    -------
    ndarray
        The product.

    See Also
    --------
    numpy.linalg.multi_dot
    """
    arrays = [as_array(a, f"arrays[{i}]") for i, a in enumerate(arrays)]
    n = len(arrays)
    if n < 2:
        raise ValueError("multi_dot: expecting at least two arrays")
    first, last = arrays[0].ndim, arrays[-1].ndim
    if n == 2 and (first == 0 or last == 0):
        return multiply(arrays[0], arrays[1], out=out)
    if n == 2 and max(first, last) > 2:
        # NumPy hands two arrays to dot, whose N-d rule is not matmul's
        return dot(arrays[0], arrays[1], out=out)
    if first == 1:
        arrays[0] = arrays[0][None, :]
    if last == 1:
        arrays[-1] = arrays[-1][:, None]
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be "
                              "two-dimensional")
    if first == 1 or last == 1:
        # the 2-d product, then NumPy's squeeze (out= receives the squeezed result)
        r = _multiply_chain(arrays, _chain_order([a.shape for a in arrays]), 0, n - 1)
        r = r[0, 0] if first == 1 and last == 1 else r.reshape(-1)
        if out is not None:
            out[...] = r
            return out
        return r
    return _multiply_chain(arrays, _chain_order([a.shape for a in arrays]), 0, n - 1,
                           out=out)
