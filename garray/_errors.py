"""garray's own exception types."""


class OutOfMemoryError(MemoryError):
    """A device memory pool could not allocate, even after freeing its cached blocks.

    The message names the size asked for, the device and what the pool holds.
    """


class BackendUnavailableError(RuntimeError):
    """A device backend (``hip`` or ``cuda``) cannot be used on this machine.

    The message names the missing package, library or driver, e.g.
    ``hip: libamdhip64.so not found``.
    """


class BackendError(RuntimeError):
    """A runtime call of a device backend returned an error code."""


class CompileError(RuntimeError):
    """A kernel failed to compile; ``log`` holds the compiler's output.

    Parameters
    ----------
    message : str
        What failed.
    log : str, optional
        The compiler's output.
    """

    def __init__(self, message, log=""):
        super().__init__(message if not log else f"{message}\n{log}")
        self.log = log


class SanitizerError(RuntimeError):
    """A kernel broke a rule of the GPU programming model, found by the CPU device's
    sanitizer (``GARRAY_CPU_SANITIZE``, ``garray.kernels.sanitizer``; docs/sanitizer.md).

    ``check`` is ``"race"``, ``"init"``, ``"sync"`` or ``"bounds"``; ``kernel`` names
    the kernel (its name expression for garray's own kernels).  The message names the
    threads, the memory and the offset, and the schedule seed that reproduces the run.
    """

    def __init__(self, message, check="", kernel=""):
        super().__init__(message)
        self.check = check
        self.kernel = kernel
