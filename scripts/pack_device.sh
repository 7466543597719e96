#!/usr/bin/env bash
# Put what a machine without MLIR needs into .device/ (git-excluded): this
# project's wheel (the stripped static triton-spirv-opt, the runtime library,
# the package and its triton.backends entry point) installed into
# .device/site, which scripts/gpu_machine.sh puts on PYTHONPATH, and the
# wheels of FlagGems and SQLAlchemy for the GPU machine's Python 3.12 (it has
# the rest) in .device/wheels, which it installs.
# With TRITON_VERSION=3.9.0 (say) it also packs that Triton for the GPU
# machine (which has 3.6.0) into .device/triton: its cp312 wheel is larger
# than a device call carries, so libtriton.so goes stripped and xz'd and the
# CUDA/ROCm tools (ptxas, CUPTI, the ROCm libraries) stay behind: this
# backend does not need them. scripts/gpu_machine.sh unpacks it first on
# PYTHONPATH. triton-spirv-opt travels xz'd too.
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
xz -T2 -6 .device/site/triton_spirv/_bin/triton-spirv-opt
if [ -n "${TRITON_VERSION:-}" ]; then
  scratch=$(mktemp -d)
  python3 -m pip download -q --no-deps -d "$scratch" --python-version 3.12 --only-binary=:all: \
    --platform manylinux_2_27_x86_64 --platform manylinux_2_28_x86_64 "triton==$TRITON_VERSION"
  (cd "$scratch" && python3 -m zipfile -e triton-*.whl unpacked)
  mkdir -p .device/triton
  strip --strip-unneeded -o "$scratch/libtriton.so" "$scratch/unpacked/triton/_C/libtriton.so"
  xz -T2 -6 -c "$scratch/libtriton.so" > .device/triton/libtriton.so.xz
  tar -C "$scratch/unpacked" -cJf .device/triton/rest.tar.xz --exclude=triton/_C/libtriton.so \
    --exclude=triton/_C/libproton.so --exclude=triton/backends/nvidia/bin \
    --exclude='triton/backends/nvidia/lib/cupti*' --exclude=triton/backends/amd/lib \
    --exclude='triton/backends/*/include' --exclude=triton/include --exclude=triton/instrumentation \
    triton "triton-$TRITON_VERSION.dist-info"
  rm -rf "$scratch"
fi
