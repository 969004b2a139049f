"""Launches that fit the hardware (Note [GPU launch shapes] in cython/_launch.pxi): every
built-in kernel is compiled with a launch bound of the block it gets, and its block comes
from the driver's own account of the function.  On the CPU device only the constants are
checked; the rest runs on GPU devices (the stub drivers read the real code objects)."""

import os
import re

import numpy
import pytest

import garray
from garray import _core
from garray._errors import BackendError
from xp import assert_xp_close

DEV = garray.default_device()
gpu_only = pytest.mark.skipif(DEV.kind == "cpu", reason="GPU launches")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_launch_block_is_the_kernels_launch_bound():
    with open(os.path.join(ROOT, "_kernels", "garray", "platform.h")) as f:
        text = f.read()
    m = re.search(r"#define GA_LAUNCH_BLOCK (\d+)", text)
    assert m and int(m.group(1)) == _core._launch_block() == 256
    # both GPU platforms declare it on every built-in kernel
    assert text.count("#  define GA_GLOBAL __global__ __launch_bounds__(GA_LAUNCH_BLOCK)") == 2


@gpu_only
def test_every_loaded_kernel_gets_its_block_from_the_driver():
    x = garray.arange(3000, dtype="float32").reshape(3, 1000)
    assert_xp_close(x.sum(axis=1), numpy.arange(3000, dtype="float32").reshape(3, 1000).sum(1))
    res = {e: a for (d, e), a in _core._gpu_kernel_resources().items() if d == DEV}
    assert res, "no kernel was loaded on the GPU"
    for expr, a in res.items():
        # the launch bound holds: the driver allows exactly the block garray launches
        assert a["max_threads"] == 256 and a["block"] == 256, (expr, a)
        assert a["registers"] > 0 and a["local"] >= 0 and a["shared"] >= 0, (expr, a)


@gpu_only
def test_a_kernel_that_fits_no_block_is_named_at_load(monkeypatch):
    rt = DEV.runtime
    real = type(rt).function_attributes

    def fewer(self, function):
        a = real(self, function)
        a["max_threads"] = 128
        return a
    monkeypatch.setattr(type(rt), "function_attributes", fewer)
    _core._debug_forget_gpu_functions()         # every unit loads again, under the patch
    # a one-thread-per-item kernel takes the block the driver allows, and is right
    h = numpy.arange(1000, dtype="int16")
    y = garray.asarray(h) * numpy.int16(3)
    assert_xp_close(y, h * numpy.int16(3))
    # a barrier kernel (the block tree, built for 256 threads) cannot: named at load
    from garray._core import _debug_reduce_strategy
    old = _debug_reduce_strategy("tree")
    try:
        with pytest.raises(BackendError, match=r"kernel ga::reduce_bt<.*cannot launch its "
                                               r"block of 256 threads: the driver allows 128"):
            garray.ones(5000, dtype="uint16").max()
    finally:
        _debug_reduce_strategy(old)
        monkeypatch.undo()
        _core._debug_forget_gpu_functions()     # the later tests load the true blocks


@gpu_only
def test_a_driver_that_cannot_say_keeps_the_launch_bound(monkeypatch):
    def refuse(self, function):
        raise BackendError("cuFuncGetAttribute failed: CUDA_ERROR_NOT_SUPPORTED")
    monkeypatch.setattr(type(DEV.runtime), "function_attributes", refuse)
    _core._debug_forget_gpu_functions()         # every unit loads again, under the patch
    try:
        h = numpy.arange(777, dtype="uint8")
        y = garray.asarray(h) ^ numpy.uint8(5)
        assert_xp_close(y, h ^ numpy.uint8(5))
        assert any("unknown" in a and a["block"] == 256
                   for (d, e), a in _core._gpu_kernel_resources().items()
                   if d == DEV and e.startswith("ga::ew2"))
    finally:
        monkeypatch.undo()
        _core._debug_forget_gpu_functions()
