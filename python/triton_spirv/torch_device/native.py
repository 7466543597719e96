"""ctypes binding of the spirv torch device's C functions (tsd_* in
runtime/torch/): initialisation, memory statistics, the fallback log."""

from __future__ import annotations

import ctypes

from .._paths import torch_device_library_path

__all__ = ["load", "library"]

_library: ctypes.CDLL | None = None


def load() -> ctypes.CDLL:
    """Loads the library into torch (its kernels and allocator register
    themselves) once the runtime it links is loaded, so both share it."""
    global _library
    if _library is None:
        import torch

        from .. import vulkan
        vulkan.load_library()
        path = str(torch_device_library_path())
        try:
            torch.ops.load_library(path)
        except OSError as error:
            raise RuntimeError(f"{path} does not load with torch {torch.__version__} (it is "
                               f"built for the torch it was compiled against): {error}") from error
        lib = ctypes.CDLL(path)
        lib.tsd_set_device_count.argtypes = [ctypes.c_int]
        lib.tsd_register_device.argtypes = [ctypes.c_int, ctypes.c_void_p]
        lib.tsd_set_current_device.argtypes = [ctypes.c_int]
        lib.tsd_memory_stats.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_uint64 * 4)]
        lib.tsd_reset_peak_memory_stats.argtypes = [ctypes.c_int]
        lib.tsd_empty_cache.argtypes = [ctypes.c_int]
        lib.tsd_fallback_ops.restype = ctypes.c_char_p
        _library = lib
    return _library


def library() -> ctypes.CDLL:
    return _library if _library is not None else load()
