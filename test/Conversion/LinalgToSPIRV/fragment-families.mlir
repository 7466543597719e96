// RUN: triton-spirv-opt %s -split-input-file --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+cooperative-matrix2 workgroup-size=128 subgroup-size=32 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: triton-spirv-opt %s -split-input-file --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+cooperative-matrix2 workgroup-size=128 subgroup-size=32 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute | FileCheck %s --check-prefix=DIST
// RUN: triton-spirv-opt %s -split-input-file --triton-spirv-resolve-target="target=generic features=+cooperative-matrix workgroup-size=128 subgroup-size=32 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts | FileCheck %s --check-prefix=WITHOUT

// Attention's loop body in small: a matmul, a mask from an index vector, a
// row maximum, the exponentials shifted by it, and a second matmul of them,
// chunked along K. With cooperative-matrix2 they form one fragment family:
// blocks held by subgroups that own whole rows, the maximum as smeared rows,
// the f16 chunk as A fragments; the chunk loop is unrolled so that the views
// of the block are static. The index vector stays in workgroup memory.
// LAYOUT-LABEL: func.func @softmax_between_dots
// LAYOUT: %[[ACC:.*]] = memref.alloc() {triton_spirv.fragment_family, triton_spirv.layout = #triton_spirv.fragments<[4, 1]>} : memref<64x64xf32
// LAYOUT: %[[S:.*]] = memref.alloc() {triton_spirv.fragment_family, triton_spirv.layout = #triton_spirv.fragments<[4, 1]>} : memref<64x64xf32
// LAYOUT: memref.alloc() : memref<64xi32
// LAYOUT: memref.alloc() {triton_spirv.fragment_family, triton_spirv.layout = #triton_spirv.fragments<[4, 1]>} : memref<64x64xf32
// LAYOUT: memref.alloc() {triton_spirv.fragment_family, triton_spirv.layout = #triton_spirv.fragment_rows<4>} : memref<64xf32
// LAYOUT: %[[P:.*]] = memref.alloc() {triton_spirv.fragment_family, triton_spirv.layout = #triton_spirv.fragments<[4, 1]>} : memref<64x64xf32
// LAYOUT: %[[P16:.*]] = memref.alloc() {triton_spirv.fragment_family, triton_spirv.layout = #triton_spirv.fragments<[4, 1]>} : memref<64x32xf16
// LAYOUT-NOT: scf.for
// LAYOUT: memref.subview %[[P]][0, %{{.*}}] [64, 32]
// LAYOUT: linalg.matmul {{.*}}ins(%[[P16]], %{{.*}}) outs(%[[ACC]]
// LAYOUT: memref.subview %[[P]][0, %{{.*}}] [64, 32]
// LAYOUT: linalg.matmul {{.*}}ins(%[[P16]], %{{.*}}) outs(%[[ACC]]

// Without the feature the accumulators are register tiles of invocations.
// WITHOUT-LABEL: func.func @softmax_between_dots
// WITHOUT-NOT: fragment_family
// WITHOUT: scf.for

// Each subgroup holds its tiles in variables (64x64 f32: 4 per block; the
// maximum: 1; the f16 chunk: 2 A fragments); the matmuls read and write
// them; the mask is a per-element map whose column index is computed again
// from the tile's origin; the maximum reduces each tile's rows after the
// tiles of a row are combined element-wise, then folds in its initial value;
// the chunk converts to A fragments that the second matmul multiplies
// without a K loop; the epilogue reads the block and the smeared maximum
// through scratch tiles.
// DIST-LABEL: func.func @softmax_between_dots
// DIST-COUNT-2: triton_spirv.fragment_variable : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf16, "AOp">>
// DIST-COUNT-17: triton_spirv.fragment_variable : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf32, "COp">>
// DIST: scf.for {{.*}} iter_args
// DIST: gpu.subgroup_mma_compute
// DIST: triton_spirv.map_fragments %{{.*}} args(%{{.*}}, %{{.*}}, %arg4, %arg5 : i32, i32, i32, i32)
// DIST-NEXT: ^bb0(%[[ROW:.*]]: i32, %[[COL:.*]]: i32, %[[X:.*]]: f32, %[[ROW0:.*]]: i32, %[[COL0:.*]]: i32, %[[START:.*]]: i32, %[[N:.*]]: i32):
// DIST: %[[C:.*]] = arith.addi %[[COL0]], %[[COL]] : i32
// DIST: %[[CI:.*]] = arith.index_cast %[[C]] : i32 to index
// DIST: %[[CI32:.*]] = arith.index_cast %[[CI]] : index to i32
// DIST: %[[COLUMN:.*]] = arith.addi %[[START]], %[[CI32]] : i32
// DIST: arith.cmpi slt, %[[COLUMN]], %[[N]] : i32
// DIST: triton_spirv.map_fragments
// DIST: arith.maxnumf
// DIST: triton_spirv.reduce_fragment_rows
// DIST: arith.maxnumf
// DIST: triton_spirv.map_fragments
// DIST: math.exp
// DIST: triton_spirv.convert_fragment %{{.*}} : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "AOp">
// DIST-NOT: scf.for {{.*}} iter_args
// DIST: gpu.subgroup_mma_compute
// DIST: gpu.subgroup_mma_store_matrix
// DIST: gpu.subgroup_mma_store_matrix
// DIST: arith.divf
// DIST-NOT: memref.alloc() {triton_spirv
#wg = #gpu.address_space<workgroup>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0, 0)>
#cols = affine_map<(d0, d1) -> (0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#scalar1 = affine_map<(d0) -> ()>
func.func @softmax_between_dots(%q: memref<64x32xf16, #wg>, %k: memref<32x64xf16, #wg>, %v: memref<32x64xf16, #wg>,
                                %out: memref<?xf32>, %start: i32, %n: i32) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %acc = memref.alloc() : memref<64x64xf32, #wg>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32, #wg>)
  %s = memref.alloc() : memref<64x64xf32, #wg>
  linalg.fill ins(%zero : f32) outs(%s : memref<64x64xf32, #wg>)
  linalg.matmul ins(%q, %k : memref<64x32xf16, #wg>, memref<32x64xf16, #wg>) outs(%s : memref<64x64xf32, #wg>)
  // Column indices: start + arange(64).
  %cols = memref.alloc() : memref<64xi32, #wg>
  linalg.generic {indexing_maps = [#scalar1, #id1], iterator_types = ["parallel"]}
      ins(%start : i32) outs(%cols : memref<64xi32, #wg>) {
  ^bb0(%in: i32, %o: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %x = arith.addi %in, %ii : i32
    linalg.yield %x : i32
  }
  %cols2 = memref.expand_shape %cols [[0, 1]] output_shape [1, 64] : memref<64xi32, #wg> into memref<1x64xi32, #wg>
  %masked = memref.alloc() : memref<64x64xf32, #wg>
  linalg.generic {indexing_maps = [#cols, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%cols2, %s : memref<1x64xi32, #wg>, memref<64x64xf32, #wg>) outs(%masked : memref<64x64xf32, #wg>) {
  ^bb0(%col: i32, %x: f32, %o: f32):
    %inside = arith.cmpi slt, %col, %n : i32
    %y = arith.select %inside, %x, %ninf : f32
    linalg.yield %y : f32
  }
  %max = memref.alloc() : memref<64xf32, #wg>
  linalg.fill ins(%ninf : f32) outs(%max : memref<64xf32, #wg>)
  linalg.reduce { arith.maxnumf } ins(%masked : memref<64x64xf32, #wg>) outs(%max : memref<64xf32, #wg>) dimensions = [1]
  %max2 = memref.expand_shape %max [[0, 1]] output_shape [64, 1] : memref<64xf32, #wg> into memref<64x1xf32, #wg>
  %p = memref.alloc() : memref<64x64xf32, #wg>
  linalg.generic {indexing_maps = [#id2, #rows, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%masked, %max2 : memref<64x64xf32, #wg>, memref<64x1xf32, #wg>) outs(%p : memref<64x64xf32, #wg>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  %p16 = memref.alloc() : memref<64x32xf16, #wg>
  scf.for %i = %c0 to %c64 step %c32 {
    %chunk = memref.subview %p[0, %i] [64, 32] [1, 1] : memref<64x64xf32, #wg> to memref<64x32xf32, strided<[64, 1], offset: ?>, #wg>
    linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%chunk : memref<64x32xf32, strided<[64, 1], offset: ?>, #wg>) outs(%p16 : memref<64x32xf16, #wg>) {
    ^bb0(%x: f32, %o: f16):
      %h = arith.truncf %x : f32 to f16
      linalg.yield %h : f16
    }
    linalg.matmul ins(%p16, %v : memref<64x32xf16, #wg>, memref<32x64xf16, #wg>) outs(%acc : memref<64x64xf32, #wg>)
  }
  %max3 = memref.expand_shape %max [[0, 1]] output_shape [64, 1] : memref<64xf32, #wg> into memref<64x1xf32, #wg>
  linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %max3 : memref<64x64xf32, #wg>, memref<64x1xf32, #wg>) {
  ^bb0(%x: f32, %m: f32):
    %y = arith.divf %x, %m : f32
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %r64 = arith.muli %r, %c64 : index
    %at = arith.addi %r64, %c : index
    memref.store %y, %out[%at] : memref<?xf32>
    linalg.yield
  }
  return
}

// -----

// A block also read transposed leaves the family: nothing stays fragments
// (the matmul is then computed by invocations).
// LAYOUT-LABEL: func.func @transposed_reader
// LAYOUT-NOT: fragment_family
// LAYOUT: return
#wg = #gpu.address_space<workgroup>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed_reader(%q: memref<64x32xf16, #wg>, %k: memref<32x64xf16, #wg>, %out: memref<64x64xf32, #wg>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s = memref.alloc() : memref<64x64xf32, #wg>
  linalg.fill ins(%zero : f32) outs(%s : memref<64x64xf32, #wg>)
  linalg.matmul ins(%q, %k : memref<64x32xf16, #wg>, memref<32x64xf16, #wg>) outs(%s : memref<64x64xf32, #wg>)
  %max = memref.alloc() : memref<64xf32, #wg>
  linalg.fill ins(%ninf : f32) outs(%max : memref<64xf32, #wg>)
  linalg.reduce { arith.maxnumf } ins(%s : memref<64x64xf32, #wg>) outs(%max : memref<64xf32, #wg>) dimensions = [1]
  linalg.generic {indexing_maps = [#tr, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<64x64xf32, #wg>) outs(%out : memref<64x64xf32, #wg>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A matmul operand computed in f32 and truncated in the same op: the map
// computes the f32 elements, then each fragment converts. The row maxima
// are stored by a 1-D epilogue.
// LAYOUT-LABEL: func.func @computed_operand
// LAYOUT: memref.alloc() {triton_spirv.fragment_family, triton_spirv.layout = #triton_spirv.fragments<[4, 1]>} : memref<64x32xf16
// DIST-LABEL: func.func @computed_operand
// DIST: math.exp
// DIST-NEXT: arith.truncf
// DIST-NEXT: triton_spirv.yield %{{.*}} : f32
// DIST-NEXT: }
// DIST-NEXT: triton_spirv.convert_fragment %{{.*}} : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "AOp">
// DIST: gpu.subgroup_mma_compute
// DIST: gpu.subgroup_mma_store_matrix
// DIST: gpu.subgroup_mma_store_matrix
// DIST: %[[INSIDE:.*]] = arith.cmpi ult, %{{.*}}, %c16
// DIST: scf.if %[[INSIDE]]
// DIST: memref.load %{{.*}}[%{{.*}}, %c0{{.*}}] : memref<64x16xf32, #gpu.address_space<workgroup>>
#wg = #gpu.address_space<workgroup>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @computed_operand(%q: memref<64x16xf16, #wg>, %k: memref<16x32xf16, #wg>, %v: memref<32x64xf16, #wg>,
                            %out: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %c64 = arith.constant 64 : index
  %s = memref.alloc() : memref<64x32xf32, #wg>
  linalg.fill ins(%zero : f32) outs(%s : memref<64x32xf32, #wg>)
  linalg.matmul ins(%q, %k : memref<64x16xf16, #wg>, memref<16x32xf16, #wg>) outs(%s : memref<64x32xf32, #wg>)
  %max = memref.alloc() : memref<64xf32, #wg>
  linalg.fill ins(%zero : f32) outs(%max : memref<64xf32, #wg>)
  linalg.reduce { arith.maxnumf } ins(%s : memref<64x32xf32, #wg>) outs(%max : memref<64xf32, #wg>) dimensions = [1]
  %p16 = memref.alloc() : memref<64x32xf16, #wg>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<64x32xf32, #wg>) outs(%p16 : memref<64x32xf16, #wg>) {
  ^bb0(%x: f32, %o: f16):
    %e = math.exp %x : f32
    %h = arith.truncf %e : f32 to f16
    linalg.yield %h : f16
  }
  %acc = memref.alloc() : memref<64x64xf32, #wg>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32, #wg>)
  linalg.matmul ins(%p16, %v : memref<64x32xf16, #wg>, memref<32x64xf16, #wg>) outs(%acc : memref<64x64xf32, #wg>)
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<64x64xf32, #wg>) {
  ^bb0(%x: f32):
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %r64 = arith.muli %r, %c64 : index
    %at = arith.addi %r64, %c : index
    memref.store %x, %out[%at] : memref<?xf32>
    linalg.yield
  }
  // The row maxima stored too (tutorial 06's M): a 1-D epilogue, whose
  // vector of rows the first 16 lanes read from a scratch tile.
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%max : memref<64xf32, #wg>) {
  ^bb0(%m: f32):
    %r = linalg.index 0 : index
    %at = arith.addi %r, %c64 : index
    memref.store %m, %out[%at] : memref<?xf32>
    linalg.yield
  }
  return
}

// -----

// An epilogue whose members' elements only make one value rounded to f16
// (attention's output) computes that value on the fragments, rounds it
// there and reads it through one f16 scratch tile.
// DIST-LABEL: func.func @rounded_epilogue
// DIST: triton_spirv.reduce_fragment_rows
// DIST: triton_spirv.map_fragments %{{.*}}, %{{.*}} : !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp">
// DIST: arith.divf
// DIST-NEXT: triton_spirv.yield
// DIST: %[[H:.*]] = triton_spirv.convert_fragment %{{.*}} : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
// DIST: gpu.subgroup_mma_store_matrix %[[H]], %[[SCRATCH:.*]][
// DIST: %[[E:.*]] = memref.load %[[SCRATCH]]
// DIST-NOT: arith.truncf
// DIST: memref.store %[[E]], %{{.*}} : memref<?xf16>
#wg = #gpu.address_space<workgroup>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0, 0)>
func.func @rounded_epilogue(%q: memref<64x32xf16, #wg>, %k: memref<32x64xf16, #wg>, %out: memref<?xf16>) {
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s = memref.alloc() : memref<64x64xf32, #wg>
  %m = memref.alloc() : memref<64xf32, #wg>
  linalg.fill ins(%zero : f32) outs(%s : memref<64x64xf32, #wg>)
  linalg.matmul ins(%q, %k : memref<64x32xf16, #wg>, memref<32x64xf16, #wg>) outs(%s : memref<64x64xf32, #wg>)
  linalg.fill ins(%ninf : f32) outs(%m : memref<64xf32, #wg>)
  linalg.reduce { arith.maxnumf } ins(%s : memref<64x64xf32, #wg>) outs(%m : memref<64xf32, #wg>) dimensions = [1]
  %m2 = memref.expand_shape %m [[0, 1]] output_shape [64, 1] : memref<64xf32, #wg> into memref<64x1xf32, #wg>
  linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m2 : memref<64x64xf32, #wg>, memref<64x1xf32, #wg>) {
  ^bb0(%x: f32, %mx: f32):
    %y = arith.divf %x, %mx : f32
    %h = arith.truncf %y : f32 to f16
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %r64 = arith.muli %r, %c64 : index
    %at = arith.addi %r64, %c : index
    memref.store %h, %out[%at] : memref<?xf16>
    linalg.yield
  }
  return
}
