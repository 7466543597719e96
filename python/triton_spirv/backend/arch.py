"""The arch string of this backend's GPUTarget, its one encoding and
decoding: `preset[:subgroup size[:workgroup memory[:largest workgroup
[:feature...]]]]`, e.g. `nvidia:32:49152:1024:-cooperative-matrix2`.
`device_target()` makes it from the active device (for the driver and
Inductor); the compiler turns it into the tool's
pipeline options. It is also part of Triton's cache key."""

from __future__ import annotations

import dataclasses

from triton.backends.compiler import GPUTarget

from .. import vulkan


@dataclasses.dataclass(frozen=True)
class Arch:
    preset: str  # the tool's target preset: lavapipe, nvidia, generic
    subgroup_size: int = 0  # 0: the preset's
    workgroup_memory: int = 0  # bytes; 0: the preset's
    max_workgroup: int = 0  # invocations; 0: the preset's
    features: tuple[str, ...] = ()  # preset features turned off (-name) or on (+name)

    def __str__(self) -> str:
        fields = [self.preset, str(self.subgroup_size), str(self.workgroup_memory),
                  str(self.max_workgroup), *self.features]
        return ":".join(fields)

    @classmethod
    def parse(cls, text: str) -> "Arch":
        preset, *fields = text.split(":")
        limits = [int(field) for field in (fields[:3] + ["0"] * 3)[:3]]
        return cls(preset, *limits, features=tuple(fields[3:]))

    def pipeline_options(self) -> str:
        """The --triton-to-spirv options that name this target."""
        features = f"features={','.join(self.features)} " if self.features else ""
        return (f"target={self.preset} subgroup-size={self.subgroup_size} {features}"
                f"max-workgroup-memory={self.workgroup_memory} max-workgroup-size={self.max_workgroup}")


def device_target(index: int | None = None) -> GPUTarget:
    """A Vulkan device (default: the current one) as a compile target. The arch names the tool's
    target preset and what the code depends on of this device: its subgroup
    size (shuffles), workgroup memory and largest workgroup, and the preset
    features it lacks (an NVIDIA driver without bf16 cooperative matrices or
    VK_NV_cooperative_matrix2), and the DenormPreserve mode for f32 where the
    device has it (no preset assumes it);
    warp_size stays 32 because a workgroup is num_warps * 32 invocations."""
    p = vulkan.device(index).properties
    changes = []
    if p.target == "nvidia" and not p.bfloat16_cooperative_matrix:
        changes.append("-bfloat16-cooperative-matrix")
    if p.target == "nvidia" and not p.cooperative_matrix2:
        changes.append("-cooperative-matrix2")
    if p.denorm_preserve_float32:  # no preset assumes it
        changes.append("+denorm-preserve-float32")
    arch = Arch(p.target, p.subgroup_size, p.max_shared_memory, p.max_workgroup_invocations,
                tuple(changes))
    return GPUTarget("spirv", str(arch), 32)
