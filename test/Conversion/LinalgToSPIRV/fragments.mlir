// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts -split-input-file | FileCheck %s
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --canonicalize -split-input-file | FileCheck %s --check-prefix=DIST

// Accumulators of cooperative-matrix form that are filled, summed by one
// matmul in a loop and then only read by an epilogue stay in registers as
// fragments (triton_spirv.fragments), however large: a 128x128 fp32
// accumulator over 4 subgroups is a 2x2 grid of subgroups, each holding 4x4
// tiles of 16x16.
// CHECK-LABEL: func.func @k_loop
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.fragments<[2, 2]>} : memref<128x128xf32

// The fill becomes 16 constant matrices, carried through the loop; the
// operands are loaded per 16-deep step as 4 A and 4 B tiles for 16
// multiply-adds.
// DIST-LABEL: func.func @k_loop
// DIST: %[[SCRATCH:.*]] = memref.alloc() : memref<64x16xf16, #gpu.address_space<workgroup>>
// DIST: %[[SG:.*]] = gpu.subgroup_id : index
// DIST-COUNT-16: gpu.subgroup_mma_constant_matrix %{{.*}} : !gpu.mma_matrix<16x16xf32, "COp">
// DIST: %[[SUMS:.*]]:16 = scf.for %{{.*}} iter_args(
// DIST: scf.for %{{.*}} = %c0 to %c32 step %c16 iter_args(
// DIST-COUNT-4: gpu.subgroup_mma_load_matrix %{{.*}} -> !gpu.mma_matrix<16x16xf16, "AOp">
// DIST-COUNT-4: gpu.subgroup_mma_load_matrix %{{.*}} -> !gpu.mma_matrix<16x16xf16, "BOp">
// DIST-COUNT-16: gpu.subgroup_mma_compute
// The epilogue: each fragment goes to the subgroup's 16x16 scratch tile,
// then each lane reads 8 of its elements (lane + 32 e) and runs the body.
// The body only rounds the elements to f16 for the store: the fragment is
// rounded instead, into an f16 scratch.
// DIST: %[[LANE:.*]] = gpu.lane_id
// DIST: %[[TILEROW:.*]] = arith.muli %{{.*}}, %c16 : index
// DIST: %[[TILECOL:.*]] = arith.muli %{{.*}}, %c16 : index
// DIST: %[[ROW0:.*]] = arith.muli %[[SG2:.*]], %c16 : index
// DIST: gpu.barrier
// DIST: %[[ROUNDED:.*]] = triton_spirv.convert_fragment %[[SUMS]]#0 : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
// DIST: gpu.subgroup_mma_store_matrix %[[ROUNDED]], %[[SCRATCH]][%[[ROW0]], %c0] {leadDimension = 16 : index}
// DIST: gpu.barrier
// DIST: scf.for %[[E:.*]] = %c0 to %c8 step %c1 {
// DIST:   %[[SPAN:.*]] = arith.muli %[[E]], %c32 : index
// DIST:   %[[L:.*]] = arith.addi %[[LANE]], %[[SPAN]] : index
// DIST:   %[[R:.*]] = arith.divui %[[L]], %c16 : index
// DIST:   %[[C:.*]] = arith.remui %[[L]], %c16 : index
// DIST:   %[[SROW:.*]] = arith.addi %[[ROW0]], %[[R]] : index
// DIST:   %[[V:.*]] = memref.load %[[SCRATCH]][%[[SROW]], %[[C]]]
// DIST-NOT: arith.truncf
// DIST:   memref.store %[[V]]
// DIST: } {triton_spirv.spread = #triton_spirv.spread<[128, 128], run = 1, #triton_spirv.fragments<[2, 2]>>}
// DIST: triton_spirv.convert_fragment %[[SUMS]]#1 :
// DIST: triton_spirv.convert_fragment %[[SUMS]]#15 :
// DIST-NOT: memref<128x128xf32
func.func @k_loop(%a: memref<128x32xf16, #gpu.address_space<workgroup>>,
                  %b: memref<32x128xf16, #gpu.address_space<workgroup>>,
                  %out: memref<16384xf16>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>)
  scf.for %k = %c0 to %steps step %c1 {
    linalg.matmul ins(%a, %b : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>)
                  outs(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>)
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32):
    %h = arith.truncf %x : f32 to f16
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %row = arith.muli %i, %c128 : index
    %at = arith.addi %row, %j : index
    memref.store %h, %out[%at] : memref<16384xf16>
    linalg.yield
  }
  return
}

// -----

// Loops nested below the fill's block (a reduction staged in chunks) carry
// the fragments through each level; without a loop the fragments go
// straight from the constants to the epilogue.
// CHECK-LABEL: func.func @nested_and_straight
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.fragments<[2, 2]>} : memref<64x64xf32
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.fragments<[2, 2]>} : memref<32x32xf32
// DIST-LABEL: func.func @nested_and_straight
// DIST-COUNT-4: gpu.subgroup_mma_constant_matrix
// DIST: %[[OUTER:.*]]:4 = scf.for %{{.*}} iter_args(%[[O0:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// DIST:   %[[INNER:.*]]:4 = scf.for %{{.*}} iter_args(%{{.*}} = %[[O0]],
// DIST-COUNT-4: gpu.subgroup_mma_compute
// DIST:   scf.yield %[[INNER]]#0, %[[INNER]]#1, %[[INNER]]#2, %[[INNER]]#3
// DIST: gpu.subgroup_mma_store_matrix %[[OUTER]]#0,
// DIST: gpu.subgroup_mma_store_matrix %[[OUTER]]#3,
// DIST: %[[ONE:.*]] = gpu.subgroup_mma_constant_matrix
// DIST: %[[SUM:.*]] = scf.for %{{.*}} = %c0 to %c32 step %c16 iter_args(%{{.*}} = %[[ONE]])
// DIST: gpu.subgroup_mma_store_matrix %[[SUM]],
func.func @nested_and_straight(%a: memref<64x16xf16, #gpu.address_space<workgroup>>,
                               %b: memref<16x64xf16, #gpu.address_space<workgroup>>,
                               %c: memref<32x32xf16, #gpu.address_space<workgroup>>,
                               %out: memref<64x64xf32>, %out2: memref<32x32xf32>,
                               %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %acc = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32, #gpu.address_space<workgroup>>)
  scf.for %k = %c0 to %steps step %c1 {
    scf.for %chunk = %c0 to %c2 step %c1 {
      linalg.matmul ins(%a, %b : memref<64x16xf16, #gpu.address_space<workgroup>>, memref<16x64xf16, #gpu.address_space<workgroup>>)
                    outs(%acc : memref<64x64xf32, #gpu.address_space<workgroup>>)
    }
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<64x64xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    memref.store %x, %out[%i, %j] : memref<64x64xf32>
    linalg.yield
  }
  %acc2 = memref.alloc() : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%one : f32) outs(%acc2 : memref<32x32xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%c, %c : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>)
                outs(%acc2 : memref<32x32xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc2 : memref<32x32xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    memref.store %x, %out2[%i, %j] : memref<32x32xf32>
    linalg.yield
  }
  return
}

// -----

// Accumulators that something else touches keep the other layouts: one
// rescaled inside the loop (attention's output), one whose epilogue also
// reads another block in workgroup memory, and one read before its matmul.
// CHECK-LABEL: func.func @not_fragments
// CHECK-NOT: #triton_spirv.fragments
// CHECK: return
func.func @not_fragments(%a: memref<64x32xf16, #gpu.address_space<workgroup>>,
                         %b: memref<32x64xf16, #gpu.address_space<workgroup>>,
                         %bias: memref<64x64xf32, #gpu.address_space<workgroup>>,
                         %out: memref<64x64xf32>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %rescaled = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%rescaled : memref<64x64xf32, #gpu.address_space<workgroup>>)
  scf.for %k = %c0 to %steps step %c1 {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        outs(%rescaled : memref<64x64xf32, #gpu.address_space<workgroup>>) {
    ^bb0(%x: f32):
      %y = arith.mulf %x, %half : f32
      linalg.yield %y : f32
    }
    linalg.matmul ins(%a, %b : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>)
                  outs(%rescaled : memref<64x64xf32, #gpu.address_space<workgroup>>)
  }
  linalg.copy ins(%rescaled : memref<64x64xf32, #gpu.address_space<workgroup>>) outs(%out : memref<64x64xf32>)
  %biased = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%biased : memref<64x64xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%a, %b : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>)
                outs(%biased : memref<64x64xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%biased, %bias : memref<64x64xf32, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    memref.store %s, %out[%i, %j] : memref<64x64xf32>
    linalg.yield
  }
  %early = memref.alloc() : memref<64x64xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%early : memref<64x64xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%early : memref<64x64xf32, #gpu.address_space<workgroup>>) outs(%out : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>)
                outs(%early : memref<64x64xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%early : memref<64x64xf32, #gpu.address_space<workgroup>>) outs(%out : memref<64x64xf32>)
  return
}
