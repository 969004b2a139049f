#!/usr/bin/env bash
# Run garray's test suite on the stub CUDA and HIP devices (the shared gpu-stub drivers):
# real cuda-bindings + NVRTC (sm_90) and real hip-python + Debian's hiprtc (gfx90a), every
# launch executed by the CPU build of the same kernel (garray.testing.gpu_stub).
#   1. builds the stub drivers from $GPU_STUB_DIR (default ../shared/gpu-stub) into
#      $STUB_LIBS (default: a new temporary folder), or says why it skipped when they are
#      absent; fails when the stub BLAS or DNN libraries were not built; builds garray's
#      own stub cuFFT / hipFFT and cuSOLVER / hipSOLVER (ci/stubs/) beside them;
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
  # The vendor DNN tests (tests/nn/test_dnn_vendor.py) need the stub cuDNN/MIOpen, which a
  # build.sh of gpu-stub sources older than its "Stub DNN libraries" does not make.
  for lib in libcudnn.so.9 libMIOpen.so; do
    [ -f "$STUBS/$lib" ] || { cat "$STUBS/build.log"
      echo "stub-gpu-tests: the stub DNN library $lib was not built (are the gpu-stub sources at $STUB_SRC older than stub_cudnn.c / stub_miopen.c?)"
      exit 1; }
  done
  # garray's own stub cuFFT / hipFFT (ci/stubs/stub_fft.c; the shared stubs have no FFT):
  # the vendor FFT path (tests/fft/test_fft_vendor.py, and every FFT under GARRAY_FFT=auto).
  CC=${CC:-cc}
  fftflags=(-O2 -g -shared -fPIC -pthread -Wl,-z,defs)
  $CC "${fftflags[@]}" -DSTUB_CUDA -Wl,-soname,libcufft.so.12 -o "$STUBS/libcufft.so.12" ci/stubs/stub_fft.c -ldl -lm &&
    ln -sf libcufft.so.12 "$STUBS/libcufft.so" &&
    $CC "${fftflags[@]}" -DSTUB_HIP -Wl,-soname,libhipfft.so -o "$STUBS/libhipfft.so" ci/stubs/stub_fft.c -ldl -lm || {
    echo "stub-gpu-tests: building the stub FFT libraries (ci/stubs/stub_fft.c) failed"; exit 1; }
  # garray's own stub cuSOLVER / hipSOLVER (ci/stubs/stub_solver.c, LAPACK from
  # scipy-openblas32, a garray dependency): the vendor solver path of garray.linalg.
  blas=$($PY -c 'import scipy_openblas32 as s; print(s.get_include_dir()); print(s.get_lib_dir())') || {
    echo "stub-gpu-tests: scipy-openblas32 is not importable by $PY (the stub solver needs its LAPACK)"; exit 1; }
  inc=$(sed -n 1p <<<"$blas"); lib=$(sed -n 2p <<<"$blas")
  solver=(-O1 -g -shared -fPIC -pthread -Wl,-z,defs -I"$inc")
  $CC "${solver[@]}" -DSTUB_CUDA -Wl,-soname,libcusolver.so.12 -o "$STUBS/libcusolver.so.12" ci/stubs/stub_solver.c \
      -L"$lib" -lscipy_openblas -Wl,-rpath,"$lib" -ldl &&
    ln -sf libcusolver.so.12 "$STUBS/libcusolver.so" &&
    $CC "${solver[@]}" -DSTUB_HIP -Wl,-soname,libhipsolver.so -o "$STUBS/libhipsolver.so" ci/stubs/stub_solver.c \
      -L"$lib" -lscipy_openblas -Wl,-rpath,"$lib" -ldl || {
    echo "stub-gpu-tests: building the stub solver libraries (ci/stubs/stub_solver.c) failed"; exit 1; }
  $PY -m pip install -q 'cuda-bindings>=13,<14' 'hip-python>=7.2,<7.3' || {
    echo "stub-gpu-tests: installing the vendor bindings failed"; exit 1; }
fi
[ "$prepare_only" = 1 ] && { echo "stub-gpu-tests: stub drivers in $STUBS"; exit 0; }

export LD_LIBRARY_PATH="$STUBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GARRAY_GPU_STUB=1               # garray.testing.gpu_stub registers the CPU builds
# Asynchronous streams (a worker per stream, FAKE_GPU_DELAY_US per queued operation, 200 by
# default) with the stream-order hazard checker aborting at the first hazard: a missing
# synchronisation fails here instead of passing by luck (docs/streams.md).  STUB_SYNC=1
# runs the stubs' synchronous mode instead.
if [ "${STUB_SYNC:-0}" != 1 ]; then
  export FAKE_GPU_ASYNC=${FAKE_GPU_ASYNC:-1} FAKE_GPU_HAZARDS=${FAKE_GPU_HAZARDS:-abort}
fi
export FAKE_HIP_ARCH=gfx90a:sramecc+:xnack-     # what Debian's hiprtc 5.2 compiles for
# One pytest process per test file, JOBS at a time.  The stub drivers never give device
# memory back (a bump allocator) and open and close their whole arena with two mprotect
# calls around every driver call, whose cost grows with the arena's touched pages: in one
# process for the whole suite every later call paid for every earlier test's memory (the
# suite's second half ran many times slower than its first).  A process per file starts
# each file on an empty arena.  test_notebooks runs its notebooks on the CPU device
# whatever GARRAY_DEVICE says (the CPU-device runs cover it); test_gpu_compilers is the
# compile check, run once by .ci/run.
# Three at a time: in async mode a test waits on the stubs' per-operation delay (a sleep)
# for much of its time, so a third process fills the cores that two would leave idle.
JOBS=${STUB_JOBS:-3}
stub_tests() {
  local kind=$1 logs t0 f n failed=0
  logs=$(mktemp -d)
  t0=$(date +%s)
  # Under GARRAY_FFT=auto every FFT takes the stub vendor FFT: test_fft runs a second time
  # with GARRAY_FFT=kernel ("FILE@kernel"), so garray's FFT kernels run on the device too.
  { find tests -name 'test_*.py' | sort | grep -v -e '/test_gpu_compilers.py$' -e '/test_notebooks.py$'
    echo tests/fft/test_fft.py@kernel; } |
    KIND=$kind LOGS=$logs PY=$PY xargs -P "$JOBS" -I{} bash -c '
      f={}; fft=; case $f in *@kernel) f=${f%@kernel}; fft=kernel;; esac
      n=$(basename "$f" .py)${fft:+-fft-$fft}; s=$(date +%s)
      GARRAY_FFT=$fft GARRAY_DEVICE=$KIND $PY -m pytest "$f" -q -p no:cacheprovider > "$LOGS/$n.log" 2>&1
      echo "$? $(( $(date +%s) - s )) $n" > "$LOGS/$n.rc"'
  for f in "$logs"/*.rc; do
    read -r code secs n < "$f"
    if [ "$code" -ne 0 ]; then
      failed=1; echo "---- $n (rc=$code; 5 means no tests collected)"; tail -n 60 "$logs/$n.log"
    fi
  done
  echo "-- slowest test files on stub $kind (seconds):"
  cat "$logs"/*.rc | sort -k2 -n -r | head -n 8 | awk '{printf "   %5d  %s\n", $2, $3}'
  echo "-- stub $kind: $(cat "$logs"/*.log | grep -hE '^[0-9]+ (passed|failed|skipped)|^=+ .*(passed|failed)' |
    grep -oE '[0-9]+ (passed|failed|skipped|errors?)' |
    awk '{s[$2]+=$1} END {for (k in s) printf "%d %s  ", s[k], k}')in $(( $(date +%s) - t0 ))s"
  # launch annotations for the hazard checker (Note [Stub launch annotations]), summed
  echo "-- stub $kind hazard checker: $(cat "$logs"/*.log | grep -h ' hazard checker: ' |
    awk '{a+=$5; l+=$9} END {printf "%d built-in launches annotated, %d left to its conservative rule", a, l}')"
  cat "$logs"/*.log | grep -h '^  left to the rule: ' | sort -u | head -n 8
  rm -rf "$logs"
  return $failed
}

rc=0
for kind in "${kinds[@]}"; do
  t0=$(date +%s)
  echo "== stub $kind device: python -m garray"
  GARRAY_DEVICE=$kind $PY -m garray || rc=1
  echo "== stub $kind device: precompile"
  GARRAY_DEVICE=$kind $PY -m garray precompile || rc=1
  echo "== stub $kind device: tests (one process per test file, $JOBS at a time)"
  stub_tests "$kind" || rc=1
  echo "== stub $kind device: bench/gpu_check.sh --stub"
  bash bench/gpu_check.sh --stub --device "$kind" || rc=1
  echo "== stub $kind device: $(( $(date +%s) - t0 ))s"
done
exit $rc
