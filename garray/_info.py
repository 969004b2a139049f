"""``__array_namespace_info__``: the Array API inspection namespace."""

from . import _backends, _dtypes
from ._device import Device, default_device, get_device

_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "integral": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]


class __array_namespace_info__:
    """Capabilities, devices and dtypes of garray (Array API 2025.12)."""

    __module__ = "garray"

    def capabilities(self):
        # Boolean masks index and assign (garray/_index/advanced.py) and nonzero, unique_*,
        # repeat and boolean indexing return data-dependent shapes, on every device.
        # Consumers read these flags: array-api-extra's apply_where and nunique (which
        # SciPy and scikit-learn call) take their mask and unique_counts paths on them.
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self):
        return get_device(None)

    def devices(self):
        found = [Device("cpu")]
        for kind in ("hip", "cuda"):
            ok, _ = _backends.availability(kind)
            if ok:
                n = _backends.load(kind).probe()
                found.extend(Device(kind, i) for i in range(n))
        return tuple(found)

    def default_dtypes(self, *, device=None):
        if device is not None:
            get_device(device)
        return {"real floating": _dtypes.DTYPES[10], "complex floating": _dtypes.DTYPES[12],
                "integral": _dtypes.DTYPES[4], "indexing": _dtypes.DTYPES[4]}

    def dtypes(self, *, device=None, kind=None):
        if device is not None:
            get_device(device)
        names = [_dtypes.dtype_name(d) for d in _dtypes.API_DTYPES]
        if kind is not None:
            kinds = (kind,) if isinstance(kind, str) else tuple(kind)
            keep = set()
            for k in kinds:
                if k not in _KINDS:
                    raise ValueError(f"kind: unknown dtype kind {k!r}")
                keep.update(_KINDS[k])
            names = [n for n in names if n in keep]
        return {n: _dtypes.normalize_dtype(n) for n in names}
