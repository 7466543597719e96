// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-plan-matmuls | FileCheck %s
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=-cooperative-matrix workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-plan-matmuls | FileCheck %s --check-prefix=CUDA-CORES

// An fp16 matmul in whole 16x16x16 steps may be computed by subgroups with
// cooperative matrices; its register tiles stay in the plan for the layout
// analysis to choose. Without cooperative matrices only invocations can.
// CHECK-LABEL: func.func @half_matmul
// CHECK: linalg.matmul {triton_spirv.matmul_plan = #triton_spirv.matmul_plan<invocations = <grid = [8, 16], tile = [4, 2]>, subgroups = <grid = [2, 2], tile = [1, 1]>>}
// CUDA-CORES-LABEL: func.func @half_matmul
// CUDA-CORES: linalg.matmul {triton_spirv.matmul_plan = #triton_spirv.matmul_plan<invocations = <grid = [8, 16], tile = [4, 2]>>}
func.func @half_matmul(%a: memref<32x32xf16, #gpu.address_space<workgroup>>,
                       %b: memref<32x32xf16, #gpu.address_space<workgroup>>,
                       %acc: memref<32x32xf32, #gpu.address_space<workgroup>>) {
  linalg.matmul ins(%a, %b : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>)
                outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  return
}

// Its 128x128 fp32 accumulator and operands would take over a quarter of the
// workgroup memory: subgroups compute it only with the accumulator kept as
// fragments.
// CHECK-LABEL: func.func @large_half_matmul
// CHECK: fragments_only = true
func.func @large_half_matmul(%a: memref<128x32xf16, #gpu.address_space<workgroup>>,
                             %b: memref<32x128xf16, #gpu.address_space<workgroup>>,
                             %acc: memref<128x128xf32, #gpu.address_space<workgroup>>) {
  linalg.matmul ins(%a, %b : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>)
                outs(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>)
  return
}

// fp32 operands have no cooperative-matrix form here.
// CHECK-LABEL: func.func @float_matmul
// CHECK: linalg.matmul {triton_spirv.matmul_plan = #triton_spirv.matmul_plan<invocations = <grid = [8, 16], tile = [4, 2]>>}
func.func @float_matmul(%a: memref<32x32xf32, #gpu.address_space<workgroup>>,
                        %b: memref<32x32xf32, #gpu.address_space<workgroup>>,
                        %acc: memref<32x32xf32, #gpu.address_space<workgroup>>) {
  linalg.matmul ins(%a, %b : memref<32x32xf32, #gpu.address_space<workgroup>>, memref<32x32xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  return
}

// Too few outputs to give each invocation one: an empty plan, and the matmul
// is distributed as any other linalg op.
// CHECK-LABEL: func.func @tiny_matmul
// CHECK: linalg.matmul {triton_spirv.matmul_plan = #triton_spirv.matmul_plan<>}
func.func @tiny_matmul(%a: memref<4x16xf32, #gpu.address_space<workgroup>>,
                       %b: memref<16x4xf32, #gpu.address_space<workgroup>>,
                       %acc: memref<4x4xf32, #gpu.address_space<workgroup>>) {
  linalg.matmul ins(%a, %b : memref<4x16xf32, #gpu.address_space<workgroup>>, memref<16x4xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<4x4xf32, #gpu.address_space<workgroup>>)
  return
}

// Matmuls on tensors are planned once bufferized.
// CHECK-LABEL: func.func @tensor_matmul
// CHECK: linalg.matmul ins
// CHECK-NOT: matmul_plan
func.func @tensor_matmul(%a: tensor<32x32xf16>, %b: tensor<32x32xf16>,
                         %acc: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x32xf16>, tensor<32x32xf16>)
                     outs(%acc : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
