# Note [Kernel tables and launches]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# 1. A _Kernels object is one kernel table of a family (garray/_tables/family.py: an op,
#    the casts into one dtype, where, a reduction, creation, or a whole family such as
#    fft): a compile unit plus its (dtype code, slot) -> name-expression entries.  The
#    launch layer indexes a C array by (code, slot): no dict and no tuple key on the hot
#    path.  The families whose tables are one-thread-per-item grids (sort, gemm, random,
#    signal, conv, pool, fft ...) all launch through _family_launch, keyed by their
#    Family.
# 2. CPU device: the first launch takes the unit from the library compiled at install
#    (garray/_compiler/aot.py), or compiles it (g++, every dtype at once, disk cache),
#    and fills ``cpu`` with entry addresses (``cpu_r``: their range entries); a launch
#    is one C call of the entry with (grid, block, args), or a large one split over the
#    launch pool with the GIL released (cython/_cpu_pool.h).
# 3. GPUs: the unit is compiled by NVRTC/hiprtc for the device's arch and warp size,
#    loaded once per device, and launched through the driver's own entry point
#    (cuLaunchKernel and hipModuleLaunchKernel share one C signature, resolved once).
#    Note [GPU launch shapes]: every built-in kernel is compiled with a launch bound of
#    _BLOCK threads (GA_LAUNCH_BLOCK in platform.h, so the compilers budget registers for
#    the block it gets); at load the driver's attributes of each function
#    (cuFuncGetAttribute / hipFuncGetAttribute) decide its block (_gpu_block), and a
#    kernel that fits no block raises at load, naming itself, instead of failing a launch.
#    A driver that cannot answer the query leaves the launch bound's block.
# 4. Contiguous kernels handle V elements per thread on GPUs (_kernels/garray/loops.h);
#    _threads_for sizes the grid by the same rule.  Creation kernels stay one per thread.
# 5. The CPU sanitizer (Note [CPU sanitizer], garray/_sanitizer.py): while its check mask
#    is set, tables load the sanitizer build of their unit, launches run whole on the
#    calling thread with _BLOCK-thread blocks, the core registers every allocation
#    (cython/_san_registry.h) and a finding raises SanitizerError.
# 6. Test hooks: _debug_cpu_vector_loads builds the CPU device's kernels with the GPU's
#    vector path; _debug_force_index64 (cython/_iter.pxi) forces 64-bit indexing.

ctypedef int (*_host_entry)(unsigned int, unsigned int, void**) noexcept nogil

cdef extern from "_cpu_pool.h" nogil:
    ctypedef int (*ga_range_entry)(unsigned int, unsigned int, unsigned int, unsigned int,
                                   void**) noexcept nogil
    int ga_pool_run(ga_range_entry fn, unsigned int grid, unsigned int block, void** args,
                    int threads, int adapt)
    int ga_pool_free_cores()
ctypedef int (*_drv_launch)(void*, unsigned int, unsigned int, unsigned int, unsigned int,
                            unsigned int, unsigned int, unsigned int, void*, void**,
                            void**) noexcept nogil

cdef enum:
    # Layout slots: the enum of the elementwise, cast and where families
    # (garray/_tables/ops.py), checked at import by _init_launch.
    L_C = 0
    L_CS = 1
    L_SC = 2
    L_S32 = 3
    L_S64 = 4
    L_AT = 5        # ufunc.at's fold over runs of equal targets (one run per thread)
    L_RAT = 6       # ufunc.reduceat's segments (one segment per thread)
    _BLOCK = 256
    _MAX_SLOTS = 12
    # Elements per CPU thread of an elementwise kernel (GA_CPU_CHUNK in platform.h).
    _CPU_CHUNK = 2048
    # Blocks per grid row on GPUs: HIP refuses a launch of 2**32 threads or more in one
    # dimension, so larger launches use a 2-d grid of rows of 2**23 blocks (2**31 threads).
    _MAX_GRID_X = 1 << 23

_LAYOUTS = ("c", "cs", "sc", "s32", "s64", "at", "rat")
# Elements per CPU thread, for tests that probe the chunk's edges (GA_CPU_CHUNK).
_CPU_CHUNK_ELEMENTS = _CPU_CHUNK

cdef object _optable_mod = None
cdef object _family_mod = None
cdef object _compile_mod = None
cdef dict _kernel_tables = {}
cdef bint _cpu_vector_loads = False
cdef int _cpu_sanitize = 0          # the sanitizer's check mask (0: off)
cdef bint _sync_launches = _env.flag("GARRAY_SYNC_LAUNCHES")
cdef Py_ssize_t _code_itemsize[_NCODES]
# The launch pool (cython/_cpu_pool.h, docs/performance.md): threads (0 until
# GARRAY_CPU_THREADS is read, when the first kernel table loads), and the work (elements)
# from which a CPU launch releases the GIL and from which it splits over the pool.
cdef int _cpu_threads = 0
cdef int64_t _nogil_min_work = 1 << 14
cdef int64_t _pool_min_work = 1 << 16
# Whether a launch leaves the cores other processes hold (Note [CPU launch pool] 5); off
# where a test forces the thread count.
cdef int _pool_adapt = 1


def _debug_pool_run(intptr_t entry, unsigned int grid, unsigned int block, intptr_t args,
                    int threads):
    """Test hook: run a range entry (NAME_r of a CPU kernel library) over the launch pool
    with ``threads`` threads; returns the launch's error code (0: none)."""
    cdef ga_range_entry fn = <ga_range_entry>entry
    cdef int err
    with nogil:
        err = ga_pool_run(fn, grid, block, <void**>args, threads, 0)
    return err


def _debug_pool_free_cores():
    """Test hook: the cores the launch pool finds free of other processes' runnable
    threads (Note [CPU launch pool] 5), read afresh if its last reading is 20 ms old."""
    return ga_pool_free_cores()


cdef int _read_cpu_threads() except -1:
    global _cpu_threads
    _cpu_threads = _env.cpu_threads()
    return _cpu_threads


def _debug_cpu_pool(threads=None, min_work=None, adapt=None):
    """Test hook: set the launch pool's thread count, the work (elements) from which
    launches release the GIL and split over it, and whether launches leave the cores
    other processes hold (a thread count given without ``adapt`` is forced: adapt off);
    None keeps a setting.  Returns the previous (threads, min_work, adapt)."""
    global _cpu_threads, _nogil_min_work, _pool_min_work, _pool_adapt
    old = (_cpu_threads or _read_cpu_threads(), _pool_min_work, bool(_pool_adapt))
    if threads is not None:
        if threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        _cpu_threads = threads
        if adapt is None:
            _pool_adapt = 0
    if adapt is not None:
        _pool_adapt = 1 if adapt else 0
    if min_work is not None:
        _pool_min_work = min_work
        _nogil_min_work = min(min_work, 1 << 14)
    return old


def _cython_slots():
    """The slot enums compiled into this module, by family ({family: {slot: number}}):
    every family whose Family names a .pxi (garray/_tables/family.py, check_cython)."""
    layouts = {"L_C": L_C, "L_CS": L_CS, "L_SC": L_SC, "L_S32": L_S32, "L_S64": L_S64,
               "L_AT": L_AT, "L_RAT": L_RAT}
    return {
        "elementwise": layouts, "cast": layouts, "where": layouts,
        "creation": {"C_FILL": C_FILL, "C_ARANGE": C_ARANGE, "C_LINSPACE": C_LINSPACE,
                     "C_EYE": C_EYE, "C_TRI32": C_TRI32, "C_TRI64": C_TRI64},
        "index": {"IX_GATHER32": IX_GATHER32, "IX_GATHER64": IX_GATHER64,
                  "IX_SCATTER32": IX_SCATTER32, "IX_SCATTER64": IX_SCATTER64,
                  "IX_STEP32": IX_STEP32, "IX_STEP64": IX_STEP64, "IX_TAKE": IX_TAKE,
                  "IX_PUT": IX_PUT, "IX_REPEAT": IX_REPEAT, "IX_WINNER": IX_WINNER, "IX_CHECK": IX_CHECK,
                  "IX_KEEP": IX_KEEP, "IX_NZ_COUNT": IX_NZ_COUNT,
                  "IX_NZ_WRITE": IX_NZ_WRITE},
        "reduce": {"R_NB32": R_NB32, "R_NB64": R_NB64, "R_COLS": R_COLS, "R_BT": R_BT,
                   "R_BTP": R_BTP},
        "scan": {"S_NB32": S_NB32, "S_NB64": S_NB64, "S_BT": S_BT, "S_PART": S_PART},
    }


cdef object _compiler_module():
    """garray._compiler, imported at the first kernel load rather than at ``import garray``
    (its imports, hashlib's OpenSSL among them, cost about 15 ms)."""
    global _compile_mod
    if _compile_mod is None:
        from garray import _compiler
        _compile_mod = _compiler
    return _compile_mod


cdef int _init_launch() except -1:
    global _optable_mod, _family_mod
    from garray._tables import family as _family, ops as _optable, reduce as _redtable
    _optable_mod, _family_mod = _optable, _family
    # A core built from other slot numbers than the tables' would launch wrong kernels.
    _family.check_cython(_cython_slots(), _optable.FAMILIES + _redtable.FAMILIES)
    for r in _dtypes.RECORDS:
        _code_itemsize[r.code] = r.itemsize
    return 0


def _san_lookup_address():
    """The address of the allocation registry's lookup (cython/_san_registry.h), which
    sanitizer builds call."""
    return ga_san_lookup_address()


def _debug_cpu_sanitize(int mask):
    """Set the CPU sanitizer's check mask (garray/_sanitizer.py calls this; 0: off):
    kernel tables reload their unit from the matching build.  Returns the previous mask."""
    global _cpu_sanitize, ga_san_on
    cdef int old = _cpu_sanitize
    cdef _Kernels k
    _cpu_sanitize = mask
    ga_san_on = mask != 0
    if not mask:
        ga_san_clear()
    for k in _kernel_tables.values():
        k.cpu_ready = False
        memset(k.san_loaded, 0, sizeof(k.san_loaded))
    return old


def _debug_cpu_vector_loads(bint flag):
    """Test hook: build the CPU device's kernels with the GPU's vector-load path (V
    elements per thread) and launch them with the GPU's grid rule.  Returns the
    previous setting."""
    global _cpu_vector_loads
    cdef bint old = _cpu_vector_loads
    cdef _Kernels k
    if flag != old:
        _cpu_vector_loads = flag
        for k in _kernel_tables.values():
            k.cpu_ready = False
    return old


cdef int _cpu_warp_size():
    from garray._backends import cpu
    return cpu.warp_size()


cdef object _launch_error(object module, int err=1):
    if err == 6:
        from garray import _sanitizer
        raise _sanitizer.error(module.error_what())
    if err != 1:
        raise (MemoryError if err == 5 else RuntimeError)(
            f"kernel error on the CPU device: {module.error_what()}")
    raise RuntimeError(f"kernel error on the CPU device: {module.error_what()} inside a kernel "
                       f"launched as barrier-free (a kernel bug, reported instead of a hang)")


@cython.final
cdef class _Kernels:
    """One kernel table: its compile unit and the kernels by [dtype code][slot]."""
    cdef readonly str name
    cdef readonly object op          # the garray._tables.ops.Op of an op table, else None
    cdef str compare                 # comparison ops: the operator stem ("eq", "lt" ...)
    cdef bint power                  # x1 ** x2: integer exponents must be >= 0 (NumPy)
    cdef int nin
    cdef signed char compute[_NCODES]     # op tables: promoted code -> compute code (-1: refused)
    cdef signed char compute2[_NCODES][_NCODES]  # binary op tables: input codes -> compute code
    cdef signed char out[_NCODES]         # op tables: compute code -> output code
    cdef int nout                    # op tables: 2 for divmod, frexp, modf
    cdef signed char out2[_NCODES]        # two-output ops: compute code -> second output code
    cdef signed char in2[_NCODES]         # op tables: compute code -> the second operand's code
    cdef bint has_in2                # the second operand has a type of its own (ldexp)
    cdef object f16                  # float16 on its own grid (garray._elementwise.f16), or None
    cdef void* cpu[_NCODES][_MAX_SLOTS]
    cdef void* cpu_r[_NCODES][_MAX_SLOTS]   # range entries (blocks [b0, b1)) for the pool
    cdef bint cpu_fibers[_NCODES][_MAX_SLOTS]  # barrier kernels: launched with _BLOCK threads
    cdef bint one_per_thread         # creation kernels: never vectorised
    cdef bint element_per_thread     # one element per GPU thread in every slot (indexing)
    cdef bint cpu_ready
    cdef object cpu_module
    # The sanitizer build is loaded per dtype code (its instrumented units compile slowly,
    # and a test samples dtypes): which codes are loaded, and their modules.
    cdef bint san_loaded[_NCODES]
    cdef dict san_modules
    cdef object file
    cdef list entries                # [((code, slot), name expression)]
    cdef dict gpu                    # device -> {(code, slot): (function, expression)}

    cdef int _load_cpu(self, int only=-1) except -1:
        """Fill the entry addresses from the unit's CPU build; ``only``: the sanitizer
        build of one dtype code's entries."""
        cdef int code, slot
        if not _cpu_threads:
            _read_cpu_threads()      # GARRAY_CPU_THREADS: a bad value fails the first launch
        defines = ("GA_CPU_VECTOR_LOADS=1",) if _cpu_vector_loads else ()
        entries = self.entries
        if only >= 0:
            from garray import _sanitizer
            defines += (_sanitizer.DEFINE,)
            entries = [(key, e) for key, e in self.entries if key[0] == only]
        mod = _compiler_module().compile_cpu(self.file, [e for _, e in entries],
                                             _cpu_warp_size(), defines)
        if only >= 0:
            _sanitizer.configure(mod)
            if self.san_modules is None:
                self.san_modules = {}
            self.san_modules[only] = mod
            self.san_loaded[only] = True
        else:
            memset(self.cpu, 0, sizeof(self.cpu))
            memset(self.cpu_r, 0, sizeof(self.cpu_r))
            memset(self.cpu_fibers, 0, sizeof(self.cpu_fibers))
            self.cpu_module = mod
            self.cpu_ready = True
        barrier = _family_mod.barrier_kernels()
        for (code, slot), expr in entries:
            if not (0 <= code < _NCODES and 0 <= slot < _MAX_SLOTS):
                raise ValueError(f"{self.name}: table entry ({code}, {slot}) outside the "
                                 f"launch table (14 dtypes x {_MAX_SLOTS} slots)")
            self.cpu[code][slot] = <void*><intptr_t>mod.functions[expr]
            self.cpu_r[code][slot] = <void*><intptr_t>mod.ranges.get(expr, 0)
            self.cpu_fibers[code][slot] = expr.startswith(barrier)
        return 0

    cdef int launch(self, ndarray ref, int code, int slot, int64_t n, void** args,
                    int64_t work=-1) except -1:
        """Run kernel [code][slot] over n elements (threads, for one-per-thread tables) on
        ref's device.  ``work``: elements the launch touches when that is not n (a
        reduction's input), which decides whether a CPU launch releases the GIL and
        splits over the launch pool (Note [CPU launch pool] in cython/_cpu_pool.h)."""
        cdef _host_entry fn
        cdef ga_range_entry fr
        cdef int err, nt
        cdef int64_t threads
        cdef unsigned int grid, block
        if n == 0:
            return 0
        threads = _threads_for(self, ref, code, slot, n)
        if not ref._is_cpu:
            return _launch_gpu(self, ref, code, slot, threads, args)
        if not self.cpu_ready:          # never set while the sanitizer is on
            if not _cpu_sanitize:
                self._load_cpu()
            elif not self.san_loaded[code]:
                self._load_cpu(code)
        fn = <_host_entry>self.cpu[code][slot]
        if fn == NULL:
            raise TypeError(f"{self.name}: no kernel for {_code_dtype[code]} "
                            f"(layout {_LAYOUTS[slot] if slot < 7 else slot})")
        # A CPU block of one thread, unless the kernel has barriers (its block is a tree
        # of _BLOCK threads): every thread of a loop launch costs an iteration even when
        # it has nothing to do, and the pool splits a grid by blocks.
        block = _BLOCK if (self.cpu_fibers[code][slot] or _cpu_vector_loads or _cpu_sanitize
                           or threads >= (<int64_t>1 << 31)) else 1
        grid = <unsigned int>((threads + block - 1) // block)
        if work < 0:
            work = n
        if work < _nogil_min_work or _cpu_sanitize:
            err = fn(grid, block, args)
        else:
            nt = _cpu_threads if _cpu_threads else _read_cpu_threads()
            fr = <ga_range_entry>self.cpu_r[code][slot]
            if work < _pool_min_work or fr == NULL:
                nt = 1
            with nogil:
                if nt > 1 and grid > 1:
                    err = ga_pool_run(fr, grid, block, args, nt, _pool_adapt)
                else:
                    err = fn(grid, block, args)
        if err:
            _launch_error(self.san_modules[code] if _cpu_sanitize else self.cpu_module, err)
        return 0


cdef inline bint _cpu_wide_index(ndarray out) noexcept:
    """Whether a strided elementwise launch on out's device takes n as int64 in its
    32-bit-index slot (Note [CPU inner loops]; _iter_args)."""
    return out._is_cpu and not _cpu_vector_loads


cdef inline int64_t _threads_for(_Kernels k, ndarray out, int code, int slot,
                                 int64_t n) noexcept:
    """Threads to launch: contiguous kernels handle V elements per thread on GPUs (and on
    the CPU device in its vector-load test build), the rule of loops.h vec_width; on the
    CPU device every elementwise thread walks _CPU_CHUNK elements (Note [CPU inner
    loops] in loops.h)."""
    cdef Py_ssize_t isz
    if k.one_per_thread:
        return n
    if out._is_cpu and not _cpu_vector_loads:
        return (n + _CPU_CHUNK - 1) // _CPU_CHUNK
    if (slot == L_S32 or slot == L_S64 or slot == L_AT or slot == L_RAT
            or k.element_per_thread):
        return n
    isz = _code_itemsize[code]
    if out._itemsize > isz:
        isz = out._itemsize
    if isz >= 16:
        return n
    if isz >= 8:
        return (n + 1) // 2
    return (n + 3) // 4


cdef int _launch_gpu(_Kernels k, ndarray ref, int code, int slot, int64_t threads,
                     void** args) except -1:
    dev = ref._device
    funcs = k.gpu.get(dev) if k.gpu is not None else None
    if funcs is None:
        funcs = _load_gpu_unit(k, dev)
    entry = funcs.get((code, slot))
    if entry is None:
        raise TypeError(f"{k.name}: no kernel for {_code_dtype[code]} (slot {slot}) on {dev}")
    func, name, block = entry
    cdef int64_t blocks = (threads + block - 1) // block
    cdef int64_t gy = 1
    if blocks > _MAX_GRID_X:        # a 2-d grid; loops.h flat_index folds blockIdx.y in
        gy = (blocks + _MAX_GRID_X - 1) // _MAX_GRID_X
        blocks = _MAX_GRID_X
    _raw_gpu_launch(dev, func, <unsigned int>blocks, <unsigned int>block, args, 0, name,
                    <unsigned int>gy)
    return 0


cdef int _raw_gpu_launch(object dev, object func, unsigned int grid, unsigned int block,
                         void** args, unsigned int shared, object name,
                         unsigned int grid_y=1) except -1:
    """Launch through the driver's own entry point (resolved once by dlsym).  A failure
    names the kernel and the vendor's status; with GARRAY_SYNC_LAUNCHES=1 every launch is
    followed by a device synchronisation, so a fault is reported by the kernel that made
    it rather than by the next copy (CUDA_LAUNCH_BLOCKING's role)."""
    cdef _drv_launch fn
    cdef int err
    cdef intptr_t stream
    rt = dev.runtime
    fn = <_drv_launch><intptr_t>rt.launch_address()
    rt.activate()
    stream = _stream_of(dev)
    if ga_stub_on:
        _stub_annotate(dev, func, args)   # the stub drivers' hazard checker only
    err = fn(<void*><intptr_t>int(func), grid, grid_y, 1, block, 1, 1, shared,
             <void*>stream, args, NULL)
    if err:
        from garray._errors import BackendError
        raise BackendError(f"{dev}: launching kernel {name} (grid {grid}, block {block}, "
                           f"{shared} bytes of shared memory) failed: {rt.status_name(err)}")
    if _sync_launches:
        try:
            rt.synchronize()
        except Exception as e:
            from garray._errors import BackendError
            raise BackendError(f"{dev}: kernel {name} failed: {e}") from None
    return 0


cdef dict _load_gpu_unit(_Kernels k, object dev):
    props = dev.properties
    arch = str(props.get("arch", "")).split(":")[0]
    binary, lowered = _compiler_module().compile_gpu(dev.kind, k.file, [e for _, e in k.entries],
                                               arch, props["warp_size"])
    rt = dev.runtime
    module = rt.module_load(binary)
    # (code, slot) -> (function, name expression, block): the name is for error messages
    barrier = _family_mod.barrier_kernels()
    funcs = {}
    for key, expr in k.entries:
        func = rt.module_function(module, lowered[expr])
        funcs[key] = (func, expr, _gpu_block(dev, func, expr, expr.startswith(barrier)))
    funcs[None] = module            # keeps the module with its functions
    _compiler_module().notify_load(dev, props["warp_size"],
                             {expr: funcs[key][0] for key, expr in k.entries},
                             unit=(k.file, [e for _, e in k.entries]))
    if k.gpu is None:
        k.gpu = {}
    k.gpu[dev] = funcs
    return funcs


cdef dict _gpu_resources = {}       # (device, name expression) -> the driver's attributes


def _launch_block():
    """The block of every built-in GPU launch (_BLOCK; GA_LAUNCH_BLOCK in platform.h)."""
    return _BLOCK


def _debug_forget_gpu_functions():
    """Test hook: drop every table's loaded GPU functions, so the next launch of each
    loads its unit again and asks the driver for the functions' attributes afresh."""
    cdef _Kernels k
    for k in _kernel_tables.values():
        k.gpu = None


def _gpu_kernel_resources():
    """{(device, name expression): attributes} of every built-in kernel loaded on a GPU
    (garray._backends GpuRuntime.function_attributes, plus the block it launches with)."""
    return dict(_gpu_resources)


cdef unsigned int _gpu_block(object dev, object func, str expr, bint barrier) except 0:
    """The block a built-in kernel launches with on ``dev``, from the function's own
    attributes (Note [GPU launch shapes]): _BLOCK (the kernels' launch bound, and the
    block the barrier kernels' shared arrays are sized for) when the function can run
    it; a one-thread-per-item kernel whose registers allow fewer takes the largest
    multiple of 32 it allows; a barrier kernel that cannot run _BLOCK threads is an
    error naming it and its resources."""
    from garray._errors import BackendError
    try:
        attrs = dev.runtime.function_attributes(func)
    except BackendError as e:       # a driver that cannot say: the launch bound holds
        attrs = {"unknown": str(e)}
    cdef int most = attrs.get("max_threads", _BLOCK)
    cdef unsigned int block = _BLOCK if most >= _BLOCK else (<unsigned int>most // 32) * 32
    attrs["block"] = block
    _gpu_resources[(dev, expr)] = attrs
    if block == _BLOCK:
        return block
    if barrier or block == 0:
        raise BackendError(
            f"{dev}: kernel {expr} cannot launch its block of {_BLOCK} threads: the driver "
            f"allows {most} ({attrs.get('registers')} registers per thread, "
            f"{attrs.get('shared')} bytes of shared and {attrs.get('local')} of local "
            f"memory); it was built for {_BLOCK}-thread blocks (GA_LAUNCH_BLOCK)")
    return block


cdef _Kernels _new_table(object key, str name, object table, bint one_per_thread=False):
    cdef _Kernels k = _Kernels.__new__(_Kernels)
    k.name, k.one_per_thread = name, one_per_thread
    k.file, k.entries = table
    _kernel_tables[key] = k
    return k


cdef _Kernels _op_kernels(str name):
    """The kernel table of op ``name``, with its promotion rules as C arrays."""
    cdef _Kernels k = _kernel_tables.get(name)
    cdef int p, q
    if k is None:
        op = _optable_mod.OPS[name]
        k = _new_table(name, name, op.table())
        k.op, k.nin = op, op.nin
        if op.operator is not None and op.operator[1] == "compare":
            k.compare = op.operator[0]
        k.power = op.functor == "power"
        k.nout, k.has_in2 = op.nout, op.in2 is not None
        if op.f16 is not None:
            from garray._elementwise import f16 as _f16
            k.f16 = getattr(_f16, op.f16)
        for p in range(_NCODES):
            k.compute[p] = op.compute_code(p)
            k.out[p] = op.out_code(p)
            k.out2[p] = op.out2_code(p)
            k.in2[p] = op.in2_code(p)
            for q in range(_NCODES):
                k.compute2[p][q] = op.compute_code_pair(p, q) if op.nin == 2 else -1
    return k


cdef _Kernels _table(str name, object table_fn, object arg=None, bint one_per_thread=False):
    """A kernel table that is not an op (casts, where, all/any, creation), built once
    from ``table_fn(arg)`` (or ``table_fn()``) of garray._tables.ops."""
    key = ("table", name)
    cdef _Kernels k = _kernel_tables.get(key)
    if k is None:
        k = _new_table(key, name, table_fn() if arg is None else table_fn(arg),
                       one_per_thread)
    return k


def _family_launch(object family, object dtype, int slot, int64_t threads, tuple args,
                   ndarray ref, int64_t work=-1, bint items=False):
    """Run kernel [dtype][slot] of ``family`` (a garray._tables Family whose table is
    one-thread-per-item) with ``threads`` threads on ref's device: the one launch path of
    the kernel families.  ``dtype``: a dtype code or a NumPy dtype.  Every kernel
    parameter is 8 bytes: each argument is an array (its data address), None (a null
    pointer), an int (int64, or uint64 up to 2**64 - 1) or a float (a double).
    ``work`` (elements or multiply-adds touched; default ``threads``) decides whether a
    CPU launch releases the GIL and splits over the launch pool.  ``items``: ``threads``
    counts items of a kernel that walks them with for_each_index (loops.h), one per GPU
    thread and _CPU_CHUNK per CPU thread."""
    cdef int64_t vals[16]
    cdef double dv
    cdef void* argv[16]
    cdef int i
    cdef int code = dtype if type(dtype) is int else _dtype_code(dtype)
    cdef _Kernels k = _kernel_tables.get(family)
    if k is None:
        k = _new_table(family, family.name, family.table(), True)
    if len(args) > 16:
        raise ValueError(f"{k.name}: kernels take at most 16 arguments, got {len(args)}")
    for i, a in enumerate(args):
        if a is None:
            vals[i] = 0
        elif isinstance(a, ndarray):
            if _labelled(<ndarray>a):       # a time array: only garray/_datetime's ops
                raise TypeError(f"{k.name}: not supported for {(<ndarray>a)._dtype}")
            vals[i] = (<ndarray>a)._ptr
        elif isinstance(a, float):
            dv = a
            memcpy(&vals[i], &dv, 8)
        elif a >= (<object>1 << 63):
            vals[i] = <int64_t>(<uint64_t>a)
        else:
            vals[i] = <int64_t>a
        argv[i] = &vals[i]
    if work < 0:
        work = threads
    if items and ref._is_cpu and not _cpu_vector_loads:
        threads = (threads + _CPU_CHUNK - 1) // _CPU_CHUNK
    k.launch(ref, code, slot, threads, argv, work)
    return None
