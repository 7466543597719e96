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

import importlib.abc
import importlib.util
import sys
import threading
import types
import warnings
from typing import Any, Callable

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
        _after_import("torch._dynamo.device_interface", _register_dynamo_interface)
        _registered = True


def _register_dynamo_interface(_: object) -> None:
    from ..inductor.interface import register_interface
    register_interface()


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs `callback` with module `name` once it has been executed (a
    post-import hook; one use)."""

    def __init__(self, name: str, callback: Callable[[types.ModuleType], None]) -> None:
        self.name, self.callback = name, callback

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        execute, callback = spec.loader.exec_module, self.callback

        def exec_module(module: types.ModuleType) -> None:
            execute(module)
            callback(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _after_import(name: str, callback: Callable[[types.ModuleType], None]) -> None:
    """`callback(module)` now if `name` is imported, else once it is:
    Dynamo's modules take seconds to import, which programs that never
    compile should not pay."""
    if name in sys.modules:
        callback(sys.modules[name])
    else:
        sys.meta_path.insert(0, _AfterImport(name, callback))


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
    (or `triton_spirv.run.activate()`, or TRITON_DEFAULT_BACKEND=spirv)
    registers the spirv device there."""
    import torch

    from ..run import chosen_by_environment
    if torch.cuda.is_available() and not chosen_by_environment():
        return
    try_register()
