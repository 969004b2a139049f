"""ULP error of garray's and NumPy's transcendental functions against a higher-precision
reference (docs/performance.md, "Vector math on the CPU device").

    python bench/vector_math_ulp.py [--log2n 20] [--funcs exp,log]

float32 results are compared with the float64 function (NumPy's) of the same input;
float64 results with the long double (x87, 64-bit mantissa) function.  Inputs: random
bit patterns over every finite value (huge trig arguments, subnormals), a uniform sample
of the function's usual domain, and the special values of ``special_values``.  Each row:
max ULP of garray and NumPy; ``special``: inputs whose garray result differs from NumPy's
where either is NaN, infinite or zero (NaN positions, inf signs, signed zeros), and from
the rounded reference too; ``np-off``: the same differences where garray's result is the
rounded reference's (NumPy's is off: exp2 float32 flushes results below 2**-149.5 to 0);
``ref-special``: garray results non-finite where the reference is finite or the reverse.
Contiguous inputs run the AVX2 (8/4-wide) variants; ``--layout rows`` runs rows of 4
float32 / 2 float64 elements, which take the loops' 16-byte (SSE) epilogue.
"""

import argparse
import sys

import numpy

import garray

from garray.testing.vector_math import BINARY, REF, UNARY, ulp_error


def special_values(dt):
    f = numpy.finfo(dt)
    base = [0.0, 1.0, 2.0, 0.5, numpy.pi / 2, numpy.pi, 10.0, 88.72283935546875, 89.0,
            -87.33654, -103.97208, -104.0, 709.782712893384, 710.0, -708.3964, -745.1332,
            -746.0, 128.0, -149.0, -150.0, 1024.0, -1074.0, -1075.0, 1e5, 1e10, 1e22, 2.0 ** 60,
            float(f.max), float(f.tiny), float(f.smallest_subnormal),
            float(f.tiny) - float(f.smallest_subnormal), 1e-30, 1e-300]
    with numpy.errstate(all="ignore"):
        v = numpy.array(base, dtype=dt)
        v = numpy.concatenate([v, numpy.nextafter(v, numpy.inf, dtype=dt),
                               numpy.nextafter(v, -numpy.inf, dtype=dt)])
    v = numpy.concatenate([v, -v, numpy.array([numpy.nan, -numpy.nan, numpy.inf, -numpy.inf],
                                              dtype=dt)])
    return v[numpy.isfinite(v) | numpy.isnan(v) | numpy.isinf(v)]


def inputs(dt, n, lo, hi, rng):
    it = numpy.dtype(dt).itemsize
    bits = rng.integers(0, 2 ** (8 * it), n, dtype=numpy.uint64 if it == 8 else numpy.uint32,
                        endpoint=False)
    rand = bits.view(dt)
    rand = rand[numpy.isfinite(rand)]
    uni = rng.uniform(lo, hi, n).astype(dt)
    return numpy.concatenate([special_values(dt), rand, uni])


def special_mismatch(a, b):
    """Elements where a and b differ and one of them is NaN, infinite or zero."""
    with numpy.errstate(all="ignore"):
        notfin = ~numpy.isfinite(a) | ~numpy.isfinite(b) | (a == 0) | (b == 0)
        same = (numpy.isnan(a) & numpy.isnan(b)) | \
               ((a == b) & (numpy.signbit(a) == numpy.signbit(b)))
    return notfin & ~same


def run_garray(name, args, layout):
    if layout == "contiguous":
        return getattr(garray, name)(*[garray.asarray(a) for a in args]).get()
    # rows of k elements in a wider array: each row is a short unit-stride loop
    k = 16 // args[0].dtype.itemsize
    n = args[0].size
    m = -(-n // k)
    gargs = []
    for a in args:
        flat = numpy.zeros(m * k, a.dtype)
        flat[:n] = a
        wide = numpy.zeros((m, k + 1), a.dtype)
        wide[:, :k] = flat.reshape(m, k)
        gargs.append(garray.asarray(wide)[:, :k])
    out = getattr(garray, name)(*gargs).get()
    return numpy.ascontiguousarray(out).reshape(-1)[:n]


def measure(name, dt, n, layout, rng):
    lo, hi = UNARY.get(name) or BINARY[name]
    arity = 1 if name in UNARY else 2
    args = [inputs(dt, n, lo, hi, rng) for _ in range(arity)]
    if arity == 2:
        m = min(a.size for a in args)
        args = [a[:m] for a in args]
        args[1] = rng.permutation(args[1])
    fn = getattr(numpy, name)
    with numpy.errstate(all="ignore"):
        ref = fn(*[a.astype(REF[dt]) for a in args])
        npy = fn(*args)
    got = run_garray(name, args, layout)
    eg, en = ulp_error(got, ref, dt), ulp_error(npy, ref, dt)
    with numpy.errstate(all="ignore"):
        r = ref.astype(dt)      # the reference rounded
    ref_special = int(numpy.count_nonzero(numpy.isfinite(r) != numpy.isfinite(got)))
    worst = int(numpy.nanargmax(eg))
    return dict(name=name, dtype=dt, garray=float(numpy.nanmax(eg)), numpy=float(numpy.nanmax(en)),
                special=int(numpy.count_nonzero(special_mismatch(got, npy) &
                                                special_mismatch(got, r))),
                special_np_wrong=int(numpy.count_nonzero(special_mismatch(got, npy) &
                                                         ~special_mismatch(got, r))),
                ref_special=ref_special, worst=tuple(float(a[worst]) for a in args),
                n=int(args[0].size))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--log2n", type=int, default=20)
    ap.add_argument("--funcs", default=",".join([*UNARY, *BINARY]))
    ap.add_argument("--layout", choices=("contiguous", "rows"), default="contiguous")
    args = ap.parse_args()
    rng = numpy.random.default_rng(1)
    print(f"garray on {garray.default_device()}; numpy {numpy.__version__}; "
          f"{args.layout}; 2 x 2**{args.log2n} inputs per row")
    print(f"{'func':<8} {'dtype':<8} {'garray ulp':>10} {'numpy ulp':>10} {'special':>8} "
          f"{'ref-special':>11} {'np-off':>6}  worst input")
    for dt in ("float32", "float64"):
        for name in args.funcs.split(","):
            r = measure(name, dt, 1 << args.log2n, args.layout, rng)
            print(f"{name:<8} {dt:<8} {r['garray']:10.2f} {r['numpy']:10.2f} {r['special']:8d} "
                  f"{r['ref_special']:11d} {r['special_np_wrong']:6d}  {r['worst']}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
