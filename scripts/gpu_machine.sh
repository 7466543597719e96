#!/usr/bin/env bash
# Run a command through SPIR-V on a GPU machine that has Triton and torch but
# no MLIR or package access (the H200 of this project). Expects, in the repo
# root: .gl/ (the libvulkan1 .deb) and .device/ (made by scripts/pack_device.sh:
# this project's wheel, installed into .device/site).
#   bash scripts/gpu_machine.sh [command...]
# Without a command, runs the corpus. CUDA is present there too, so Python
# programs select the SPIR-V driver with `python3 -m triton_spirv.run`, e.g.
#   bash scripts/gpu_machine.sh bash scripts/run_tutorials.sh DIR python3 -m triton_spirv.run
set -euo pipefail
cd "$(dirname "$0")/.."
for deb in .gl/*.deb; do dpkg -x "$deb" /; done
ldconfig
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
# Headless containers: NVIDIA's GLX-based ICD cannot create instances without
# a display; its EGL library implements the same Vulkan driver headless.
if [ -z "${VK_DRIVER_FILES:-}" ] && ldconfig -p | grep -q libEGL_nvidia.so.0; then
  printf '{"file_format_version":"1.0.1","ICD":{"library_path":"libEGL_nvidia.so.0","api_version":"1.4.312"}}\n' \
    > /tmp/nvidia_egl_icd.json
  export VK_DRIVER_FILES=/tmp/nvidia_egl_icd.json
fi
# FlagGems (the spirv device's eager operators), carried as wheels.
if [ -d .device/wheels ]; then
  extra_site=/tmp/triton-spirv-wheels
  [ -d "$extra_site" ] || python3 -m pip install -q --no-index --no-deps --no-compile \
    --target "$extra_site" .device/wheels/*.whl
  export PYTHONPATH=$extra_site${PYTHONPATH:+:$PYTHONPATH}
fi
# A Triton packed by pack_device.sh (TRITON_VERSION) goes before the
# machine's own.
if [ -d .device/triton ]; then
  triton_site=/tmp/triton-spirv-triton
  if [ ! -f "$triton_site/triton/_C/libtriton.so" ]; then
    mkdir -p "$triton_site"
    tar -C "$triton_site" -xJf .device/triton/rest.tar.xz
    xz -dc .device/triton/libtriton.so.xz > "$triton_site/triton/_C/libtriton.so"
  fi
  export PYTHONPATH=$triton_site${PYTHONPATH:+:$PYTHONPATH}
fi
export PYTHONPATH=$PWD/.device/site${PYTHONPATH:+:$PYTHONPATH}
opt=.device/site/triton_spirv/_bin/triton-spirv-opt
[ -f "$opt" ] || xz -dk "$opt.xz"  # pack_device.sh sends it xz'd
# The repository's scripts import the checkout's package (python/), which
# has no binaries: point it at the wheel's.
export TRITON_SPIRV_OPT=$PWD/.device/site/triton_spirv/_bin/triton-spirv-opt
export TRITON_SPIRV_RUNTIME=$PWD/.device/site/triton_spirv/_bin/libtriton_spirv_runtime.so
# The spirv torch device links the torch it runs with, and this machine's
# torch is not the build machine's: build it here (once per torch version
# while the machine stays up; incremental after that).
torch_device_build=/tmp/triton-spirv-torch-$(TORCH_DEVICE_BACKEND_AUTOLOAD=0 python3 -c 'import torch; print(torch.__version__)')
if [ ! -f "$torch_device_build/build.ninja" ]; then
  cmake -S runtime/torch -B "$torch_device_build" -G Ninja \
    -DTRITON_SPIRV_RUNTIME_LIBRARY="$TRITON_SPIRV_RUNTIME" >/dev/null
fi
ninja -C "$torch_device_build" >/dev/null
export TRITON_SPIRV_TORCH_LIBRARY=$torch_device_build/libtriton_spirv_torch.so
if [ $# -eq 0 ]; then
  set -- python3 -m triton_spirv.run utils/run_corpus.py
fi
exec "$@"
