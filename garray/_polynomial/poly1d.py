"""NumPy's legacy polynomial API: poly1d, polyval, the arithmetic (polyadd, polysub,
polymul, polydiv, polyint, polyder), and poly and roots, which poly1d uses to go between
roots and coefficients (a matrix's characteristic polynomial, the companion matrix's
eigenvalues).  polyfit is in garray/_polynomial/fit.py; how poly1d prints, in
garray/_polynomial/printing.py.

Note [Polynomials]
~~~~~~~~~~~~~~~~~~
1. Coefficients are garray arrays, highest power first, as NumPy's; every step is one of
   garray's array operations, taken in NumPy's order so that dtypes and values follow
   NumPy's: ``polyval`` is Horner's rule (``y = y * x + p[i]``, one step per
   coefficient, each a device operation over all of ``x``), ``polymul`` a convolution,
   ``polyfit`` a scaled Vandermonde least-squares solve (``linalg.lstsq``), ``roots`` the
   eigenvalues of the companion matrix (``linalg.eigvals``).
2. The host reads what decides a shape or a branch, as NumPy's code does: the leading and
   trailing zeros ``roots`` strips, the rank ``polyfit`` warns on, the remainder's
   vanishing leading terms in ``polydiv``, and whether ``poly``'s complex roots come in
   conjugate pairs (then the coefficients are real).
3. ``roots`` of a real polynomial gives real roots when every eigenvalue is real, as
   NumPy's ``roots`` (which relies on ``numpy.linalg.eigvals`` doing so); garray's
   ``linalg.eigvals`` always returns complex, as the Array API specifies, so the step is
   taken there.
4. ``poly1d`` holds its coefficients on the device; ``str`` and ``repr`` copy them to
   the host to print them as NumPy's do.  A poly1d is not hashable (NumPy's).
"""

from .._dtypes import kind_of as _kind_of
import numpy

from .printing import format_term, raise_power
from .._args import as_array
from .._array_utils import isscalar
from .._core import asarray, empty, ones, zeros, zeros_like
from .._creation.ranges import arange
from .._elementwise.ufuncs import conj
from .._index.advanced import nonzero
from .._manip.diagonal import diag
from .._manip.manipulation import concat
from .._manip.shaping import atleast_1d, trim_zeros
from .._reduce.comparisons import allclose
from .._reduce.reductions import all as _all, any as _any
from .._scalar_types import mintypecode
from .._sort.sorting import sort
from ..signal._direct import convolve

__all__ = ["poly", "roots", "polyint", "polyder", "polyadd", "polysub", "polymul",
           "polydiv", "polyval", "poly1d"]


def _atleast_1d(p, name):
    """``p`` (a poly1d's coefficients, or an array-like) as a garray array of at least
    one axis."""
    return atleast_1d(p.coeffs if isinstance(p, poly1d) else as_array(p, name))


def _coeffs(p, name):
    """The coefficients of ``p`` (a poly1d or an array-like) as a garray array."""
    if isinstance(p, poly1d):
        return p.coeffs
    return as_array(p, name)


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with the given roots (or of a square
    matrix's characteristic polynomial).

    Parameters
    ----------
    seq_of_zeros : array_like
        The roots (1-d), or a non-empty square 2-d array whose eigenvalues are the roots.

    Returns
    -------
    ndarray or float
        The coefficients, highest power first (real when the complex roots come in
        conjugate pairs); 1.0 for no roots.

    Raises
    ------
    ValueError
        For input that is neither 1-d nor a non-empty square 2-d array.

    See Also
    --------
    numpy.poly
    """
    z = _atleast_1d(seq_of_zeros, "seq_of_zeros")
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        from ..linalg import eigvals   # here: garray.linalg loads on first use
        z = eigvals(z)
    elif len(sh) == 1:
        z = z.astype(numpy.dtype(mintypecode(z.dtype.char)))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    dt = z.dtype
    a = ones((1,), dtype=dt, device=z.device)
    step = ones((z.shape[0], 2), dtype=dt, device=z.device)
    step[:, 1] = -z                    # row i: [1, -z_i]
    for i in range(z.shape[0]):
        a = convolve(a, step[i], mode="full")
    if _kind_of(dt) == "c":
        r = z.astype(numpy.complex128)
        if bool(_all(sort(r) == sort(conj(r)))):
            a = a.real.copy()
    return a


def roots(p):
    """The roots of the polynomial with coefficients ``p`` (highest power first).

    Parameters
    ----------
    p : array_like
        1-d coefficients.

    Returns
    -------
    ndarray
        The roots: the eigenvalues of the companion matrix, real when all are real and
        ``p`` is, then one zero per trailing zero coefficient.

    Raises
    ------
    ValueError
        For ``p`` of more than one axis.

    See Also
    --------
    numpy.roots
    """
    p = _atleast_1d(p, "p")
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    dev = p.device
    nz = nonzero(p)[0]
    if nz.shape[0] == 0:
        return empty((0,), dtype=numpy.float64, device=dev)
    first, last = (int(v) for v in nz[asarray([0, -1], device=dev)].get())
    trailing = p.shape[0] - last - 1
    p = p[first:last + 1]
    complex_in = _kind_of(p.dtype) == "c"
    if _kind_of(p.dtype) not in "fc":
        p = p.astype(numpy.float64)
    n = p.shape[0]
    if n > 1:
        a = diag(ones((n - 2,), dtype=p.dtype, device=dev), -1)
        a[0, :] = -p[1:] / p[0]
        from ..linalg import eigvals   # here: garray.linalg loads on first use
        r = eigvals(a)
        if not complex_in and not bool(_any(r.imag != 0)):
            r = r.real.copy()          # Note [Polynomials] 3
    else:
        r = empty((0,), dtype=numpy.float64, device=dev)
    return concat((r, zeros((trailing,), dtype=r.dtype, device=dev)))


def polyint(p, m=1, k=None):
    """The ``m``-th antiderivative of the polynomial ``p``.

    Parameters
    ----------
    p : array_like or poly1d
        Coefficients, highest power first.
    m : int, optional
        Order of the antiderivative (default 1).
    k : scalar or array_like, optional
        Integration constants, the first for the first integration (zeros by default);
        one value is used for every integration.

    Returns
    -------
    ndarray or poly1d
        The antiderivative's coefficients (a poly1d when ``p`` is one).

    Raises
    ------
    ValueError
        For a negative ``m`` or too few constants in ``k``.

    See Also
    --------
    numpy.polyint
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    truepoly = isinstance(p, poly1d)
    a = _coeffs(p, "p")
    if k is None:
        k = zeros((m,), dtype=numpy.float64, device=a.device)
    k = _atleast_1d(k, "k")
    if k.shape[0] == 1 and m > 1:
        k = k[0] * ones((m,), dtype=numpy.float64, device=k.device)
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    for i in range(m):
        a = concat((a / arange(a.shape[0], 0, -1, device=a.device), k[i:i + 1]))
    return poly1d(a) if truepoly else a


def polyder(p, m=1):
    """The ``m``-th derivative of the polynomial ``p``.

    Parameters
    ----------
    p : array_like or poly1d
        Coefficients, highest power first.
    m : int, optional
        Order of the derivative (default 1).

    Returns
    -------
    ndarray or poly1d
        The derivative's coefficients (a poly1d when ``p`` is one).

    Raises
    ------
    ValueError
        For a negative ``m``.

    See Also
    --------
    numpy.polyder
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    a = _coeffs(p, "p")
    # past the degree every derivative is empty: stop there (a huge m would loop on)
    for _ in range(min(m, a.shape[0] + 1)):
        n = a.shape[0] - 1
        a = a[:-1] * arange(n, 0, -1, device=a.device)
    return poly1d(a) if truepoly else a


def polyval(p, x):
    """The polynomial with coefficients ``p`` evaluated at ``x`` (Horner's rule).

    Parameters
    ----------
    p : array_like or poly1d
        Coefficients, highest power first.
    x : array_like or poly1d
        Where to evaluate (a poly1d ``x`` gives the composition, a poly1d).

    Returns
    -------
    ndarray or poly1d
        The values, of ``x``'s shape, in the dtype NumPy's ``y * x + p[i]`` steps give.

    See Also
    --------
    numpy.polyval
    """
    p = _coeffs(p, "p")
    if p.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    if isinstance(x, poly1d):
        y = 0
    else:
        x = as_array(x, "x")
        y = zeros_like(x)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def _pad_front(a, n):
    return concat((zeros((n,), dtype=a.dtype, device=a.device), a))


def _add_or_sub(a1, a2, sub):
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1, a2 = _atleast_1d(a1, "a1"), _atleast_1d(a2, "a2")
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = _pad_front(a1, diff)
    elif diff < 0:
        a2 = _pad_front(a2, -diff)
    val = a1 - a2 if sub else a1 + a2
    return poly1d(val) if truepoly else val


def polyadd(a1, a2):
    """The sum of two polynomials.

    Parameters
    ----------
    a1, a2 : array_like or poly1d
        Coefficients, highest power first.

    Returns
    -------
    ndarray or poly1d
        The sum's coefficients (a poly1d when either input is one).

    See Also
    --------
    numpy.polyadd
    """
    return _add_or_sub(a1, a2, False)


def polysub(a1, a2):
    """The difference ``a1 - a2`` of two polynomials.

    Parameters
    ----------
    a1, a2 : array_like or poly1d
        Coefficients, highest power first.

    Returns
    -------
    ndarray or poly1d
        The difference's coefficients (a poly1d when either input is one).

    See Also
    --------
    numpy.polysub
    """
    return _add_or_sub(a1, a2, True)


def polymul(a1, a2):
    """The product of two polynomials (the convolution of their coefficients).

    Parameters
    ----------
    a1, a2 : array_like or poly1d
        Coefficients, highest power first (leading zeros are dropped first, as
        NumPy's).

    Returns
    -------
    ndarray or poly1d
        The product's coefficients (a poly1d when either input is one).

    See Also
    --------
    numpy.polymul
    """
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    val = convolve(poly1d(a1).coeffs, poly1d(a2).coeffs)
    return poly1d(val) if truepoly else val


def polydiv(u, v):
    """Polynomial division: quotient and remainder of ``u / v``.

    Parameters
    ----------
    u : array_like or poly1d
        Dividend coefficients, highest power first.
    v : array_like or poly1d
        Divisor coefficients, highest power first.

    Returns
    -------
    q, r : ndarray or poly1d
        Quotient and remainder (poly1d when either input is one).

    See Also
    --------
    numpy.polydiv
    """
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    u = _atleast_1d(u, "u") + 0.0
    v = _atleast_1d(v, "v") + 0.0
    w = u[0] + v[0]
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1. / v[0]
    q = zeros((max(m - n + 1, 1),), dtype=w.dtype, device=u.device)
    r = u.astype(w.dtype)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    while r.shape[-1] > 1 and bool(allclose(r[0], 0, rtol=1e-14)):
        r = r[1:]
    if truepoly:
        return poly1d(q), poly1d(r)
    return q, r


class poly1d:
    """A one-dimensional polynomial (NumPy's legacy class), its coefficients on the
    device.

    Parameters
    ----------
    c_or_r : array_like or poly1d
        Coefficients, highest power first (leading zeros dropped), or the roots when
        ``r`` is True.
    r : bool, optional
        ``c_or_r`` holds the roots.
    variable : str, optional
        The variable's name in ``str(p)`` ('x' by default).

    Attributes
    ----------
    coeffs, c, coef, coefficients : ndarray
        The coefficients.
    order, o : int
        The degree.
    roots, r : ndarray
        The roots.
    variable : str
        The variable's name.

    See Also
    --------
    numpy.poly1d
    """

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._coeffs = c_or_r._coeffs
            self._variable = c_or_r._variable if variable is None else variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c = _atleast_1d(c_or_r, "c_or_r")
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c = trim_zeros(c, trim="f")
        if c.shape[0] == 0:
            c = zeros((1,), dtype=c.dtype, device=c.device)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        """The coefficients, highest power first."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        # allowing the same object makes p.coeffs *= 2 legal, as NumPy's
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    @property
    def variable(self):
        """The variable's name in ``str(p)``."""
        return self._variable

    @property
    def order(self):
        """The degree of the polynomial."""
        return self._coeffs.shape[0] - 1

    @property
    def roots(self):
        """The roots of the polynomial."""
        return roots(self._coeffs)

    r = roots
    c = coef = coefficients = coeffs
    o = order

    def __array__(self, dtype=None, copy=None):
        return numpy.asarray(self._coeffs, dtype=dtype, copy=copy)

    def __repr__(self):
        return "poly1d(" + repr(self._coeffs.get())[6:-1] + ")"

    def __str__(self):
        c = self._coeffs.get()
        c = c[numpy.logical_or.accumulate(c != 0)]
        n = len(c) - 1
        text = "0"
        for k, coeff in enumerate(c):
            term = format_term(coeff, n - k, self._variable)
            if k == 0:
                text = "0" if term is None else term
            elif term is not None:
                text += f" - {term[1:]}" if term.startswith("-") else f" + {term}"
        return raise_power(text)

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other):
        if isscalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = [1]
        for _ in range(int(val)):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if isscalar(other):
            return poly1d(other / self._coeffs)
        return polydiv(poly1d(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return numpy.bool_(bool(_all(self._coeffs == other._coeffs)))

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val):
        if val > self.order or val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[self.order - val]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("Does not support negative powers.")
        ind = self.order - key
        if key > self.order:
            self._coeffs = _pad_front(self._coeffs, key - self.order)
            ind = 0
        self._coeffs[ind] = val

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        """The ``m``-th antiderivative, with integration constants ``k``.

        Parameters
        ----------
        m : int, optional
            Order of the antiderivative.
        k : scalar or array_like, optional
            Integration constants.

        Returns
        -------
        poly1d
        """
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """The ``m``-th derivative.

        Parameters
        ----------
        m : int, optional
            Order of the derivative.

        Returns
        -------
        poly1d
        """
        return poly1d(polyder(self._coeffs, m=m))
