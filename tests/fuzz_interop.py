"""The hostile-input fuzzer's classes for the interfaces around the arrays, registered
into tests/fuzz_hostile.py's CLASSES (run them with ``python tests/fuzz_hostile.py
--classes <name> --examples N``): ``printing`` (repr/str, array2string, print options,
the float and integer formatters), ``io`` (save/load, savez, savetxt/loadtxt,
frombuffer, fromstring, fromiter, tofile/fromfile, truncated files), ``dlpack`` (NumPy
producers of every layout into garray and back, the protocol's keywords),
``user_kernels`` (ElementwiseKernel, ReductionKernel and RawKernel with wrong
arguments, dtypes, shapes, outputs and launch sizes) and ``streams`` (programs over
several streams ordered by events, with misuse of the stream and event API mixed in).
Each compares with NumPy where NumPy has the call, else with its NumPy meaning (user
kernels, streams) and the exception classes garray documents."""

import io
import os
import tempfile

import numpy
from hypothesis import given
from hypothesis import strategies as st

import garray
from garray.kernels import ElementwiseKernel, RawKernel, ReductionKernel

NAN, INF = float("nan"), float("inf")


def _planted(fz, shape, dtype, rnd, specials):
    h = fz.data_for(shape, dtype, rnd)
    if h.dtype.kind in "fc" and h.size:
        with numpy.errstate(over="ignore"):
            for i, v in enumerate(specials[:h.size]):
                h.flat[(rnd + 5 * i) % h.size] = v
    return h


def _refused(fz, label, call, classes):
    """call() must raise one of ``classes``."""
    fz.case(label)
    try:
        got = call()
    except classes:
        return
    raise AssertionError(f"{label}: expected {classes}, got {got!r}")


# ---- printing -------------------------------------------------------------------------------

PRINT_SHAPES = st.sampled_from([(), (0,), (3,), (2, 3), (3, 0, 2), (1001,), (4, 300)])
PRINT_SPECIALS = st.lists(st.sampled_from([NAN, INF, -INF, -0.0, 1e300, 1e-300, 123456.789,
                                           1e-6]), max_size=3)
OPTIONS = st.fixed_dictionaries({}, optional={
    "precision": st.sampled_from([0, 3, 17, -1, 1.5, "3", 2**63]),
    "threshold": st.sampled_from([0, 5, 1000, -1, NAN, 2**63]),
    "edgeitems": st.sampled_from([0, 1, 3, -1]),
    "linewidth": st.sampled_from([1, 20, 75, 0, -5]),
    "suppress": st.booleans(),
    "sign": st.sampled_from(["-", "+", " ", "x"]),
    "floatmode": st.sampled_from(["fixed", "unique", "maxprec", "maxprec_equal", "bad"]),
    "nanstr": st.sampled_from(["N", "", 3]),
    "infstr": st.sampled_from(["I", "inf"])})
PRINTERS = ["repr", "str", "array2string", "array_repr", "array_str", "positional",
            "scientific", "base_repr", "binary_repr"]


def fuzz_printing(fz):
    def run_class(examples, s):
        @fz.class_settings(examples, s)
        @given(printer=st.sampled_from(PRINTERS), dtype=fz.dtypes, shape=PRINT_SHAPES,
               specials=PRINT_SPECIALS, opts=OPTIONS, rnd=st.integers(0, 2**16),
               arg=st.sampled_from([None, 0, 2, 8, 36, 37, 1, -3, 2.0, 64, "4"]),
               number=st.sampled_from([0, 5, -5, 255, 2**63 - 1, -2**63, 2**64, 1.5,
                                       numpy.int8(-7), numpy.uint64(2**64 - 1), True]))
        def run(printer, dtype, shape, specials, opts, rnd, arg, number):
            fz.count("printing")
            h = _planted(fz, shape, dtype, rnd, specials)

            def f(xp):
                with xp.printoptions(**opts):
                    x = xp.asarray(h)
                    if printer == "repr":
                        return repr(x)
                    if printer == "str":
                        return str(x)
                    if printer == "array2string":
                        return xp.array2string(x, max_line_width=arg, separator=", ",
                                               prefix="p(", precision=arg)
                    if printer == "array_repr":
                        return xp.array_repr(x, max_line_width=arg)
                    if printer == "array_str":
                        return xp.array_str(x, precision=arg)
                    v = h.reshape(-1)[0] if h.size else numpy.float64(0.1)
                    if printer == "positional":
                        return xp.format_float_positional(v, precision=arg, pad_left=arg,
                                                          trim="k-0."[rnd % 4])
                    if printer == "scientific":
                        return xp.format_float_scientific(v, precision=arg, exp_digits=arg)
                    if printer == "base_repr":
                        return xp.base_repr(number, base=arg, padding=rnd % 3)
                    return xp.binary_repr(number, width=arg)
            fz.compare(f"{printer} {dtype}{shape} {opts} arg={arg!r} number={number!r}", f)
        run()
    return run_class


# ---- io -------------------------------------------------------------------------------------

IO_OPS = ["save/load", "numpy save/load", "truncated load", "savez", "savetxt/loadtxt",
          "frombuffer", "fromstring", "fromiter", "tofile/fromfile"]
COUNTS = st.sampled_from([-1, 0, 1, 3, 7, -2, 2**63])
TEXTS = st.sampled_from(["1 2 3", "1,2,3", "1,,2", "nan inf -0", "", "a b", "1 2 3 ",
                         "  7\n8\n", "1e400 -1e400", "0x10 5"])


def _held(text, dtype, sep):
    """How many values NumPy parses from ``text`` (an unparsable tail: as many as asked)."""
    try:
        return numpy.fromstring(text, dtype, -1, sep=sep).size
    except ValueError:
        return 2**64


def fuzz_io(fz):
    def run_class(examples, s):
        @fz.class_settings(examples, s)
        # NumPy's .npy/.npz store bfloat16 as raw "|V2" (see test_io_formats.NPY_DTYPES)
        @given(op=st.sampled_from(IO_OPS), dtype=fz.dtypes.filter(lambda d: d != "bfloat16"),
               shape=fz.small_shapes,
               specials=PRINT_SPECIALS, rnd=st.integers(0, 2**16), count=COUNTS,
               offset=st.sampled_from([0, 1, 8, -1, 10**6]), text=TEXTS,
               sep=st.sampled_from([" ", ",", "\n", "", "  "]),
               fmt=st.sampled_from(["%.18e", "%d", "%s", "%q", "%.3f,%.3f", 3]),
               cut=st.integers(1, 200))
        def run(op, dtype, shape, specials, rnd, count, offset, text, sep, fmt, cut):
            fz.count("io")
            h = _planted(fz, shape, dtype, rnd, specials)
            raw = h.tobytes() + bytes(range(rnd % 5))
            with tempfile.TemporaryDirectory() as d:
                def path(xp):
                    return os.path.join(d, f"{xp.__name__}.bin")

                def f(xp):
                    x = xp.asarray(h)
                    if op in ("save/load", "numpy save/load", "truncated load"):
                        buf = io.BytesIO()
                        (numpy if op != "save/load" else xp).save(buf, h if op != "save/load"
                                                                  else x)
                        data = buf.getvalue()
                        if op == "truncated load":
                            data = data[:max(len(data) - cut, 0)]
                        return xp.load(io.BytesIO(data))
                    if op == "savez":
                        buf = io.BytesIO()
                        xp.savez(buf, x, b=x[..., :1] if x.ndim else x)
                        buf.seek(0)
                        with xp.load(buf) as z:
                            return [z[k] for k in sorted(z.files)]
                    if op == "savetxt/loadtxt":
                        buf = io.StringIO()
                        xp.savetxt(buf, x, fmt=fmt, delimiter=sep or " ")
                        text_out = buf.getvalue()
                        return text_out, xp.loadtxt(io.StringIO(text_out), dtype=dtype,
                                                    delimiter=sep or " ", ndmin=2)
                    if op == "frombuffer":
                        return xp.frombuffer(raw, dtype=dtype, count=count, offset=offset)
                    if op == "fromstring":
                        r = xp.fromstring(text, dtype=dtype, count=count, sep=sep)
                        if xp is numpy and isinstance(count, int) and _held(
                                text, dtype, sep) < count:
                            # NumPy's tail of uninitialised memory: garray's ValueError
                            # (docs/reliability.md)
                            raise ValueError("fewer values than count")
                        return r
                    if op == "fromiter":
                        return xp.fromiter(iter(h.reshape(-1).tolist()), dtype=dtype,
                                           count=count)
                    x.tofile(path(xp), sep=sep)
                    return xp.fromfile(path(xp), dtype=dtype, count=count, sep=sep,
                                       offset=max(offset, 0) if sep == "" else 0)
                fz.compare(f"{op} {dtype}{shape} count={count} offset={offset} "
                           f"text={text!r} sep={sep!r} fmt={fmt!r} cut={cut}", f)
        run()
    return run_class


# ---- dlpack ---------------------------------------------------------------------------------

DL_VIEWS = ["c", "transposed", "reversed", "broadcast", "readonly", "step", "0d", "empty",
            "unaligned"]


def _dl_view(h, view):
    if view == "transposed":
        return h.T
    if view == "reversed" and h.ndim:
        return h[::-1]
    if view == "broadcast":
        return numpy.broadcast_to(h, (2,) + h.shape)
    if view == "readonly":
        h = h.copy()
        h.flags.writeable = False
        return h
    if view == "step" and h.ndim:
        return h[..., ::2]
    if view == "0d" and h.size:
        return h.reshape(-1)[:1].reshape(())
    if view == "empty":
        return h[..., :0]
    if view == "unaligned":        # data one byte past an aligned address
        b = numpy.frombuffer(bytearray(b"\0" + h.tobytes()), dtype=h.dtype, offset=1)
        return b.reshape(h.shape)
    return h


def fuzz_dlpack(fz):
    def run_class(examples, s):
        @fz.class_settings(examples, s)
        # NumPy's DLPack has no bfloat16 (test_transfer_device.NUMPY_DLPACK_DTYPES)
        @given(dtype=fz.dtypes.filter(lambda d: d != "bfloat16"),
               shape=st.sampled_from([(3,), (2, 3), (4, 1, 2), (0, 2)]),
               view=st.sampled_from(DL_VIEWS), copy=st.sampled_from([None, True, False]),
               device=st.sampled_from([None, "cpu", "bogus"]),
               direction=st.sampled_from(["to garray", "to numpy", "round trip"]),
               key=st.sampled_from(["stream", "max_version", "dl_device", "copy", None]),
               value=st.sampled_from([None, -1, 1, "x", (1, 0), (0, 8), (1,), (1, 0, 0),
                                      True]),
               rnd=st.integers(0, 2**16))
        def run(dtype, shape, view, copy, device, direction, key, value, rnd):
            fz.count("dlpack")
            h = _dl_view(fz.data_for(shape, dtype, rnd), view)
            label = (f"dlpack {direction} {dtype}{shape} {view} copy={copy} device={device} "
                     f"{key}={value!r}")
            if direction == "to garray":
                if garray.default_device().kind != "cpu" and copy is False:
                    return           # a NumPy array cannot reach a GPU without a copy

                def f(xp):
                    dev = device if xp is numpy or device != "cpu" else \
                        garray.Device("cpu")
                    r = xp.from_dlpack(h, copy=copy, device=dev)
                    return r if xp is garray else numpy.asarray(r)
                fz.compare(label, f, also={BufferError: ValueError})
                return
            g = garray.asarray(h) if view != "broadcast" else garray.broadcast_to(
                garray.asarray(h[0]), h.shape)
            if view == "readonly":
                g = garray.asarray(h)
                g.flags.writeable = False
            if direction == "to numpy":
                if key is None:
                    fz.case(label)
                    back = numpy.from_dlpack(g, device="cpu")
                    numpy.testing.assert_array_equal(back, h, strict=True, err_msg=label)
                    return
                fz.case(label)
                try:
                    want = h.__dlpack__(**{key: value})
                    want = None
                except Exception as e:  # noqa: BLE001 - garray must raise alike
                    want = e
                try:
                    g.__dlpack__(**{key: value})
                except (TypeError, ValueError, BufferError, RuntimeError) as e:
                    # NumPy refuses every stream on the CPU (RuntimeError); garray takes
                    # ints there and refuses other types (TypeError)
                    if want is None and key != "dl_device":
                        raise AssertionError(f"{label}: garray raised {e!r}, NumPy did not")
                    return
                if want is not None and key != "stream":
                    raise AssertionError(f"{label}: NumPy raised {want!r}, garray did not")
                return
            fz.case(label)
            r = garray.from_dlpack(g, copy=copy)
            fz.assert_xp_close(r, h, err_msg=label)
        run()
    return run_class


# ---- user kernels ---------------------------------------------------------------------------

# (in_params, out_params, operation, NumPy meaning); bool computes through int as C++ does
TEMPLATES = [
    ("T x, T y", "T z", "z = x + y", lambda x, y: x + y),
    ("T x, T y", "T z", "z = x * y - x", lambda x, y: x * y - x),
    ("T x, T y", "T z", "z = x == y ? x : y", lambda x, y: numpy.where(x == y, x, y)),
]
_EW = {}


def _ew(i):
    if i not in _EW:
        a, b, op, _ = TEMPLATES[i]
        _EW[i] = ElementwiseKernel(a, b, op, f"fuzz_ew{i}")
    return _EW[i]


_KERNELS = {}
RAW_SRC = r"""
extern "C" __global__ void fuzz_inc(float* x, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}"""


def _expected_ew(i, hx, hy, dtype):
    fn = TEMPLATES[i][3]
    with numpy.errstate(all="ignore"):
        if numpy.dtype(dtype) == numpy.bool_:
            return fn(hx.astype(numpy.int64), hy.astype(numpy.int64)).astype(bool)
        return numpy.asarray(fn(hx, hy)).astype(dtype)


def fuzz_user_kernels(fz):
    def run_class(examples, s):
        @fz.class_settings(examples, s)
        @given(kind=st.sampled_from(["elementwise", "elementwise", "reduction", "raw"]),
               tmpl=st.integers(0, len(TEMPLATES) - 1), dtype=fz.dtypes,
               other=st.sampled_from(["same", "same", "scalar", "other dtype", "numpy",
                                      "bad shape", "broadcast"]),
               out=st.sampled_from([None, None, "right", "alias", "bad shape", "bad dtype"]),
               nargs=st.sampled_from([2, 2, 2, 1, 4]), shape=fz.small_shapes,
               axis=st.sampled_from([None, 0, -1, 1, 2, (0, 0), 1.0, 2**63]),
               keepdims=st.booleans(),
               grid=st.sampled_from([(1,), 2, (4, 1, 1), (0,), -1, (2**31,), (1, 65536),
                                     (1, 1, 1, 1), 1.5]),
               block=st.sampled_from([(32,), 64, (1024,), (1025,), (0,), (32, 32, 2), "32"]),
               rnd=st.integers(0, 2**16))
        def run(kind, tmpl, dtype, other, out, nargs, shape, axis, keepdims, grid, block,
                rnd):
            fz.count("user_kernels")
            hx = fz.data_for(shape, dtype, rnd)
            x = garray.asarray(hx.copy())      # the CPU device may share NumPy's memory
            label = (f"{kind} {TEMPLATES[tmpl][2]!r} {dtype}{shape} other={other} out={out} "
                     f"nargs={nargs} axis={axis!r} grid={grid!r} block={block!r}")
            if kind == "elementwise":
                _fuzz_ew(fz, label, tmpl, dtype, hx, x, other, out, nargs, rnd)
            elif kind == "reduction":
                _fuzz_red(fz, label, dtype, hx, x, axis, keepdims, out)
            else:
                _fuzz_raw(fz, label, grid, block, rnd)
        run()
    return run_class


def _broadcasts(shape, to):
    try:
        return numpy.broadcast_shapes(shape, to) == to
    except ValueError:
        return False


def _fuzz_ew(fz, label, tmpl, dtype, hx, x, other, out, nargs, rnd):
    k = _ew(tmpl)
    hy = fz.data_for(hx.shape, dtype, rnd + 1)
    if other == "scalar":
        y, hy = 3, numpy.asarray(3).astype(dtype)
    elif other == "other dtype":
        y = garray.asarray(hy.astype("int16" if dtype != "int16" else "int8"))
    elif other == "numpy":
        y = hy
    elif other == "bad shape":
        hy = numpy.concatenate([hy.reshape(-1), hy.reshape(-1)[:1]])
        y = garray.asarray(hy.copy())
    elif other == "broadcast" and hx.ndim:
        hy = hy[..., :1]
        y = garray.asarray(hy)
    else:
        y = garray.asarray(hy.copy())
    args = [x, y]
    try:
        shape = numpy.broadcast_shapes(hx.shape, hy.shape)
    except ValueError:
        shape = None
    target = None
    if out == "right" and shape is not None:
        target = garray.empty(shape, dtype=dtype)
    elif out == "alias" and shape == hx.shape:
        target = x
    elif out == "bad shape":
        target = garray.empty((7, 5), dtype=dtype)
    elif out == "bad dtype":
        target = garray.empty(shape or (1,), dtype="float32" if dtype != "float32" else "int8")
    if target is not None:
        args.append(target)
    args = (args + [x, x])[:nargs] if nargs != 2 else args
    fits = out == "bad shape" and shape is not None and _broadcasts(shape, (7, 5))
    valid = (other in ("same", "scalar", "broadcast") or (
        other == "bad shape" and shape is not None)) and nargs == 2 and (
        out in (None, "right", "alias") or fits)
    fz.case(label)
    try:
        got = k(*args)
    except (TypeError, ValueError) as e:
        assert not valid, f"{label}: a valid call raised {e!r}"
        return
    assert valid, f"{label}: garray accepted it and gave {got!r}"
    want = _expected_ew(tmpl, hx, hy, dtype)
    if fits:                    # the inputs broadcast to the output's shape, as CuPy
        want = numpy.broadcast_to(want, (7, 5)).copy()
    tol = dict(rtol=2e-3, atol=2e-3) if dtype == "float16" else {}
    fz.assert_xp_close(got, want, err_msg=label, **tol)
    if target is not None:
        assert got is target, f"{label}: the output is not the array passed"


def _fuzz_red(fz, label, dtype, hx, x, axis, keepdims, out):
    if "sum" not in _KERNELS:
        _KERNELS["sum"] = ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "fuzz_sum")

    def f(xp):
        if xp is numpy:
            with numpy.errstate(all="ignore"):
                if numpy.dtype(dtype) == numpy.bool_:
                    return numpy.asarray(numpy.any(hx, axis=axis, keepdims=keepdims))
                return numpy.asarray(numpy.add.reduce(hx, axis=axis, keepdims=keepdims,
                                                      dtype=hx.dtype))
        return _KERNELS["sum"](x, axis=axis, keepdims=keepdims)
    tol = dict(rtol=2e-2, atol=2e-2) if dtype in ("float16",) else {}
    fz.compare(label, f, also={OverflowError: ValueError, TypeError: ValueError}, **tol)


def _fuzz_raw(fz, label, grid, block, rnd):
    if "raw" not in _KERNELS:
        _KERNELS["raw"] = RawKernel(RAW_SRC, "fuzz_inc")
    k = _KERNELS["raw"]
    n = rnd % 200
    h = numpy.arange(n, dtype=numpy.float32)
    x = garray.asarray(h.copy())

    def dims(v):
        t = v if isinstance(v, tuple) else (v,)
        return t if all(type(e) is int for e in t) and len(t) <= 3 else None
    g, b = dims(grid), dims(block)
    valid = g is not None and b is not None and all(0 < e for e in g + b) and \
        g[0] < 2**31 and all(e < 65536 for e in g[1:]) and numpy.prod(b) <= 1024 and \
        (len(b) < 3 or b[2] <= 64)
    fz.case(label)
    try:
        k(grid, block, (x, numpy.int64(n)))
    except (TypeError, ValueError, NotImplementedError) as e:
        # garray launches 1-d grids and blocks (NotImplementedError for more)
        assert not valid or (isinstance(e, NotImplementedError) and len(g + b) > 2), \
            f"{label}: a valid launch raised {e!r}"
        numpy.testing.assert_array_equal(x.get(), h, err_msg=f"{label}: refused but wrote")
        return
    assert valid, f"{label}: an impossible launch was accepted"
    covered = min(n, int(numpy.prod(g[:1])) * int(b[0])) if len(g) == 1 and len(b) == 1 \
        else None
    if covered is not None:
        want = h.copy()
        want[:covered] += 1
        numpy.testing.assert_array_equal(x.get(), want, err_msg=label)


# ---- streams --------------------------------------------------------------------------------

STEP = st.tuples(st.sampled_from(["add", "scale", "copy", "sum", "sync", "misuse"]),
                 st.integers(0, 2), st.integers(0, 2), st.integers(0, 7))
MISUSE = [
    ("wait_event on a non-event", lambda s, e: s.wait_event("x"), TypeError),
    ("Event(interprocess=True)", lambda s, e: garray.Event(interprocess=True),
     NotImplementedError),
    ("elapsed time without timing", lambda s, e: garray.Event(disable_timing=True).elapsed_time(
        garray.Event(disable_timing=True)), (ValueError, RuntimeError, TypeError)),
    ("record on a non-stream", lambda s, e: e.record("x"), TypeError),
    ("Stream on a bogus device", lambda s, e: garray.Stream(device="bogus"), ValueError),
    ("Stream with a text priority", lambda s, e: garray.Stream(priority="x"), TypeError),
    ("elapsed time to a non-event", lambda s, e: e.elapsed_time(3), TypeError),
    ("use() twice", lambda s, e: (s.use(), s.use(), garray.Stream(null=True).use()) and
     1 / 0, ZeroDivisionError),
]


def fuzz_streams(fz):
    def run_class(examples, s):
        @fz.class_settings(max(examples // 3, 1), s)
        @given(steps=st.lists(STEP, min_size=1, max_size=12), n=st.sampled_from([1, 1000,
                                                                                  70000]),
               nstreams=st.integers(1, 3))
        def run(steps, n, nstreams):
            fz.count("streams")
            streams = [garray.Stream(non_blocking=bool(i % 2)) for i in range(nstreams)]
            hs = [numpy.arange(n, dtype=numpy.float32) * (i + 1) for i in range(3)]
            gs = [garray.asarray(h) for h in hs]
            garray.get_current_stream().synchronize()
            last = [None] * 3          # the stream that last touched each array
            sums = []
            label = f"streams n={n} {nstreams} streams {steps}"
            fz.case(label)

            def order(stream, *arrays):
                # a correct program: wait for the last writer of what this step touches
                for a in arrays:
                    if last[a] is not None and last[a] is not stream:
                        ev = garray.Event()
                        ev.record(last[a])
                        stream.wait_event(ev)
                    last[a] = stream
            for op, a, b, k in steps:
                st_ = streams[k % nstreams]
                if op == "misuse":
                    what, call, exc = MISUSE[k]
                    fz.case(f"{label}: {what}")
                    prev = garray.get_current_stream()
                    try:
                        call(st_, garray.Event())
                    except exc:
                        pass
                    else:
                        raise AssertionError(f"{label}: {what} did not raise {exc}")
                    finally:
                        prev.use()
                    continue
                if op == "sync":
                    st_.synchronize()
                    continue
                with st_:
                    if op == "add":
                        order(st_, a, b)
                        gs[a] += gs[b]
                        hs[a] += hs[b]
                    elif op == "scale":
                        order(st_, a)
                        gs[a] *= numpy.float32(0.5)
                        hs[a] *= numpy.float32(0.5)
                    elif op == "copy":
                        order(st_, a, b)
                        gs[a][...] = gs[b]
                        hs[a][...] = hs[b]
                    else:
                        order(st_, a)
                        sums.append((garray.sum(gs[a]), hs[a].sum()))
            for stream in streams:
                stream.synchronize()
            for i in range(3):
                numpy.testing.assert_array_equal(gs[i].get(), hs[i], err_msg=label)
            for g_, h_ in sums:
                numpy.testing.assert_allclose(float(g_), h_, rtol=1e-4, err_msg=label)
        run()
    return run_class


def register(classes, fz):
    """Add this module's fuzz classes to ``classes``; ``fz`` is tests/fuzz_hostile.py."""
    classes["printing"] = fuzz_printing(fz)
    classes["io"] = fuzz_io(fz)
    classes["dlpack"] = fuzz_dlpack(fz)
    classes["user_kernels"] = fuzz_user_kernels(fz)
    classes["streams"] = fuzz_streams(fz)
