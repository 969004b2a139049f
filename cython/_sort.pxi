# The sort family's launch primitive (garray/_sort/sorting.py drives the passes; the kernels
# are _kernels/sort.hip, the tables garray/_tables/sort.py), on _family_launch.

cdef object _sorttable_mod = None


def _sort_launch(str table, int code, int slot, int64_t threads, tuple args, ndarray ref,
                 int64_t work=-1):
    """Run kernel [code][slot] of the sort table ``table`` ("sort" or "radix") with
    ``threads`` threads on ref's device; ``work`` (elements touched) decides whether a
    CPU launch splits over the launch pool."""
    global _sorttable_mod
    if _sorttable_mod is None:
        from garray._tables import sort as _sorttable
        _sorttable_mod = _sorttable
    fn = _sorttable_mod.table if table == "sort" else _sorttable_mod.radix_table
    _family_launch("sort:" + table, fn, code, slot, threads, args, ref, work)
