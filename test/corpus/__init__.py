"""TTIR corpus: @triton.jit kernels with inputs and PyTorch references (import as `corpus`)."""
