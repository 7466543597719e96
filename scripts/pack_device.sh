#!/usr/bin/env bash
# Put what a machine without MLIR needs into .device/ (git-excluded): this
# project's wheel (the stripped static triton-spirv-opt, the runtime library,
# the package and its triton.backends entry point) installed into
# .device/site, which scripts/gpu_machine.sh puts on PYTHONPATH.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .device
export PIP_ROOT_USER_ACTION=ignore
python3 -m pip wheel . --no-deps --no-build-isolation -q -w .device/dist
python3 -m pip install -q --no-deps --target .device/site .device/dist/*.whl
rm -rf .device/dist
