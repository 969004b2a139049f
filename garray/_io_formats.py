"""NumPy's other file formats: savez, savez_compressed, genfromtxt, fromregex, fromfile,
memmap (host-backed, copied to the device).

As in garray/_io.py, NumPy reads and writes the files on the host and garray copies the
values between the host and the array's device, once each way; nothing is computed on
the host.  A result garray cannot hold (structured records, strings, objects, masked
arrays) is refused with an error naming the case, never returned as a NumPy array.

Note [memmap]
~~~~~~~~~~~~~
A NumPy memmap *is* the file's pages; device memory cannot be.  ``garray.memmap``:

1. Maps the file with ``numpy.memmap`` (NumPy's arguments, checks and errors) and copies
   the mapped values to the device once, at creation.  The device array is a snapshot:
   later writes to the file by others are not seen.
2. Writes reach the file only at ``flush()``, which copies the whole device array back
   into the host map and flushes the map, for modes 'r+' and 'w+'.  Mode 'c' (copy on
   write) never writes the file; mode 'r' gives a read-only array (as NumPy's).
3. Views (basic indexing, reshape, T, view ...) of a memmap are memmaps sharing its
   device memory, its host map and its ``filename``/``offset``/``mode``, as NumPy's.
   ``flush()`` on any of them writes the whole map: every change made through any view.
   Copies (``copy``, ``astype``, ``flatten``) are memmaps with no map, as NumPy's: their
   ``flush()`` does nothing and their attributes are None.  Results of ufuncs and
   functions, ``view(garray.ndarray)`` and unpickled memmaps are plain arrays; writes
   through a plain view reach the file only while the memmap itself lives.
4. As NumPy's ``del fp``, the memmap writes back (flushes) when its last reference goes,
   the base and all its views (they keep it alive), and at interpreter exit (atexit)
   for those still alive.  Each is one device-to-host copy of the whole map, so open a
   file you only read with mode 'r'.
5. The device array has the map's layout (order='F' gives an F-contiguous array) and
   garray's native-byte-order dtype: a big-endian map reads as the native dtype and is
   converted back at flush().
"""

from ._dtypes import kind_of as _kind_of
import atexit
import re
import sys
import weakref

import numpy

from ._array_utils import array
from ._core import asarray, asnumpy, ndarray
from ._dtypes import normalize_dtype
from ._inquiry import may_share_memory

__all__ = ["savez", "savez_compressed", "genfromtxt", "fromregex", "fromfile", "memmap"]


def _host(a):
    """The value NumPy writes for ``a``: a host copy of a garray array, else ``a``."""
    return asnumpy(a) if isinstance(a, ndarray) else a


def _where(device, like):
    """The result's device: ``device``, else ``like``'s when it is a garray array."""
    if device is None and isinstance(like, ndarray):
        return like.device
    return device


def _check_dtype(fn, dtype, hint="read each field with its own dtype"):
    """Refuse, before any file is touched, a dtype garray arrays cannot hold."""
    dt = numpy.dtype(dtype)
    if dt.names is not None or dt.subdtype is not None:
        raise TypeError(f"{fn}: structured dtype {dt} is not supported (garray has no "
                        f"structured dtypes); {hint}")
    normalize_dtype(dt, f"{fn}: dtype")          # strings, objects ...: TypeError
    return dt


def _to_device(fn, h, device):
    """NumPy's result ``h`` on ``device``, or an error naming why garray cannot hold it."""
    if isinstance(h, list):                      # genfromtxt(unpack=True) of records
        return [_to_device(fn, c, device) for c in h]
    if isinstance(h, numpy.ma.MaskedArray):
        raise NotImplementedError(f"{fn}: usemask=True gives a masked array; garray has "
                                  f"no masked arrays")
    if h.dtype.names is not None:
        raise TypeError(f"{fn}: the result is structured (fields {h.dtype.names}, dtype "
                        f"{h.dtype}); garray has no structured dtypes: give one numeric "
                        f"dtype and no names, or unpack=True for one array per column")
    if _kind_of(h.dtype) not in "biufc":
        raise TypeError(f"{fn}: the result has dtype {h.dtype} (strings or objects); "
                        f"garray arrays hold numbers: give a numeric dtype")
    return asarray(h, device=device)


# ---- .npz -----------------------------------------------------------------------------


def savez(file, *args, allow_pickle=True, **kwds):
    """Write several arrays to an uncompressed ``.npz`` file (host copies, NumPy's
    format: ``numpy.load`` and ``garray.load`` read it).

    Parameters
    ----------
    file : str, path or file
        The file (.npz appended to a name without it).
    *args : ndarray or array_like
        Arrays saved as ``arr_0``, ``arr_1`` ...
    allow_pickle : bool, optional
        As NumPy's.
    **kwds : ndarray or array_like
        Arrays saved under their keyword names.

    Returns
    -------
    None

    See Also
    --------
    numpy.savez

    Examples
    --------
    >>> garray.savez("ab.npz", garray.arange(3), b=garray.eye(2))  # doctest: +SKIP
    >>> sorted(garray.load("ab.npz").keys())                        # doctest: +SKIP
    ['arr_0', 'b']
    """
    _savez(numpy.savez, file, args, kwds, allow_pickle)


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """Write several arrays to a compressed (deflate) ``.npz`` file (host copies,
    NumPy's format).

    Parameters
    ----------
    file : str, path or file
        The file (.npz appended to a name without it).
    *args : ndarray or array_like
        Arrays saved as ``arr_0``, ``arr_1`` ...
    allow_pickle : bool, optional
        As NumPy's.
    **kwds : ndarray or array_like
        Arrays saved under their keyword names.

    Returns
    -------
    None

    See Also
    --------
    numpy.savez_compressed
    """
    _savez(numpy.savez_compressed, file, args, kwds, allow_pickle)


def _savez(writer, file, args, kwds, allow_pickle):
    """NumPy's ``writer`` (savez or savez_compressed) on host copies of the arrays."""
    writer(file, *map(_host, args), allow_pickle=allow_pickle,
           **{k: _host(v) for k, v in kwds.items()})


# ---- text -----------------------------------------------------------------------------


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0,
               skip_footer=0, converters=None, missing_values=None, filling_values=None,
               usecols=None, names=None, excludelist=None,
               deletechars=" !#$%&'()*+,-./:;<=>?@[\\]^{|}~", replace_space="_",
               autostrip=False, case_sensitive=True, defaultfmt="f%i", unpack=None,
               usemask=False, loose=True, invalid_raise=True, max_rows=None,
               encoding=None, *, ndmin=0, like=None, device=None):
    """Read a text table with missing values into a garray array (NumPy parses it on the
    host; the values are copied to ``device``).

    Results garray cannot hold are refused: a structured result (``names=``, or
    ``dtype=None`` over columns of different types) is a TypeError unless
    ``unpack=True`` (NumPy then gives one array per field), and so is a dtype with
    fields; string columns are a TypeError, ``usemask=True`` a NotImplementedError.

    Parameters
    ----------
    fname : str, path, file, list of str or generator
        The text.
    dtype : dtype or None, optional
        The elements' dtype (float64 by default; None: NumPy's guess per column).
    comments : str, optional
        As NumPy's.
    delimiter : str, int or sequence of int, optional
        As NumPy's.
    skip_header : int, optional
        As NumPy's.
    skip_footer : int, optional
        As NumPy's.
    converters : dict or callable, optional
        As NumPy's.
    missing_values : str, sequence or dict, optional
        As NumPy's.
    filling_values : scalar, sequence or dict, optional
        As NumPy's.
    usecols : int or sequence, optional
        As NumPy's.
    names : {None, True, str, sequence of str}, optional
        As NumPy's; field names make a structured result, which garray refuses unless
        ``unpack=True`` (one array per field).
    excludelist : sequence, optional
        As NumPy's.
    deletechars : str, optional
        As NumPy's.
    replace_space : str, optional
        As NumPy's.
    autostrip : bool, optional
        As NumPy's.
    case_sensitive : bool or str, optional
        As NumPy's.
    defaultfmt : str, optional
        As NumPy's.
    unpack : bool, optional
        As NumPy's.
    usemask : False
        True (a masked array) is not supported.
    loose : bool, optional
        As NumPy's.
    invalid_raise : bool, optional
        As NumPy's.
    max_rows : int, optional
        As NumPy's.
    encoding : str, optional
        As NumPy's.
    ndmin : int, optional
        As NumPy's.
    like : ndarray, optional
        A garray array: the result goes to its device (when ``device`` is None).
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray or list of ndarray

    See Also
    --------
    numpy.genfromtxt

    Examples
    --------
    >>> garray.genfromtxt(["1,2", "3,"], delimiter=",", filling_values=-1)
    array([[ 1.,  2.],
           [ 3., -1.]])
    """
    if usemask:
        raise NotImplementedError("genfromtxt: usemask=True gives a masked array; garray "
                                  "has no masked arrays")
    try:
        fields = numpy.dtype(dtype).names if dtype is not None else None
    except TypeError:
        fields = None            # a sequence of types: NumPy's, checked on the result
    if fields is not None:
        raise TypeError(f"genfromtxt: structured dtype {numpy.dtype(dtype)} is not "
                        f"supported (garray has no structured dtypes); give one numeric "
                        f"dtype, and unpack=True for one array per column")
    h = numpy.genfromtxt(
        fname, dtype=dtype, comments=comments, delimiter=delimiter,
        skip_header=skip_header, skip_footer=skip_footer, converters=converters,
        missing_values=missing_values, filling_values=filling_values, usecols=usecols,
        names=names, excludelist=excludelist, deletechars=deletechars,
        replace_space=replace_space, autostrip=autostrip, case_sensitive=case_sensitive,
        defaultfmt=defaultfmt, unpack=unpack, usemask=usemask, loose=loose,
        invalid_raise=invalid_raise, max_rows=max_rows, encoding=encoding, ndmin=ndmin)
    return _to_device("genfromtxt", h, _where(device, like))


def fromregex(file, regexp, dtype, encoding=None, *, device=None):
    """The groups a regular expression matches in a text file, as a garray array.

    NumPy's fromregex takes only a structured dtype (one field per group) and returns
    records, which garray cannot hold.  garray's takes one numeric dtype instead and
    returns the groups as columns: shape (matches,) for a regexp with one group (or
    none: the whole match), (matches, groups) for several; each value is converted as
    NumPy converts a field (``numpy.fromregex`` with ``[('f0', dtype), ...]`` parses it).
    A structured dtype is a TypeError naming this.

    Parameters
    ----------
    file : str, path or file
        The text file (a file opened in binary mode matches bytes).
    regexp : str, bytes or compiled pattern
        The regular expression.
    dtype : dtype
        One numeric dtype for every group.
    encoding : str, optional
        As NumPy's.
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        1-d for one group, 2-d (one column per group) for several.

    See Also
    --------
    numpy.fromregex

    Examples
    --------
    >>> import io
    >>> garray.fromregex(io.StringIO("x=1 y=2\\nx=3 y=4"), r"x=(\\d) y=(\\d)", "int64")
    array([[1, 2],
           [3, 4]])
    """
    dt = _check_dtype("fromregex", dtype, "give one numeric dtype: the groups become "
                                          "the columns of a 2-d array")
    groups = re.compile(regexp).groups
    k = max(groups, 1)
    records = numpy.fromregex(file, regexp, [(f"f{i}", dt) for i in range(k)], encoding)
    # the fields are packed, so the records' bytes are the rows of a (n, k) array
    h = records.view(dt).reshape((len(records),) + ((k,) if groups > 1 else ()))
    return asarray(h, device=device)


# ---- binary -----------------------------------------------------------------------------


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None, device=None):
    """A 1-d array from a binary or text file (read on the host, copied to ``device``):
    what ``ndarray.tofile`` wrote.

    Parameters
    ----------
    file : str, path or file
        The file (a file object must support seek and tell).
    dtype : dtype, optional
        The elements' dtype (float64 by default; structured dtypes are not supported).
    count : int, optional
        Number of items to read (-1: all).
    sep : str, optional
        '' reads binary; else the separator of a text file (whitespace matches any).
    offset : int, optional
        Bytes to skip first (binary files only).
    like : ndarray, optional
        A garray array: the result goes to its device (when ``device`` is None).
    device : Device or str, optional
        Where the result lives (the current device by default).

    Returns
    -------
    ndarray
        1-d.

    See Also
    --------
    numpy.fromfile

    Examples
    --------
    >>> garray.arange(3.0).tofile("a.bin")                 # doctest: +SKIP
    >>> garray.fromfile("a.bin")                           # doctest: +SKIP
    array([0., 1., 2.])
    """
    dt = _check_dtype("fromfile", float if dtype is None else dtype)
    return asarray(numpy.fromfile(file, dt, count, sep, offset),
                   device=_where(device, like))


# ---- memmap -----------------------------------------------------------------------------

_WRITES = ("r+", "w+")
_live = {}          # id -> weakref of each base memmap that writes back: flushed at exit


def _write_back(base):
    """Copy ``base``'s device values into its host map and flush the map."""
    mm = base._mm
    dev = base.view(ndarray)
    if mm.flags.f_contiguous and not mm.flags.c_contiguous:
        dev, mm_c = dev.T, mm.T      # the same bytes seen C-contiguous
    else:
        mm_c = mm
    if mm_c.flags.c_contiguous and mm_c.dtype == dev.dtype:
        dev.get(out=mm_c)            # straight into the mapped pages
    else:
        mm_c[...] = dev.get()        # e.g. a big-endian map: NumPy converts
    mm.flush()


@atexit.register
def _flush_live():
    for ref in list(_live.values()):
        m = ref()
        if m is None:
            continue
        try:
            _write_back(m)
        except Exception as e:  # noqa: BLE001 - at exit: report, go on with the others
            print(f"garray.memmap: could not write {m.filename} back at exit: {e!r}",
                  file=sys.stderr)


class memmap(ndarray):
    """An array backed by a file on the host, as NumPy's memmap: the file's values are
    copied to the device at creation, and ``flush()`` writes the device values back
    (modes 'r+' and 'w+').  Note [memmap] in garray/_io_formats.py has the rules:

    - writes reach the file only at ``flush()``, and when the memmap (with all its
      views) is deleted or the interpreter exits, not as they are made;
    - mode 'r' gives a read-only array; mode 'c' (copy on write) never writes the file;
    - views are memmaps sharing the device memory and the map, and ``flush()`` on any
      of them writes the whole map; copies have no map.

    Parameters
    ----------
    filename : str, path or file
        The file (a file object must be opened in a mode that fits ``mode``).
    dtype : dtype, optional
        The elements' dtype (uint8 by default); one garray supports.
    mode : {'r+', 'r', 'w+', 'c'}, optional
        As NumPy's (also 'readwrite', 'readonly', 'write', 'copyonwrite').
    offset : int, optional
        Bytes of the file before the array.
    shape : int or tuple of int, optional
        The array's shape (required for 'w+'; default: 1-d over the rest of the file).
    order : {'C', 'F'}, optional
        The layout of the values in the file.
    device : Device or str, optional
        Where the array lives (the current device by default).

    Attributes
    ----------
    filename : str or path
        The file's absolute path (None for a copy).
    offset : int
        As given (None for a copy).
    mode : str
        The mode, in its short form (None for a copy).

    See Also
    --------
    numpy.memmap

    Examples
    --------
    >>> m = garray.memmap("a.dat", "float32", "w+", shape=(2, 3))   # doctest: +SKIP
    >>> m[:] = 1.5                                                    # doctest: +SKIP
    >>> m.flush()                # now the file holds the values     # doctest: +SKIP
    """

    _mm = None                   # the host numpy.memmap (None: a copy, no map)
    _base_mm = None              # the memmap that owns the device copy (None: self)
    _file_offset = None
    filename = None
    mode = None

    def __new__(cls, filename, dtype=numpy.uint8, mode="r+", offset=0, shape=None,
                order="C", *, device=None):
        dt = _check_dtype("memmap", dtype)
        mm = numpy.memmap(filename, dt, mode, offset, shape, order)
        fortran = mm.flags.f_contiguous and not mm.flags.c_contiguous
        d = array(mm, copy=True, order="F" if fortran else "C", device=device)
        if not mm.flags.writeable:
            d.setflags(write=False)                  # mode 'r': read-only, as NumPy's
        self = d.view(cls)
        self._mm = mm
        self._file_offset, self.filename, self.mode = mm.offset, mm.filename, mm.mode
        if mm.mode in _WRITES:      # (arrays are unhashable: no WeakSet)
            key = id(self)
            _live[key] = weakref.ref(self, lambda _, key=key: _live.pop(key, None))
        return self

    def __init__(self, filename, dtype=numpy.uint8, mode="r+", offset=0, shape=None,
                 order="C", *, device=None):
        pass                     # __new__ did it all

    def __array_finalize__(self, obj):
        # NumPy's rule: a view sharing memory with a mapped memmap shares its map.
        if getattr(obj, "_mm", None) is not None and may_share_memory(self, obj):
            self._mm = obj._mm
            self._base_mm = obj._base_mm if obj._base_mm is not None else obj
            self._file_offset, self.filename, self.mode = obj.offset, obj.filename, obj.mode

    @property
    def offset(self):
        """The file offset the memmap was made with (None for a copy), as NumPy's."""
        return self._file_offset

    def flush(self):
        """Write the device values to the file: all of the map, whichever view this is
        (modes 'r+' and 'w+'; nothing for 'r', 'c' and copies).

        Returns
        -------
        None

        See Also
        --------
        numpy.memmap.flush
        """
        base = self._base_mm if self._base_mm is not None else self
        if base._mm is not None and base.mode in _WRITES:
            _write_back(base)

    def __del__(self, _writes=_WRITES, _finalizing=sys.is_finalizing,
                _write_back=_write_back):
        # Views keep the base alive, so the base goes last: it alone writes back.  At
        # interpreter exit the atexit hook has written back; module globals may be gone.
        if self._base_mm is None and self._mm is not None and self.mode in _writes \
                and not _finalizing():
            _write_back(self)
