#!/usr/bin/env bash
# Put what a machine without MLIR needs into .device/ (git-excluded): this
# project's wheel (the stripped static triton-spirv-opt, the runtime library,
# the package and its triton.backends entry point) installed into
# .device/site, which scripts/gpu_machine.sh puts on PYTHONPATH, and the
# wheels of FlagGems and SQLAlchemy for the GPU machine's Python 3.12 (it has
# the rest) in .device/wheels, which it installs.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .device
export PIP_ROOT_USER_ACTION=ignore
python3 -m pip wheel . --no-deps --no-build-isolation -q -w .device/dist
python3 -m pip install -q --no-deps --target .device/site .device/dist/*.whl
# Installed there (as wheels they are a fifth of their size).
python3 -m pip download -q --no-deps -d .device/wheels --python-version 3.12 --only-binary=:all: \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
  flag-gems==5.0.2 sqlalchemy==2.0.48 tabulate==0.10.0
rm -rf .device/dist
