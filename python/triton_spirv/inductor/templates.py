"""Inductor's Triton matmul templates (mm, addmm, bmm, baddbmm) for the spirv
device: Inductor looks up a configuration heuristic per template and device
type, and with none registered it offers no template configuration at all,
so max-autotune had only the device's eager `mm` to choose from (and no
choice where `max_autotune_gemm_backends` leaves ATen out). Registered when
Inductor's code generation for the device is (codegen.register_codegen)."""

from __future__ import annotations

from typing import Any, Callable

import torch

DEVICE_TYPE = "spirv"
# Inductor's template ids (kernel.mm.mm_template.uid, kernel.bmm.bmm_template.uid).
_MM, _BMM = "triton::mm", "triton::bmm"


def _workgroup_memory() -> int | None:
    from triton_spirv import vulkan
    try:
        return vulkan.device(torch.spirv.current_device()).properties.max_shared_memory  # type: ignore[attr-defined]
    except Exception:  # no device: nothing to prune by
        return None


def register_matmul_templates() -> None:
    try:
        from torch._inductor.template_heuristics.registry import (get_registered_heuristic_class,
                                                                  register_template_heuristic)
        from torch._inductor.template_heuristics.triton import (AddMMConfigMixin, BaseConfigHeuristic,
                                                                MMTemplateConfigMixin)
    except ImportError:  # a torch before the registry, whose templates take any device's configs
        return

    if get_registered_heuristic_class(_MM, DEVICE_TYPE, "mm") is not None:
        return

    class SpirvMMTemplateConfigHeuristic(MMTemplateConfigMixin, BaseConfigHeuristic):  # type: ignore[misc]
        """Inductor's portable configuration lists, pruned by the device's
        workgroup memory: this backend stages each operand tile once
        (num_stages does not multiply it), so a tile pair is what must fit."""

        def _get_exceeding_shared_memory_checker(
                self, has_sm_layout_conversion: bool,
                layout_conversion_byte_size: int) -> Callable[[Any, int], bool] | None:
            limit = _workgroup_memory()
            if not limit:
                return None

            def exceeds(config: Any, dtype_size: int) -> bool:
                tiles = (config.block_m + config.block_n) * config.block_k * dtype_size
                return tiles > limit

            return exceeds

    class SpirvAddMMTemplateConfigHeuristic(AddMMConfigMixin, SpirvMMTemplateConfigHeuristic):  # type: ignore[misc]
        """addmm and baddbmm: the bias added in the epilogue."""

    for template in (_MM, _BMM):
        register_template_heuristic(template, DEVICE_TYPE)(SpirvMMTemplateConfigHeuristic)
    register_template_heuristic(_MM, DEVICE_TYPE, op_name="addmm")(SpirvAddMMTemplateConfigHeuristic)
    register_template_heuristic(_BMM, DEVICE_TYPE, op_name="baddbmm")(SpirvAddMMTemplateConfigHeuristic)
