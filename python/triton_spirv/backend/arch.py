"""The arch string of this backend's GPUTarget, its one encoding and
decoding: `preset[:subgroup size[:workgroup memory[:largest workgroup
[:feature...]]]]`, e.g. `nvidia:32:49152:1024:-cooperative-matrix2`. The
driver makes it from the device; the compiler turns it into the tool's
pipeline options. It is also part of Triton's cache key."""

from __future__ import annotations

import dataclasses


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
