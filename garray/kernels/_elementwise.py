"""User-defined elementwise kernels (CuPy's ``ElementwiseKernel``) on garray's RawKernel.

Note [ElementwiseKernel]
~~~~~~~~~~~~~~~~~~~~~~~~
1. Signatures follow CuPy: ``"float32 x, T y, raw T z"``.  A type is a dtype name or a
   one-letter placeholder; placeholders are bound from the dtypes of the output arrays
   passed in, then of the input arrays, then (garray extension) of scalar arguments.
   An array argument must have exactly its parameter's dtype (TypeError otherwise).
2. Each call generates one ``extern "C"`` kernel for the binding (placeholders ->
   dtypes, and which inputs are scalars), compiled through ``RawKernel`` and cached on
   the ElementwiseKernel.  Non-raw arrays are passed as ``char*`` plus one
   ``ga::Strided<K>`` (byte strides, broadcast to the loop shape, axes collapsed);
   raw arrays as ``T*`` to a C-contiguous buffer; scalars by value.
3. The user's ``operation`` runs inside a grid-stride loop over the flat index ``i``
   (CuPy's ``i``), with ``T& x`` references to the current elements (``const`` for
   inputs) and ``_ind.size()`` the loop size, as in CuPy.  Placeholder typedefs are
   emitted at file scope before ``preamble`` (CuPy does the same), so the preamble may
   use them too.
"""

import ctypes
import keyword
import math
import operator
import re

import numpy

from .._dtypes import RECORDS
from .._device import get_device
from .._streams import stream_scope
from .._core import _collapse_axes, ndarray, broadcast_shapes, broadcast_to, empty
from ._raw import RawKernel

__all__ = ["ElementwiseKernel"]

_CTYPES = {r.name: r.ctype for r in RECORDS}     # dtype name -> C++ type in kernels

_MAX_NDIM = 24          # GA_MAX_NDIM in _kernels/garray/indexer.h
_FLAT_NDIM = _MAX_NDIM  # loops of more axes run flattened (tests lower it to reach that path)
_BLOCK = 256
_MAX_BLOCK = 1024
_MAX_GRID = 2 ** 31 - 1
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Names the generated glue uses; user parameters must not shadow them.
_RESERVED = {"i", "_ind"}
# The glue every user kernel starts with: CuPy's index objects as far as user code sees
# them (_ind.size(), the loop size), and max/min on the CPU device.
_PRELUDE = ("struct _ga_index_t {\n"
            "    long long n;\n"
            "    GA_DEVICE long long size() const { return n; }\n"
            "};\n"
            # NVRTC and hiprtc give device code max/min for mixed arithmetic types; these
            # are the CPU device's (NaN: whichever operand the comparison keeps).
            "#if defined(GARRAY_HOST)\n"
            "template <class A, class B> inline auto max(const A& a, const B& b) -> "
            "decltype(a + b) {\n"
            "    return a < b ? (decltype(a + b))b : (decltype(a + b))a;\n}\n"
            "template <class A, class B> inline auto min(const A& a, const B& b) -> "
            "decltype(a + b) {\n"
            "    return b < a ? (decltype(a + b))b : (decltype(a + b))a;\n}\n"
            "#endif\n")


def _kernel_dtype(t, where):
    """``numpy.dtype(t)`` when user kernels have a C type for it, else ValueError."""
    try:
        dt = numpy.dtype(t)
    except TypeError:
        raise ValueError(f"{where}: unknown type {t!r}") from None
    if dt.name not in _CTYPES:
        raise ValueError(f"{where}: type {t!r} ({dt}) is not supported; expected one of "
                         f"{', '.join(_CTYPES)}")
    return dt


class _Param:
    __slots__ = ("name", "dtype", "ctype", "raw", "is_const")

    def __init__(self, text, is_const, kernel, kind="ElementwiseKernel"):
        toks = text.split()
        if len(toks) < 2:
            raise ValueError(f"{kind} {kernel!r}: syntax error in parameter "
                             f"{text.strip()!r} (expected '[raw] type name')")
        t, self.name = toks[-2], toks[-1]
        self.raw = False
        self.is_const = is_const
        for kw in toks[:-2]:
            if kw == "raw":
                self.raw = True
            elif kw == "_non_const":
                self.is_const = False
            else:
                raise ValueError(f"{kind} {kernel!r}: unknown keyword {kw!r} "
                                 f"in parameter {text.strip()!r}")
        if not _IDENT.match(self.name) or keyword.iskeyword(self.name):
            raise ValueError(f"{kind} {kernel!r}: invalid parameter name "
                             f"{self.name!r}")
        if self.name in _RESERVED or self.name.startswith("_ga_"):
            raise ValueError(f"{kind} {kernel!r}: can not use {self.name!r} as a "
                             f"parameter name")
        if len(t) == 1 and _IDENT.match(t):
            self.dtype, self.ctype = None, t          # a type placeholder
        else:
            where = f"{kind} {kernel!r}: parameter {text.strip()!r}"
            self.dtype, self.ctype = _kernel_dtype(t, where), None

    def __repr__(self):
        t = self.dtype.name if self.dtype is not None else self.ctype
        return f"{'raw ' if self.raw else ''}{t} {self.name}"


def _parse_params(s, is_const, kernel, kind="ElementwiseKernel"):
    if not isinstance(s, str):
        raise TypeError(f"{kind} {kernel!r}: parameter lists must be str, got "
                        f"{type(s).__name__}")
    s = s.strip()
    if not s:
        return ()
    return tuple(_Param(p, is_const, kernel, kind) for p in s.split(","))


_strided_types = {}


def _strided_type(k):
    """ctypes mirror of ``ga::Strided<k>`` (int ndim; int64 shape[24]; int64 strides[k][24])."""
    t = _strided_types.get(k)
    if t is None:
        row = ctypes.c_int64 * _MAX_NDIM
        t = type(f"Strided{k}", (ctypes.Structure,), {"_fields_": [
            ("ndim", ctypes.c_int),
            ("shape", row),
            ("strides", row * max(k, 1)),
        ]})
        assert t.shape.offset == 8 and t.strides.offset == 8 + 8 * _MAX_NDIM
        _strided_types[k] = t
    return t


def _collapse(shape, strides):
    """Drop size-1 axes and merge axes contiguous in every operand (the launch layer's
    iterator, cython/_iter.pxi); at least one axis is returned."""
    return _collapse_axes(shape, strides)


def _is_scalar(v):
    if isinstance(v, numpy.generic):
        return v.dtype.name in _CTYPES
    return isinstance(v, (bool, int, float, complex))


def _scalar_dtype(v):
    if isinstance(v, numpy.generic):
        return v.dtype
    if isinstance(v, bool):
        return numpy.dtype("bool")
    if isinstance(v, int):
        return numpy.dtype("int64")
    if isinstance(v, float):
        return numpy.dtype("float64")
    return numpy.dtype("complex128")


def _cast_scalar(v, dt, kernel, p):
    try:
        if isinstance(v, numpy.generic):
            return numpy.asarray(v).astype(dt)[()]
        return dt.type(v)
    except (TypeError, ValueError, OverflowError) as e:
        raise type(e)(f"{kernel}: argument {p.name!r}: cannot pass {v!r} as {dt}: {e}") from None


def _common_device(arrays, kernel):
    """The one device of ``arrays`` (ValueError naming them when they differ), or None."""
    devs = []
    for a in arrays:
        if all(a.device is not d for d in devs):
            devs.append(a.device)
    if len(devs) > 1:
        raise ValueError(f"{kernel}: arrays are on different devices "
                         f"({', '.join(sorted(map(str, devs)))})")
    return devs[0] if devs else None


def _fill_strided(shape, strides, reduce_dims=True):
    """A ``ga::Strided<max(k, 1)>`` (ctypes) for the loop ``shape`` and the k operands'
    byte ``strides`` (one list per operand, broadcast already), axes collapsed when
    ``reduce_dims``."""
    k = len(strides)
    st = _strided_type(max(k, 1))()
    if reduce_dims:
        cshape, cstrides = _collapse(list(shape), [list(r) for r in strides])
    else:
        cshape = list(shape) or [1]
        cstrides = [list(r) or [0] for r in strides]
    st.ndim = len(cshape)
    for d, extent in enumerate(cshape):
        st.shape[d] = extent
    for j, srow in enumerate(cstrides):
        for d, s in enumerate(srow):
            st.strides[j][d] = s
    return st


class _UserKernel:
    """What ElementwiseKernel and ReductionKernel share: signature parsing, placeholder
    binding, argument checks and the per-binding RawKernel cache."""

    _kind = "kernel"

    def _init_common(self, in_params, out_params, name, preamble, options, strs):
        kind = self._kind
        if not isinstance(name, str) or not _IDENT.match(name) or keyword.iskeyword(name):
            raise ValueError(f"Invalid kernel name: {name!r}")
        for what, v in tuple(strs) + (("preamble", preamble),):
            if not isinstance(v, str):
                raise TypeError(f"{kind} {name!r}: {what} must be a str, got "
                                f"{type(v).__name__}")
        if isinstance(options, str):
            options = (options,)
        self.name = self.__name__ = name
        self.in_params = _parse_params(in_params, True, name, kind)
        self.out_params = _parse_params(out_params, False, name, kind)
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.nargs = self.nin + self.nout
        self.params = self.in_params + self.out_params
        names = [p.name for p in self.params]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"{kind} {name!r}: duplicate parameter names {dup}")
        self.preamble = preamble
        self.options = tuple(options)
        self._kernels = {}        # binding key -> RawKernel
        self._codes = {}          # binding key -> generated source

    def __repr__(self):
        return (f"<{self._kind} {self.name!r} ({', '.join(map(repr, self.in_params))})"
                f" -> ({', '.join(map(repr, self.out_params))})>")

    def _check_args(self, in_args, out_args):
        """TypeError for an argument of the wrong kind; the arrays' one device."""
        for p, a in zip(self.in_params, in_args):
            if isinstance(a, ndarray):
                continue
            if not _is_scalar(a):
                raise TypeError(f"{self.name}: argument {p.name!r}: expected a garray.ndarray "
                                f"or a scalar, got {type(a).__name__}")
            if p.raw:
                raise TypeError(f"{self.name}: raw argument {p.name!r} must be a "
                                f"garray.ndarray, got {type(a).__name__}")
        for p, a in zip(self.out_params, out_args):
            if not isinstance(a, ndarray):
                raise TypeError(f"{self.name}: output argument {p.name!r} must be a "
                                f"garray.ndarray, got {type(a).__name__}")
        arrays = [a for a in in_args + out_args if isinstance(a, ndarray)]
        device = _common_device(arrays, self.name)
        return device if device is not None else get_device(None)

    def _kernel(self, key, make_code):
        """The RawKernel for binding ``key``, generated by ``make_code()`` on first use."""
        kern = self._kernels.get(key)
        if kern is None:
            code = make_code()
            kern = RawKernel(code, self.name, self.options)
            self._codes[key] = code
            self._kernels[key] = kern
        return kern

    @property
    def cached_codes(self):
        """Generated sources, keyed by binding (for debugging; CuPy has the same)."""
        return dict(self._codes)

    # ---- type binding ------------------------------------------------------------
    def _bind_types(self, in_args, out_args):
        """Placeholder -> dtype, and each parameter's dtype (CuPy's rules)."""
        tmap = {}

        def bind(p, dt):
            if p.dtype is not None:
                if dt != p.dtype:
                    raise TypeError(f"{self.name}: type is mismatched for {p.name!r}: the "
                                    f"array has dtype {dt}, the parameter is {p.dtype}")
            elif p.ctype in tmap:
                if tmap[p.ctype] != dt:
                    raise TypeError(f"{self.name}: type is mismatched for {p.name!r}: "
                                    f"{p.ctype} is already {tmap[p.ctype]}, the array has "
                                    f"dtype {dt}")
            else:
                tmap[p.ctype] = dt

        for p, a in zip(self.out_params, out_args):
            bind(p, a.dtype)
        for p, a in zip(self.in_params, in_args):
            if not _is_scalar(a):
                bind(p, a.dtype)
        for p, a in zip(self.in_params, in_args):        # garray extension: scalar-only T
            if _is_scalar(a) and p.dtype is None and p.ctype not in tmap:
                tmap[p.ctype] = _scalar_dtype(a)
        for p in self.params:
            if p.dtype is None and p.ctype not in tmap:
                raise ValueError(f"{self.name}: cannot decide the type {p.ctype} of "
                                 f"{p.name!r}: pass an output array of the wanted dtype")
            if p.dtype is None and tmap[p.ctype].name not in _CTYPES:
                raise TypeError(f"{self.name}: {p.ctype} = {tmap[p.ctype]} is not supported")
        return tmap, [p.dtype if p.dtype is not None else tmap[p.ctype] for p in self.params]



class ElementwiseKernel(_UserKernel):
    """A user-defined elementwise kernel (CuPy's ``ElementwiseKernel``).

    >>> add = garray.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add")
    >>> add(garray.ones(3), garray.ones(3))          # returns a new array z
    >>> add(x, y, z)                                 # writes into z, returns z

    ``in_params``/``out_params`` are CuPy signatures (``"float32 x, raw T y"``); ``T``-like
    one-letter types are placeholders bound from the arguments' dtypes.  ``operation``
    is HIP-dialect C++ run once per element, with the flat index ``i``; ``preamble`` is
    inserted at file scope before the kernel, ``loop_prep``/``after_loop`` before and
    after the element loop; ``options`` go to the compiler.  Arguments after ``name``
    are keyword-only.  Calls take ``size=`` (the loop size when every array is
    ``raw``), ``block_size=`` (default 256) and ``stream=``.

    Differences from CuPy: ``ga::complex`` has ``+ - * == !=`` only; a placeholder
    seen only in scalar arguments takes the scalar's type (CuPy fails); a
    non-contiguous ``raw`` array is copied to a C-contiguous buffer (written back
    afterwards for ``raw`` outputs, not for ``raw`` inputs).

    Parameters
    ----------
    in_params : str
        CuPy-style input parameters ("T x, raw float32 y").
    out_params : str
        CuPy-style output parameters.
    operation : str
        HIP-dialect C++ run per element (index i).
    name : str, optional
        The kernel's name.
    options : tuple of str, optional
        Compiler options.
    preamble : str, optional
        Code at file scope before the kernel.
    reduce_dims : bool, optional
        Merge contiguous axes before the launch.
    no_return : bool, optional
        Return None from a call.
    return_tuple : bool, optional
        Always return a tuple of the outputs.
    loop_prep : str, optional
        Code before the element loop.
    after_loop : str, optional
        Code after the element loop.
    """

    _kind = "ElementwiseKernel"

    def __init__(self, in_params, out_params, operation, name="kernel", *, options=(),
                 preamble="", reduce_dims=True, no_return=False, return_tuple=False,
                 loop_prep="", after_loop=""):
        self._init_common(in_params, out_params, name, preamble, options,
                          (("operation", operation), ("loop_prep", loop_prep),
                           ("after_loop", after_loop)))
        self.operation = operation
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.reduce_dims = bool(reduce_dims)
        self.no_return = bool(no_return)
        self.return_tuple = bool(return_tuple)

    # ---- code generation ---------------------------------------------------------
    def _code(self, tmap, dtypes, is_scalar):
        """Kernel source for one binding; ``is_scalar[j]`` for each parameter."""
        k = sum(1 for p, s in zip(self.params, is_scalar) if not p.raw and not s)
        sig, refs = [], []
        slot = 0
        for p, dt, s in zip(self.params, dtypes, is_scalar):
            ct = _CTYPES[dt.name]
            if s:
                sig.append(f"{ct} {p.name}")
            elif p.raw:
                sig.append(f"{ct}* {p.name}")
            else:
                sig.append(f"char* _ga_ptr_{p.name}")
                const = "const " if p.is_const else ""
                refs.append(f"        {const}{ct}& {p.name} = "
                            f"*({const}{ct}*)(_ga_ptr_{p.name} + _ga_off[{slot}]);")
                slot += 1
        sig.append(f"GA_BYVAL(ga::Strided<{max(k, 1)}>) _ga_p")
        sig.append("long long _ga_n")
        typedefs = "".join(f"typedef {_CTYPES[dt.name]} {c};\n" for c, dt in sorted(tmap.items()))
        return (
            '#include "garray/indexer.h"\n'
            '#include "garray/types.h"\n'
            f"{_PRELUDE}"
            f"{typedefs}"
            f"#line 1 \"<{self.name} preamble>\"\n"
            f"{self.preamble}\n"
            f"#line 1 \"<{self.name} glue>\"\n"
            f'extern "C" __global__ void {self.name}({", ".join(sig)}) {{\n'
            "    const _ga_index_t _ind = {_ga_n};\n"
            "    (void)_ind; (void)_ga_p;\n"
            + (f"    long long _ga_off[{k}];\n" if k else "")
            + f"#line 1 \"<{self.name} loop_prep>\"\n"
            f"{self.loop_prep}\n;\n"
            f"#line 1 \"<{self.name} glue>\"\n"
            "    const long long _ga_step = (long long)gridDim.x * blockDim.x;\n"
            "    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
            "         i < _ga_n; i += _ga_step) {\n"
            + ("        _ga_p.offsets(i, _ga_off);\n" if k else "")
            + "".join(r + "\n" for r in refs)
            + f"#line 1 \"<{self.name} operation>\"\n"
            f"{self.operation}\n"
            ";\n"
            "    }\n"
            f"#line 1 \"<{self.name} after_loop>\"\n"
            f"{self.after_loop}\n;\n"
            "}\n")

    # ---- call ----------------------------------------------------------------------
    def _call_flat(self, in_args, out_args, shape, block_size):
        """A loop of more than _MAX_NDIM axes (NumPy 2 allows 64; the kernel's indexer
        keeps 24): every non-raw operand as a contiguous 1-d copy of its broadcast, the
        outputs computed into 1-d buffers and copied back.  User code that reads the
        loop's axes (reduce_dims=False) cannot be flattened."""
        if not self.reduce_dims:
            raise NotImplementedError(f"{self.name}: reduce_dims=False with {len(shape)} "
                                      f"dimensions (at most {_MAX_NDIM} keep their axes)")
        for p, a in zip(self.out_params, out_args):
            if not p.raw and a.shape != shape:
                raise ValueError(f"{self.name}: output {p.name!r} has shape {a.shape}, "
                                 f"expected the broadcast shape {shape}")
        flat = [a if p.raw or not isinstance(a, ndarray) else
                broadcast_to(a, shape).copy().reshape(-1)
                for p, a in zip(self.params, in_args)]
        temps = [a if p.raw else empty(a.size, dtype=a.dtype, device=a.device)
                 for p, a in zip(self.out_params, out_args)]
        r = self(*flat, *temps, block_size=block_size)
        if out_args:
            for p, a, t in zip(self.out_params, out_args, temps):
                if not p.raw:
                    a[...] = t.reshape(shape)
            results = out_args
        else:
            results = [x.reshape(shape) for x in (r if isinstance(r, tuple) else (r,))]
        if self.no_return:
            return None
        return results[0] if self.nout == 1 and not self.return_tuple else tuple(results)

    def __call__(self, *args, size=None, block_size=_BLOCK, stream=None):

        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"Wrong number of arguments for {self.name!r}. It must be either "
                            f"{self.nin} or {self.nargs} (with outputs), but given "
                            f"{len(args)}.")
        block_size = operator.index(block_size)
        if not 0 < block_size <= _MAX_BLOCK:
            raise ValueError(f"{self.name}: block_size must be in 1..{_MAX_BLOCK} (threads "
                             f"per block on every device), got {block_size}")
        in_args = list(args[:self.nin])
        out_args = list(args[self.nin:])
        device = self._check_args(in_args, out_args)
        if stream is not None:      # outputs allocated and the kernel queued on stream
            with stream_scope(stream, device):
                return self(*args, size=size, block_size=block_size)

        # loop shape: broadcast of every non-raw array (outputs included, as in CuPy)
        nonraw = [a for p, a in zip(self.params, in_args + out_args)
                  if not p.raw and isinstance(a, ndarray)]
        if size is not None:
            if nonraw:
                raise ValueError(f"{self.name}: 'size' can be used only if all of the "
                                 f"ndarray arguments are raw")
            size = operator.index(size)
            if size < 0:
                raise ValueError(f"{self.name}: size must be non-negative, got {size}")
            shape = (size,)
        elif not nonraw:
            raise ValueError(f"{self.name}: loop size is undecided: pass a non-raw array "
                             f"argument or size=")
        else:
            try:
                shape = broadcast_shapes(*(a.shape for a in nonraw))
            except ValueError:
                raise ValueError(f"{self.name}: shape mismatch: arguments cannot be broadcast "
                                 f"together; shapes "
                                 f"{', '.join(str(a.shape) for a in nonraw)}") from None
            if len(shape) > _FLAT_NDIM:
                return self._call_flat(in_args, out_args, shape, block_size)

        tmap, dtypes = self._bind_types(in_args, out_args)

        if not out_args:
            for p in self.out_params:
                if p.raw and size is None:
                    raise ValueError(f"{self.name}: output array size is undecided for raw "
                                     f"output {p.name!r}: pass it, or size=")
            out_args = [empty(shape, dtype=dt, device=device)
                        for dt in dtypes[self.nin:]]
        else:
            for p, a in zip(self.out_params, out_args):
                if not p.raw and a.shape != shape:
                    raise ValueError(f"{self.name}: output {p.name!r} has shape {a.shape}, "
                                     f"expected the broadcast shape {shape}")
                if not a.flags.writeable:
                    raise ValueError(f"{self.name}: output {p.name!r} is read-only")

        if self.no_return:
            ret = None
        elif self.nout == 1 and not self.return_tuple:
            ret = out_args[0]
        else:
            ret = tuple(out_args)
        n = math.prod(shape)
        if n == 0:
            return ret

        # kernel arguments
        is_scalar = [_is_scalar(a) for a in in_args] + [False] * self.nout
        kargs, views, writeback = [], [], []
        for p, dt, a, s in zip(self.params, dtypes, in_args + out_args, is_scalar):
            if s:
                kargs.append(_cast_scalar(a, dt, self.name, p))
            elif p.raw:
                if not a.flags.c_contiguous:
                    c = a.copy()
                    if not p.is_const:
                        writeback.append((a, c))
                    a = c
                kargs.append(a)
            else:
                v = a if a.shape == shape else broadcast_to(a, shape)
                views.append(v)
                kargs.append(v)
        kargs.append(_fill_strided(shape, [v.strides for v in views], self.reduce_dims))
        kargs.append(numpy.int64(n))

        key = (tuple(sorted((c, dt.name) for c, dt in tmap.items())), tuple(is_scalar))
        kern = self._kernel(key, lambda: self._code(tmap, dtypes, is_scalar))
        grid = min(-(-n // block_size), _MAX_GRID)
        kern((grid,), (block_size,), tuple(kargs), stream=stream)
        for orig, tmp in writeback:
            orig[...] = tmp
        return ret
