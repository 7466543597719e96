// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=256 subgroup-size=32 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --canonicalize -split-input-file | FileCheck %s

// A 128x128 fp32 matmul on 256 invocations of subgroups of 32: a 16x16
// grid of 8x8 register tiles, so the 16 lanes of a half-subgroup share each
// row of A, enough for fp32. A, staged in workgroup memory, is laid out
// tile-major: the staging copy stores row m of step k at
// (m mod 16) * 12 + m / 16 (8 rows per tile, padded to 3 vectors of 4), and
// each invocation reads its 8 rows of a step as two vectors. B's columns
// stay scalar.
// CHECK-LABEL: func.func @staged_operands
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[B:.*]] = memref.alloc() : memref<16x128xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[A:.*]] = memref.alloc() : memref<16x192xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref<128x16xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: memref.load %{{.*}}[%[[ROW:[0-9]+]], %{{.*}}] : memref<128x16xf32>
// CHECK: %[[TILE:.*]] = arith.remui %[[ROW]], %[[C16]] : index
// CHECK: %[[START:.*]] = arith.muli %[[TILE]], %[[C12]] : index
// CHECK: %[[INDEX:.*]] = arith.divui %[[ROW]], %[[C16]] : index
// CHECK: %[[MOVED:.*]] = arith.addi %[[START]], %[[INDEX]] : index
// CHECK: memref.store %{{.*}}, %[[A]][%{{.*}}, %[[MOVED]]]
// CHECK: scf.for %[[STEP:.*]] = %c0 to %c16 step %c1
// CHECK-COUNT-2: vector.load %[[A]][%[[STEP]], %{{.*}}] : memref<16x192xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-8: memref.load %[[B]][%[[STEP]], %{{.*}}] : memref<16x128xf32
func.func @staged_operands(%ga: memref<128x16xf32>, %gb: memref<16x128xf32>,
                           %out: memref<128x128xf32>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<128x16xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<16x128xf32, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32, #gpu.address_space<workgroup>>)
  scf.for %i = %c0 to %steps step %c1 {
    linalg.copy ins(%ga : memref<128x16xf32>) outs(%a : memref<128x16xf32, #gpu.address_space<workgroup>>)
    linalg.copy ins(%gb : memref<16x128xf32>) outs(%b : memref<16x128xf32, #gpu.address_space<workgroup>>)
    linalg.matmul ins(%a, %b : memref<128x16xf32, #gpu.address_space<workgroup>>, memref<16x128xf32, #gpu.address_space<workgroup>>)
                  outs(%c : memref<128x128xf32, #gpu.address_space<workgroup>>)
  }
  linalg.copy ins(%c : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%out : memref<128x128xf32>)
  return
}

// -----

// 256x8: a 64x4 grid of 4x2 tiles. Only 4 lanes share a row of A, too
// few for fp32 vectors to pay: A stays as it is.
// CHECK-LABEL: func.func @narrow_grid
// CHECK-NOT: vector.load
// CHECK: memref.alloc() : memref<256x16xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: vector.load
func.func @narrow_grid(%ga: memref<256x16xf32>, %gb: memref<16x8xf32>,
                       %out: memref<256x8xf32>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<256x16xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<16x8xf32, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<256x8xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x8xf32, #gpu.address_space<workgroup>>)
  scf.for %i = %c0 to %steps step %c1 {
    linalg.copy ins(%ga : memref<256x16xf32>) outs(%a : memref<256x16xf32, #gpu.address_space<workgroup>>)
    linalg.copy ins(%gb : memref<16x8xf32>) outs(%b : memref<16x8xf32, #gpu.address_space<workgroup>>)
    linalg.matmul ins(%a, %b : memref<256x16xf32, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<workgroup>>)
                  outs(%c : memref<256x8xf32, #gpu.address_space<workgroup>>)
  }
  linalg.copy ins(%c : memref<256x8xf32, #gpu.address_space<workgroup>>) outs(%out : memref<256x8xf32>)
  return
}

// -----

// One staged block as both operands (tl.dot(z, z)): B reads it as it is,
// so it is not laid out again.
// CHECK-LABEL: func.func @square
// CHECK-NOT: vector.load
// CHECK: memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: vector.load
func.func @square(%gz: memref<128x128xf32>, %out: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %z = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%gz : memref<128x128xf32>) outs(%z : memref<128x128xf32, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%z, %z : memref<128x128xf32, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<workgroup>>)
                outs(%c : memref<128x128xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%c : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%out : memref<128x128xf32>)
  return
}
