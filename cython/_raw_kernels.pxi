# The launch primitive under garray.RawKernel (garray/_raw.py): arguments arrive as
# addresses of their values (the Python side keeps the values alive), the kernel as a
# CPU entry address or a GPU function handle.

def _launch_raw(object device, object module, object function, unsigned int grid,
                unsigned int block, tuple addresses, size_t shared_mem, str name="kernel"):
    """Launch one user kernel: ``function`` is the entry address (CPU device, with the
    CpuModule ``module`` for error reports) or the GPU function handle."""
    cdef void* argv[64]
    cdef _host_entry fn
    cdef int i, err
    if len(addresses) > 64:
        raise ValueError(f"args: at most 64 kernel arguments, got {len(addresses)}")
    for i, addr in enumerate(addresses):
        argv[i] = <void*><intptr_t>addr
    if device.kind != "cpu":
        _raw_gpu_launch(device, function, grid, block, argv, <unsigned int>shared_mem, name)
        return
    fn = <_host_entry><intptr_t>function
    err = fn(grid, block, argv)
    if err:
        _launch_error(module)
