#!/usr/bin/env bash
# The main job: sets everything up, then runs the Triton tutorials' kernels
# through SPIR-V on the default Vulkan device (lavapipe without a GPU), checks
# them against PyTorch and prints a table of results and timings (also saved
# as demo.png).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
python3 utils/demo.py "$@"
