"""Row reductions and per-element functions of cooperative matrices
(VK_NV_cooperative_matrix2) on a device that has them: a kernel written at
the distributed level goes through the pipeline's tail and runs through the
runtime directly. Skipped elsewhere (lavapipe has no cooperative matrices)."""

from __future__ import annotations

import ctypes
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from triton_spirv import vulkan
from triton_spirv._paths import tool_path

# One subgroup loads a 16x16 f32 tile, smears each row's maximum over the
# row, and stores (x - max) * scale + 1000 * row + col (the callback's
# coordinates), the smeared maxima, and x as an f16 A operand times the
# identity (a conversion between uses).
KERNEL = """
func.func @rows(%pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"},
                %in: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                %out: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                %eye: memref<?xf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 2 : i64},
                %scale: f32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 3 : i64})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %x = gpu.subgroup_mma_load_matrix %in[%c0] {leadDimension = 16 : index}
      : memref<?xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
  %max = triton_spirv.reduce_fragment_rows %x : !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    triton_spirv.yield %m : f32
  }
  %shifted = triton_spirv.map_fragments %x, %max args(%scale : f32)
      : !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">
        -> !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%row: i32, %col: i32, %a: f32, %b: f32, %s: f32):
    %d = arith.subf %a, %b : f32
    %e = arith.mulf %d, %s : f32
    %r = arith.sitofp %row : i32 to f32
    %c = arith.sitofp %col : i32 to f32
    %k = arith.constant 1000.0 : f32
    %rk = arith.mulf %r, %k : f32
    %rc = arith.addf %rk, %c : f32
    %f = arith.addf %e, %rc : f32
    triton_spirv.yield %f : f32
  }
  gpu.subgroup_mma_store_matrix %shifted, %out[%c0] {leadDimension = 16 : index}
      : !gpu.mma_matrix<16x16xf32, "COp">, memref<?xf32>
  gpu.subgroup_mma_store_matrix %max, %out[%c256] {leadDimension = 16 : index}
      : !gpu.mma_matrix<16x16xf32, "COp">, memref<?xf32>
  %a = triton_spirv.convert_fragment %x : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "AOp">
  %b = gpu.subgroup_mma_load_matrix %eye[%c0] {leadDimension = 16 : index}
      : memref<?xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
  %zero = arith.constant 0.0 : f32
  %z = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
  %y = gpu.subgroup_mma_compute %a, %b, %z : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
      -> !gpu.mma_matrix<16x16xf32, "COp">
  gpu.subgroup_mma_store_matrix %y, %out[%c512] {leadDimension = 16 : index}
      : !gpu.mma_matrix<16x16xf32, "COp">, memref<?xf32>
  return
}
"""

# The passes --triton-to-spirv runs from the distributed kernel to SPIR-V.
TO_SPIRV = ("assign-storage-classes", "check-workgroup-memory", "round-correctly",
            "atomics-to-compare-and-swap", "emulate-small-floats", "expand-double-math",
            "legalize-for-spirv", "fuse-multiply-adds", "create-shader-modules",
            "outline-fragment-callbacks", "lower-kernel-abi", "convert-to-spirv",
            "retype-bfloat16-matrices", "order-atomics", "forbid-contraction")
TAIL = ("builtin.module(triton-spirv-resolve-target{target=nvidia workgroup-size=32},"
        + ",".join("triton-spirv-" + step for step in TO_SPIRV) + ","
        "spirv.module(spirv-lower-abi-attrs,spirv-update-vce,triton-spirv-set-target-version,"
        "triton-spirv-declare-implied-capabilities,triton-spirv-declare-read-only-buffers,"
        "canonicalize,cse),triton-spirv-write-binary{output=OUTPUT})")


def test_row_maxima_and_per_element_function(tmp_path: Path) -> None:
    device = vulkan.device()
    if not device.properties.cooperative_matrix2:
        pytest.skip("the device has no VK_NV_cooperative_matrix2")
    source, binary = tmp_path / "rows.mlir", tmp_path / "rows.spv"
    source.write_text(KERNEL)
    subprocess.run([str(tool_path()), f"--pass-pipeline={TAIL.replace('OUTPUT', str(binary))}",
                    str(source), "-o", "/dev/null"], check=True)
    abi = json.loads(Path(f"{binary}.json").read_text())
    kernel = vulkan.Kernel(device, binary.read_bytes(), abi["entry_point"], 3,
                           abi["push_constant_bytes"])

    x = np.random.default_rng(0).standard_normal((16, 16)).astype(np.float32)
    eye = np.eye(16, dtype=np.float16)
    scale = np.float32(0.5)
    out = np.empty((3, 16, 16), np.float32)
    buffers = [device.allocate(array.nbytes) for array in (x, out, eye)]
    try:
        for (address, _), array in zip(buffers, (x, out, eye)):
            if array is not out:
                ctypes.memmove(address, array.ctypes.data, array.nbytes)
        bindings = vulkan.binding_struct(3).pack(*[word for (address, _), array in zip(buffers, (x, out, eye))
                                                   for word in (address, array.nbytes)])
        push = bytearray(abi["push_constant_bytes"])
        offsets = {r["role"]: r["offset"] for r in abi["push_constants"]}
        np.frombuffer(push, np.float32, 1, offsets["scalar"])[0] = scale
        for role in ("num_programs_x", "num_programs_y", "num_programs_z"):
            np.frombuffer(push, np.int32, 1, offsets[role])[0] = 1
        kernel.run(True, vulkan.GRID.pack(1, 1, 1), bindings, 3, bytes(push),
                   offsets["program_id_base_x"])
        ctypes.memmove(out.ctypes.data, buffers[1][0], out.nbytes)
    finally:
        for address, handle in buffers:
            device.free(address, handle)

    row_max = x.max(axis=1, keepdims=True)
    rows, cols = np.indices((16, 16), dtype=np.float32)
    np.testing.assert_allclose(out[1], np.broadcast_to(row_max, (16, 16)))
    np.testing.assert_allclose(out[0], (x - row_max) * scale + 1000 * rows + cols, rtol=1e-6)
    np.testing.assert_array_equal(out[2], x.astype(np.float16).astype(np.float32))
