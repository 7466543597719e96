"""Convolutions on the spirv device: PyTorch sends a convolution of an
out-of-tree device to `convolution_overrideable` (and its gradient to
`convolution_backward_overrideable`), which FlagGems does not provide.
1- and 2-d convolutions (any stride, padding, dilation and groups) run as
matrix products of the input's windows (gathered through a strided view,
im2col) with the weight, on the device; their gradients likewise, the
input's gradient summed back window offset by window offset. Transposed
and 3-d convolutions run on the CPU, with a warning."""

from __future__ import annotations

import warnings
from typing import Sequence

import torch

from . import _on_the_cpu

_warned: set[str] = set()


def _warn_once(what: str) -> None:
    if what not in _warned:
        _warned.add(what)
        warnings.warn(f"triton-spirv: {what} has no kernel on the spirv device; it runs on the CPU "
                      "(tensors copied to the host and back; said once)", RuntimeWarning, stacklevel=3)


def _as_2d(input: torch.Tensor, weight: torch.Tensor, stride: Sequence[int], padding: Sequence[int],
           dilation: Sequence[int]) -> tuple[torch.Tensor, torch.Tensor, list[int], list[int], list[int]]:
    """A 1-d convolution as a 2-d one of height 1."""
    if input.dim() == 4:
        return input, weight, list(stride), list(padding), list(dilation)
    return (input.unsqueeze(2), weight.unsqueeze(2), [1, *stride], [0, *padding], [1, *dilation])


def _padded(input: torch.Tensor, padding: Sequence[int]) -> torch.Tensor:
    if not any(padding):
        return input
    n, c, h, w = input.shape
    out = input.new_zeros(n, c, h + 2 * padding[0], w + 2 * padding[1])
    out[:, :, padding[0]:padding[0] + h, padding[1]:padding[1] + w].copy_(input)
    return out


def _output_size(size: int, kernel: int, stride: int, padding: int, dilation: int) -> int:
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def _columns(input: torch.Tensor, kernel: Sequence[int], stride: Sequence[int], padding: Sequence[int],
             dilation: Sequence[int], groups: int) -> torch.Tensor:
    """The windows of the (padded) input as rows: [groups, N * OH * OW, C/groups * KH * KW]."""
    n, c, h, w = input.shape
    kh, kw = kernel
    oh = _output_size(h, kh, stride[0], padding[0], dilation[0])
    ow = _output_size(w, kw, stride[1], padding[1], dilation[1])
    padded = _padded(input.contiguous(), padding)
    sn, sc, sh, sw = padded.stride()
    windows = padded.as_strided((n, oh, ow, c, kh, kw),
                                (sn, sh * stride[0], sw * stride[1], sc, sh * dilation[0], sw * dilation[1]))
    rows = windows.reshape(n * oh * ow, groups, (c // groups) * kh * kw)
    return rows.transpose(0, 1)


def _by_group(weight: torch.Tensor, groups: int) -> torch.Tensor:
    """[groups, C/groups * KH * KW, OC/groups]."""
    return weight.reshape(groups, weight.shape[0] // groups, -1).transpose(1, 2)


def convolution(input: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, stride: Sequence[int],
                padding: Sequence[int], dilation: Sequence[int], transposed: bool,
                output_padding: Sequence[int], groups: int) -> torch.Tensor:
    if transposed or input.dim() not in (3, 4):
        _warn_once("a transposed or 3-d convolution" if transposed else "a 3-d convolution")
        return _on_the_cpu(torch.ops.aten.convolution.default,
                           (input, weight, bias, stride, padding, dilation, transposed, output_padding, groups), {})
    one_d = input.dim() == 3
    x, w, stride, padding, dilation = _as_2d(input, weight, stride, padding, dilation)
    n, _, h, width = x.shape
    out_channels, kh, kw = w.shape[0], w.shape[2], w.shape[3]
    oh = _output_size(h, kh, stride[0], padding[0], dilation[0])
    ow = _output_size(width, kw, stride[1], padding[1], dilation[1])
    products = torch.bmm(_columns(x, (kh, kw), stride, padding, dilation, groups), _by_group(w, groups))
    # [groups, N * OH * OW, OC/groups] -> [N, OC, OH, OW]
    out = products.reshape(groups, n, oh, ow, out_channels // groups).permute(1, 0, 4, 2, 3)
    out = out.reshape(n, out_channels, oh, ow)
    if bias is not None:
        out = out + bias.view(1, out_channels, 1, 1)
    if one_d:
        return out.squeeze(2).contiguous()
    # The layout PyTorch's shape function gives it (Inductor checks strides).
    channels_last = not input.is_contiguous() and input.is_contiguous(memory_format=torch.channels_last)
    return out.contiguous(memory_format=torch.channels_last if channels_last else torch.contiguous_format)


def convolution_backward(grad_output: torch.Tensor, input: torch.Tensor, weight: torch.Tensor,
                         stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int],
                         transposed: bool, output_padding: Sequence[int], groups: int,
                         output_mask: Sequence[bool]) -> tuple[torch.Tensor | None, ...]:
    if transposed or input.dim() not in (3, 4):
        _warn_once("the gradient of a transposed or 3-d convolution")
        return _on_the_cpu(torch.ops.aten.convolution_backward.default,
                           (grad_output, input, weight, None, stride, padding, dilation, transposed,
                            output_padding, groups, output_mask), {})
    one_d = input.dim() == 3
    x, w, stride, padding, dilation = _as_2d(input, weight, stride, padding, dilation)
    go = grad_output.unsqueeze(2) if one_d else grad_output
    n, channels, h, width = x.shape
    out_channels, kh, kw = w.shape[0], w.shape[2], w.shape[3]
    oh, ow = go.shape[2], go.shape[3]
    # [N, OC, OH, OW] -> [groups, N * OH * OW, OC/groups]
    rows = go.permute(0, 2, 3, 1).reshape(n * oh * ow, groups, out_channels // groups).transpose(0, 1)
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        # Each window's gradient, summed back into the padded input one
        # window offset (kernel position) at a time.
        windows = torch.bmm(rows, _by_group(w, groups).transpose(1, 2))
        windows = windows.transpose(0, 1).reshape(n, oh, ow, channels, kh, kw)
        padded = x.new_zeros(n, channels, h + 2 * padding[0], width + 2 * padding[1])
        for i in range(kh):
            for j in range(kw):
                top, left = i * dilation[0], j * dilation[1]
                target = padded[:, :, top:top + (oh - 1) * stride[0] + 1:stride[0],
                                left:left + (ow - 1) * stride[1] + 1:stride[1]]
                target.add_(windows[:, :, :, :, i, j].permute(0, 3, 1, 2))
        grad_input = padded[:, :, padding[0]:padding[0] + h, padding[1]:padding[1] + width].contiguous()
        if one_d:
            grad_input = grad_input.squeeze(2)
    if output_mask[1]:
        columns = _columns(x, (kh, kw), stride, padding, dilation, groups)
        grad_weight = torch.bmm(rows.transpose(1, 2), columns).reshape(w.shape)
        if one_d:
            grad_weight = grad_weight.squeeze(2)
    if output_mask[2]:
        grad_bias = go.sum((0, 2, 3))
    return grad_input, grad_weight, grad_bias
