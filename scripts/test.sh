#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test: the lit suite
# (FileCheck tests and the TTIR corpora) and the pytest suite, the latter
# with both ends of the supported Triton releases: the newest (installed by
# requirements.txt) and the oldest, from a folder of its own
# (~/.cache/triton-spirv/triton-<version>, installed once).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
BUILD_DIR=${TRITON_SPIRV_BUILD_DIR:-build}
echo "== lit (FileCheck tests + TTIR corpus round trip)"
# LLVM 22's own lit (llvm-22-tools), the version matching the FileCheck used.
/usr/lib/llvm-22/bin/lit -q "$BUILD_DIR/test"
newest=$(python3 -c 'import triton; print(triton.__version__)')
echo "== pytest (Triton $newest)"
python3 -m pytest -q test/python "$@"
oldest=$(python3 -c 'from triton_spirv.versions import OLDEST; print("%d.%d.0" % OLDEST)')
if [ "$oldest" != "$newest" ]; then
  folder=${XDG_CACHE_HOME:-$HOME/.cache}/triton-spirv/triton-$oldest
  if [ ! -f "$folder/triton/__init__.py" ]; then
    echo "== pip: Triton $oldest into $folder"
    rm -rf "$folder"
    python3 -m pip install -q --no-deps --target "$folder" "triton==$oldest"
  fi
  echo "== pytest (Triton $oldest, the oldest supported)"
  PYTHONPATH=$folder${PYTHONPATH:+:$PYTHONPATH} python3 -m pytest -q test/python "$@"
fi
