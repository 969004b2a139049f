"""datetime64 and timedelta64 arrays (docs/datetimes.md).

A time array is stored as int64 with NumPy's time dtype as its ``dtype``
(garray/_dtype_time.py); the Cython ufunc, reduction, copy and cast entries hand such
arrays to this package, which computes on their int64 storage with garray's own kernels:
``values`` (views, NaT, units, the calendar, casts), ``ops`` (ufuncs), ``reductions``
(reductions, sort keys); ``calendar`` holds the public functions (``isnat``, the
business days), imported by garray's namespace, not here: this package is what the
families and the Cython entries import, and the calendar imports the families.
"""

import numpy as np

from .values import cast_into, storage, label
from .ops import binary, unary, time_where as where
from .reductions import reduce, sort_keys, from_sort_keys, as_time

__all__ = ["cast_into", "storage", "label", "binary", "unary", "where", "reduce",
           "sort_keys", "from_sort_keys", "as_time", "datetime64", "timedelta64",
           "busdaycalendar"]

datetime64 = np.datetime64
timedelta64 = np.timedelta64
# weekmask and holidays, parsed on the host: the business-day functions' busdaycal=
busdaycalendar = np.busdaycalendar

