"""@triton.jit kernels of the TTIR corpus, each module with the cases that use them."""
