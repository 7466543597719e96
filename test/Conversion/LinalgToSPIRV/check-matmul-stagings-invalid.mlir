// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=128 max-workgroup-memory=32768 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-check-matmul-stagings -split-input-file -verify-diagnostics

// A 2048x2048 accumulator held in registers (a grid layout), and its
// operands, 64 KiB each, staged in workgroup memory: refused before the
// distribution, with the data note callers read.
func.func @large_accumulator(%a: memref<2048x16xf16>, %b: memref<16x2048xf16>,
                             %c: memref<2048x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  %sa = memref.alloc() : memref<2048x16xf16, #gpu.address_space<workgroup>>
  %sb = memref.alloc() : memref<16x2048xf16, #gpu.address_space<workgroup>>
  %acc = memref.alloc() : memref<2048x2048xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%a : memref<2048x16xf16>) outs(%sa : memref<2048x16xf16, #gpu.address_space<workgroup>>)
  linalg.copy ins(%b : memref<16x2048xf16>) outs(%sb : memref<16x2048xf16, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%acc : memref<2048x2048xf32, #gpu.address_space<workgroup>>)
  // expected-error @+2 {{out of resources: the kernel needs at least 131072 bytes of workgroup memory (this matmul's operands staged together), the target has 32768; use smaller blocks or fewer live tensors}}
  // expected-note @+1 {{overrun: {limit = 32768 : i64, needed = 131072 : i64, resource = "workgroup-memory"}}}
  linalg.matmul ins(%sa, %sb : memref<2048x16xf16, #gpu.address_space<workgroup>>, memref<16x2048xf16, #gpu.address_space<workgroup>>)
                outs(%acc : memref<2048x2048xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%acc : memref<2048x2048xf32, #gpu.address_space<workgroup>>) outs(%c : memref<2048x2048xf32>)
  return
}
