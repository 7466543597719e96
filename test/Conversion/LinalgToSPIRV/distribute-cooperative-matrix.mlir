// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix workgroup-size=128 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --triton-spirv-remove-redundant-barriers --canonicalize -split-input-file | FileCheck %s

// A 32x64 fp16 matmul with an fp32 accumulator on 4 subgroups of 32: a 1x4
// grid of subgroups, each computing a column of two 16x16 tiles with
// cooperative matrices (rows 16 r, columns 16 s), in 2 steps of 16 along the
// reduction; the B tile is loaded once per step for both.
// CHECK-LABEL: func.func @matmul_f16
// CHECK: %[[SG:.*]] = gpu.subgroup_id : index
// CHECK-DAG: %[[TROW:.*]] = arith.divui %[[SG]], %c4
// CHECK-DAG: %[[TCOL:.*]] = arith.remui %[[SG]], %c4
// CHECK-DAG: %[[ROW0:.*]] = arith.muli %[[TROW]], %c16
// CHECK-DAG: %[[ROW1:.*]] = arith.addi %[[ROW0]], %c16
// CHECK-DAG: %[[COL:.*]] = arith.muli %[[TCOL]], %c16
// CHECK: %[[C0:.*]] = gpu.subgroup_mma_load_matrix %[[ACC:.*]][%[[ROW0]], %[[COL]]] {leadDimension = 64 : index} : memref<32x64xf32, {{.*}}> -> !gpu.mma_matrix<16x16xf32, "COp">
// CHECK: %[[C1:.*]] = gpu.subgroup_mma_load_matrix %[[ACC]][%[[ROW1]], %[[COL]]]
// CHECK: %[[SUMS:.*]]:2 = scf.for %[[K:.*]] = %c0 to %c32 step %c16 iter_args(%[[S0:.*]] = %[[C0]], %[[S1:.*]] = %[[C1]])
// CHECK:   %[[A0:.*]] = gpu.subgroup_mma_load_matrix %{{.*}}[%[[ROW0]], %[[K]]] {leadDimension = 32 : index} : {{.*}} -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK:   %[[A1:.*]] = gpu.subgroup_mma_load_matrix %{{.*}}[%[[ROW1]], %[[K]]]
// CHECK:   %[[B:.*]] = gpu.subgroup_mma_load_matrix %{{.*}}[%[[K]], %[[COL]]] {leadDimension = 64 : index} : {{.*}} -> !gpu.mma_matrix<16x16xf16, "BOp">
// CHECK:   %[[P0:.*]] = gpu.subgroup_mma_compute %[[A0]], %[[B]], %[[S0]]
// CHECK:   %[[P1:.*]] = gpu.subgroup_mma_compute %[[A1]], %[[B]], %[[S1]]
// CHECK:   scf.yield %[[P0]], %[[P1]]
// CHECK: gpu.subgroup_mma_store_matrix %[[SUMS]]#0, %[[ACC]][%[[ROW0]], %[[COL]]] {leadDimension = 64 : index}
// CHECK: gpu.subgroup_mma_store_matrix %[[SUMS]]#1, %[[ACC]][%[[ROW1]], %[[COL]]]
// CHECK-NEXT: return
func.func @matmul_f16(%a: memref<32x32xf16, #gpu.address_space<workgroup>>,
                      %b: memref<32x64xf16, #gpu.address_space<workgroup>>,
                      %c: memref<32x64xf32, #gpu.address_space<workgroup>>) {
  linalg.matmul ins(%a, %b : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>)
                outs(%c : memref<32x64xf32, #gpu.address_space<workgroup>>)
  return
}

// -----

// fp32 operands have no cooperative-matrix shape: registers per invocation.
// CHECK-LABEL: func.func @matmul_f32
// CHECK-NOT: gpu.subgroup_mma
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c1 iter_args(
// CHECK: arith.mulf
func.func @matmul_f32(%a: memref<32x32xf32, #gpu.address_space<workgroup>>,
                      %b: memref<32x64xf32, #gpu.address_space<workgroup>>,
                      %c: memref<32x64xf32, #gpu.address_space<workgroup>>) {
  linalg.matmul ins(%a, %b : memref<32x32xf32, #gpu.address_space<workgroup>>, memref<32x64xf32, #gpu.address_space<workgroup>>)
                outs(%c : memref<32x64xf32, #gpu.address_space<workgroup>>)
  return
}

// -----

// Sizes that are not multiples of 16 take the register path too.
// CHECK-LABEL: func.func @matmul_f16_uneven
// CHECK-NOT: gpu.subgroup_mma
// CHECK: arith.extf
func.func @matmul_f16_uneven(%a: memref<24x8xf16, #gpu.address_space<workgroup>>,
                             %b: memref<8x32xf16, #gpu.address_space<workgroup>>,
                             %c: memref<24x32xf32, #gpu.address_space<workgroup>>) {
  linalg.matmul ins(%a, %b : memref<24x8xf16, #gpu.address_space<workgroup>>, memref<8x32xf16, #gpu.address_space<workgroup>>)
                outs(%c : memref<24x32xf32, #gpu.address_space<workgroup>>)
  return
}

// -----

// Operands staged in workgroup memory (allocated there, written by copies)
// get rows padded by 16 bytes where a row is longer than a fragment's: the
// 16 rows a fragment reads would otherwise start at the same bank (B's rows
// are 128 bytes apart). A's rows of 16 elements are one fragment row wide
// and stay as they are.
// CHECK-LABEL: func.func @staged_f16
// CHECK-DAG: %[[A:.*]] = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[B:.*]] = memref.alloc() : memref<16x72xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref<16x64xf16, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %[[B]][%{{.*}}, %{{.*}}] : memref<16x72xf16
// CHECK: gpu.subgroup_mma_load_matrix %[[A]][%{{.*}}, %{{.*}}] {leadDimension = 16 : index}
// CHECK: gpu.subgroup_mma_load_matrix %[[B]][%{{.*}}, %{{.*}}] {leadDimension = 72 : index}
func.func @staged_f16(%ga: memref<32x16xf16>, %gb: memref<16x64xf16>,
                      %c: memref<32x64xf32, #gpu.address_space<workgroup>>) {
  %a = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%ga : memref<32x16xf16>) outs(%a : memref<32x16xf16, #gpu.address_space<workgroup>>)
  linalg.copy ins(%gb : memref<16x64xf16>) outs(%b : memref<16x64xf16, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%a, %b : memref<32x16xf16, #gpu.address_space<workgroup>>, memref<16x64xf16, #gpu.address_space<workgroup>>)
                outs(%c : memref<32x64xf32, #gpu.address_space<workgroup>>)
  return
}

// -----

// One staged block as both operands: padded once, read as both.
// CHECK-LABEL: func.func @square_f16
// CHECK: %[[Z:.*]] = memref.alloc() : memref<32x40xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc() : memref<32x40xf16
// CHECK: gpu.subgroup_mma_load_matrix %[[Z]][%{{.*}}, %{{.*}}] {leadDimension = 40 : index} : {{.*}} -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK: gpu.subgroup_mma_load_matrix %[[Z]][%{{.*}}, %{{.*}}] {leadDimension = 40 : index} : {{.*}} -> !gpu.mma_matrix<16x16xf16, "BOp">
func.func @square_f16(%gz: memref<32x32xf16>,
                      %c: memref<32x32xf32, #gpu.address_space<workgroup>>) {
  %z = memref.alloc() : memref<32x32xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%gz : memref<32x32xf16>) outs(%z : memref<32x32xf16, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%z, %z : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>)
                outs(%c : memref<32x32xf32, #gpu.address_space<workgroup>>)
  return
}
