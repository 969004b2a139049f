# The sort family's launch primitive (garray/_sorting.py drives the passes; the kernels
# are _kernels/sort.hip, the tables garray/_sorttable.py).  Every kernel parameter of the
# family is a pointer or an int64, so the arguments travel as one int64 array: arrays
# (their data addresses), None (a null pointer) or integers.

cdef object _sorttable_mod = None


def _sort_launch(str table, int code, int slot, int64_t threads, tuple args, ndarray ref,
                 int64_t work=-1):
    """Run kernel [code][slot] of the sort table ``table`` ("sort" or "radix") with
    ``threads`` threads on ref's device; ``work`` (elements touched) decides whether a
    CPU launch splits over the launch pool."""
    global _sorttable_mod
    cdef int64_t vals[16]
    cdef void* argv[16]
    cdef int i
    cdef _Kernels k
    if len(args) > 16:
        raise ValueError(f"sort kernels take at most 16 arguments, got {len(args)}")
    if _sorttable_mod is None:
        from garray import _sorttable
        _sorttable_mod = _sorttable
    fn = _sorttable_mod.table if table == "sort" else _sorttable_mod.radix_table
    k = _table("sort:" + table, fn, None, True)
    for i, a in enumerate(args):
        if a is None:
            vals[i] = 0
        elif isinstance(a, ndarray):
            vals[i] = (<ndarray>a)._ptr
        else:
            vals[i] = <int64_t>a
        argv[i] = &vals[i]
    k.launch(ref, code, slot, threads, argv, work if work >= 0 else threads)
    return None
