#!/usr/bin/env bash
# Run garray's test suite on the stub CUDA and HIP devices (the shared gpu-stub drivers):
# real cuda-bindings + NVRTC (sm_90) and real hip-python + Debian's hiprtc (gfx90a), every
# launch executed by the CPU build of the same kernel (garray.testing.gpu_stub).
#   1. builds the stub drivers from $GPU_STUB_DIR (default ../shared/gpu-stub) into
#      $STUB_LIBS (default: a new temporary folder), or says why it skipped when they are
#      absent; fails when the stub BLAS or DNN libraries were not built;
#   2. installs the vendor bindings (cuda-bindings 13, hip-python 7.2; both from PyPI);
#   3. per device: python -m garray (self-check), precompile, the test suite, and
#      bench/gpu_check.sh --stub (its build, devices, tests and bench steps on the stub).
# Usage: ci/stub-gpu-tests.sh [--prepare] [cuda] [hip]     (default: both devices)
#   --prepare: steps 1 and 2 only (.ci/run prepares once, then runs the two devices in
#   parallel with STUB_PREPARED=1 and the same STUB_LIBS).
# Needs: ci/install-gpu-compilers.sh first (NVRTC, hiprtc) and garray installed.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
STUB_SRC=${GPU_STUB_DIR:-../shared/gpu-stub}
prepare_only=0
kinds=()
for a in "$@"; do
  if [ "$a" = --prepare ]; then prepare_only=1; else kinds+=("$a"); fi
done
[ ${#kinds[@]} -eq 0 ] && kinds=(cuda hip)
if [ ! -f "$STUB_SRC/build.sh" ]; then
  echo "stub-gpu-tests: SKIPPED: no stub drivers at $STUB_SRC (set GPU_STUB_DIR)"
  exit 0
fi
STUBS=${STUB_LIBS:-$(mktemp -d)}
if [ "${STUB_PREPARED:-0}" != 1 ]; then
  mkdir -p "$STUBS"
  PYTHON="$PY" bash "$STUB_SRC/build.sh" "$STUBS" > "$STUBS/build.log" 2>&1 || {
    cat "$STUBS/build.log"; echo "stub-gpu-tests: building the stub drivers failed"; exit 1; }
  # The vendor GEMM tests need the stub cuBLAS/hipBLAS, which build.sh skips (with a note)
  # when $PY lacks scipy-openblas32, a garray dependency: a missing one is a broken setup.
  for lib in libcublas.so.13 libhipblas.so; do
    [ -f "$STUBS/$lib" ] || { cat "$STUBS/build.log"
      echo "stub-gpu-tests: the stub BLAS library $lib was not built (is scipy-openblas32 installed for $PY?)"
      exit 1; }
  done
  # The vendor DNN tests (tests/test_dnn_vendor.py) need the stub cuDNN/MIOpen, which a
  # build.sh of gpu-stub sources older than its "Stub DNN libraries" does not make.
  for lib in libcudnn.so.9 libMIOpen.so; do
    [ -f "$STUBS/$lib" ] || { cat "$STUBS/build.log"
      echo "stub-gpu-tests: the stub DNN library $lib was not built (are the gpu-stub sources at $STUB_SRC older than stub_cudnn.c / stub_miopen.c?)"
      exit 1; }
  done
  $PY -m pip install -q 'cuda-bindings>=13,<14' 'hip-python>=7.2,<7.3' || {
    echo "stub-gpu-tests: installing the vendor bindings failed"; exit 1; }
fi
[ "$prepare_only" = 1 ] && { echo "stub-gpu-tests: stub drivers in $STUBS"; exit 0; }

export LD_LIBRARY_PATH="$STUBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GARRAY_GPU_STUB=1               # garray.testing.gpu_stub registers the CPU builds
export FAKE_HIP_ARCH=gfx90a:sramecc+:xnack-     # what Debian's hiprtc 5.2 compiles for
rc=0
for kind in "${kinds[@]}"; do
  t0=$(date +%s)
  echo "== stub $kind device: python -m garray"
  GARRAY_DEVICE=$kind $PY -m garray || rc=1
  echo "== stub $kind device: precompile"
  GARRAY_DEVICE=$kind $PY -m garray precompile || rc=1
  echo "== stub $kind device: tests"
  trc=0
  # test_notebooks runs its notebooks on the CPU device whatever GARRAY_DEVICE says: the
  # CPU-device runs cover it.
  GARRAY_DEVICE=$kind $PY -m pytest tests/ -q -p no:cacheprovider \
    --ignore=tests/test_gpu_compilers.py --ignore=tests/test_notebooks.py || trc=$?
  [ "$trc" -eq 5 ] && { echo "no tests collected"; trc=1; }
  [ "$trc" -ne 0 ] && rc=$trc
  echo "== stub $kind device: bench/gpu_check.sh --stub"
  bash bench/gpu_check.sh --stub --device "$kind" || rc=1
  echo "== stub $kind device: $(( $(date +%s) - t0 ))s"
done
exit $rc
