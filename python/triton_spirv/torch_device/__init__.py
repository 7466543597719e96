"""The `spirv` torch device: PyTorch's PrivateUse1 device, renamed, whose
tensors live in Vulkan device memory (the memory of the device the Triton
driver launches on), so kernels bind them in place.

torch loads it when it is imported (the `torch.backends` entry point), so
`torch.empty(n, device="spirv")` works in any program; the Vulkan device
opens with the first tensor made on it. What it is made of:
runtime/torch/ (allocator, copies, views, the CPU fallback for every other
ATen operator), `module` (what `torch.spirv` offers), `native` (the C
functions the Python side calls), `operators` (eager operators as Triton
kernels: FlagGems), `distributed` (the `spirv-gloo` c10d backend:
torch.distributed's collectives on spirv tensors)."""

from __future__ import annotations

import threading
import warnings

__all__ = ["DEVICE_TYPE", "register", "registered", "try_register", "autoload"]

DEVICE_TYPE = "spirv"

_lock = threading.Lock()
_registered = False


def registered() -> bool:
    return _registered


def register() -> None:
    """Loads the device's library and makes `spirv` a torch device
    (idempotent). Raises if the library is missing or was built for another
    torch."""
    global _registered
    if _registered:
        return
    with _lock:
        if _registered:
            return
        import torch

        from . import distributed, module, native
        native.load()
        if torch._C._get_privateuse1_backend_name() != DEVICE_TYPE:
            torch.utils.rename_privateuse1_backend(DEVICE_TYPE)
        torch._register_device_module(DEVICE_TYPE, module)
        torch.utils.generate_methods_for_privateuse1_backend()
        distributed.register()
        _registered = True


_failure: str | None = None


def try_register() -> bool:
    """register(), or, where that fails, one warning saying why (tensors
    then stay on the CPU, which a discrete GPU reads over PCIe)."""
    global _failure
    if _registered:
        return True
    if _failure is not None:
        return False
    try:
        register()
    except Exception as error:  # noqa: BLE001 - said once; CPU tensors still work
        _failure = str(error)
        warnings.warn(f"triton-spirv: the spirv torch device is not available ({error}); tensors "
                      f"stay on the CPU, which a discrete GPU reads over PCIe",
                      RuntimeWarning, stacklevel=2)
        return False
    return True


def autoload() -> None:
    """The `torch.backends` entry point, called while torch is imported
    (never raising: that would break `import torch`). Where CUDA or ROCm is
    present, torch's accelerator stays theirs: `python -m triton_spirv.run`
    (or `triton_spirv.run.activate()`) registers the spirv device there."""
    import torch
    if torch.cuda.is_available():
        return
    try_register()
