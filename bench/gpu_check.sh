#!/usr/bin/env bash
# The one prepared GPU check (docs/architecture.md, "GPU verification").  On a lent machine with one NVIDIA GPU
# and no network (CUDA 13 wheels, cuda-bindings, CuPy, PyTorch, Cython, meson, ninja):
#   1. builds garray offline (pip -e with meson-python if present, else meson + ninja in
#      place), 2. prints the devices found, 3. runs the whole test suite on the GPU device
#      (4 min cap; the GPU-specific files first, up to 50 failures listed), 4. runs bench/gpu_bench.py against CuPy and PyTorch with a
#      device-to-device copy as the roof (elementwise at 2**24, then sum and sum(axis=-1)
#      of 2**28 float32 as a fraction of the copy; sort; float32/float64 matmul at 8192,
#      vendor and kernel paths, in GFLOP/s; uniform and normal draws of 2**28 values;
#      conv2d forward of ResNet-like layers at batch 8 beside torch, skipped on the stub),
#      5. ends with a compact summary.  Whole run < 8 min.
# Usage: bench/gpu_check.sh [--dry-run | --stub] [--device cuda|hip]
#   --dry-run: the same steps on the CPU device (CI runs this), small sizes;
#   --stub: the same steps on a stub GPU device (ci/stub-gpu-tests.sh runs this after the
#           full suite has run there): small sizes, the GPU-specific test files only.
set -uo pipefail
cd "$(dirname "$0")/.."
DRY=0; KIND=cuda
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY=1 ;;
    --stub) DRY=2 ;;
    --device) KIND="$2"; shift ;;
    *) echo "gpu_check: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
PY=${PYTHON:-python3}
start=$(date +%s)
summary=()
step() { echo; echo "== $* ($(( $(date +%s) - start ))s)"; }

step "build"
if $PY -c "import garray" 2>/dev/null; then
  echo "garray already importable: $($PY -c 'import garray; print(garray.__file__)')"
  summary+=("build: already installed")
elif $PY -c "import mesonpy" 2>/dev/null; then
  $PY -m pip install -q --no-build-isolation --no-deps -e . && summary+=("build: pip -e ok") \
    || { echo "gpu_check: build failed"; exit 1; }
else
  # No meson-python offline: build the extension with meson + ninja and put it in place.
  bdir=build-gpu-check
  meson setup --reconfigure -Dbuildtype=release "$bdir" >/dev/null 2>&1 || meson setup -Dbuildtype=release "$bdir" \
    && ninja -C "$bdir" >/dev/null && cp "$bdir"/_core*.so garray/ && export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" \
    && summary+=("build: meson+ninja in place") || { echo "gpu_check: build failed"; exit 1; }
fi

TESTS=(tests/)
# --dry-run and --stub run after the full suite has run on that device (CI): only the
# device-specific test files here, so CI does not pay for a third full run.
if [ "$DRY" = 1 ]; then DEV=cpu; LOG2N=18; RED_LOG2N=18; SORT_LOG2N=16; GEMM_N=128; CONV_N=1; FFT_LOG2N=16; TEST_CAP=600
  TESTS=(tests/test_transfer_device.py tests/kernels/test_raw_kernels.py tests/elementwise/test_elementwise_paths.py
         tests/gemm/test_gpu_blas.py tests/fft/test_fft_vendor.py)
elif [ "$DRY" = 2 ]; then DEV="$KIND"; LOG2N=14; RED_LOG2N=14; SORT_LOG2N=14; GEMM_N=64; CONV_N=0; FFT_LOG2N=14; TEST_CAP=600
  TESTS=(tests/test_transfer_device.py tests/kernels/test_raw_kernels.py tests/elementwise/test_elementwise_paths.py
         tests/gemm/test_gpu_blas.py tests/fft/test_fft_vendor.py)
else DEV="$KIND"; LOG2N=24; RED_LOG2N=28; SORT_LOG2N=26; GEMM_N=8192; CONV_N=8; FFT_LOG2N=24; TEST_CAP=240
  # the whole suite, the GPU-specific files first so that they run inside the cap
  TESTS=(tests/test_gpu_launch_shapes.py tests/test_transfer_device.py tests/kernels/test_raw_kernels.py
         tests/elementwise/test_elementwise_paths.py tests/gemm/test_gpu_blas.py tests/fft/test_fft_vendor.py tests/)
fi

step "precompile for $DEV"
GARRAY_DEVICE=$DEV $PY -m garray precompile || summary+=("precompile: FAILED")

step "devices"
GARRAY_DEVICE=$DEV $PY -m garray || summary+=("python -m garray: FAILED")

if [ "$DEV" != cpu ]; then
  step "kernel resources on $DEV (the driver's cuFuncGetAttribute / hipFuncGetAttribute)"
  rtab=$(mktemp)
  GARRAY_DEVICE=$DEV $PY -m garray resources --check --markdown "$rtab" || {
    rrc=1; summary+=("kernel resources: OVER LIMIT (python -m garray resources --check)"); }
  # beside the table the stub drivers give (parsed from the same code objects)
  vendor=$($PY -c "import garray; print(garray.Device('$DEV').kind)")
  if [ -f "docs/_tables/kernel-resources-$vendor.md" ]; then
    diff "docs/_tables/kernel-resources-$vendor.md" "$rtab" > "$rtab.diff" &&
      echo "  the driver agrees with docs/_tables/kernel-resources-$vendor.md" ||
      { echo "  the driver differs from docs/_tables/kernel-resources-$vendor.md (< docs, > driver):"; head -n 40 "$rtab.diff"; }
  fi
fi

step "tests on $DEV (cap ${TEST_CAP}s)"
tlog=$(mktemp)
# On a GPU every failure is worth seeing (up to 50), not only the first; a run the cap
# ends still reports what it passed (pytest's live count, as -q prints it).
[ "$DEV" = cpu ] || [ "$DRY" = 2 ] && STOP=(-x --maxfail=1) || STOP=(--maxfail=50 -rfE)
GARRAY_DEVICE=$DEV timeout "$TEST_CAP" $PY -m pytest "${TESTS[@]}" -q -p no:cacheprovider "${STOP[@]}" \
  --ignore=tests/test_gpu_compilers.py -o addopts="" >"$tlog" 2>&1
trc=$?
tail -n 15 "$tlog"
grep -E '^(FAILED|ERROR) ' "$tlog" | head -n 50
nf=$(grep -cE '^(FAILED|ERROR) ' "$tlog")
done_line=$(grep -E '(passed|failed|error)' "$tlog" | tail -n 1)
[ "$trc" -eq 124 ] && done_line="cap of ${TEST_CAP}s reached after $(grep -oE '^[.FEsx]+' "$tlog" | tr -d '\n' | grep -o '\.' | wc -l) passes"
summary+=("tests on $DEV: $done_line; $nf failures listed (rc=$trc)")

step "benchmark"
blog=$(mktemp)
GARRAY_DEVICE=$DEV timeout 240 $PY bench/gpu_bench.py --log2n "$LOG2N" --red-log2n "$RED_LOG2N" --sort-log2n "$SORT_LOG2N" --gemm-n "$GEMM_N" --conv-n "$CONV_N" --fft-log2n "$FFT_LOG2N" --repeat 5 >"$blog" 2>&1
cat "$blog"
summary+=("bench: $(grep '^summary:' "$blog" | sed 's/^summary: //')")

step "summary"
for s in "${summary[@]}"; do echo "  $s"; done
echo "  total $(( $(date +%s) - start ))s"
[ "$trc" -eq 0 ] && [ "${rrc:-0}" -eq 0 ]
