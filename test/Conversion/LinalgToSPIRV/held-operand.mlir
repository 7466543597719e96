// RUN: triton-spirv-opt %s -split-input-file --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+cooperative-matrix2 max-workgroup-memory=24576 max-workgroup-size=1024" --triton-spirv-chunk-matmul-reduction --canonicalize | FileCheck %s --check-prefix=FOUR
// RUN: triton-spirv-opt %s -split-input-file --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+cooperative-matrix2 workgroup-size=256 max-workgroup-memory=24576 max-workgroup-size=1024" --triton-spirv-chunk-matmul-reduction --canonicalize | FileCheck %s --check-prefix=EIGHT
// RUN: triton-spirv-opt %s -split-input-file --triton-spirv-resolve-target="target=generic max-workgroup-memory=24576 max-workgroup-size=1024" --triton-spirv-chunk-matmul-reduction --canonicalize | FileCheck %s --check-prefix=STAGED
// RUN: triton-spirv-opt %s -split-input-file --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+cooperative-matrix2 workgroup-size=128 subgroup-size=32 max-workgroup-memory=24576 max-workgroup-size=1024" --triton-spirv-chunk-matmul-reduction --canonicalize --triton-spirv-bufferize --canonicalize --triton-spirv-plan-matmuls --triton-spirv-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: triton-spirv-opt %s -split-input-file --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+cooperative-matrix2 workgroup-size=128 subgroup-size=32 max-workgroup-memory=24576 max-workgroup-size=1024" --triton-spirv-chunk-matmul-reduction --canonicalize --triton-spirv-bufferize --canonicalize --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute | FileCheck %s --check-prefix=DIST

// Attention's first dot in small: queries loaded before the loop, keys in
// it, the scores reduced by rows. With cooperative-matrix2 and whole 16-row
// tiles for each subgroup (64 rows over 4 subgroups: 8 A fragments of the
// queries each), the queries are held: a loop before the kernel's loop
// loads them 16 columns at a time (a twelfth of workgroup memory at most)
// into a block of their own, and only the keys are staged in the loop.
// Without the feature (STAGED) both operands are staged per step, in chunks
// of 32 (6 KiB of the 8 KiB share). Held, the keys take no more than that:
// chunks of 64 (4 KiB). With 8 subgroups the 64 rows are no whole tiles.
// FOUR-LABEL: func.func @held_queries
// FOUR: %[[HELD:.*]] = scf.for %{{.*}} = %c0 to %c128 step %c16 iter_args
// FOUR:   tensor.insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}] [64, 16] [1, 1] : tensor<64x16xf16> into tensor<64x128xf16>
// FOUR: scf.for
// FOUR:   scf.for %[[K0:.*]] = %c0 to %c128 step %c64
// FOUR:     %[[CHUNK:.*]] = tensor.extract_slice %[[HELD]][0, %[[K0]]] [64, 64] [1, 1]
// FOUR:     linalg.matmul ins(%[[CHUNK]], %{{.*}} : tensor<64x64xf16>, tensor<64x32xf16>)
// EIGHT-LABEL: func.func @held_queries
// EIGHT-NOT: tensor.insert_slice
// EIGHT: linalg.matmul {{.*}} : tensor<64x32xf16>, tensor<32x32xf16>
// STAGED-LABEL: func.func @held_queries
// STAGED-NOT: tensor.insert_slice
// STAGED: linalg.matmul {{.*}} : tensor<64x32xf16>, tensor<32x32xf16>

// The held block is a fragment family's member, written by copies of the
// staged chunk into views of it (the loading loop unrolled); the staging
// stays in workgroup memory. The matmul reads the member's views.
// LAYOUT-LABEL: func.func @held_queries
// LAYOUT-DAG: %[[STAGING:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x16xf16
// LAYOUT-DAG: %[[MEMBER:.*]] = memref.alloc() {{{.*}}triton_spirv.fragment_family, triton_spirv.layout = #triton_spirv.fragments<[4, 1]>} : memref<64x128xf16
// LAYOUT: %[[VIEW:.*]] = memref.subview %[[MEMBER]][0, %c0] [64, 16]
// LAYOUT: linalg.copy ins(%[[STAGING]] : {{.*}}) outs(%[[VIEW]] :
// LAYOUT-COUNT-7: linalg.copy ins(%[[STAGING]]
// LAYOUT: scf.for
// LAYOUT: linalg.matmul {{.*}}ins(%{{.*}}, %{{.*}} : memref<64x64xf16, strided<[128, 1]

// Each subgroup loads its 8 A fragments (16 rows, 16 columns each) from the
// staging after the staging's barrier, one per chunk; the dot multiplies
// them with no A loads of its own.
// DIST-LABEL: func.func @held_queries
// DIST-COUNT-8: triton_spirv.fragment_variable : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf16, "AOp">>
// DIST: gpu.barrier
// DIST: %[[A0:.*]] = gpu.subgroup_mma_load_matrix %{{.*}} {leadDimension = 16 : index} : memref<64x16xf16, {{.*}}> -> !gpu.mma_matrix<16x16xf16, "AOp">
// DIST-NEXT: triton_spirv.write_fragment %[[A0]]
// DIST-COUNT-7: gpu.subgroup_mma_load_matrix %{{.*}} {leadDimension = 16 : index} : memref<64x16xf16, {{.*}}> -> !gpu.mma_matrix<16x16xf16, "AOp">
// DIST-NOT: gpu.subgroup_mma_load_matrix {{.*}} -> !gpu.mma_matrix<16x16xf16, "AOp">
// DIST: gpu.subgroup_mma_compute

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0) -> (d0)>
func.func @held_queries(%queries: memref<?xf16>, %keys: memref<?xf16>, %n: index,
                        %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %eq = tensor.empty() : tensor<64x128xf16>
  %q = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%eq : tensor<64x128xf16>) {
  ^bb0(%o: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %r = arith.muli %i, %c128 : index
    %at = arith.addi %r, %j : index
    %x = memref.load %queries[%at] : memref<?xf16>
    linalg.yield %x : f16
  } -> tensor<64x128xf16>
  %erows = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%erows : tensor<64xf32>) -> tensor<64xf32>
  %res = scf.for %it = %c0 to %n step %c1 iter_args(%m = %init) -> tensor<64xf32> {
    %ek = tensor.empty() : tensor<128x32xf16>
    %k = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
        outs(%ek : tensor<128x32xf16>) {
    ^bb0(%o: f16):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %r = arith.muli %j, %c128 : index
      %at = arith.addi %r, %i : index
      %x = memref.load %keys[%at] : memref<?xf16>
      linalg.yield %x : f16
    } -> tensor<128x32xf16>
    %es = tensor.empty() : tensor<64x32xf32>
    %zeros = linalg.fill ins(%zero : f32) outs(%es : tensor<64x32xf32>) -> tensor<64x32xf32>
    %s = linalg.matmul ins(%q, %k : tensor<64x128xf16>, tensor<128x32xf16>)
                       outs(%zeros : tensor<64x32xf32>) -> tensor<64x32xf32>
    %max = linalg.reduce { arith.maxnumf } ins(%s : tensor<64x32xf32>) outs(%m : tensor<64xf32>) dimensions = [1]
    scf.yield %max : tensor<64xf32>
  }
  linalg.generic {indexing_maps = [#row], iterator_types = ["parallel"]} ins(%res : tensor<64xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    memref.store %x, %out[%i] : memref<?xf32>
    linalg.yield
  }
  return
}

// -----

// 128 rows and keys of 64 columns: over 8 subgroups the queries are 4 A
// fragments of each, and the keys take the share that the queries left
// (staged whole). Over 4 subgroups each would hold 8 fragments of the
// scores, too many to hold the queries too: both are staged, in chunks of
// 16.
// FOUR-LABEL: func.func @held_queries_128_rows
// FOUR-NOT: tensor.insert_slice
// FOUR: linalg.matmul {{.*}} : tensor<128x16xf16>, tensor<16x64xf16>
// EIGHT-LABEL: func.func @held_queries_128_rows
// EIGHT: tensor.insert_slice
// EIGHT: scf.for
// EIGHT-NOT: scf.for %{{.*}} = %c0 to %c64
// EIGHT: linalg.matmul {{.*}} : tensor<128x64xf16>, tensor<64x64xf16>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0) -> (d0)>
func.func @held_queries_128_rows(%queries: memref<?xf16>, %keys: memref<?xf16>, %n: index,
                        %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %eq = tensor.empty() : tensor<128x64xf16>
  %q = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%eq : tensor<128x64xf16>) {
  ^bb0(%o: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %r = arith.muli %i, %c64 : index
    %at = arith.addi %r, %j : index
    %x = memref.load %queries[%at] : memref<?xf16>
    linalg.yield %x : f16
  } -> tensor<128x64xf16>
  %erows = tensor.empty() : tensor<128xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%erows : tensor<128xf32>) -> tensor<128xf32>
  %res = scf.for %it = %c0 to %n step %c1 iter_args(%m = %init) -> tensor<128xf32> {
    %ek = tensor.empty() : tensor<64x64xf16>
    %k = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
        outs(%ek : tensor<64x64xf16>) {
    ^bb0(%o: f16):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %r = arith.muli %j, %c64 : index
      %at = arith.addi %r, %i : index
      %x = memref.load %keys[%at] : memref<?xf16>
      linalg.yield %x : f16
    } -> tensor<64x64xf16>
    %es = tensor.empty() : tensor<128x64xf32>
    %zeros = linalg.fill ins(%zero : f32) outs(%es : tensor<128x64xf32>) -> tensor<128x64xf32>
    %s = linalg.matmul ins(%q, %k : tensor<128x64xf16>, tensor<64x64xf16>)
                       outs(%zeros : tensor<128x64xf32>) -> tensor<128x64xf32>
    %max = linalg.reduce { arith.maxnumf } ins(%s : tensor<128x64xf32>) outs(%m : tensor<128xf32>) dimensions = [1]
    scf.yield %max : tensor<128xf32>
  }
  linalg.generic {indexing_maps = [#row], iterator_types = ["parallel"]} ins(%res : tensor<128xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    memref.store %x, %out[%i] : memref<?xf32>
    linalg.yield
  }
  return
}
