#!/usr/bin/env bash
# Installs what triton-spirv needs on Debian 12 (apt + pip) and builds it.
# Idempotent: installed packages are detected and the build is incremental,
# so a second run takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  cmake ninja-build ccache g++
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22
  libzstd-dev zlib1g-dev
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  spirv-tools
)

log() { printf '[setup] %s\n' "$*"; }

# A plain Debian Python has no pip: take Debian's.
python3 -m pip --version >/dev/null 2>&1 || APT_PACKAGES+=(python3-pip)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$pkg")
done
if ((${#missing[@]})); then
  log "apt: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  log "apt: all packages present"
fi

pip_flags=()
# Debian's own Python refuses system-wide installs (PEP 668) unless told.
python3 -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))' \
  && pip_flags+=(--break-system-packages)
if python3 scripts/check_requirements.py requirements.txt; then
  log "pip: all requirements satisfied"
else
  log "pip: installing requirements.txt"
  python3 -m pip install -q "${pip_flags[@]}" -r requirements.txt
fi

if python3 scripts/check_requirements.py requirements-flaggems.txt; then
  log "pip: FlagGems present"
else
  log "pip: installing requirements-flaggems.txt (without its pins)"
  python3 -m pip install -q "${pip_flags[@]}" --no-deps -r requirements-flaggems.txt
fi

BUILD_DIR=${TRITON_SPIRV_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  log "cmake: configuring $BUILD_DIR"
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit "${launcher[@]}" >/dev/null
fi
log "building (ninja -j${TRITON_SPIRV_JOBS:-2})"
# A failed build fails the script (pipefail); only grep's no-match is ignored.
ninja -C "$BUILD_DIR" -j"${TRITON_SPIRV_JOBS:-2}" | { grep -v '^ninja: no work to do' || true; }
test -x "$BUILD_DIR/bin/triton-spirv-opt"
test -f "$BUILD_DIR/lib/libtriton_spirv_runtime.so"
test -f "$BUILD_DIR/lib/libtriton_spirv_torch.so"  # the spirv torch device (torch came with pip)

# The package, editable, so that Triton finds the backend's entry point; again
# when the installed one belongs to another checkout.
if ! python3 - "$PWD/python" <<'PY' 2>/dev/null; then
import importlib.util, os, sys
from importlib.metadata import entry_points
ours = {e.name for e in entry_points().select(group="triton.backends") if e.value.startswith("triton_spirv.")}
device = {e.name for e in entry_points().select(group="torch.backends") if e.value.startswith("triton_spirv.")}
registered = ours == {"spirv", "cpu"} and device == {"spirv"}
spec = importlib.util.find_spec("triton_spirv")
here = spec is not None and os.path.realpath(spec.origin).startswith(os.path.realpath(sys.argv[1]) + os.sep)
sys.exit(not (registered and here))
PY
  log "pip: installing the triton_spirv package (editable)"
  python3 -m pip install -q "${pip_flags[@]}" --no-deps --no-build-isolation -e .
fi
log "ready: $BUILD_DIR/bin/triton-spirv-opt, $BUILD_DIR/lib/libtriton_spirv_runtime.so, $BUILD_DIR/lib/libtriton_spirv_torch.so"
