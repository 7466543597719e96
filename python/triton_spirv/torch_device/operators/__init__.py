"""Eager ATen operators of the spirv device as Triton kernels: FlagGems (PyPI
`flag-gems`), a Triton operator library written for GPUs, compiled and
launched by this backend. It registers about 430 operators under
PrivateUse1; what it lacks still runs on the CPU (the fallback, which says
so). Enabled with the device's first tensor unless TRITON_SPIRV_OPERATORS=cpu
(every operator on the CPU) or FlagGems is not installed (said once).

Operators torch decomposes (CompositeImplicitAutograd) keep their
decompositions, so that autograd sees them. Three operators are this
package's own, in place of FlagGems': `cat` and
`stack` (FlagGems' kernels pick one of several pointer arguments at run
time, which this backend's pointer analysis rejects: a copy into each slice
of the output instead), `embedding_backward` (FlagGems' kernel indexes
the gradient as if contiguous: made contiguous first) and
`native_layer_norm` (FlagGems' kernels, its statistics kept in fp32 as
CUDA keeps them); and `out=` overloads FlagGems lacks where it has the
functional one (an optimizer step's in-place updates) and
`mse_loss_backward`, from operators it has."""

from __future__ import annotations

import contextlib
import functools
import io
import math
import os
import sys
import types
import warnings
from typing import Any, Sequence

import torch

__all__ = ["enable", "enabled"]

_enabled = False


def enabled() -> bool:
    return _enabled


def _cat(tensors: Sequence[torch.Tensor], dim: int = 0) -> torch.Tensor:
    tensors = [t for t in tensors if not (t.dim() == 1 and t.numel() == 0)]
    first = tensors[0]
    dim %= first.dim()
    dtype = first.dtype
    for tensor in tensors[1:]:
        dtype = torch.promote_types(dtype, tensor.dtype)
    shape = list(first.shape)
    shape[dim] = sum(t.shape[dim] for t in tensors)
    out = torch.empty(shape, dtype=dtype, device=first.device)
    start = 0
    for tensor in tensors:
        out.narrow(dim, start, tensor.shape[dim]).copy_(tensor)
        start += tensor.shape[dim]
    return out


def _stack(tensors: Sequence[torch.Tensor], dim: int = 0) -> torch.Tensor:
    dim %= tensors[0].dim() + 1
    return _cat([t.unsqueeze(dim) for t in tensors], dim)


def _native_layer_norm(input: torch.Tensor, normalized_shape: Sequence[int],
                       weight: torch.Tensor | None, bias: torch.Tensor | None,
                       eps: float) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """FlagGems' layer-norm kernels with the saved mean and 1/std in fp32 for
    fp16 and bf16 inputs, shaped as CUDA's. FlagGems 5.0.2 saves them in the
    input's dtype: its fp16 weight gradient then lands 0.015 from the exact
    sums, past tutorial 05's tolerance."""
    import triton
    from flag_gems.ops import layernorm
    n = math.prod(normalized_shape)
    m = input.numel() // n
    x = input.contiguous()
    w = None if weight is None else weight.contiguous()
    b = None if bias is None else bias.contiguous()
    y = torch.empty_like(x)
    stats_dtype = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
    mean = torch.empty(m, dtype=stats_dtype, device=x.device)
    rstd = torch.empty(m, dtype=stats_dtype, device=x.device)
    # FlagGems' choice of kernel by row length.
    if n <= 128:
        rows_per_program = triton.cdiv(1024, triton.next_power_of_2(n))
        layernorm.layer_norm_persistent_kernel_multiline[(triton.cdiv(m, rows_per_program), 1, 1)](
            x, y, w, b, mean, rstd, m, n, eps, rows_per_program, triton.next_power_of_2(n))
    elif n <= 4096:
        layernorm.layer_norm_persistent_kernel[(m, 1, 1)](x, y, w, b, mean, rstd, m, n, eps,
                                                          triton.next_power_of_2(n))
    else:
        layernorm.layer_norm_loop_kernel[(m, 1, 1)](x, y, w, b, mean, rstd, m, n, eps)
    stats_shape = tuple(input.shape[:input.dim() - len(normalized_shape)]) + (1,) * len(normalized_shape)
    return y, mean.view(stats_shape), rstd.view(stats_shape)


# `out=` overloads FlagGems lacks, served by its functional kernel and a copy
# (an optimizer step's in-place updates come here): overload -> functional.
_OUT_FROM_FUNCTIONAL = {
    "addcdiv.out": "addcdiv", "addcmul.out": "addcmul", "mul.out": "mul.Tensor",
    "add.out": "add.Tensor", "sub.out": "sub.Tensor", "div.out": "div.Tensor", "sqrt.out": "sqrt",
    "lerp.Scalar_out": "lerp.Scalar", "lerp.Tensor_out": "lerp.Tensor", "maximum.out": "maximum",
}


def _safe_softmax(input: torch.Tensor, dim: int, dtype: torch.dtype | None = None) -> torch.Tensor:
    """Softmax whose rows of only -inf (attention rows masked whole) are zeros
    instead of NaNs, as scaled_dot_product_attention's math path needs.
    FlagGems' kernel for it accepts CUDA tensors only."""
    probabilities = torch.softmax(input, dim, dtype=dtype)
    masked_whole = input.amax(dim, keepdim=True) == float("-inf")
    return probabilities.masked_fill(masked_whole, 0.0)


def _with_out(functional: Any) -> Any:
    def run(*args: Any, out: torch.Tensor, **kwargs: Any) -> torch.Tensor:
        result = functional(*args, **kwargs)
        if out.shape != result.shape:
            out.resize_(result.shape)
        return out.copy_(result)

    return run


def _mse_loss_backward(grad_output: torch.Tensor, input: torch.Tensor, target: torch.Tensor,
                       reduction: int) -> torch.Tensor:
    """FlagGems has no kernel for it: its formula in operators that run on
    the device (reduction 1 is the mean)."""
    scale = 2.0 / input.numel() if reduction == 1 else 2.0
    return (input - target) * grad_output * scale


def _register_out_overloads(library: Any) -> None:
    has = torch._C._dispatch_has_kernel_for_dispatch_key
    for overload, functional in _OUT_FROM_FUNCTIONAL.items():
        if has(f"aten::{overload}", "PrivateUse1") or not has(f"aten::{functional}", "PrivateUse1"):
            continue
        name, _, variant = functional.partition(".")
        library.impl(overload, _outside_dynamo(_with_out(getattr(getattr(torch.ops.aten, name),
                                                                 variant or "default"))), "PrivateUse1")


# The device's own (fill_, zero_: one fill on the queue) and this package's.
_NOT_FROM_FLAGGEMS = {"fill_.Scalar", "zero_", "cat", "stack", "embedding_backward",
                      "native_layer_norm", "_safe_softmax",
                      # FlagGems' wrappers of these assert CUDA tensors.
                      "special_i1", "special_i0e", "special_i0e.out", "t_copy", "t_copy.out",
                      "zero", "zero.out"}


# Comparisons with a Python scalar, whose integer scalar PyTorch converts to
# the tensor's integer type first (int8 == 128 holds for -128, as 128 wraps
# to -128); FlagGems' kernels compare the scalar as it is.
_COMPARISONS_WITH_SCALAR = {"eq.Scalar", "ne.Scalar", "lt.Scalar", "le.Scalar", "gt.Scalar",
                            "ge.Scalar"}


def _in_dtype(value: Any, dtype: torch.dtype) -> Any:
    """An integer scalar as PyTorch converts it to the integer `dtype` of the
    tensor it meets (two's complement wrap-around); other scalars as they are."""
    if (isinstance(value, bool) or not isinstance(value, int) or dtype == torch.bool
            or dtype.is_floating_point or dtype.is_complex):
        return value
    info = torch.iinfo(dtype)
    value &= (1 << info.bits) - 1
    return value - (1 << info.bits) if info.min < 0 and value > info.max else value


def _scalar_in_dtype(function: Any) -> Any:
    @functools.wraps(function)
    def run(tensor: torch.Tensor, other: Any, *args: Any, **kwargs: Any) -> Any:
        return function(tensor, _in_dtype(other, tensor.dtype), *args, **kwargs)

    return run


def _takes(key: str) -> bool:
    """Whether FlagGems' kernel for the ATen operator `key` is registered.
    Not for operators that torch decomposes (CompositeImplicitAutograd, such
    as square or rms_norm): a PrivateUse1 kernel would take them whole, and
    their gradients would silently be missing (autograd differentiates the
    decomposition, which FlagGems' kernels still serve op by op)."""
    if key in _NOT_FROM_FLAGGEMS:
        return False
    try:
        return not torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{key}",
                                                                  "CompositeImplicitAutograd")
    except RuntimeError:  # an operator this torch lacks: registering it fails alike
        return True


@functools.cache
def _kernel_errors() -> tuple[type[BaseException], ...]:
    """What a FlagGems kernel raises when Triton or this backend cannot
    compile it for the device (FlagGems' own gaps, such as uint8 % int) or
    the device cannot bind its tensors (beyond maxStorageBufferRange)."""
    from triton.compiler.errors import CompilationError
    from triton.runtime.errors import OutOfResources

    from ...backend.compiler import SPIRVCompilationError
    from ...backend.launcher import BindingTooLargeError
    return (CompilationError, OutOfResources, SPIRVCompilationError, BindingTooLargeError)


_failed_keys: set[str] = set()


def _outside_dynamo(function: Any) -> Any:
    """`function`, run with Dynamo's frame evaluation off once Dynamo is
    loaded: an operator called from the eager part of a compiled function
    (after a graph break, or autograd's backward) must run as written, not
    be traced (FlagGems' Python and its kernel launches are not traceable).
    Dynamo is not imported for it: programs that never compile do not pay."""
    disabled: list[Any] = []

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        if not disabled:
            dynamo = sys.modules.get("torch._dynamo")
            if dynamo is None:
                return function(*args, **kwargs)
            disabled.append(dynamo.disable(function, recursive=True))
        return disabled[0](*args, **kwargs)

    return run


# Operators whose FlagGems kernel computes float64 tensors in float32: their
# float64 calls go to the CPU directly. Found as their kernels compile
# (Float64InFloat32Error), except where no one kernel shows it: `logit`
# converts its tensor to float32 before its kernel, and `std` passes float32
# partial sums from one kernel to the next.
_float64_on_the_cpu: set[str] = {"logit", "logit_", "std.correction"}


def _has_float64(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    from torch.utils._pytree import tree_leaves
    return any(isinstance(value, torch.Tensor) and value.dtype == torch.float64
               for value in tree_leaves((args, kwargs)))


def _refuses_the_device(error: BaseException) -> bool:
    """Whether FlagGems' own Python refused the call: a wrapper that takes
    CUDA tensors only and says so (`i0_`, `arcsinh`, ...), or a dtype its
    kernels lack (`vector_norm` of float64)."""
    if isinstance(error, NotImplementedError):
        return True
    traceback = error.__traceback__
    while traceback is not None and traceback.tb_next is not None:
        traceback = traceback.tb_next
    raised_in_flaggems = (traceback is not None and
                          f"{os.sep}flag_gems{os.sep}" in traceback.tb_frame.f_code.co_filename)
    return raised_in_flaggems and "CUDA" in str(error)


def _or_on_the_cpu(key: str, function: Any) -> Any:
    """FlagGems' `function` for the ATen operator `key`; where its kernel
    cannot be compiled, cannot bind its tensors, would compute float64 in
    float32, or FlagGems refuses the device or the dtype, the operator on
    the CPU (spirv tensors copied there, written arguments and results
    copied back), with one warning per operator."""
    from ...backend.compiler import Float64InFloat32Error, refuse_float64_in_float32
    errors = _kernel_errors()
    name, _, overload = key.partition(".")

    def operator() -> Any:  # looked up when needed: not every key names an overload
        return getattr(getattr(torch.ops.aten, name), overload or "default")

    def on_the_cpu(error: BaseException, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        float64 = isinstance(error, Float64InFloat32Error)
        if float64:
            _float64_on_the_cpu.add(key)
        if key not in _failed_keys:
            _failed_keys.add(key)
            lines = str(error).strip().splitlines() or [""]
            cause = next((line for line in reversed(lines) if "Error" in line), lines[-1])
            what = "its float64 calls run" if float64 else "it runs"
            warnings.warn(f"triton-spirv: FlagGems' kernel for aten::{key} cannot run on the spirv "
                          f"device ({type(error).__name__}: {cause.strip()}); {what} on the CPU "
                          f"(said once per operator)", RuntimeWarning, stacklevel=3)
        return _on_the_cpu(operator(), args, kwargs)

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        if key in _float64_on_the_cpu and _has_float64(args, kwargs):
            return on_the_cpu(Float64InFloat32Error(f"{key} computes float64 values in float32"),
                              args, kwargs)
        refusing = refuse_float64_in_float32.set(True)
        try:
            return function(*args, **kwargs)
        except ZeroDivisionError:
            # Some of FlagGems' wrappers size their grids by dividing by the
            # elements (`all` of a 0 x 78 block): with nothing to compute,
            # the CPU answers at no cost.
            if not any(isinstance(value, torch.Tensor) and value.numel() == 0 for value in args):
                raise
            return _on_the_cpu(operator(), args, kwargs)
        except errors as error:
            return on_the_cpu(error, args, kwargs)
        except (AssertionError, ValueError, NotImplementedError) as error:
            if not _refuses_the_device(error):
                raise
            return on_the_cpu(error, args, kwargs)
        finally:
            refuse_float64_in_float32.reset(refusing)

    return _outside_dynamo(run)


def _on_the_cpu(operator: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    from torch.utils._pytree import tree_map
    copies: dict[int, torch.Tensor] = {}  # id of a CPU copy -> its spirv tensor

    def to_cpu(value: Any) -> Any:
        if isinstance(value, torch.Tensor) and value.device.type == "spirv":
            copy = value.cpu()
            copies[id(copy)] = value
            return copy
        if isinstance(value, torch.device) and value.type == "spirv":
            return torch.device("cpu")  # factories (ones, arange, ...)
        return value

    cpu_args, cpu_kwargs = tree_map(to_cpu, args), tree_map(to_cpu, kwargs)
    result = operator(*cpu_args, **cpu_kwargs)
    for position, argument in enumerate(operator._schema.arguments):
        if argument.alias_info is None or not argument.alias_info.is_write:
            continue
        written = cpu_args[position] if position < len(cpu_args) else cpu_kwargs.get(argument.name)
        if isinstance(written, torch.Tensor) and id(written) in copies:
            copies[id(written)].copy_(written)

    def back(value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            return copies.get(id(value)) if id(value) in copies else value.to("spirv")
        return value

    return tree_map(back, result)


def enable() -> bool:
    """Registers FlagGems' operators for the spirv device (once; the device
    must be registered). Returns whether they are."""
    global _enabled
    if _enabled:
        return True
    choice = os.environ.get("TRITON_SPIRV_OPERATORS", "flaggems")
    if choice == "cpu":
        return False
    if choice != "flaggems":
        raise ValueError(f"TRITON_SPIRV_OPERATORS={choice!r}: expected 'flaggems' or 'cpu'")
    try:
        import importlib.metadata
        importlib.metadata.version("flag-gems")
    except importlib.metadata.PackageNotFoundError:
        warnings.warn("triton-spirv: FlagGems (flag-gems) is not installed: every ATen operator "
                      "without a spirv kernel runs on the CPU", RuntimeWarning, stacklevel=2)
        return False
    from . import vendor
    sys.modules.setdefault("torch.backends.spirv", types.ModuleType("torch.backends.spirv"))
    sys.modules["_nvidia"] = vendor
    os.environ["GEMS_VENDOR"] = "nvidia"
    # FlagGems prints notes about vendor-specific operators at import and
    # warns that no exclusion list is configured: neither concerns users.
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="resolve_user_setting")
        import flag_gems
    from flag_gems.ops.embedding import embedding_backward
    from flag_gems.runtime.register import Register
    from flag_gems.utils.codegen_config_utils import get_codegen_config

    from ...versions import triton_release
    if triton_release() >= (3, 8):
        # Triton 3.8 removed block pointers, which FlagGems' generated
        # element-wise kernels use for NVIDIA: its own switch has them
        # address with pointers and masks instead.
        get_codegen_config().prefer_block_pointer = False

    class DeviceRegistrar(Register):  # type: ignore[misc]
        """FlagGems' registration, without the operators kept elsewhere, each
        kernel falling back to the CPU where it cannot be compiled."""

        def config_filter(self) -> None:
            super().config_filter()
            self.config = [(key, function) for key, function in self.config if _takes(key)]

        def register_impl(self, key: str, function: Any) -> None:
            if key in _COMPARISONS_WITH_SCALAR:
                function = _scalar_in_dtype(function)
            super().register_impl(key, _or_on_the_cpu(key, function))

    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="resolve_user_setting")
        flag_gems.enable(registrar=DeviceRegistrar)
    library = torch.library.Library("aten", "IMPL")
    library.impl("cat", _outside_dynamo(_cat), "PrivateUse1")
    library.impl("stack", _outside_dynamo(_stack), "PrivateUse1")
    library.impl("embedding_backward", _outside_dynamo(
        lambda grad, *args: embedding_backward(grad.contiguous(), *args)), "PrivateUse1")
    library.impl("native_layer_norm", _or_on_the_cpu("native_layer_norm", _native_layer_norm), "PrivateUse1")
    library.impl("_safe_softmax", _outside_dynamo(_safe_softmax), "PrivateUse1")
    from . import convolution
    library.impl("convolution_overrideable", _outside_dynamo(convolution.convolution), "PrivateUse1")
    library.impl("convolution_backward_overrideable", _outside_dynamo(convolution.convolution_backward),
                 "PrivateUse1")
    _register_out_overloads(library)
    if not torch._C._dispatch_has_kernel_for_dispatch_key("aten::mse_loss_backward", "PrivateUse1"):
        library.impl("mse_loss_backward", _outside_dynamo(_mse_loss_backward), "PrivateUse1")
    _library_kept.append(library)
    _enabled = True
    return True


# Registrations last as long as their Library object.
_library_kept: list[Any] = []
