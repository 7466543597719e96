#!/usr/bin/env bash
# The main job: sets everything up, then compiles the Triton tutorials' kernels
# with Triton's own front end and runs the TTIR through triton-spirv-opt.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
PYTHONPATH="$PWD/python:$PWD${PYTHONPATH:+:$PYTHONPATH}" \
  python3 utils/demo.py --tool "${TRITON_SPIRV_BUILD_DIR:-build}/bin/triton-spirv-opt" "$@"
