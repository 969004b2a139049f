#!/usr/bin/env bash
# Install the two GPU *compilers* that CI uses to prove every kernel compiles for both
# vendors, on a machine with no GPU and no driver (compiling needs neither):
#   - NVRTC 13.x from PyPI (the nvidia-cuda-nvrtc wheel), loaded by garray/_compiler/nvrtc.py;
#   - hiprtc 5.2.3 from Debian 12 (hipcc, libamdhip64-dev, libhiprtc-builtins5), loaded by
#     garray/_compiler/hiprtc.py; hiprtc's symbols live in libamdhip64.so.5.
# Idempotent: it skips what is already installed, and runs `apt-get update` at most once.
# Needs root (or sudo) on Debian 12, with network to the Debian mirrors and PyPI only.
# Usage: ci/install-gpu-compilers.sh [--no-hip] [--no-nvrtc]     (PYTHON=... to pick python)
set -euo pipefail

if [ -z "${PYTHON:-}" ]; then
  if command -v python >/dev/null 2>&1; then PYTHON=python; else PYTHON=python3; fi
fi
want_hip=1
want_nvrtc=1
for arg in "$@"; do
  case "$arg" in
    --no-hip) want_hip=0 ;;
    --no-nvrtc) want_nvrtc=0 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "install-gpu-compilers: unknown argument $arg" >&2; exit 2 ;;
  esac
done

start=$(date +%s)
HIP_PACKAGES=(hipcc libamdhip64-dev libhiprtc-builtins5)
NVRTC_REQ='nvidia-cuda-nvrtc>=13,<14'

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo); else
    echo "install-gpu-compilers: needs root (or sudo) for apt-get" >&2; exit 1; fi
fi

pkg_installed() {  # pkg_installed NAME: whether dpkg has NAME fully installed
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = "installed" ]
}

# ---- hiprtc (Debian 12) ---------------------------------------------------------------
if [ "$want_hip" -eq 1 ]; then
  missing=()
  for p in "${HIP_PACKAGES[@]}"; do pkg_installed "$p" || missing+=("$p"); done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "== apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get update -qq
    # about 32 packages, ~350 MB installed (clang-15, lld-15, libLLVM-15, comgr, device libs)
    apt_log=$(mktemp)
    if ! "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" \
        >"$apt_log" 2>&1; then
      cat "$apt_log" >&2; rm -f "$apt_log"
      echo "install-gpu-compilers: apt-get install failed" >&2; exit 1
    fi
    grep -E '^(Need to get|After this operation)' "$apt_log" || true
    rm -f "$apt_log"
  else
    echo "== hip packages already installed: ${HIP_PACKAGES[*]}"
  fi
fi

# ---- NVRTC (PyPI wheel) ---------------------------------------------------------------
if [ "$want_nvrtc" -eq 1 ]; then
  if "$PYTHON" - <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
major = int(version("nvidia-cuda-nvrtc").split(".")[0])
sys.exit(0 if major == 13 else 1)
PY
  then
    echo "== nvidia-cuda-nvrtc 13.x already installed"
  else
    echo "== pip install $NVRTC_REQ"
    "$PYTHON" -m pip install -q "$NVRTC_REQ"
  fi
fi

# ---- report ---------------------------------------------------------------------------
echo "== installed"
if [ "$want_hip" -eq 1 ]; then
  for p in "${HIP_PACKAGES[@]}"; do
    printf '  %-22s %s\n' "$p" "$(dpkg-query -W -f='${Version}' "$p")"
  done
fi
if [ "$want_nvrtc" -eq 1 ]; then
  printf '  %-22s %s\n' nvidia-cuda-nvrtc \
    "$("$PYTHON" -c 'from importlib.metadata import version; print(version("nvidia-cuda-nvrtc"))')"
fi
# What garray's loaders find, when garray is importable (informational, never fails).
"$PYTHON" - <<'PY' 2>/dev/null || echo "  (garray's compiler loaders are not importable here)"
from garray._compiler import hiprtc, nvrtc
for name, mod in (("nvrtc", nvrtc), ("hiprtc", hiprtc)):
    ok, reason = mod.available()
    print(f"  garray._compiler.{name}: {reason}")
PY
echo "== done in $(( $(date +%s) - start )) s"
