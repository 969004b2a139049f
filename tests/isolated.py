"""Running risky code in a child process, so that a crash is a test failure that names
the case, not a dead test run.

``run_isolated(source)`` runs ``source`` in a fresh Python (same interpreter, same
environment, ``tests/`` importable) and returns its stdout.  The child prints a line
``CASE <label>`` (``case(label)``) before each risky step; if it dies by a signal or
exits non-zero, the failure message gives the last case it started and its stderr.
"""

import os
import signal
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))

PRELUDE = """\
import sys
def case(label):
    print("CASE", label, flush=True)
"""


def run_isolated(source, *, env=None, timeout=600, expect_ok=True):
    """Run ``source`` in a child process; returns (returncode, stdout, stderr), and with
    ``expect_ok`` asserts it exited with 0 (the message names the last case on a crash)."""
    child_env = dict(os.environ)
    child_env["PYTHONPATH"] = os.pathsep.join([HERE, child_env.get("PYTHONPATH", "")])
    if env:
        child_env.update(env)
    code = PRELUDE + textwrap.dedent(source)
    try:
        # -P as the parent had it: ci/asan.sh keeps the source tree off sys.path
        flags = ["-P"] if getattr(sys.flags, "safe_path", False) else []
        r = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True,
                           text=True, env=child_env, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        last = _last_case(e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or ""))
        raise AssertionError(f"child hung (> {timeout} s) in case {last}") from None
    if expect_ok and r.returncode != 0:
        how = (f"killed by {signal.Signals(-r.returncode).name}" if r.returncode < 0
               else f"exit status {r.returncode}")
        raise AssertionError(f"child {how} in case {_last_case(r.stdout)}\n"
                             f"--- stderr (tail) ---\n{r.stderr[-4000:]}")
    return r.returncode, r.stdout, r.stderr


def _last_case(out):
    cases = [ln[5:] for ln in out.splitlines() if ln.startswith("CASE ")]
    return cases[-1] if cases else "(before the first case)"
