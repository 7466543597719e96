"""triton-spirv: a Triton backend that compiles @triton.jit kernels to SPIR-V for Vulkan."""

__version__ = "0.1.0"


def set_asynchronous(enabled: bool) -> None:
    """Asynchronous launches (also TRITON_SPIRV_ASYNC=1): a kernel launch
    returns once submitted; its results, prints and failed assertions are
    there after `synchronize()` or the next launch."""
    from .backend.launcher import set_asynchronous as set_mode
    set_mode(enabled)


def synchronize() -> None:
    """Waits for the launch in flight (asynchronous mode) and finishes it."""
    from .backend.launcher import synchronize as wait
    wait()


def enable_torch_compile() -> None:
    """torch.compile runs through SPIR-V: Inductor generates Triton kernels for
    CPU tensors, this backend compiles and launches them on the active Vulkan
    device."""
    from .inductor import enable_torch_compile as enable
    enable()
