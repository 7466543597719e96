"""triton-spirv: a Triton backend that compiles @triton.jit kernels to SPIR-V for Vulkan."""

__version__ = "0.1.0"
