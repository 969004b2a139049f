"""garray.fft against numpy.fft: every function, lengths (power of two, smooth, prime,
1), axes, batches, non-contiguous views, dtypes, n/s padding and cropping, norms, out=,
errors, and an accuracy test at 2**20 (docs/fft.md)."""

import numpy
import pytest

import garray
from garray.fft import _engine
from xp import assert_xp_close, expected_exception

# NumPy 2 deprecates s without axes (garray keeps the old meaning: the last len(s) axes)
pytestmark = pytest.mark.filterwarnings("ignore:`axes` should not be:DeprecationWarning")
RNG = numpy.random.default_rng(1234)
DTYPES = ("float32", "float64", "complex64", "complex128")
NORMS = (None, "backward", "ortho", "forward")


def data(shape, dtype):
    dt = numpy.dtype(dtype)
    x = RNG.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dt)


def tol(expected):
    """Relative to the result's largest magnitude: single precision 2e-5, double 1e-13
    (an FFT's error grows like log n times the largest value)."""
    big = float(numpy.abs(expected).max()) if expected.size else 1.0
    t = 2e-5 if expected.dtype in (numpy.float32, numpy.complex64) else 1e-13
    return dict(rtol=0, atol=t * max(big, 1.0))


def check(fn_name, x, *args, **kwargs):
    """garray.fft.<fn_name> of ``x`` (a NumPy array, moved to garray) against NumPy."""
    try:
        expected = getattr(numpy.fft, fn_name)(x, *args, **kwargs)
    except Exception as e:  # noqa: BLE001 - garray must raise alike
        with pytest.raises(expected_exception(e)):
            getattr(garray.fft, fn_name)(garray.asarray(x), *args, **kwargs)
        return
    got = getattr(garray.fft, fn_name)(garray.asarray(x), *args, **kwargs)
    assert_xp_close(got, expected, **tol(expected), err_msg=f"{fn_name} {x.shape} {x.dtype}")


LENGTHS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 25, 49, 60, 64, 97, 100, 128, 210, 243,
           1000, 1024, 1031)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", LENGTHS)
def test_fft_ifft_lengths(n, dtype):
    x = data((3, n), dtype)
    check("fft", x)
    check("ifft", x)


# smooth lengths of the tiled path (n = n1 n2, kernel note 6): its shortest, partial tiles
# (100: 10 columns), radix 2, 3, 5 and 7 sub-transforms, unequal n1 < n2
TILE_LENGTHS = (64, 98, 100, 1008, 1 << 12, 3 ** 7, 5 ** 5, 7 ** 4, 3 << 15)


@pytest.mark.parametrize("tiled", [True, False])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", TILE_LENGTHS)
def test_tiled_and_staged_paths(n, dtype, tiled, monkeypatch):
    """Both engines on every device: the tiled passes (the CPU device's; forced on GPUs,
    with their work buffer) and one launch per Stockham stage (the GPUs'; forced on the
    CPU device), forward and inverse, scaled, batched, from a strided view."""
    monkeypatch.setattr(_engine, "_tiled", lambda dev: tiled)
    x = data((3, n), dtype)
    check("fft", x)
    check("ifft", x, norm="ortho")
    g = garray.asarray(data((2, 2 * n), dtype))
    assert_xp_close(garray.fft.fft(g[::-1, ::2], norm="forward"),
                    numpy.fft.fft(g.get()[::-1, ::2], norm="forward"),
                    **tol(numpy.fft.fft(g.get()[::-1, ::2], norm="forward")))
    if n % 2 == 0:       # the even-length real transforms run a complex one of n/2
        r = data((2, 2 * n), "float64" if dtype == "complex128" else "float32")
        check("rfft", r)
        check("irfft", numpy.fft.rfft(r), 2 * n)


@pytest.mark.parametrize("tiled", [True, False])
def test_tiled_and_staged_hostile(tiled, monkeypatch):
    """out= aliasing the input, an empty batch, transposed and negative-stride views,
    integer input and the ortho inverse over axis 0, at a length of the tiled path."""
    monkeypatch.setattr(_engine, "_tiled", lambda dev: tiled)
    x = data((3, 128), "complex128")
    expected = numpy.fft.fft(x)
    g = garray.asarray(x.copy())
    assert garray.fft.fft(g, out=g) is g
    assert_xp_close(g, expected, **tol(expected))
    check("fft", numpy.zeros((0, 128), "complex64"))
    check("ifft", data((128, 5), "complex64")[::-1], axis=0, norm="ortho")
    check("fft", data((96, 4), "complex128").T)
    check("fft", numpy.arange(300, dtype=numpy.int64).reshape(3, 100) % 7)


@pytest.mark.parametrize("fn", ["fft", "ifft", "rfft", "ihfft"])
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2])
def test_axes(fn, axis):
    x = data((4, 6, 5), "float64" if fn in ("rfft", "ihfft") else "complex128")
    check(fn, x, axis=axis)


def test_noncontiguous_views():
    base = data((6, 10), "complex64")
    g = garray.asarray(base)
    views = ((g[::-1, ::2], base[::-1, ::2]), (g.T, base.T),
             (g[1:5, ::-3], base[1:5, ::-3]))
    for gv, nv in views:
        assert_xp_close(garray.fft.fft(gv), numpy.fft.fft(nv), **tol(numpy.fft.fft(nv)))
        assert_xp_close(garray.fft.ifft(gv, axis=0), numpy.fft.ifft(nv, axis=0),
                        **tol(numpy.fft.ifft(nv, axis=0)))
    r = garray.asarray(data((5, 12), "float64"))
    rv = r[::-1, 1::2]
    assert_xp_close(garray.fft.rfft(rv), numpy.fft.rfft(rv.get()),
                    **tol(numpy.fft.rfft(rv.get())))


@pytest.mark.parametrize("n", [1, 3, 8, 13, 16])
@pytest.mark.parametrize("fn", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_n_pad_crop(fn, n):
    x = data((2, 8), "float64" if fn in ("rfft", "ihfft") else "complex128")
    check(fn, x, n=n)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("fn", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn",
                                "ifftn", "rfftn", "irfftn"])
def test_norms(fn, norm):
    x = data((3, 10), "float64" if fn in ("rfft", "ihfft", "rfftn") else "complex128")
    check(fn, x, norm=norm)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", ["fftn", "ifftn", "fft2", "ifft2"])
def test_nd(fn, dtype):
    x = data((3, 4, 7), dtype)
    check(fn, x)
    check(fn, x, s=(5, 3))
    check(fn, x, axes=(0, 2))
    check(fn, x, s=(2, 6), axes=(2, 0))
    if fn in ("fftn", "ifftn"):
        check(fn, x, axes=(1, 1))
        check(fn, x, s=(2, 3, 9))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [1, 2, 5, 8, 11, 16, 30, 97])
def test_rfft_irfft(n, dtype):
    x = data((2, n), dtype)
    check("rfft", x)
    check("ihfft", x)
    spec = numpy.fft.rfft(x)
    check("irfft", spec, n=n)
    check("hfft", spec, n=n)
    check("irfft", spec)
    check("hfft", spec)


def test_irfft_ignores_imaginary_dc_nyquist():
    spec = data((5,), "complex128")
    check("irfft", spec)
    check("irfft", spec, n=9)


@pytest.mark.parametrize("fn", ["rfftn", "irfftn", "rfft2", "irfft2"])
def test_real_nd(fn):
    x = data((3, 4, 6), "float64" if fn.startswith("r") else "complex128")
    check(fn, x)
    check(fn, x, s=(5, 4))
    check(fn, x, axes=(0, 2))
    check(fn, x.astype(numpy.float32 if fn.startswith("r") else numpy.complex64))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint16"])
def test_promotion(dtype):
    x = (numpy.arange(12).reshape(3, 4) % 3).astype(dtype)
    for fn in ("fft", "ifft", "rfft", "fftn", "rfftn", "ihfft", "irfft", "hfft", "irfftn"):
        check(fn, x)


def test_empty_batch():
    for fn in ("fft", "ifft", "rfft", "fftn", "irfft", "hfft", "ihfft"):
        x = numpy.zeros((0, 8))
        check(fn, x, axis=1) if fn != "fftn" else check(fn, x, axes=(1,))


@pytest.mark.parametrize("n", [1, 2, 7, 8])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_freqs(n, d):
    assert_xp_close(garray.fft.fftfreq(n, d), numpy.fft.fftfreq(n, d))
    assert_xp_close(garray.fft.rfftfreq(n, d), numpy.fft.rfftfreq(n, d))
    assert_xp_close(garray.fft.fftfreq(n, d, dtype=numpy.float32),
                    numpy.fft.fftfreq(n, d).astype(numpy.float32))
    dev = garray.asarray([1]).device
    assert garray.fft.rfftfreq(n, d, device=dev).device == dev


def test_shifts():
    x = numpy.arange(30.0).reshape(5, 6)
    for axes in (None, 0, 1, (0, 1), (1,), -1):
        assert_xp_close(garray.fft.fftshift(garray.asarray(x), axes),
                        numpy.fft.fftshift(x, axes))
        assert_xp_close(garray.fft.ifftshift(garray.asarray(x), axes),
                        numpy.fft.ifftshift(x, axes))
    assert_xp_close(garray.fft.fftshift(garray.asarray(numpy.arange(7.0))),
                    numpy.fft.fftshift(numpy.arange(7.0)))


def test_out():
    x = data((3, 8), "complex128")
    out = garray.empty((3, 8), dtype=garray.complex128)
    r = garray.fft.fft(garray.asarray(x), out=out)
    assert r is out
    assert_xp_close(out, numpy.fft.fft(x), **tol(numpy.fft.fft(x)))
    out = garray.empty((3, 5), dtype=garray.float64)
    r = garray.fft.irfft(garray.asarray(x), n=5, out=out)
    assert r is out
    assert_xp_close(out, numpy.fft.irfft(x, n=5), **tol(numpy.fft.irfft(x, n=5)))
    out = garray.empty((3, 2, 8), dtype=garray.complex128)
    y = garray.asarray(data((3, 2, 8), "complex128"))
    assert garray.fft.fftn(y, out=out) is out
    with pytest.raises(ValueError):
        garray.fft.fft(garray.asarray(x), out=garray.empty((3, 7), dtype=garray.complex128))
    with pytest.raises(TypeError):
        garray.fft.fft(garray.asarray(x), out=garray.empty((3, 8), dtype=garray.float64))


def test_errors():
    x = data((4, 4), "complex128")
    check("fft", x, n=0)
    check("fft", x, n=-2)
    check("fft", numpy.zeros((4, 0)))
    check("irfft", numpy.ones(1))
    check("fft", x, axis=2)
    check("fft", x, axis=-3)
    check("fft", x, norm="bad")
    check("fftn", x, s=(2,), axes=(0, 1))
    check("fftn", x, axes=(0, 5))
    check("rfftn", x.real, s=(0, 2))
    check("fft", numpy.ones(()))
    check("fftn", numpy.ones(()))
    check("fftn", numpy.ones((2, 3)), axes=())
    check("rfftn", numpy.ones((2, 3)), axes=())
    check("fft2", numpy.ones(3))
    check("fft", x, n=2.0)
    with pytest.raises(TypeError):
        garray.fft.rfft(garray.asarray(x))
    with pytest.raises(TypeError):
        garray.fft.ihfft(garray.asarray(x))
    with pytest.raises(ZeroDivisionError):      # NumPy's: 1 / (n * d)
        garray.fft.fftfreq(0)
    with pytest.raises(ZeroDivisionError):
        numpy.fft.fftfreq(0)
    with pytest.raises(ValueError):
        garray.fft.fftfreq(4.0)
    with pytest.raises(ValueError):
        garray.fft.fftfreq(4, dtype=garray.int32)


def _rms(e, ref):
    return float(numpy.sqrt(numpy.mean(numpy.abs(e) ** 2) / numpy.mean(numpy.abs(ref) ** 2)))


def test_accuracy_2_20():
    """Relative RMS error against a double-precision reference on the same single-precision
    input, at 2**20 (Stockham), a prime (Bluestein), rfft/irfft of float32 and fft2:
    garray's no worse than NumPy's own (pocketfft returns the double-precision transform
    rounded, ~0.4 ulp; garray's kernels compute single precision in double and round
    once, Note [FFT precision]; 5% for ties rounded the other way).
    Double precision: within 1e-13 of NumPy's, round trip within 4x NumPy's."""
    fft = garray.fft
    for n in (1 << 20, 65537):
        x = data((n,), "complex128")
        x32 = x.astype(numpy.complex64)
        ref32 = numpy.fft.fft(x32.astype(numpy.complex128))
        np_err = _rms(numpy.fft.fft(x32) - ref32, ref32)
        g32 = fft.fft(garray.asarray(x32))
        assert g32.dtype == garray.complex64
        g_err = _rms(g32.get() - ref32, ref32)
        assert g_err <= 1.05 * np_err, (n, g_err, np_err)
        ref = numpy.fft.fft(x)
        gx = garray.asarray(x)
        g_rt = numpy.abs(fft.ifft(fft.fft(gx)).get() - x).max()
        np_rt = numpy.abs(numpy.fft.ifft(ref) - x).max()
        assert g_rt <= 4 * np_rt + 1e-15, (n, g_rt, np_rt)
        g_d = numpy.abs(fft.fft(gx).get() - ref).max()
        assert g_d <= 1e-13 * numpy.abs(ref).max(), (n, g_d)
    r32 = data((1 << 20,), "float32")
    h32 = numpy.fft.rfft(r32)
    cases = [(fft.rfft, numpy.fft.rfft, r32),
             (fft.irfft, numpy.fft.irfft, h32),
             (fft.fft2, numpy.fft.fft2, data((512, 384), "complex64")),
             (fft.irfftn, numpy.fft.irfftn, numpy.fft.rfftn(data((64, 48, 30), "float32")))]
    for gf, nf, x in cases:
        wide = x.astype(numpy.complex128 if x.dtype.kind == "c" else numpy.float64)
        ref = nf(wide)
        np_err = _rms(nf(x) - ref, ref)
        g = gf(garray.asarray(x))
        assert g.dtype == nf(x).dtype, (gf.__name__, g.dtype)
        g_err = _rms(g.get() - ref, ref)
        assert g_err <= 1.05 * np_err, (gf.__name__, g_err, np_err)


def test_large_strides_and_many_rows():
    """A strided view with a large step, many short rows, rows of length 1, and one
    Bluestein call over a batch (the cached filter serves every row)."""
    base = data((4, 700), "complex128")
    g = garray.asarray(base)
    for gv, nv in ((g[:, ::97], base[:, ::97]), (g[::-1, ::-233], base[::-1, ::-233])):
        assert_xp_close(garray.fft.fft(gv), numpy.fft.fft(nv), **tol(numpy.fft.fft(nv)))
    rows = data((500, 6), "complex64")
    check("fft", rows)
    check("ifft", rows, n=11)
    check("fft", data((7, 1), "float64"))
    check("fft", data((7, 1), "complex64"), axis=0)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")   # NumPy deprecates None in s
@pytest.mark.parametrize("fname,s,axes", [
    ("fftn", (-1, 4), (0, 1)), ("ifftn", (3, -1), (0, 1)), ("rfftn", (-1, 8), (0, 1)),
    ("irfftn", (4, -1), (0, 1)), ("irfftn", (4, None), (0, 1)), ("irfftn", (None,), (1,)),
    ("fftn", (None, 8), (1, 1)), ("rfftn", (None, 8), (1, 1)), ("rfftn", (3, 5, 4), (1, 1, 0)),
    ("fft2", (-1, -1), (-2, -1)), ("irfft2", (4, None), (-2, -1)), ("rfft2", (5, -1), (0, 1)),
])
def test_s_minus_one_none_and_repeated_axes_as_numpy(fname, s, axes):
    # -1: the input's whole length; None: each 1-d transform's default at its turn;
    # repeated axes transformed in NumPy's order
    z = data((4, 6), "complex128") if "rfft" not in fname else data((4, 6), "float64")
    expected = getattr(numpy.fft, fname)(z, s=s, axes=axes)
    got = getattr(garray.fft, fname)(garray.asarray(z), s=s, axes=axes)
    assert_xp_close(got, expected, **tol(expected))


@pytest.mark.parametrize("fname", ["fftshift", "ifftshift"])
def test_shift_without_axes_is_a_new_array(fname):
    x = garray.asarray(numpy.arange(5.0))
    y = getattr(garray.fft, fname)(x, axes=())
    y[0] = 99.0
    assert_xp_close(x, numpy.arange(5.0))
