// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" --triton-spirv-expand-double-math -verify-diagnostics

func.func @double_tangent(%buf: memref<?xf64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %buf[%c0] : memref<?xf64>
  // expected-error @+1 {{double-precision 'math.tan' is not supported: Vulkan's GLSL.std.450 functions take 16/32-bit floats}}
  %y = math.tan %x : f64
  memref.store %y, %buf[%c0] : memref<?xf64>
  return
}
