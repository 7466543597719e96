"""FlagGems' NVIDIA heuristics, reading the spirv device where they read
torch.cuda's, with tiles that fit 32 KiB of workgroup memory (lavapipe;
NVIDIA's Vulkan driver allows 48 KiB)."""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path
from typing import Any

import torch
import triton

import flag_gems


def _nvidia_heuristics() -> types.ModuleType:
    path = Path(flag_gems.__file__).parent / "runtime" / "backend" / "_nvidia" / "heuristics_config_utils.py"
    spec = importlib.util.spec_from_file_location("triton_spirv_flaggems_nvidia_heuristics", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _TorchWithSpirvAsCuda(types.ModuleType):
    """torch, with `cuda` the spirv device's module."""

    cuda = torch.spirv  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> Any:
        return getattr(torch, name)


_heuristics = _nvidia_heuristics()
_heuristics.torch = _TorchWithSpirvAsCuda("torch")
HEURISTICS_CONFIGS = _heuristics.HEURISTICS_CONFIGS
# NVIDIA's tile needs 32,800 bytes of workgroup memory (rms_norm backward).
HEURISTICS_CONFIGS["softmax_non_inner"]["TILE_N"] = lambda args: triton.cdiv(4096, args["TILE_K"])
