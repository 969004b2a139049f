"""Compile progress in Jupyter: one updating display per cell while garray compiles.

Note [Compile progress]
~~~~~~~~~~~~~~~~~~~~~~~
1. A compile (g++ for the CPU device, NVRTC/hiprtc for GPUs) takes seconds, and in a
   notebook a cell that silently stalls for seconds looks hung.  So every real compile
   (never a cache hit: the hooks sit where the compiler is called, in ``gxx.py``,
   ``gpu.py`` and ``garray/kernels/_raw.py``) runs inside ``compiling(unit, device)``.
2. Outside a Jupyter kernel ``compiling`` does nothing: it looks up ``IPython`` in
   ``sys.modules`` (not imported: not a notebook) and asks ``get_ipython()`` for a shell
   with a ``kernel`` attribute (a terminal IPython has none).  That check runs once per
   compile, next to a compile of 0.3 s or more, and never on a launch.
3. Inside a kernel, the compiles of one cell share one display (``IPython.display`` with
   a ``display_id``), updated when a compile starts and when it ends::

       garray: compiling elementwise.hip (16 instantiations) for cpu (1/2)... done in 1.9 s
       garray: compiling user kernel scale for cpu (2/2)...

   ``n/m``: this compile's number among the ``m`` started in the cell so far.  When many
   compiles run (``precompile`` from a kernel), the finished ones fold into a count.
   A cell is told apart from the next by the kernel's parent message (the execute
   request), so each cell gets a fresh display.
4. The display is plain text (``text/plain``), so it survives in a saved notebook and in
   nbclient's outputs; tqdm is not used (its notebook bar is an ipywidget: it needs
   ipywidgets, and a saved or CI-executed notebook keeps no text of it).
5. The display never breaks a compile: any error while showing it is swallowed, and
   the compile's own exception (a ``CompileError``) shows as "failed after X s" and
   propagates unchanged.  Compiles from several threads are counted under one lock.
"""

import contextlib
import sys
import threading
import time

_lock = threading.Lock()
_cell = None            # the _CellDisplay of the cell that compiled last
_SHOW_DONE = 4          # finished compiles listed by name; earlier ones are counted


def kernel_shell():
    """The IPython shell when running inside a Jupyter kernel, else None (cheap when
    IPython was never imported)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return None
    try:
        shell = ipython.get_ipython()
    except Exception:
        return None
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    return shell


def _cell_key(shell):
    """What tells one cell's execution from the next: the execute request's message id
    (ipykernel sets the shell's parent header per request), with the execution count."""
    try:
        header = shell.parent_header.get("header", {})
        msg_id = header.get("msg_id")
    except Exception:
        msg_id = None
    return (id(shell), msg_id, getattr(shell, "execution_count", None))


class _Entry:
    __slots__ = ("unit", "device", "number", "seconds", "failed")

    def __init__(self, unit, device, number):
        self.unit, self.device, self.number = unit, device, number
        self.seconds = None
        self.failed = False


class _CellDisplay:
    """The compiles of one cell and the display showing them."""

    def __init__(self, key):
        self.key = key
        self.entries = []
        self.handle = None

    def text(self):
        m = len(self.entries)
        done = [e for e in self.entries if e.seconds is not None]
        running = [e for e in self.entries if e.seconds is None]
        shown_done = done[-_SHOW_DONE:]
        lines = []
        if len(done) > len(shown_done):
            k = len(done) - len(shown_done)
            total = sum(e.seconds for e in done[:k])
            lines.append(f"garray: {k} earlier compile{'s' if k > 1 else ''} done "
                         f"({total:.1f} s)")
        for e in sorted(shown_done + running, key=lambda e: e.number):
            line = f"garray: compiling {e.unit} for {e.device} ({e.number}/{m})..."
            if e.seconds is not None:
                line += (f" failed after {e.seconds:.1f} s" if e.failed else
                         f" done in {e.seconds:.1f} s")
            lines.append(line)
        return "\n".join(lines)

    def show(self):
        from IPython.display import display
        data = {"text/plain": self.text()}
        if self.handle is None:
            self.handle = display(data, raw=True, display_id=True)
        else:
            self.handle.update(data, raw=True)


def _begin(shell, unit, device):
    global _cell
    with _lock:
        key = _cell_key(shell)
        if _cell is None or _cell.key != key:
            _cell = _CellDisplay(key)
        cell = _cell
        entry = _Entry(unit, device, len(cell.entries) + 1)
        cell.entries.append(entry)
        _show(cell)
    return cell, entry


def _end(cell, entry, seconds, failed):
    with _lock:
        entry.seconds = seconds
        entry.failed = failed
        _show(cell)


def _show(cell):
    try:
        cell.show()
    except Exception:       # the display must never break a compile (Note, 5)
        pass


def source_label(names):
    """How a user source (RawModule, RawKernel, the generated kernels of
    ElementwiseKernel and ReductionKernel) is named in the display: by its kernels."""
    names = list(names)
    shown = ", ".join(names[:2]) + (f" and {len(names) - 2} more" if len(names) > 2 else "")
    return f"user kernel {shown}"


@contextlib.contextmanager
def compiling(unit, device):
    """Context manager around one real compile: ``unit`` names what is compiled (a
    kernel file and its instantiation count, or a user source), ``device`` where for.

    In a Jupyter kernel the cell's progress display shows it (Note [Compile progress]);
    anywhere else it does nothing.
    """
    shell = kernel_shell()
    if shell is None:
        yield
        return
    cell, entry = _begin(shell, unit, device)
    t0 = time.perf_counter()
    failed = True
    try:
        yield
        failed = False
    finally:
        _end(cell, entry, time.perf_counter() - t0, failed)
