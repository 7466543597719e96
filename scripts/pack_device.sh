#!/usr/bin/env bash
# Put what a machine without MLIR needs into .device/ (git-excluded): the
# stripped static triton-spirv-opt, the runtime library, and a dist-info that
# registers the triton.backends entry point when .device/site is on PYTHONPATH.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .device
mkdir -p .device/bin .device/site/triton_spirv-0.1.0.dist-info
strip -o .device/bin/triton-spirv-opt build/bin/triton-spirv-opt
cp build/lib/libtriton_spirv_runtime.so .device/bin/
printf 'Metadata-Version: 2.1\nName: triton-spirv\nVersion: 0.1.0\n' \
  > .device/site/triton_spirv-0.1.0.dist-info/METADATA
printf '[triton.backends]\nspirv = triton_spirv.backend\n' \
  > .device/site/triton_spirv-0.1.0.dist-info/entry_points.txt
