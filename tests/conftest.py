import os
import sys

sys.path.insert(0, os.path.dirname(__file__))   # the xp helper module


def pytest_report_header(config):
    import garray
    dev = garray.default_device()
    return (f"garray device: {dev} (GARRAY_DEVICE={os.environ.get('GARRAY_DEVICE', '')!r}), "
            f"warp size {dev.warp_size}")
