#!/usr/bin/env bash
# Build the Sphinx site in docs/ with warnings as errors, as CI does: installs the `docs`
# extra's packages (read from pyproject.toml, so the list lives in one place) without
# reinstalling garray, then builds into docs/_build/html (the API reference is generated
# from the installed garray's docstrings at build time).
# Usage: bash ci/build-docs.sh     (after garray is installed: README's install command)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
mapfile -t reqs < <($PY - <<'PYEOF'
import tomllib
with open("pyproject.toml", "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["optional-dependencies"]["docs"]))
PYEOF
)
$PY -m pip install -q "${reqs[@]}"
t0=$(date +%s)
$PY -m sphinx -W --keep-going -q -b html docs docs/_build/html
echo "build-docs: docs/_build/html built with no warnings in $(( $(date +%s) - t0 ))s"
