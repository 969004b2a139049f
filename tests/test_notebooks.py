"""The notebooks of docs/notebooks/ run in a real Jupyter kernel, and compiles show progress.

Every notebook is executed by nbclient in an ipykernel started from this very
interpreter (a kernelspec written to a temporary directory: the ``python3`` kernelspec
installed on a machine may name another Python), on the CPU device
(``GARRAY_DEVICE=cpu``; ``GARRAY_CACHE_DIR`` and ``GARRAY_CPU_WARP_SIZE`` pass through),
with matplotlib's Agg backend.  A cell that raises fails the test; each notebook checks
its results against NumPy with ``assert``s.  docs/notebooks.md describes them.

The compile progress display (garray/_compiler/progress.py, Note [Compile progress]) is
tested in a kernel, with user kernels whose source no cache has seen, and outside one,
where nothing may be printed.
"""

import glob
import json
import os
import re
import subprocess
import sys
import textwrap
import uuid

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
jupyter_client = pytest.importorskip("jupyter_client")

HERE = os.path.dirname(os.path.abspath(__file__))
NOTEBOOKS = sorted(glob.glob(os.path.join(HERE, "..", "docs", "notebooks", "*.ipynb")))
KERNEL = "garray-test-python"
CELL_TIMEOUT = 300      # seconds; a cell that compiles on a loaded 2-core machine


def write_kernelspec(root, **env):
    """A kernelspec running ipykernel on this interpreter, under ``root``; ``env`` is
    added to the kernel's environment (the rest of this process's passes through)."""
    spec = root / KERNEL
    spec.mkdir(parents=True)
    env = {"GARRAY_DEVICE": "cpu", "MPLBACKEND": "Agg", **env}
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "garray tests", "language": "python", "env": env}))
    return str(root)


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory):
    return write_kernelspec(tmp_path_factory.mktemp("kernels"))


def execute(nb, kernel_dir, cwd=None):
    """Run every cell of ``nb`` (in place) in a fresh kernel of ``kernel_dir``'s spec;
    a cell error raises nbclient's CellExecutionError."""
    from jupyter_client.kernelspec import KernelSpecManager
    ksm = KernelSpecManager(kernel_dirs=[kernel_dir], ensure_native_kernel=False)
    km = jupyter_client.KernelManager(kernel_name=KERNEL, kernel_spec_manager=ksm)
    client = nbclient.NotebookClient(nb, km=km, kernel_name=KERNEL, timeout=CELL_TIMEOUT,
                                     startup_timeout=120,
                                     resources={"metadata": {"path": cwd or HERE}})
    client.execute()
    return nb


def test_notebooks_found():
    names = {os.path.basename(p) for p in NOTEBOOKS}
    assert "getting-started.ipynb" in names
    assert len(names) >= 8, names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[os.path.basename(p) for p in NOTEBOOKS])
def test_notebook_runs(path, kernel_dir):
    pytest.importorskip("matplotlib")       # getting-started plots; scipy is in .[test]
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:        # committed without outputs (docs/notebooks.md)
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, \
                f"{os.path.basename(path)}: commit the notebook with its outputs cleared"
    execute(nb, kernel_dir, cwd=os.path.dirname(path))
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.execution_count is not None for c in code)
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]


# ---- compile progress -------------------------------------------------------------------

def _texts(cell):
    """The text/plain of a cell's display outputs (after nbclient applied the updates)."""
    return [o.data.get("text/plain", "") for o in cell.outputs
            if o.output_type in ("display_data", "update_display_data")]


def _unique_kernel(tag):
    name = f"k_{tag}_{uuid.uuid4().hex[:12]}"
    src = (f'extern "C" __global__ void {name}(float* x, int n) {{\n'
           f'    int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
           f'    if (i < n) x[i] = 2.0f * x[i] + 1.0f;\n}}\n')
    return name, src


def garray_warp_size():
    import garray
    return garray.Device("cpu").warp_size


def garray_file():
    import garray
    return garray.__file__


def test_failing_cell_fails(kernel_dir):
    """The harness reports a failing check: an assert in a cell fails the execution."""
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import garray\nx = garray.arange(3)"),
        nbformat.v4.new_code_cell("assert int(x.sum()) == 4, 'the sum is 3'")])
    with pytest.raises(nbclient.exceptions.CellExecutionError, match="the sum is 3"):
        execute(nb, kernel_dir)


def test_compile_progress_in_notebook(kernel_dir):
    """A cell that compiles shows one updating display, 'compiling <unit> for <device>
    (n/m)... done in X s'; a cell that compiles nothing shows nothing; a failing compile
    shows 'failed' and raises as ever."""
    one, src1 = _unique_kernel("one")
    two, src2 = _unique_kernel("two")
    three, src3 = _unique_kernel("three")
    setup = textwrap.dedent(f"""\
        import os, sys, numpy, garray
        # the kernel is this interpreter, with this garray, on the CPU device
        assert sys.executable == {sys.executable!r}, sys.executable
        assert garray.__file__ == {garray_file()!r}, garray.__file__
        assert os.environ["GARRAY_DEVICE"] == "cpu" and str(garray.default_device()) == "cpu"
        assert os.environ.get("GARRAY_CACHE_DIR") == {os.environ.get("GARRAY_CACHE_DIR")!r}
        assert garray.default_device().warp_size == {garray_warp_size()}
        def run(src, name):
            k = garray.RawKernel(src, name)
            x = garray.arange(40, dtype="float32")
            k((2,), (32,), (x, 40))
            assert numpy.array_equal(x.get(), 2 * numpy.arange(40, dtype="float32") + 1)
        """)
    bad = 'extern "C" __global__ void broken_' + uuid.uuid4().hex[:8] + '(float* x) { x[0] = ; }'
    cells = [setup,
             f"run({src1!r}, {one!r})",
             f"run({src2!r}, {two!r})\nrun({src3!r}, {three!r})",
             f"run({src1!r}, {one!r})",       # the same source again: a cache hit
             textwrap.dedent(f"""\
                 try:
                     garray.RawKernel({bad!r}, {bad.split()[4].split('(')[0]!r})(
                         (1,), (32,), (garray.zeros(1, dtype="float32"),))
                 except garray.CompileError:
                     pass
                 else:
                     raise AssertionError("no CompileError")
                 """)]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    execute(nb, kernel_dir)
    c = nb.cells
    assert _texts(c[0]) == []
    t1 = _texts(c[1])
    assert len(t1) == 1, c[1].outputs
    assert t1[0].startswith(f"garray: compiling user kernel {one} for cpu (1/1)... "
                            f"done in "), t1
    assert t1[0].endswith(" s")
    t2 = _texts(c[2])
    assert len(t2) == 1, c[2].outputs       # one display per cell, updated
    lines = t2[0].splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"garray: compiling user kernel {two} for cpu (1/2)"
                               f"... done in ")
    assert lines[1].startswith(f"garray: compiling user kernel {three} for cpu (2/2)"
                               f"... done in ")
    assert c[3].outputs == []
    t4 = _texts(c[4])
    assert len(t4) == 1 and "(1/1)... failed after " in t4[0], c[4].outputs


def test_compile_progress_builtin_unit(tmp_path):
    """A built-in unit compiled on first use (GARRAY_CPU_AOT=0 and an empty kernel
    cache) shows as its kernel file and instantiation count."""
    kdir = write_kernelspec(tmp_path / "kernels", GARRAY_CPU_AOT="0",
                            GARRAY_CACHE_DIR=str(tmp_path / "cache"))
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import numpy, garray"),
        nbformat.v4.new_code_cell("x = garray.ones(3, dtype=garray.float32)\n"
                                  "assert numpy.array_equal(x.get(), numpy.ones(3, 'float32'))")])
    execute(nb, kdir)
    texts = _texts(nb.cells[1])
    assert len(texts) == 1, nb.cells[1].outputs
    lines = texts[0].splitlines()
    assert lines and all(re.fullmatch(r"garray: compiling \w+\.hip \(\d+ instantiations\) "
                                      rf"for cpu \({i + 1}/{len(lines)}\)\.\.\. "
                                      r"done in \d+\.\d s", line)
                         for i, line in enumerate(lines)), lines
    assert os.listdir(tmp_path / "cache")         # and the build went to that cache


def test_no_progress_outside_notebook(tmp_path):
    """Outside a Jupyter kernel a compile prints nothing, also with IPython imported
    (a terminal IPython has no kernel), and does not import IPython itself."""
    name, src = _unique_kernel("quiet")
    script = textwrap.dedent(f"""\
        import sys, numpy, garray
        from garray._compiler import progress
        k = garray.RawKernel({src!r}, {name!r})
        x = garray.ones(8, dtype="float32")
        k((1,), (32,), (x, 8))
        assert numpy.array_equal(x.get(), numpy.full(8, 3, "float32"))
        assert "IPython" not in sys.modules
        import IPython
        assert progress.kernel_shell() is None
        name2 = {name!r} + "_b"
        k = garray.RawKernel({src!r}.replace({name!r}, name2), name2)
        k((1,), (32,), (x, 8))
        assert numpy.array_equal(x.get(), numpy.full(8, 7, "float32"))
        """)
    env = dict(os.environ, GARRAY_DEVICE="cpu")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env=env, timeout=600, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "" and r.stderr == "", (r.stdout, r.stderr)


def test_progress_text_folds_many_compiles():
    """Many compiles in one cell (precompile from a kernel) list the last few by name and
    count the rest."""
    from garray._compiler import progress
    cell = progress._CellDisplay("key")
    for i in range(10):
        e = progress._Entry(f"u{i}.hip (1 instantiations)", "cpu", i + 1)
        cell.entries.append(e)
        if i < 9:
            e.seconds = 1.0
    lines = cell.text().splitlines()
    assert lines[0] == "garray: 5 earlier compiles done (5.0 s)"
    assert lines[1] == "garray: compiling u5.hip (1 instantiations) for cpu (6/10)... done in 1.0 s"
    assert lines[-1] == "garray: compiling u9.hip (1 instantiations) for cpu (10/10)..."
    assert len(lines) == 6
