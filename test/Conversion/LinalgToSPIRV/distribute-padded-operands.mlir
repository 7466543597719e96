// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-distribute --canonicalize | FileCheck %s

// Both operands get padded rows when workgroup memory holds both paddings
// (512 bytes each) once A's unpadded buffer is gone: the other blocks
// leave 1024 bytes.
// CHECK-LABEL: func.func @both_operands_padded
// CHECK-DAG: %[[A:.*]] = memref.alloc() : memref<32x40xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[B:.*]] = memref.alloc() : memref<32x40xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref<32x32xf16, #gpu.address_space<workgroup>>
// CHECK: gpu.subgroup_mma_load_matrix %[[A]][%{{.*}}, %{{.*}}] {leadDimension = 40 : index}
// CHECK: gpu.subgroup_mma_load_matrix %[[B]][%{{.*}}, %{{.*}}] {leadDimension = 40 : index}
func.func @both_operands_padded(%ga: memref<32x32xf16>, %gb: memref<32x32xf16>,
                                %out: memref<9984xf32>,
                                %result: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %other = memref.alloc() : memref<9984xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%other : memref<9984xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%other : memref<9984xf32, #gpu.address_space<workgroup>>) outs(%out : memref<9984xf32>)
  %a = memref.alloc() : memref<32x32xf16, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<32x32xf16, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%ga : memref<32x32xf16>) outs(%a : memref<32x32xf16, #gpu.address_space<workgroup>>)
  linalg.copy ins(%gb : memref<32x32xf16>) outs(%b : memref<32x32xf16, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%c : memref<32x32xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%a, %b : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>)
                outs(%c : memref<32x32xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%c : memref<32x32xf32, #gpu.address_space<workgroup>>) outs(%result : memref<32x32xf32>)
  return
}
