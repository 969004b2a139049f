"""File and buffer I/O on the host: save, load, savetxt, loadtxt, frombuffer, fromiter,
fromstring.

Reading and writing files is host I/O: NumPy's readers and writers handle the formats,
and garray copies the values between the host and the array's device, once each way.
Nothing is computed on the host.  Files that hold dtypes garray lacks (strings,
objects, float16 ...) raise TypeError naming the dtype.
"""

import operator

import numpy

from ._core import asarray, asnumpy

__all__ = ["save", "load", "savetxt", "loadtxt", "frombuffer", "fromiter", "fromstring"]


def save(file, arr, allow_pickle=True):
    """Write ``arr`` to a ``.npy`` file (a host copy in NumPy's format).

    Parameters
    ----------
    file : str, path or file
        The file (.npy appended to a name without it).
    arr : ndarray or array_like
        The array.
    allow_pickle : bool, optional
        As NumPy's.

    Returns
    -------
    None

    See Also
    --------
    numpy.save
    """
    numpy.save(file, asnumpy(arr), allow_pickle=allow_pickle)


class NpzArrays:
    """The arrays of a ``.npz`` file, read on first access as garray arrays: a mapping
    and a context manager, like NumPy's NpzFile."""

    def __init__(self, npz, device):
        self._npz, self._device = npz, device

    def __getitem__(self, key):
        return asarray(self._npz[key], device=self._device)

    def __iter__(self):
        return iter(self._npz.files)

    def __len__(self):
        return len(self._npz.files)

    def __contains__(self, key):
        return key in self._npz.files

    def keys(self):
        return list(self._npz.files)

    @property
    def files(self):
        return list(self._npz.files)

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         device=None):
    """Read a ``.npy`` file into a garray array on ``device`` (the current device by
    default), or a ``.npz`` file into a mapping of them (``NpzArrays``).

    Parameters
    ----------
    file : str, path or file
        The file.
    mmap_mode : None
        Not supported (must be None).
    allow_pickle : bool, optional
        As NumPy's (object arrays are not supported anyway).
    fix_imports : bool, optional
        As NumPy's.
    encoding : str, optional
        As NumPy's.
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray or NpzArrays
        An array, or a mapping of arrays for .npz.

    See Also
    --------
    numpy.load
    """
    if mmap_mode is not None:
        raise NotImplementedError("load: mmap_mode (a host memory map) is not supported; "
                                  "the arrays are copied to the device")
    h = numpy.load(file, allow_pickle=allow_pickle, fix_imports=fix_imports,
                   encoding=encoding)
    if isinstance(h, numpy.lib.npyio.NpzFile):
        return NpzArrays(h, device)
    return asarray(h, device=device)


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="",
            comments="# ", encoding=None):
    """Write a 1-d or 2-d array to a text file (a host copy, NumPy's formatting).

    Parameters
    ----------
    fname : str, path or file
        The file.
    X : ndarray
        1-d or 2-d array.
    fmt : str or sequence of str, optional
        As NumPy's.
    delimiter : str, optional
        As NumPy's.
    newline : str, optional
        As NumPy's.
    header : str, optional
        As NumPy's.
    footer : str, optional
        As NumPy's.
    comments : str, optional
        As NumPy's.
    encoding : str, optional
        As NumPy's.

    Returns
    -------
    None

    See Also
    --------
    numpy.savetxt
    """
    numpy.savetxt(fname, asnumpy(X), fmt=fmt, delimiter=delimiter, newline=newline,
                  header=header, footer=footer, comments=comments, encoding=encoding)


def loadtxt(fname, dtype=float, *args, device=None, **kwargs):
    """Read a text file into a garray array on ``device``; NumPy's arguments
    (``delimiter``, ``skiprows``, ``usecols``, ``unpack``, ``ndmin`` ...).

    Parameters
    ----------
    fname : str, path or file
        The file.
    dtype : dtype, optional
        The elements' dtype (float64 by default).
    *args : any
        NumPy's positional arguments.
    device : Device or str, optional
        Where the result lives (the current device by default).
    **kwargs : any
        NumPy's keyword arguments.

    Returns
    -------
    ndarray

    See Also
    --------
    numpy.loadtxt
    """
    h = numpy.loadtxt(fname, dtype, *args, **kwargs)
    if isinstance(h, numpy.ndarray):
        return asarray(h, device=device)
    return [asarray(c, device=device) for c in h]      # unpack of a structured dtype


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, device=None):
    """A 1-d array from the bytes of a host buffer (copied to ``device``).

    Parameters
    ----------
    buffer : buffer
        A host object with the buffer protocol.
    dtype : dtype, optional
        The elements' dtype (float64 by default).
    count : int, optional
        Number of elements (-1: all).
    offset : int, optional
        Bytes to skip first.
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        1-d, a copy on device.

    See Also
    --------
    numpy.frombuffer
    """
    return asarray(numpy.frombuffer(buffer, dtype, count, offset), device=device, copy=True)


def fromiter(iter, dtype, count=-1, *, device=None):  # noqa: A002 - NumPy's name
    """A 1-d array from the values of a Python iterable (read on the host).

    Parameters
    ----------
    iter : iterable
        The values.
    dtype : dtype
        The elements' dtype.
    count : int, optional
        Number of values to read (-1: all).
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        1-d.

    See Also
    --------
    numpy.fromiter
    """
    return asarray(numpy.fromiter(iter, dtype, count), device=device)


def fromstring(string, dtype=float, count=-1, *, sep, device=None):
    """A 1-d array from numbers in a text string separated by ``sep`` (parsed on the
    host; NumPy's binary mode, ``sep=''``, is gone in NumPy 2 too: use frombuffer).

    Parameters
    ----------
    string : str
        The text.
    dtype : dtype, optional
        The elements' dtype (float64 by default).
    count : int, optional
        Number of values to read (-1: all).
    sep : str
        The separator (required; the binary mode is gone).
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        1-d.

    See Also
    --------
    numpy.fromstring
    """
    count = operator.index(count)
    if not -2**63 <= count < 2**63:         # NumPy's check comes first (a C ssize_t)
        raise OverflowError(f"fromstring: count={count} does not fit in an int64")
    if sep == "":
        raise ValueError("fromstring: the binary mode (sep='') is not supported; use "
                         "frombuffer")
    h = numpy.fromstring(string, dtype, count, sep=sep)
    if count > 0:
        # NumPy fills a count past the end of the text with uninitialised memory
        # (docs/reliability.md): garray counts the values the text holds
        try:
            held = numpy.fromstring(string, dtype, -1, sep=sep).size
        except ValueError:
            held = count        # unparsable data, after count values (NumPy stopped first)
        if held < count:
            raise ValueError(f"fromstring: the text holds {held} values, fewer than "
                             f"count={count}")
    return asarray(h, device=device)
