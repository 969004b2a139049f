# The launch primitive under garray.RawKernel (garray/kernels/_raw.py): arguments arrive as
# addresses of their values (the Python side keeps the values alive and has checked
# them against the kernel's signature), the kernel as a CPU entry address or a GPU
# function handle.

ctypedef int (*_host_set_shared)(size_t) noexcept nogil


def _launch_raw(object device, object module, object function, unsigned int grid,
                unsigned int block, tuple addresses, size_t shared_mem, str name="kernel",
                size_t set_shared=0):
    """Launch one user kernel: ``function`` is the entry address (CPU device, with the
    CpuModule ``module``) or the GPU function handle.  On the CPU device
    ``set_shared`` is the module's ``ga_host_set_dynamic_shared``, called in the same
    C sequence as the entry: the dynamic shared size is per OS thread and consumed by
    the launch, so threads launching one kernel cannot see each other's size.  Returns
    the CPU entry's status (0, or a ga_host error code that garray/kernels/_raw.py reports)."""
    cdef void* argv[64]
    cdef _host_entry fn
    cdef _host_set_shared setter
    cdef int i, err
    if len(addresses) > 64:
        raise ValueError(f"args: at most 64 kernel arguments, got {len(addresses)}")
    for i, addr in enumerate(addresses):
        argv[i] = <void*><intptr_t>addr
    if device.kind != "cpu":
        _raw_gpu_launch(device, function, grid, block, argv, <unsigned int>shared_mem, name)
        return 0
    fn = <_host_entry><intptr_t>function
    setter = <_host_set_shared><intptr_t>set_shared
    if setter != NULL:
        setter(shared_mem)
    err = fn(grid, block, argv)
    return err
