"""The creation kernels (fill, arange, linspace, eye, tril/triu) at lengths around a CPU
thread's chunk (GA_CPU_CHUNK, 2048 elements) (_kernels/creation.hip walks a chunk per CPU thread, one
element per GPU thread): every element against NumPy, in every dtype the kernel takes."""

import numpy
import pytest

from garray._core import _CPU_CHUNK_ELEMENTS as C
from xp import xp_compare

LENGTHS = [1, 255, 256, C - 1, C, C + 1, 2 * C + 1, 70001]
DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64",
          "complex64", "complex128"]


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", DTYPES)
@xp_compare()
def test_ones_and_full_every_element(xp, n, dtype):
    return xp.ones(n, dtype=dtype), xp.full((n, 3), 7, dtype=dtype)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint32", "float16", "float32",
                                   "float64", "complex128"])
@xp_compare()
def test_arange_every_element(xp, n, dtype):
    # int8 wraps for long lengths as NumPy's arange does in the output dtype
    stop = n if dtype not in ("int8", "float16") else min(n, 100)
    return xp.arange(stop, dtype=dtype), xp.arange(-3, stop * 2 - 3, 2, dtype=dtype)


@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("endpoint", [True, False])
@xp_compare()
def test_linspace_every_element(xp, n, endpoint):
    return (xp.linspace(-1.5, 2.25, n, endpoint=endpoint),
            xp.linspace(0, 1, n, endpoint=endpoint, dtype="float32"),
            xp.linspace(1 + 2j, -3j, n, endpoint=endpoint))


# rows x cols around the chunk: a chunk holding many rows, a row of many chunks, one
# column, one row, and diagonals that start outside the matrix
EYE_SHAPES = [(1, 1), (7, 5), (5, 7), (16, 16), (300, 257), (257, 1), (1, 1000),
              (1, 2 * C + 3), (3, C + 5), (2, 300), (1000, 3)]


@pytest.mark.parametrize("shape", EYE_SHAPES, ids=str)
@pytest.mark.parametrize("k", [0, 1, -1, 5, -256, 999, -2000])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "complex64"])
@xp_compare()
def test_eye_every_element(xp, shape, k, dtype):
    return xp.eye(*shape, k=k, dtype=dtype)


@pytest.mark.parametrize("shape", [(3, 300, 257), (257, 1), (1, 1000), (2, 16, 16),
                                   (2, 3, C + 5)],
                         ids=str)
@pytest.mark.parametrize("k", [0, 2, -3])
@xp_compare()
def test_tril_triu_every_element(xp, shape, k):
    x = xp.reshape(xp.arange(numpy.prod(shape), dtype="float32"), shape)
    return xp.tril(x, k), xp.triu(x, k), xp.tril(x[..., ::-1], k), xp.triu(x.T.T, k)
