import os
import sys

# SciPy reads SCIPY_ARRAY_API once, when it is first imported, and scikit-learn's
# array_api_dispatch requires it: set it before any test module imports SciPy, so the
# Array API consumer tests (test_sklearn.py, test_scipy_array_api.py) run in the same
# process as the rest.  For NumPy inputs SciPy takes the same NumPy path either way.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import pytest

# The shared helpers (xp.py, isolated.py, nn_reference.py) and the family directories:
# some test modules reuse another family's cases (test_ufunc_at imports test_elementwise).
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [_HERE] + sorted(os.path.join(_HERE, d) for d in os.listdir(_HERE)
                                if os.path.isdir(os.path.join(_HERE, d)) and d.isidentifier())

_stub_kind = None


def pytest_configure(config):
    """On a stub GPU driver (see garray.testing.gpu_stub), run garray's kernels there."""
    global _stub_kind
    kind = os.environ.get("GARRAY_DEVICE", "cpu").split(":")[0]
    if kind in ("cuda", "hip"):
        from garray.testing import gpu_stub
        if kind in gpu_stub.install():
            _stub_kind = kind


def pytest_collection_modifyitems(config, items):
    # Threaded tests run on the stub drivers too (thread-safe, as real drivers are).
    #
    # Statistical law tests (any test that calls check_law: a Kolmogorov-Smirnov test of
    # 10**5..10**6 draws) are skipped there too: a law is a function of the draws' bits,
    # the stub runs the CPU build of the same kernel, and the tests that pin the bits on
    # every device and launch shape (test_random*.py) run on the stub; the laws
    # themselves run on the CPU device at both warp sizes.  They cost minutes per stub
    # device (every launch serial, single-threaded) and prove nothing more there.
    if _stub_kind is None:
        return
    skip_law = pytest.mark.skip(reason=f"stub {_stub_kind} driver: statistical law test "
                                       f"(run on the CPU device; the bits are pinned here)")
    for item in items:
        if "laws" in item.keywords or _calls_check_law(item):
            item.add_marker(skip_law)


def _calls_check_law(item):
    code = getattr(getattr(item, "function", None), "__code__", None)
    return code is not None and any("check_law" in n for n in code.co_names)


def pytest_report_header(config):
    import garray
    dev = garray.default_device()
    stub = f"; stub {_stub_kind} driver, kernels run as their CPU builds" if _stub_kind else ""
    return (f"garray device: {dev} (GARRAY_DEVICE={os.environ.get('GARRAY_DEVICE', '')!r}), "
            f"warp size {dev.warp_size}{stub}")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _stub_kind is None:
        return
    from garray.testing import gpu_stub
    launches, executed, unexecuted, allocs = gpu_stub.stats(_stub_kind)
    terminalreporter.write_line(
        f"stub {_stub_kind} driver: {launches} launches, {executed} executed, "
        f"{unexecuted} not executed, {allocs} allocations")
    annotated, unannotated = gpu_stub.annotation_counts()
    if annotated or unannotated:
        terminalreporter.write_line(
            f"stub {_stub_kind} hazard checker: {annotated} built-in launches annotated, "
            f"{unannotated} left to its conservative rule (device memory garray did not "
            f"register)")
        for name, address in gpu_stub.unannotated_launches()[:4]:
            terminalreporter.write_line(f"  left to the rule: {name} (passed {address})")


def pytest_sessionfinish(session, exitstatus):
    # every launch on the stub must have run garray's kernel: else the tests proved nothing
    if _stub_kind is not None:
        from garray.testing import gpu_stub
        if gpu_stub.stats(_stub_kind)[2] and session.exitstatus == 0:
            session.exitstatus = 1
