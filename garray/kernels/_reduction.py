"""User-defined reduction kernels (CuPy's ``ReductionKernel``) on garray's RawKernel.

Note [ReductionKernel]
~~~~~~~~~~~~~~~~~~~~~~
1. Signatures and type placeholders are ElementwiseKernel's (Note [ElementwiseKernel]
   in kernels/_elementwise.py, shared through ``_UserKernel``).  ``raw`` parameters are not
   supported (NotImplementedError when the kernel is made).
2. The inputs broadcast together to the loop shape; ``axis`` (garray._args.reduction_axes) splits
   it into kept axes and reduced axes.  The launch passes two ``ga::Strided``: ``po``
   over the kept axes (the byte strides of every array input, then of every output)
   and ``pr`` over the reduced axes (the inputs' strides), each collapsed like the
   elementwise iterator when ``reduce_dims``.  Indices are 64-bit.
3. One thread per output (a grid-stride loop, barrier-free, so the CPU device runs it
   as plain loops).  The thread maps its reduced elements and combines them pairwise:
   leaves of 128 elements (4 interleaved runs of 32, each in order, for independent
   dependency chains; the runs then combine as (r0 r1)(r2 r3)) merge through a binary
   counter (as ``reduce_range`` in _kernels/reduce.hip), so a long float sum has
   O(log n) error like NumPy's.  ``reduce_expr`` always gets ``a`` holding earlier
   elements than ``b``; ``identity`` is used only for an empty reduction (none: the
   call raises ValueError, as NumPy does for max of an empty slice).
4. The user expressions become file-scope functions after the preamble:
      _type_reduce _ga_map(const T& x, ...)         return _type_reduce(map_expr);
      _type_reduce _ga_reduce(a, b)                 return _type_reduce(reduce_expr);
      void _ga_post_map(_type_reduce a, T& y, ..., _in_ind, _out_ind)  post_map_expr;
   ``_type_reduce`` is the accumulator type (``reduce_type``; default the first output
   parameter's type), ``_in_ind.size()``/``_out_ind.size()`` the input and output
   element counts (CuPy's names, e.g. for a mean).
5. One thread walks a whole reduction: a GPU reducing a few long rows uses few threads
   (correct, not fast); garray's built-in reductions have the block-tree schedule.
"""

import math

import numpy

from .._args import reduction_axes
from . import _elementwise
from ._elementwise import (_BLOCK, _CTYPES, _MAX_GRID, _PRELUDE,
                            _UserKernel, _cast_scalar, _fill_strided, _is_scalar,
                            _kernel_dtype)
from .._core import broadcast_shapes, broadcast_to, empty, ndarray
from .._streams import stream_scope

__all__ = ["ReductionKernel"]

_CHUNK = 128          # elements per leaf of the pairwise merge ...
_RUN = _CHUNK // 4    # ... as 4 runs reduced in order, interleaved (independent chains)
_IN_NAMES = {"_in_ind", "_out_ind", "_type_reduce"}


def _reduce_ctype(reduce_type, kernel):
    """``reduce_type`` as C source: a placeholder letter, a dtype (name or object) as its
    C type, or any other string verbatim (``double``, a preamble struct); ValueError for
    a dtype user kernels have no C type for (longdouble)."""
    if reduce_type is None:
        return None
    if isinstance(reduce_type, str):
        t = reduce_type.strip()
        if not t:
            raise ValueError(f"ReductionKernel {kernel!r}: reduce_type must not be empty")
        if t in _CTYPES:
            return _CTYPES[t]
        try:
            named = numpy.dtype(t).name == t           # a dtype name without a C type
        except TypeError:
            named = False
        if named:
            _kernel_dtype(t, f"ReductionKernel {kernel!r}: reduce_type")    # raises
        return t
    if not isinstance(reduce_type, (type, numpy.dtype)):
        raise TypeError(f"ReductionKernel {kernel!r}: reduce_type must be a C type string or "
                        f"a dtype, got {type(reduce_type).__name__}")
    return _CTYPES[_kernel_dtype(reduce_type, f"ReductionKernel {kernel!r}: reduce_type").name]


class ReductionKernel(_UserKernel):
    """A user-defined reduction kernel (CuPy's ``ReductionKernel``).

    >>> l2norm = garray.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)",
    ...                                 "0", "l2norm")
    >>> l2norm(x, axis=1)                  # numpy.sqrt((x * x).sum(axis=1))

    ``map_expr`` maps one element of the (broadcast) inputs, named as in ``in_params``,
    to the accumulator type ``reduce_type`` (a C type, a dtype or a placeholder;
    default the first output's type); ``reduce_expr`` combines two accumulators ``a``
    and ``b``; ``post_map_expr`` writes the outputs from the result ``a``; ``identity``
    is a C expression for an empty reduction (None: an empty reduction raises
    ValueError).  Calls take ``axis`` (None, an int or a tuple), ``keepdims``, ``out``
    (or the outputs positionally after the inputs) and ``stream``.

    Differences from CuPy: ``raw`` parameters raise NotImplementedError; the identity
    is not combined into non-empty reductions (CuPy starts each thread from it, which is
    the same for a true identity); one thread reduces each output (pairwise, see Note
    [ReductionKernel] in garray/kernels/_reduction.py).

    Parameters
    ----------
    in_params : str
        CuPy-style input parameters.
    out_params : str
        CuPy-style output parameters.
    map_expr : str
        The per-element expression.
    reduce_expr : str
        Combines accumulators a and b.
    post_map_expr : str
        Writes the outputs from a.
    identity : str or None
        C expression of the empty reduction's value.
    name : str, optional
        The kernel's name.
    reduce_type : str or dtype, optional
        The accumulator type.
    reduce_dims : bool, optional
        Merge contiguous axes before the launch.
    preamble : str, optional
        Code at file scope before the kernel.
    options : tuple of str, optional
        Compiler options.
    """

    _kind = "ReductionKernel"

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr,
                 identity, name="reduce_kernel", reduce_type=None, reduce_dims=True,
                 preamble="", options=()):
        self._init_common(in_params, out_params, name, preamble, options,
                          (("map_expr", map_expr), ("reduce_expr", reduce_expr),
                           ("post_map_expr", post_map_expr)))
        for what, v in (("map_expr", map_expr), ("reduce_expr", reduce_expr)):
            if not v.strip():
                raise ValueError(f"ReductionKernel {name!r}: {what} must not be empty")
        if not self.out_params:
            raise ValueError(f"ReductionKernel {name!r}: at least one output parameter is "
                             f"needed")
        for p in self.params:
            if p.raw:
                raise NotImplementedError(f"ReductionKernel {name!r}: raw parameter "
                                          f"{p.name!r} is not supported")
            if p.name in _IN_NAMES:
                raise ValueError(f"ReductionKernel {name!r}: can not use {p.name!r} as a "
                                 f"parameter name")
        for p in self.out_params:
            if p.name == "a":
                raise ValueError(f"ReductionKernel {name!r}: an output can not be named 'a' "
                                 f"(post_map_expr's name for the result)")
        if isinstance(identity, bool):
            identity = "true" if identity else "false"
        elif isinstance(identity, (int, float)):
            if not math.isfinite(identity):
                raise ValueError(f"ReductionKernel {name!r}: identity {identity!r} has no C "
                                 f"literal; pass a C expression string")
            identity = repr(identity)
        elif identity is not None and not isinstance(identity, str):
            raise TypeError(f"ReductionKernel {name!r}: identity must be a str or None, got "
                            f"{type(identity).__name__}")
        if isinstance(identity, str) and not identity.strip():
            raise ValueError(f"ReductionKernel {name!r}: identity must not be empty (None "
                             f"for no identity)")
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = identity
        self.reduce_type = _reduce_ctype(reduce_type, name)
        self.reduce_dims = bool(reduce_dims)

    # ---- code generation ---------------------------------------------------------
    def _code(self, tmap, dtypes, is_scalar):
        ka = sum(1 for s in is_scalar[:self.nin] if not s)     # array inputs
        ko, kr = ka + self.nout, max(ka, 1)
        ct = [_CTYPES[dt.name] for dt in dtypes]
        p0 = self.out_params[0]
        rtype = self.reduce_type or (p0.ctype if p0.dtype is None else _CTYPES[p0.dtype.name])
        sig, map_params, map_args = [], [], []
        slot = 0
        for p, c, s in zip(self.in_params, ct, is_scalar):
            if s:
                sig.append(f"{c} {p.name}")
                map_params.append(f"const {c} {p.name}")
                map_args.append(p.name)
            else:
                sig.append(f"const char* _ga_ptr_{p.name}")
                map_params.append(f"const {c}& {p.name}")
                map_args.append(f"*(const {c}*)(_ga_ptr_{p.name} + _ga_o[{slot}] + "
                                f"_ga_r[{slot}])")
                slot += 1
        post_params, post_args = [], []
        for j, (p, c) in enumerate(zip(self.out_params, ct[self.nin:])):
            sig.append(f"char* _ga_ptr_{p.name}")
            post_params.append(f"{c}& {p.name}")
            post_args.append(f"*({c}*)(_ga_ptr_{p.name} + _ga_o[{ka + j}])")
        sig += [f"GA_BYVAL(ga::Strided<{ko}>) _ga_po", f"GA_BYVAL(ga::Strided<{kr}>) _ga_pr",
                "long long _ga_nout", "long long _ga_nred"]
        typedefs = "".join(f"typedef {_CTYPES[dt.name]} {c};\n"
                           for c, dt in sorted(tmap.items()))
        mapped = f"_ga_map({', '.join(map_args)})"
        empty = ("        if (_ga_nred == 0) {\n"
                 "            _ga_acc = _ga_identity();\n"
                 "        } else {\n" if self.identity is not None else "        {\n")
        ident = ("" if self.identity is None else
                 f"GA_DEVICE static _type_reduce _ga_identity() {{\n"
                 f"#line 1 \"<{self.name} identity>\"\n"
                 f"    return _type_reduce({self.identity});\n}}\n")
        n = self.name
        return (
            '#include "garray/indexer.h"\n'
            '#include "garray/types.h"\n'
            f"{_PRELUDE}"
            f"{typedefs}"
            f"#line 1 \"<{n} preamble>\"\n"
            f"{self.preamble}\n"
            f"#line 1 \"<{n} glue>\"\n"
            f"typedef {rtype} _type_reduce;\n"
            f"GA_DEVICE static _type_reduce _ga_map({', '.join(map_params)}) {{\n"
            f"#line 1 \"<{n} map_expr>\"\n"
            f"    return _type_reduce({self.map_expr});\n}}\n"
            "GA_DEVICE static _type_reduce _ga_reduce(const _type_reduce& a, "
            "const _type_reduce& b) {\n"
            f"#line 1 \"<{n} reduce_expr>\"\n"
            f"    return _type_reduce({self.reduce_expr});\n}}\n"
            f"GA_DEVICE static void _ga_post_map(_type_reduce a, "
            f"{', '.join(post_params)}, const _ga_index_t& _in_ind, "
            f"const _ga_index_t& _out_ind) {{\n"
            "    (void)a; (void)_in_ind; (void)_out_ind;\n"
            f"#line 1 \"<{n} post_map_expr>\"\n"
            f"{self.post_map_expr}\n;\n}}\n"
            f"{ident}"
            f"#line 1 \"<{n} glue>\"\n"
            f'extern "C" __global__ void {n}({", ".join(sig)}) {{\n'
            "    const _ga_index_t _in_ind = {_ga_nout * _ga_nred};\n"
            "    const _ga_index_t _out_ind = {_ga_nout};\n"
            "    const long long _ga_step = (long long)gridDim.x * blockDim.x;\n"
            "    for (long long _ga_i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
            "         _ga_i < _ga_nout; _ga_i += _ga_step) {\n"
            f"        long long _ga_o[{ko}], _ga_r[{kr}];\n"
            "        _ga_po.offsets(_ga_i, _ga_o);\n"
            "        _type_reduce _ga_acc;\n"
            f"{empty}"
            "            _type_reduce _ga_stack[64];\n"
            "            int _ga_depth = 0;\n"
            "            long long _ga_count = 0;\n"
            f"            for (long long _ga_j = 0; _ga_j < _ga_nred; _ga_j += {_CHUNK}) {{\n"
            f"                const long long _ga_m = _ga_nred - _ga_j < {_CHUNK} ? "
            f"_ga_nred - _ga_j : {_CHUNK};\n"
            "                _type_reduce _ga_s;\n"
            f"                if (_ga_m == {_CHUNK}) {{      // 4 runs of {_RUN}, interleaved\n"
            "                    _type_reduce _ga_l[4];\n"
            "                    for (int _ga_u = 0; _ga_u < 4; ++_ga_u) {\n"
            f"                        _ga_pr.offsets(_ga_j + {_RUN} * _ga_u, _ga_r);\n"
            f"                        _ga_l[_ga_u] = {mapped};\n"
            "                    }\n"
            f"                    for (long long _ga_k = 1; _ga_k < {_RUN}; ++_ga_k)\n"
            "                        for (int _ga_u = 0; _ga_u < 4; ++_ga_u) {\n"
            f"                            _ga_pr.offsets(_ga_j + {_RUN} * _ga_u + _ga_k, _ga_r);\n"
            f"                            _ga_l[_ga_u] = _ga_reduce(_ga_l[_ga_u], {mapped});\n"
            "                        }\n"
            "                    _ga_s = _ga_reduce(_ga_reduce(_ga_l[0], _ga_l[1]),\n"
            "                                       _ga_reduce(_ga_l[2], _ga_l[3]));\n"
            "                } else {                   // the last, short run: in order\n"
            "                    _ga_pr.offsets(_ga_j, _ga_r);\n"
            f"                    _ga_s = {mapped};\n"
            "                    for (long long _ga_k = 1; _ga_k < _ga_m; ++_ga_k) {\n"
            "                        _ga_pr.offsets(_ga_j + _ga_k, _ga_r);\n"
            f"                        _ga_s = _ga_reduce(_ga_s, {mapped});\n"
            "                    }\n"
            "                }\n"
            "                for (long long _ga_c = _ga_count; _ga_c & 1; _ga_c >>= 1)\n"
            "                    _ga_s = _ga_reduce(_ga_stack[--_ga_depth], _ga_s);\n"
            "                _ga_stack[_ga_depth++] = _ga_s;\n"
            "                ++_ga_count;\n"
            "            }\n"
            "            _ga_acc = _ga_stack[0];\n"
            "            for (int _ga_d = 1; _ga_d < _ga_depth; ++_ga_d)\n"
            "                _ga_acc = _ga_reduce(_ga_acc, _ga_stack[_ga_d]);\n"
            "        }\n"
            f"        _ga_post_map(_ga_acc, {', '.join(post_args)}, _in_ind, _out_ind);\n"
            "    }\n"
            "}\n")

    # ---- call ----------------------------------------------------------------------
    def _call_2d(self, in_args, out_args, shape, kept, axes, out_shape):
        """More than 24 axes (NumPy 2 allows 64; the kernel's indexer keeps 24):
        each array input as a contiguous (kept, reduced) 2-d copy of its broadcast, kept
        axes first, reduced along axis 1; the result reshaped to ``out_shape``."""
        n_out = math.prod(shape[d] for d in kept)
        order = tuple(kept) + tuple(axes)
        flat = [a if not isinstance(a, ndarray) else
                broadcast_to(a, shape).transpose(order).copy().reshape(n_out, -1)
                for a in in_args]
        r = self(*flat, axis=1)
        results = [x.reshape(out_shape) for x in (r if isinstance(r, tuple) else (r,))]
        if out_args:
            for o, x in zip(out_args, results):
                o[...] = x
            results = out_args
        return results[0] if self.nout == 1 else tuple(results)

    def __call__(self, *args, axis=None, keepdims=False, out=None, stream=None):

        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"Wrong number of arguments for {self.name!r}. It must be either "
                            f"{self.nin} or {self.nargs} (with outputs), but given "
                            f"{len(args)}.")
        in_args = list(args[:self.nin])
        out_args = list(args[self.nin:])
        if out is not None:
            if out_args:
                raise ValueError(f"{self.name}: outputs passed both positionally and as out=")
            out_args = list(out) if isinstance(out, (tuple, list)) else [out]
            if len(out_args) != self.nout:
                raise ValueError(f"{self.name}: out= needs {self.nout} array"
                                 f"{'s' if self.nout != 1 else ''}, got {len(out_args)}")
        device = self._check_args(in_args, out_args)
        if stream is not None:      # outputs allocated and the kernel queued on stream
            with stream_scope(stream, device):
                return self(*args, axis=axis, keepdims=keepdims, out=out)

        arrays = [a for a in in_args if isinstance(a, ndarray)]
        try:
            shape = broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:
            raise ValueError(f"{self.name}: shape mismatch: arguments cannot be broadcast "
                             f"together; shapes {', '.join(str(a.shape) for a in arrays)}"
                             ) from None
        ndim = len(shape)
        axes = reduction_axes(axis, ndim, self.name)
        kept = [d for d in range(ndim) if d not in axes]
        kept_shape = [shape[d] for d in kept]
        red_shape = [shape[d] for d in axes]
        out_shape = (tuple(1 if d in axes else shape[d] for d in range(ndim)) if keepdims
                     else tuple(kept_shape))

        tmap, dtypes = self._bind_types(in_args, out_args)
        if not out_args:
            out_args = [empty(out_shape, dtype=dt, device=device) for dt in dtypes[self.nin:]]
        else:
            for p, a in zip(self.out_params, out_args):
                if a.shape != out_shape:
                    raise ValueError(f"{self.name}: output {p.name!r} has shape {a.shape}, "
                                     f"expected {out_shape}")
                if not a.flags.writeable:
                    raise ValueError(f"{self.name}: output {p.name!r} is read-only")
        ret = out_args[0] if self.nout == 1 else tuple(out_args)

        n_out, n_red = math.prod(kept_shape), math.prod(red_shape)
        if n_out == 0:
            return ret
        if n_red == 0 and self.identity is None:
            raise ValueError(f"{self.name}: zero-size array to reduction operation "
                             f"{self.name} which has no identity")
        for a in arrays:                  # an output over an input would race the reads
            for p, o in zip(self.out_params, out_args):
                if _overlap(a, o):
                    raise NotImplementedError(f"{self.name}: output {p.name!r} overlaps an "
                                              f"input; pass a separate output array")

        if ndim > _elementwise._FLAT_NDIM:
            return self._call_2d(in_args, out_args, shape, kept, axes, out_shape)

        is_scalar = [_is_scalar(a) for a in in_args] + [False] * self.nout
        kargs, views = [], []
        for j, (p, dt, a, s) in enumerate(zip(self.params, dtypes, in_args + out_args,
                                              is_scalar)):
            if s:
                kargs.append(_cast_scalar(a, dt, self.name, p))
            else:
                kargs.append(a)
                if j < self.nin:
                    views.append(a if a.shape == shape else broadcast_to(a, shape))
        rows = [[v.strides[d] for d in kept] for v in views]
        for o in out_args:
            rows.append([o.strides[d] for d in kept] if keepdims else list(o.strides))
        kargs.append(_fill_strided(kept_shape, rows, self.reduce_dims))
        if n_red == 0:
            kargs.append(_fill_strided([1], [[0]] * len(views)))
        else:
            kargs.append(_fill_strided(red_shape, [[v.strides[d] for d in axes]
                                                   for v in views], self.reduce_dims))
        kargs += [numpy.int64(n_out), numpy.int64(n_red)]

        key = (tuple(sorted((c, dt.name) for c, dt in tmap.items())), tuple(is_scalar))
        kern = self._kernel(key, lambda: self._code(tmap, dtypes, is_scalar))
        grid = min(-(-n_out // _BLOCK), _MAX_GRID)
        kern((grid,), (_BLOCK,), tuple(kargs), stream=stream)
        return ret


def _extent(a):
    """[lo, hi) bytes that array ``a`` can touch."""
    lo = hi = a.ptr
    for n, s in zip(a.shape, a.strides):
        if s < 0:
            lo += (n - 1) * s
        else:
            hi += (n - 1) * s
    return lo, hi + a.itemsize


def _overlap(a, b):
    if a.size == 0 or b.size == 0:
        return False
    (alo, ahi), (blo, bhi) = _extent(a), _extent(b)
    return alo < bhi and blo < ahi
