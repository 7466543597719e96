"""Compile options of the SPIR-V backend (what Triton's front end reads, plus ours)."""

from __future__ import annotations

import dataclasses
import hashlib

__all__ = ["SPIRVOptions"]


@dataclasses.dataclass(frozen=True)
class SPIRVOptions:
    num_warps: int = 4
    # A workgroup is num_warps * warp_size invocations (Triton 3.9 checks
    # that against the device's largest workgroup at load time).
    warp_size: int = 32
    num_ctas: int = 1
    num_stages: int = 1
    # `debug` keeps tl.device_assert (and integer-overflow checks) in the IR.
    debug: bool = False
    # With `debug`, Triton's sanitizer adds integer-overflow checks and this
    # backend checks that every access stays in its tensor's storage;
    # `sanitize_overflow=False` (Inductor's choice) turns both off and keeps
    # tl.device_assert alone.
    sanitize_overflow: bool = True
    # fp8e4b15 converts through the frontend's `convert_custom_types` hook.
    supported_fp8_dtypes: tuple[str, ...] = ("fp8e4b15", "fp8e4b8", "fp8e4nv", "fp8e5", "fp8e5b16")
    deprecated_fp8_dot_operand_dtypes: tuple[str, ...] = ()
    default_dot_input_precision: str = "tf32"
    allowed_dot_input_precisions: tuple[str, ...] = ("tf32", "tf32x3", "ieee", "bf16x3", "bf16x6")
    max_num_imprecise_acc_default: int = 0
    # The target preset of triton-spirv-opt (lavapipe, nvidia, generic),
    # optionally followed by the device's `:subgroup size:workgroup
    # memory:largest workgroup`.
    arch: str = "generic"
    backend_name: str = "spirv"
    enable_fp_fusion: bool = True
    launch_cooperative_grid: bool = False
    extern_libs: tuple[tuple[str, str], ...] = ()
    instrumentation_mode: str = ""
    # Triton 3.9's float sanitizer switch (TRITON_FPSAN_HOMOMORPHIC_CASTS),
    # which its JIT passes to every backend; this one has no float
    # sanitizer, so it is accepted and changes nothing.
    fpsan_homomorphic_casts: bool = False
    # Accepted so that programs tuned for other backends (the tutorials' AMD
    # autotuning configs) run unchanged; they do not affect SPIR-V code.
    waves_per_eu: int = 0
    matrix_instr_nonkdim: int = 0
    kpack: int = 1
    maxnreg: int | None = None
    # Pointer arguments (positions among the TTIR function's arguments) the
    # launcher passes as buffer device addresses instead of binding them:
    # set by the launcher for tensors larger than one binding spans.
    address_arguments: tuple[int, ...] = ()
    # Launch only: whether the kernel takes CPU tensors in pageable memory
    # (imported for the launch). As on CUDA, kernels otherwise take device
    # tensors and pinned CPU tensors alone. Inductor's CPU kernels set it;
    # TRITON_SPIRV_HOST_TENSORS=1 has every kernel take them.
    pageable_host_tensors: bool = False
    # Set while the spirv device's operators run a library kernel
    # (backend.compiler.refuse_float64_in_float32): a kernel that computes
    # float64 values in float32 is then refused. An option, so that Triton's
    # cache keeps kernels compiled with and without the check apart.
    refuse_float64_in_float32: bool = False

    def __post_init__(self) -> None:
        # As Triton's GPU backends require: layouts split warps in halves.
        assert self.num_warps > 0 and (self.num_warps & (self.num_warps - 1)) == 0, \
            "num_warps must be a power of 2"

    @property
    def bounds_checks(self) -> bool:
        """Whether loads, stores and atomics check their pointers
        (--triton-insert-bounds-checks)."""
        return self.debug and self.sanitize_overflow

    def hash(self) -> str:
        """Part of Triton's compile-cache key."""
        fields = sorted(f"{k}={v}" for k, v in dataclasses.asdict(self).items())
        return hashlib.sha256("-".join(fields).encode()).hexdigest()
