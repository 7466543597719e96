// RUN: triton-spirv-opt %s --triton-spirv-assign-layouts="workgroup-size=128 cooperative-matrix=1 max-workgroup-memory=49152" -verify-diagnostics | FileCheck %s

// An fp16 matmul of cooperative-matrix form whose 128x128 fp32 accumulator
// would not fit in workgroup memory next to its operands is computed by
// invocations, with the accumulator in registers; a remark says so.
// CHECK-LABEL: func.func @large_half_matmul
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[8, 16]>} : memref<128x128xf32
func.func @large_half_matmul(%a: memref<128x32xf16, #gpu.address_space<workgroup>>,
                             %b: memref<32x128xf16, #gpu.address_space<workgroup>>) {
  %acc = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
  // expected-remark @+1 {{cooperative matrices not used: their 128x128 accumulator and operands would take 81920 bytes of workgroup memory (the target has 49152); the accumulator stays in registers, computed by invocations}}
  linalg.matmul ins(%a, %b : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>)
                outs(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>)
  return
}

// A smaller one fits and uses cooperative matrices: its accumulator stays in
// workgroup memory (which lane holds which element is the driver's choice).
// CHECK-LABEL: func.func @half_matmul
// CHECK: memref.alloc() : memref<64x64xf32
func.func @half_matmul(%a: memref<64x32xf16, #gpu.address_space<workgroup>>,
                       %b: memref<32x64xf16, #gpu.address_space<workgroup>>) {
  %acc = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
  linalg.matmul ins(%a, %b : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>)
                outs(%acc : memref<64x64xf32, #gpu.address_space<workgroup>>)
  return
}
