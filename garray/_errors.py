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
