// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-assign-layouts -verify-diagnostics
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-distribute -verify-diagnostics

// The layout assignment and the distribution read the plans of
// --triton-spirv-plan-matmuls; a matmul without one is refused, not
// computed some other way.
func.func @unplanned(%a: memref<32x32xf32, #gpu.address_space<workgroup>>,
                     %b: memref<32x32xf32, #gpu.address_space<workgroup>>,
                     %acc: memref<32x32xf32, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{needs every matmul planned: run --triton-spirv-plan-matmuls first}}
  linalg.matmul ins(%a, %b : memref<32x32xf32, #gpu.address_space<workgroup>>, memref<32x32xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  return
}
