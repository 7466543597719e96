"""What one corpus case is: a kernel, how to compile it, and how to run and check it.

A later launcher does, for a case `c`:
    args = c.make_args(torch.Generator().manual_seed(0))
    expected = c.reference(clone_args(args))   # before the launch: args are the inputs
    c.kernel[c.grid(args)](**args, **c.constexprs, num_warps=c.num_warps, debug=c.debug,
                           enable_fp_fusion=c.enable_fp_fusion)
    assert_outputs_close(c, args, expected)
`args` holds every non-constexpr kernel argument by name (torch tensors on the CPU,
Python scalars, or host TensorDescriptors); output tensors are pre-allocated in it.
`reference` returns, per output argument name, the tensor it must hold afterwards.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping

import torch
from triton import cdiv  # noqa: F401  (the cases' grids use it from here)
from triton.runtime.jit import JITFunction
from triton.tools.tensor_descriptor import TensorDescriptor

from triton_spirv.versions import OLDEST, triton_release

# Triton type string -> torch dtype.
TORCH_DTYPES: dict[str, torch.dtype] = {
    "fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "fp64": torch.float64,
    "i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
    "u8": torch.uint8, "u16": torch.uint16, "u32": torch.uint32, "u64": torch.uint64, "i1": torch.bool,
}

Args = dict[str, Any]
Grid = tuple[int, ...]


# The installed Triton's (major, minor) release.
TRITON_VERSION = triton_release()


def ttir_folder(version: tuple[int, int] = TRITON_VERSION) -> str:
    """The folder under test/corpus that holds `version`'s TTIR: ttir for
    the oldest supported release, ttir-<major>.<minor> for a newer one."""
    return "ttir" if version == OLDEST else f"ttir-{version[0]}.{version[1]}"


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    kernel: JITFunction
    # Every kernel argument name -> Triton type string ("*fp32", "i32", "constexpr", ...).
    signature: Mapping[str, str]
    constexprs: Mapping[str, object]
    make_args: Callable[[torch.Generator], Args]
    grid: Callable[[Args], Grid]
    # Expected final contents of the output arguments, computed from the inputs.
    reference: Callable[[Args], dict[str, torch.Tensor]]
    num_warps: int = 4
    # Keeps tl.device_assert in the IR (Triton drops it otherwise).
    debug: bool = False
    # Triton's option: may the compiler fuse a * b + c into one FMA (one
    # rounding instead of two)?
    enable_fp_fusion: bool = True
    atol: float = 1e-5
    rtol: float = 1e-5
    # Rebuilds arguments that hold addresses of other arguments' memory,
    # once those have moved (to_device).
    readdress: Callable[[Args], Args] | None = None
    # The first Triton release without what the kernel uses (block pointers
    # were removed in 3.8); it is no case with that release and later ones.
    removed_in: tuple[int, int] | None = None

    def pointer_args(self) -> tuple[str, ...]:
        """Pointer arguments; Triton's JIT marks 16-byte aligned tensors (all fresh torch
        allocations) `tt.divisibility = 16`, so the corpus does the same."""
        return tuple(name for name, ty in self.signature.items() if ty.startswith("*"))


def _clone(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.clone()
    if isinstance(value, TensorDescriptor):
        return dataclasses.replace(value, base=value.base.clone())
    return value


def clone_args(args: Args) -> Args:
    return {name: _clone(value) for name, value in args.items()}


def to_device(args: Args, device: torch.device) -> Args:
    """The arguments on `device`, each storage moved whole and once, so
    views keep their strides and offsets and arguments that share storage
    still do."""
    moved: dict[int, torch.Tensor] = {}

    def move(tensor: torch.Tensor) -> torch.Tensor:
        storage = tensor.untyped_storage()
        whole = moved.get(storage.data_ptr())
        if whole is None:
            whole = torch.empty(0, dtype=torch.uint8).set_(storage).to(device)
            moved[storage.data_ptr()] = whole
        return whole.view(tensor.dtype).as_strided(tensor.shape, tensor.stride(),
                                                   tensor.storage_offset())

    def convert(value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            return move(value)
        if isinstance(value, TensorDescriptor):
            return dataclasses.replace(value, base=move(value.base))
        return value

    return {name: convert(value) for name, value in args.items()}


def output_tensor(value: Any) -> torch.Tensor:
    """The tensor an output argument writes to (a descriptor writes to its base)."""
    return value.base if isinstance(value, TensorDescriptor) else value


def assert_outputs_close(case: Case, args: Args, expected: Mapping[str, torch.Tensor]) -> None:
    for name, want in expected.items():
        got = output_tensor(args[name]).cpu()
        if want.dtype.is_floating_point:
            torch.testing.assert_close(got.to(torch.float64), want.to(torch.float64), atol=case.atol,
                                       rtol=case.rtol, equal_nan=True, msg=lambda m: f"{case.name}.{name}: {m}")
        else:
            # Exact for integers and bools; compare through int64 because torch lacks
            # comparison kernels for uint16/32/64.
            torch.testing.assert_close(got.to(torch.int64), want.to(torch.int64), atol=0, rtol=0,
                                       msg=lambda m: f"{case.name}.{name}: {m}")


def fixed_grid(*dims: int) -> Callable[[Args], Grid]:
    return lambda _args: dims


def rand_floats(gen: torch.Generator, shape: tuple[int, ...], dtype: torch.dtype = torch.float32,
                low: float = -1.0, high: float = 1.0) -> torch.Tensor:
    """Uniform values in [low, high), drawn in fp32 so every dtype sees the same stream."""
    values = torch.rand(shape, generator=gen, dtype=torch.float32) * (high - low) + low
    return values.to(dtype)


def rand_ints(gen: torch.Generator, shape: tuple[int, ...], dtype: torch.dtype, low: int, high: int) -> torch.Tensor:
    """Integers in [low, high); drawn as int64 because torch cannot sample uint16/32/64."""
    return torch.randint(low, high, shape, generator=gen, dtype=torch.int64).to(dtype)
