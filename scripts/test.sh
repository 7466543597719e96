#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test: the lit suite
# (FileCheck tests and the TTIR corpus) and the pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
BUILD_DIR=${TRITON_SPIRV_BUILD_DIR:-build}
echo "== lit (FileCheck tests + TTIR corpus round trip)"
# LLVM 22's own lit (llvm-22-tools), the version matching the FileCheck used.
/usr/lib/llvm-22/bin/lit -q "$BUILD_DIR/test"
echo "== pytest"
python3 -m pytest -q test/python "$@"
