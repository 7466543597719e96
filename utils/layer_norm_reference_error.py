#!/usr/bin/env python3
"""How far the official layer-norm tutorial's backward results are from the
exact answer, for its kernels run through the active backend and for its
reference, PyTorch's layer norm on the tutorial's device (the spirv device
with this backend). The tutorial asserts |kernel - reference| <= 0.01 for db
and dw; PyTorch's fp16 layer norm on the CPU is itself further than that
from exact.

    python3 utils/layer_norm_reference_error.py PATH/TO/05-layer-norm.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch
import triton


def main(tutorial: Path) -> None:
    source = tutorial.read_text()
    # The tutorial's definitions (kernels, LayerNorm, DEVICE), without its
    # test call and benchmark.
    definitions = source[:source.index("def test_layer_norm")]
    namespace: dict = {"__name__": "layer_norm_tutorial", "__file__": str(tutorial)}
    exec(compile(definitions, str(tutorial), "exec"), namespace)
    layer_norm, device = namespace["layer_norm"], namespace["DEVICE"]

    torch.manual_seed(0)  # the tutorial's test data, with its seed
    rows, cols, dtype, eps = 1151, 8192, torch.float16, 1e-5
    weight = torch.rand(cols, dtype=dtype, device=device, requires_grad=True)
    bias = torch.rand(cols, dtype=dtype, device=device, requires_grad=True)
    x = -2.3 + 0.5 * torch.randn((rows, cols), dtype=dtype, device=device)
    dy = .1 * torch.randn_like(x)
    x.requires_grad_(True)

    layer_norm(x, (cols, ), weight, bias, eps).backward(dy, retain_graph=True)
    triton.runtime.driver.active.get_device_interface().synchronize()  # launches may be asynchronous
    kernel = {"db": bias.grad.clone(), "dw": weight.grad.clone()}
    x.grad, weight.grad, bias.grad = None, None, None
    torch.nn.functional.layer_norm(x, (cols, ), weight, bias, eps).to(dtype).backward(dy, retain_graph=True)
    reference = {"db": bias.grad.clone(), "dw": weight.grad.clone()}

    xd, dyd = x.detach().double(), dy.double()
    normalized = (xd - xd.mean(1, keepdim=True)) / torch.sqrt(xd.var(1, unbiased=False, keepdim=True) + eps)
    exact = {"db": dyd.sum(0), "dw": (dyd * normalized).sum(0)}
    def distance(a: torch.Tensor, b: torch.Tensor) -> float:
        return (a.double() - b.double()).abs().max().item()

    for name in ("db", "dw"):
        print(f"{name}: |kernel - exact| <= {distance(kernel[name], exact[name]):.4f}, "
              f"|reference - exact| <= {distance(reference[name], exact[name]):.4f}, "
              f"|kernel - reference| <= {distance(kernel[name], reference[name]):.4f} (asserted: 0.01)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
