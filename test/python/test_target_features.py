"""The compile target names the preset features a device lacks, and the
compiler takes all of them: an NVIDIA driver without bf16 cooperative
matrices and without VK_NV_cooperative_matrix2 gets neither."""

from __future__ import annotations

import dataclasses

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

from corpus.kernels.dots import attention_fwd_kernel

from triton_spirv import vulkan
from triton_spirv.backend import driver


@triton.jit
def _row_max_of_dot(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :]
    scores = tl.dot(tl.load(a_ptr + offsets), tl.load(b_ptr + offsets))
    tl.store(out_ptr + tl.arange(0, BLOCK), tl.max(scores, axis=1))


def _nvidia_properties(**changes) -> vulkan.DeviceProperties:
    return dataclasses.replace(vulkan.device().properties, vendor_id=0x10DE, name="NVIDIA test",
                               subgroup_size=32, max_shared_memory=49152,
                               max_workgroup_invocations=1024,
                               **{"denorm_preserve_float32": False, **changes})


@pytest.mark.parametrize("bfloat16, matrix2, suffix", [
    (True, True, ""),
    (True, False, ":-cooperative-matrix2"),
    (False, False, ":-bfloat16-cooperative-matrix:-cooperative-matrix2"),
])
def test_arch_names_missing_features(monkeypatch: pytest.MonkeyPatch, bfloat16: bool, matrix2: bool,
                                     suffix: str) -> None:
    monkeypatch.setattr(vulkan.device(), "properties",
                        _nvidia_properties(bfloat16_cooperative_matrix=bfloat16, cooperative_matrix2=matrix2))
    assert driver.device_target().arch == "nvidia:32:49152:1024" + suffix


@triton.jit
def _scale(x_ptr, y_ptr):
    tl.store(y_ptr, tl.load(x_ptr) * 0.5)


@pytest.mark.parametrize("preserved", [True, False])
def test_f32_denormals_are_kept_where_the_device_can(monkeypatch: pytest.MonkeyPatch,
                                                     preserved: bool) -> None:
    """As CUDA does, where the driver may keep them (the DenormPreserve
    execution mode; the H200's driver has none and flushes them)."""
    monkeypatch.setattr(vulkan.device(), "properties",
                        _nvidia_properties(denorm_preserve_float32=preserved))
    target = driver.device_target()
    assert target.arch.endswith(":+denorm-preserve-float32") == preserved
    source = ASTSource(_scale, {"x_ptr": "*fp32", "y_ptr": "*fp32"})
    compiled = triton.compile(source, target=target)
    # OpExecutionMode (16) of DenormPreserve (4459) for 32-bit floats.
    words = memoryview(compiled.asm["spv"]).cast("I")
    modes, position = [], 5  # after the header
    while position < len(words):
        count, opcode = words[position] >> 16, words[position] & 0xFFFF
        if opcode == 16:
            modes.append(tuple(words[position + 2:position + count]))
        position += count
    assert ((4459, 32) in modes) == preserved


@pytest.mark.parametrize("features", ["", ":-cooperative-matrix2", ":-bfloat16-cooperative-matrix:-cooperative-matrix2"])
def test_compiler_takes_every_feature(features: str) -> None:
    """A row maximum of a dot on 4 warps (64 rows: a fragment family) uses
    VK_NV_cooperative_matrix2 exactly when the arch keeps the feature."""
    source = ASTSource(_row_max_of_dot, {"a_ptr": "*fp16", "b_ptr": "*fp16", "out_ptr": "*fp32"},
                       constexprs={"BLOCK": 64})
    compiled = triton.compile(source, target=GPUTarget("spirv", "nvidia:32:49152:1024" + features, 32),
                              options={"num_warps": 4})
    # The SPIR-V binary declares the extension by name.
    uses_extension = b"SPV_NV_cooperative_matrix2" in compiled.asm["spv"]
    assert uses_extension == ("cooperative-matrix2" not in features)


def test_attention_weights_stay_fragments() -> None:
    """Attention whose staged keys (HEAD_DIM x BLOCK_KV, whole: no chunks)
    and weights (BLOCK_Q x BLOCK_KV) have one shape keeps its weights as
    fragments, on 2 warps of 16 rows each: the two are not one buffer (a
    fragment family, SPV_NV_cooperative_matrix2)."""
    source = ASTSource(attention_fwd_kernel,
                       {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "out_ptr": "*fp16",
                        "seq_len": "i32", "scale": "fp32"},
                       constexprs={"HEAD_DIM": 32, "BLOCK_Q": 32, "BLOCK_KV": 32, "CAUSAL": False})
    compiled = triton.compile(source, target=GPUTarget("spirv", "nvidia:32:49152:1024", 32),
                              options={"num_warps": 2})
    assert b"SPV_NV_cooperative_matrix2" in compiled.asm["spv"]


@pytest.mark.parametrize("block_q, block_kv, head_dim", [(64, 32, 128), (64, 16, 128), (128, 16, 64), (128, 32, 64)])
def test_attention_queries_held_within_24_kib(block_q: int, block_kv: int, head_dim: int) -> None:
    """On 4 warps the queries are held as A fragments across the loop
    (loaded before it a chunk at a time) and the workgroup stays within 24
    KiB of workgroup memory: NVIDIA runs two such workgroups on a
    multiprocessor only then (benchmarks/README.md)."""
    source = ASTSource(attention_fwd_kernel,
                       {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "out_ptr": "*fp16",
                        "seq_len": "i32", "scale": "fp32"},
                       constexprs={"HEAD_DIM": head_dim, "BLOCK_Q": block_q, "BLOCK_KV": block_kv,
                                   "CAUSAL": False})
    compiled = triton.compile(source, target=GPUTarget("spirv", "nvidia:32:49152:1024", 32),
                              options={"num_warps": 4})
    assert compiled.metadata.shared <= 24 * 1024
