// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts -verify-diagnostics | FileCheck %s

// An fp16 matmul of cooperative-matrix form whose 128x128 fp32 accumulator
// and operands would take over a quarter of workgroup memory, and whose
// accumulator cannot be fragments (it is not filled first), is computed by
// invocations, with the accumulator in registers; a remark says so.
// CHECK-LABEL: func.func @large_half_matmul
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[8, 16]>} : memref<128x128xf32
func.func @large_half_matmul(%a: memref<128x32xf16, #gpu.address_space<workgroup>>,
                             %b: memref<32x128xf16, #gpu.address_space<workgroup>>) {
  %acc = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
  // expected-remark @+1 {{cooperative matrices not used: their 128x128 accumulator and operands would take 81920 bytes of workgroup memory (over a quarter of the target's 49152) and it cannot stay in registers as fragments; it stays in registers, computed by invocations}}
  linalg.matmul ins(%a, %b : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>)
                outs(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>)
  return
}

// A small one uses cooperative matrices: its accumulator stays in workgroup
// memory (which lane holds which element is the driver's choice).
// CHECK-LABEL: func.func @half_matmul
// CHECK: memref.alloc() : memref<32x32xf32
func.func @half_matmul(%a: memref<32x32xf16, #gpu.address_space<workgroup>>,
                       %b: memref<32x32xf16, #gpu.address_space<workgroup>>) {
  %acc = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.matmul ins(%a, %b : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>)
                outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  return
}

// An accumulator that is reduced (attention's scores) is computed by
// invocations even where cooperative matrices would fit: the reduction needs
// it in registers.
// CHECK-LABEL: func.func @reduced_half_matmul
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[8, 16]>} : memref<32x32xf32
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 1, parent = #triton_spirv.grid<[8, 16]>>} : memref<32xf32
func.func @reduced_half_matmul(%a: memref<32x32xf16, #gpu.address_space<workgroup>>,
                               %b: memref<32x32xf16, #gpu.address_space<workgroup>>,
                               %dst: memref<32xf32>) {
  %acc = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  %max = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
  // expected-remark @+1 {{cooperative matrices not used: the accumulator is reduced, which needs it in registers; it is computed by invocations}}
  linalg.matmul ins(%a, %b : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>)
                outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  linalg.reduce ins(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
                outs(%max : memref<32xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%x: f32, %m: f32) {
      %r = arith.maxnumf %x, %m : f32
      linalg.yield %r : f32
    }
  linalg.copy ins(%max : memref<32xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<32xf32>)
  return
}
