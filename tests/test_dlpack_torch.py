"""DLPack both ways with PyTorch, zero-copy (NumPy's side is in test_transfer_device.py).

torch is not a test dependency: its default wheel on PyPI pulls several GB of CUDA
libraries, so CI skips this file (with that reason) and the GPU check runs it on the GPU
machine, where torch is installed. On the CPU device the tensors are CPU tensors; on
cuda/hip devices they are torch's "cuda" tensors (ROCm builds of torch call AMD GPUs
"cuda" too).
"""

import numpy
import pytest

import garray
from xp import assert_xp_close, make

torch = pytest.importorskip(
    "torch", reason="torch is not installed (its default wheel pulls several GB of CUDA "
    "libraries; bench/gpu_check.sh runs this file on the GPU machine)")

DEV = garray.asarray(0).device
DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "float32", "float64",
          "complex64", "complex128")


def _torch_device():
    return "cpu" if DEV.kind == "cpu" else f"cuda:{DEV.index or 0}"


@pytest.mark.parametrize("dtype", DTYPES)
def test_torch_from_garray_is_zero_copy(dtype):
    g = make(garray, (5, 4), dtype)
    t = torch.from_dlpack(g)
    assert str(t.device) == _torch_device()
    assert t.data_ptr() == g.ptr
    assert str(t.dtype).replace("torch.", "") == dtype
    numpy.testing.assert_array_equal(t.cpu().numpy(), make(numpy, (5, 4), dtype))


def test_torch_from_a_garray_view_keeps_strides():
    g = garray.arange(24.0).reshape(4, 6)[:, ::2].T
    t = torch.from_dlpack(g)
    itemsize = 8
    assert tuple(s * itemsize for s in t.stride()) == g.strides
    numpy.testing.assert_array_equal(t.cpu().numpy(), numpy.arange(24.0).reshape(4, 6)[:, ::2].T)


@pytest.mark.parametrize("dtype", DTYPES)
def test_garray_from_torch_is_zero_copy(dtype):
    t = torch.from_numpy(make(numpy, (3, 5), dtype)).to(_torch_device())
    g = garray.from_dlpack(t)
    assert g.device == DEV
    assert g.ptr == t.data_ptr()
    assert_xp_close(g, make(numpy, (3, 5), dtype))


def test_writes_are_shared_both_ways():
    t = torch.zeros(4, dtype=torch.float32, device=_torch_device())
    g = garray.from_dlpack(t)
    g[1] = 7.0
    assert t[1].item() == 7.0
    t[2] = -3.0
    if DEV.kind != "cpu":
        torch.cuda.synchronize()
    assert g[2].item() == -3.0


def test_round_trip_and_garray_kernels_on_torch_memory():
    t = torch.arange(10, dtype=torch.float64, device=_torch_device())
    g = garray.from_dlpack(t)
    assert_xp_close(garray.sum(g * 2), numpy.float64(90.0))
    back = torch.from_dlpack(g[::3])
    assert back.tolist() == [0.0, 3.0, 6.0, 9.0]
