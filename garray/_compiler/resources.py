"""What every built-in kernel asks of a GPU, in the driver's words: ``python -m garray
resources [--device cuda|hip] [--check] [--markdown FILE]``.

Every unit of ``garray._tables.ops.all_units()`` is compiled for the device (cached),
loaded, and each function's attributes read back from the driver
(``GpuRuntime.function_attributes``: cuFuncGetAttribute / hipFuncGetAttribute: the largest
block it can launch, registers per thread, static shared and local memory per thread).
On the stub drivers those come from parsing the real NVRTC and hiprtc code objects (their
README); on a GPU from the vendor's driver.  Spills come from the compilers' own reports
(spills.py: ptxas's spill stores, hiprtc's ``.vgpr_spill_count``), kept with each binary.

``--check`` fails (exit 1) when a kernel cannot launch the block garray gives it
(GA_LAUNCH_BLOCK, 256 threads), keeps more than LOCAL_LIMIT bytes of local memory per
thread, or stores more than SPILL_LIMIT bytes of spilled registers per thread, and is not
one of the kernels listed with the reason (OVER_LOCAL, OVER_SPILL).
``--markdown`` writes the per-template table of docs/kernel-resources.md.
"""

import re
import sys

from .gpu import compile_gpu, unit_spills
from .._tables import ops

LOCAL_LIMIT = 1024
SPILL_LIMIT = 256
BLOCK = 256

# Kernel templates GPUs never launch (the CPU device's schedules), exempt from both limits.
CPU_ONLY = {
    "ga::reduce_cols": "never launched on a GPU: the column schedule is the CPU device's "
                       "(its 4096-output strip, chosen for the CPU's TLB-bound walks, keeps "
                       "an accumulator array per thread); GARRAY_REDUCE=cols runs reduce_nb "
                       "on GPUs (cython/_reduce.pxi, Note [Choosing a reduction schedule])",
    "ga::gemm_rt": "never launched on a GPU: the register-tiled GEMM is the CPU device's slot; "
                   "GPUs run gemm_tiled (garray/_gemm/engine.py)",
}
# Kernel templates known to keep more than LOCAL_LIMIT bytes of local memory per thread,
# or to spill more than SPILL_LIMIT bytes per thread, on some device, and why.  The check
# fails on any other, so the lists only shrink.
OVER_LOCAL = dict(CPU_ONLY)
OVER_SPILL = dict(CPU_ONLY)


def template(expr):
    """The template a name expression instantiates (``ga::reduce_bt``)."""
    return expr.split("<", 1)[0]


def collect(dev):
    """[(unit file, name expression, attributes)] for every built-in kernel on ``dev``."""
    props = dev.properties
    arch = str(props.get("arch", "")).split(":")[0]
    rt = dev.runtime
    out = []
    for relpath, exprs in ops.all_units():
        binary, lowered = compile_gpu(dev.kind, relpath, list(exprs), arch,
                                      props["warp_size"])
        spills = unit_spills(dev.kind, relpath, list(exprs), arch, props["warp_size"])
        module = rt.module_load(binary)
        for e in exprs:
            a = dict(rt.function_attributes(rt.module_function(module, lowered[e])))
            a["spill"] = spills.get(lowered[e], 0)
            out.append((relpath, e, a))
    return out


def problems(rows):
    """Lines naming each kernel that breaks the limits (empty: none)."""
    bad = []
    for relpath, e, a in rows:
        if a.get("max_threads", BLOCK) < BLOCK:
            bad.append(f"{e} ({relpath}): cannot launch {BLOCK} threads (the driver allows "
                       f"{a['max_threads']}; {a.get('registers')} registers per thread)")
        if a.get("local", 0) > LOCAL_LIMIT and template(e) not in OVER_LOCAL:
            bad.append(f"{e} ({relpath}): {a['local']} bytes of local memory per thread "
                       f"(limit {LOCAL_LIMIT}; list it in OVER_LOCAL with the reason if it "
                       f"must)")
        if a.get("spill", 0) > SPILL_LIMIT and template(e) not in OVER_SPILL:
            bad.append(f"{e} ({relpath}): stores {a['spill']} bytes of spilled registers per "
                       f"thread (limit {SPILL_LIMIT}; list it in OVER_SPILL with the reason if "
                       f"it must)")
    return bad


def table(rows, dev):
    """Markdown rows per template: instances, and the largest registers, shared and local
    memory with the instance that needs them."""
    by = {}
    for relpath, e, a in rows:
        by.setdefault((relpath, template(e)), []).append((e, a))
    lines = [f"| unit | kernel | instances | registers (most) | static shared bytes (most) | "
             f"local bytes per thread (most) | spill store bytes per thread (most) | "
             f"over a limit: why |",
             "|---|---|---|---|---|---|---|---|"]
    for (relpath, t), items in sorted(by.items()):
        def most(key):
            e, a = max(items, key=lambda it: it[1].get(key, 0))
            v = a.get(key, 0)
            return f"{v}" if v == 0 or len(items) == 1 else f"{v} (`{_short(e)}`)"
        why = ""
        if max(a.get("local", 0) for _, a in items) > LOCAL_LIMIT:
            why = OVER_LOCAL.get(t, "")
        if not why and max(a.get("spill", 0) for _, a in items) > SPILL_LIMIT:
            why = OVER_SPILL.get(t, "")
        lines.append(f"| {relpath} | `{t}` | {len(items)} | {most('registers')} | "
                     f"{most('shared')} | {most('local')} | {most('spill')} | {why} |")
    return lines


def _short(e):
    e = re.sub(r"\bga::", "", e)
    return e if len(e) <= 60 else e[:57] + "..."


def main(argv):
    import argparse
    import garray
    ap = argparse.ArgumentParser(prog="python -m garray resources",
                                 description="every built-in kernel's GPU resources")
    ap.add_argument("--device", default=None, help="cuda, hip or e.g. cuda:1")
    ap.add_argument("--check", action="store_true", help="fail on a kernel over the limits")
    ap.add_argument("--markdown", default=None, help="write the per-template table here")
    args = ap.parse_args(argv)
    dev = garray.Device(args.device) if args.device else garray.default_device()
    if dev.kind == "cpu":
        print("resources: a GPU device is needed (the stub drivers will do)")
        return 2
    rows = collect(dev)
    p = dev.properties
    print(f"resources of {len(rows)} kernels on {dev} ({p.get('name')}, {p.get('arch')}, "
          f"warp size {p.get('warp_size')})")
    over = sorted({template(e) for _, e, a in rows if a.get("local", 0) > LOCAL_LIMIT})
    spilled = sorted({template(e) for _, e, a in rows if a.get("spill", 0) > SPILL_LIMIT})
    print(f"  most registers: {max(a.get('registers', 0) for _, _, a in rows)}; most local "
          f"bytes per thread: {max(a.get('local', 0) for _, _, a in rows)}; templates over "
          f"{LOCAL_LIMIT} B of local memory: {', '.join(over) or 'none'}; over "
          f"{SPILL_LIMIT} B of spill stores: {', '.join(spilled) or 'none'}")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(table(rows, dev)) + "\n")
        print(f"  table: {args.markdown}")
    bad = problems(rows)
    for line in bad:
        print("  OVER LIMIT: " + line)
    if args.check and bad:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
