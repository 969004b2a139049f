#!/bin/bash
# The test suite under AddressSanitizer on the CPU device (docs/reliability.md).
# Builds the Cython core with -fsanitize=address into build-asan/, compiles every CPU
# kernel with it too (GARRAY_CXXFLAGS, a separate kernel cache), and runs pytest with
# the ASan runtime preloaded (Python itself is not instrumented; leak checking is off
# because the interpreter keeps memory alive at exit).
#   bash ci/asan.sh [pytest arguments]      (default: tests/)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$root/build-asan
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" -Db_sanitize=address -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
fi
ninja -C "$build" >/dev/null
# A package directory: the sources by symlink plus the instrumented extension.
pkg=$build/pkg
rm -rf "$pkg" && mkdir -p "$pkg/garray"
for f in "$root"/garray/*; do
    case "$(basename "$f")" in _core.*.so) continue ;; esac
    ln -s "$f" "$pkg/garray/"
done
core=$(find "$build" -maxdepth 2 -name "_core.*.so" -not -path "$pkg/*" | head -1)
ln -s "$core" "$pkg/garray/"
ln -s "$root/_kernels" "$pkg/_kernels"
ln -s "$root/cython" "$pkg/cython"      # the generated-files check reads it beside garray/
# The editable install's import hook would load the uninstrumented build: drop it
# (and python -P below keeps the source tree itself off sys.path).
cat > "$pkg/sitecustomize.py" <<'PY'
import sys
sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "MesonpyMetaFinder"]
PY
export PYTHONPATH="$pkg${PYTHONPATH:+:$PYTHONPATH}"
export LD_PRELOAD="$(gcc -print-file-name=libasan.so)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:allocator_may_return_null=1"
export GARRAY_CXXFLAGS="-fsanitize=address -fno-omit-frame-pointer"
export GARRAY_CACHE_DIR="$build/kernel-cache"
# The prebuilt kernel library's entries are keyed by their compile flags, which
# GARRAY_CXXFLAGS changes: every kernel is compiled at run time, instrumented, and the
# library's own tests skip.
export GARRAY_CPU_AOT=0
python -P -c "import garray, sys; assert garray.__file__.startswith('$pkg'), garray.__file__; print('garray from', garray.__file__)"
# Left out: tests/test_gpu_compilers.py only drives NVRTC/hiprtc (not garray's memory),
# and NVRTC cannot load its builtins library under the preloaded runtime;
# tests/kernels/test_sanitizer*.py build kernels with -fsanitize=thread, which g++ refuses
# beside -fsanitize=address; tests/test_notebooks.py's Jupyter kernels, started under the
# preloaded runtime, never answer the client (each cell waits out its 300 s timeout).
if [ $# -eq 0 ]; then
    set -- tests/ --ignore=tests/test_gpu_compilers.py --ignore=tests/test_notebooks.py \
        --ignore=tests/kernels/test_sanitizer.py --ignore=tests/kernels/test_sanitizer_families.py
fi
# Run from the package directory, so that child processes the tests start (python -c,
# whose sys.path begins with the working directory) import the instrumented build too;
# arguments that are paths in the repository are made absolute.
args=()
for a in "$@"; do
    if [ -e "$root/${a%%::*}" ]; then args+=("$root/$a"); else args+=("${a/=tests\//=$root/tests/}"); fi
done
cd "$pkg"
exec python -P -m pytest -p no:cacheprovider --rootdir "$root" -c "$root/pyproject.toml" "${args[@]}"
