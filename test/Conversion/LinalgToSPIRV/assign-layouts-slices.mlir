// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=32 subgroup-size=8 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts -split-input-file | FileCheck %s
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=32 subgroup-size=8 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --canonicalize -split-input-file | FileCheck %s --check-prefix=DIST

#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d0, 0)>
#vec = affine_map<(d0) -> (d0)>

// The attention step in miniature: a row maximum of a matmul's output and
// the output minus it. The accumulator anchors a 4 x 8 grid; the scaled
// block takes it; the row maximum (rows shared by the 8 lanes of a
// subgroup) is a slice of it; the broadcast read of the maximum is a read of
// registers. Nothing stays in workgroup memory but the operands.
// CHECK-LABEL: func.func @row_max
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 8]>} : memref<16x32xf32
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 8]>} : memref<16x32xf32
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 1, parent = #triton_spirv.grid<[4, 8]>>} : memref<16xf32
// DIST-LABEL: func.func @row_max
// DIST-NOT: memref.alloc()
// DIST-DAG: %[[ACC:.*]] = memref.alloca() : memref<16xf32, #gpu.address_space<private>>
// DIST-DAG: %[[MAX:.*]] = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
// The maximum is seeded with -inf by every holder of each row.
// DIST: scf.for %{{.*}} = %c0 to %c4 step %c1 {
// DIST:   memref.store %{{.*}}, %[[MAX]]
// Each invocation folds its 4 elements of a row, then 3 xor shuffles.
// DIST: scf.for %[[ROW:.*]] = %c0 to %c4 step %c1 {
// DIST:   %[[FOLD:.*]] = scf.for %{{.*}} = %c1 to %c4 step %c1 iter_args(
// DIST:     arith.maxnumf
// DIST:   gpu.shuffle  xor %[[FOLD]], %c1_i32, %c8_i32
// DIST:   gpu.shuffle  xor %{{.*}}, %c2_i32, %c8_i32
// DIST:   gpu.shuffle  xor %{{.*}}, %c4_i32, %c8_i32
// DIST:   memref.store %{{.*}}, %[[MAX]][%[[ROW]]]
// The difference reads the maximum of its row from registers.
// DIST: scf.for %[[R0:.*]] = %c0 to %c4 step %c1 {
// DIST:   scf.for %{{.*}} = %c0 to %c4 step %c1 {
// DIST:     memref.load %[[MAX]][%[[R0]]]
// DIST:     arith.subf
func.func @row_max(%a: memref<16x8xf32, #gpu.address_space<workgroup>>,
                   %b: memref<8x32xf32, #gpu.address_space<workgroup>>,
                   %dst: memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %acc = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  %scaled = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  %max = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%a, %b : memref<16x8xf32, #gpu.address_space<workgroup>>, memref<8x32xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>) outs(%scaled : memref<16x32xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %s = arith.mulf %x, %two : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%ninf : f32) outs(%max : memref<16xf32, #gpu.address_space<workgroup>>)
  linalg.reduce ins(%scaled : memref<16x32xf32, #gpu.address_space<workgroup>>)
                outs(%max : memref<16xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%x: f32, %m: f32) {
      %r = arith.maxnumf %x, %m : f32
      linalg.yield %r : f32
    }
  %view = memref.expand_shape %max [[0, 1]] output_shape [16, 1] : memref<16xf32, #gpu.address_space<workgroup>> into memref<16x1xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]}
      ins(%scaled, %view : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<16x1xf32, #gpu.address_space<workgroup>>)
      outs(%dst : memref<16x32xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %d = arith.subf %x, %m : f32
    linalg.yield %d : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#vec = affine_map<(d0) -> (d0)>

// Without a matmul, a reduction of rows anchors a grid: 8 lanes per row
// (the subgroup), the other 4 invocations over the rows. The row sums are
// a slice; storing them, only the first lane of each row writes.
// CHECK-LABEL: func.func @row_sums
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 8]>} : memref<8x64xf32
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 1, parent = #triton_spirv.grid<[4, 8]>>} : memref<8xf32
// DIST-LABEL: func.func @row_sums
// DIST-NOT: memref.alloc()
// DIST: gpu.shuffle
// DIST: %[[LANE:.*]] = arith.remui %{{.*}}, %c8
// DIST: %[[LEADER:.*]] = arith.cmpi eq, %[[LANE]], %c0
// DIST: scf.for
// DIST:   memref.load
// DIST:   scf.if %[[LEADER]] {
// DIST:     memref.store %{{.*}}, %arg1
func.func @row_sums(%src: memref<8x64xf32>, %dst: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %block = memref.alloc() : memref<8x64xf32, #gpu.address_space<workgroup>>
  %sums = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<8x64xf32>) outs(%block : memref<8x64xf32, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%sums : memref<8xf32, #gpu.address_space<workgroup>>)
  linalg.reduce ins(%block : memref<8x64xf32, #gpu.address_space<workgroup>>)
                outs(%sums : memref<8xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%x: f32, %s: f32) {
      %r = arith.addf %x, %s : f32
      linalg.yield %r : f32
    }
  linalg.copy ins(%sums : memref<8xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<8xf32>)
  return
}

// -----

#vec = affine_map<(d0) -> (d0)>

// Row sums added atomically, the old values kept (split reductions):
// the sums stay a slice. Only the first lane of a row runs the atomic; the
// other lanes of the row take its result from that lane with an index
// shuffle (a 16-bit result travels as 32 bits).
// CHECK-LABEL: func.func @row_sums_added_atomically
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 1, parent = #triton_spirv.grid<[4, 8]>>} : memref<8xf32
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 1, parent = #triton_spirv.grid<[4, 8]>>} : memref<8xf16
// DIST-LABEL: func.func @row_sums_added_atomically
// DIST-NOT: memref.alloc()
// DIST: %[[LEADER:.*]] = arith.cmpi eq, %{{.*}}, %c0 : index
// DIST-NEXT: arith.subi %thread_id_x
// DIST-NEXT: arith.remui %{{.*}}, %c8
// DIST-NEXT: %[[LEADER_LANE:.*]] = arith.index_cast %{{.*}} : index to i32
// DIST-NEXT: scf.for
// DIST:   %[[OLD:.*]] = scf.if %[[LEADER]] -> (f16) {
// DIST:     %[[RESULT:.*]] = memref.atomic_rmw addf %{{.*}}, %arg1
// DIST:     scf.yield %[[RESULT]] : f16
// DIST:   } else {
// DIST:     scf.yield %{{.*}} : f16
// DIST:   }
// DIST:   %[[BITS:.*]] = arith.bitcast %[[OLD]] : f16 to i16
// DIST:   %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// DIST:   %[[SHUFFLED:.*]], %{{.*}} = gpu.shuffle idx %[[WIDE]], %[[LEADER_LANE]], %c8_i32 : i32
// DIST:   %[[NARROW:.*]] = arith.trunci %[[SHUFFLED]] : i32 to i16
// DIST:   arith.bitcast %[[NARROW]] : i16 to f16
// DIST:   scf.if %{{.*}} {
// DIST-NEXT: memref.store %{{.*}}, %arg2
func.func @row_sums_added_atomically(%src: memref<8x64xf32>, %acc: memref<8xf16>,
                                     %olds: memref<8xf16>) {
  %zero = arith.constant 0.0 : f32
  %block = memref.alloc() : memref<8x64xf32, #gpu.address_space<workgroup>>
  %sums = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
  %old = memref.alloc() : memref<8xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<8x64xf32>) outs(%block : memref<8x64xf32, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%sums : memref<8xf32, #gpu.address_space<workgroup>>)
  linalg.reduce ins(%block : memref<8x64xf32, #gpu.address_space<workgroup>>)
                outs(%sums : memref<8xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%x: f32, %s: f32) {
      %r = arith.addf %x, %s : f32
      linalg.yield %r : f32
    }
  linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%sums : memref<8xf32, #gpu.address_space<workgroup>>)
      outs(%old : memref<8xf16, #gpu.address_space<workgroup>>) {
  ^bb0(%sum: f32, %out: f16):
    %i = linalg.index 0 : index
    %half = arith.truncf %sum : f32 to f16
    %previous = memref.atomic_rmw addf %half, %acc[%i] : (f16, memref<8xf16>) -> f16
    linalg.yield %previous : f16
  }
  linalg.copy ins(%old : memref<8xf16, #gpu.address_space<workgroup>>) outs(%olds : memref<8xf16>)
  return
}

// -----

#vec = affine_map<(d0) -> (d0)>

// Column sums (a reduction of the first dimension) anchor a grid too: the
// 32 invocations spread over the 16 columns first (neighbouring lanes on
// neighbouring elements), then 2 over the rows. The two holders of a column
// are in different subgroups: their partial sums meet in a 2 x 16 buffer
// of workgroup memory, and both fold them in the same order. Adding the
// sums atomically, the first holder runs the atomic and shares its result
// through workgroup memory too.
// CHECK-LABEL: func.func @column_sums_added_atomically
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[2, 16]>} : memref<8x16xi64
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 0, parent = #triton_spirv.grid<[2, 16]>>} : memref<16xi64
// DIST-LABEL: func.func @column_sums_added_atomically
// DIST-DAG: %[[RESULTS:.*]] = memref.alloc() : memref<16xi64, #gpu.address_space<workgroup>>
// DIST-DAG: %[[PARTIALS:.*]] = memref.alloc() : memref<2x16xi64, #gpu.address_space<workgroup>>
// DIST: %[[SUM:.*]] = scf.for {{.*}} iter_args
// DIST: memref.store %[[SUM]], %[[PARTIALS]][%{{.*}}, %{{.*}}]
// DIST-NEXT: gpu.barrier
// DIST-NEXT: %[[FIRST:.*]] = memref.load %[[PARTIALS]][%c0, %{{.*}}]
// DIST-NEXT: %[[SECOND:.*]] = memref.load %[[PARTIALS]][%c1, %{{.*}}]
// DIST-NEXT: arith.addi %[[SECOND]], %[[FIRST]]
// DIST: scf.if %{{.*}} {
// DIST-NEXT: %[[OLD:.*]] = memref.atomic_rmw addi %{{.*}}, %arg1
// DIST-NEXT: memref.store %[[OLD]], %[[RESULTS]]
// DIST-NEXT: }
// DIST-NEXT: gpu.barrier
// DIST-NEXT: memref.load %[[RESULTS]]
func.func @column_sums_added_atomically(%src: memref<8x16xi64>, %acc: memref<16xi64>,
                                        %olds: memref<16xi64>) {
  %zero = arith.constant 0 : i64
  %block = memref.alloc() : memref<8x16xi64, #gpu.address_space<workgroup>>
  %sums = memref.alloc() : memref<16xi64, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<8x16xi64>) outs(%block : memref<8x16xi64, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : i64) outs(%sums : memref<16xi64, #gpu.address_space<workgroup>>)
  linalg.reduce ins(%block : memref<8x16xi64, #gpu.address_space<workgroup>>)
                outs(%sums : memref<16xi64, #gpu.address_space<workgroup>>) dimensions = [0]
    (%x: i64, %s: i64) {
      %r = arith.addi %x, %s : i64
      linalg.yield %r : i64
    }
  linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%sums : memref<16xi64, #gpu.address_space<workgroup>>)
      outs(%sums : memref<16xi64, #gpu.address_space<workgroup>>) {
  ^bb0(%sum: i64, %out: i64):
    %i = linalg.index 0 : index
    %previous = memref.atomic_rmw addi %sum, %acc[%i] : (i64, memref<16xi64>) -> i64
    linalg.yield %previous : i64
  }
  linalg.copy ins(%sums : memref<16xi64, #gpu.address_space<workgroup>>) outs(%olds : memref<16xi64>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (0, d1)>

// A vector loaded once and read broadcast along the rows of a grid op (a
// bias, or attention's per-column maximum in the backward pass) becomes a
// slice of the grid: each invocation loads the columns it reads.
// CHECK-LABEL: func.func @broadcast_vector
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 8]>} : memref<16x32xf32
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 0, parent = #triton_spirv.grid<[4, 8]>>} : memref<32xf32
// DIST-LABEL: func.func @broadcast_vector
// DIST-NOT: memref.alloc()
func.func @broadcast_vector(%a: memref<16x8xf32, #gpu.address_space<workgroup>>,
                            %b: memref<8x32xf32, #gpu.address_space<workgroup>>,
                            %gbias: memref<32xf32>, %dst: memref<16x32xf32>) {
  %acc = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  %bias = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
  linalg.matmul ins(%a, %b : memref<16x8xf32, #gpu.address_space<workgroup>>, memref<8x32xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%gbias : memref<32xf32>) outs(%bias : memref<32xf32, #gpu.address_space<workgroup>>)
  %view = memref.expand_shape %bias [[0, 1]] output_shape [1, 32] : memref<32xf32, #gpu.address_space<workgroup>> into memref<1x32xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#id, #cols, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %view : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<1x32xf32, #gpu.address_space<workgroup>>)
      outs(%dst : memref<16x32xf32>) {
  ^bb0(%x: f32, %c: f32, %out: f32):
    %s = arith.addf %x, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (0, d1)>

// A chunked computation (as the chunks of a matmul operand are) reads a
// chunk of the grid buffer and a chunk of a vector broadcast along its rows:
// both are registers, the vector's at its chunk's offset.
// CHECK-LABEL: func.func @broadcast_chunk
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 8]>} : memref<16x32xf32
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 0, parent = #triton_spirv.grid<[4, 8]>>} : memref<32xf32
// DIST-LABEL: func.func @broadcast_chunk
// DIST-NOT: memref.alloc()
// DIST-DAG: %[[VEC:.*]] = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
// DIST: scf.for %[[K0:.*]] = %c0 to %c32 step %c16 {
// DIST:   %[[BLOCK_SHIFT:.*]] = arith.divui %[[K0]], %c8
// DIST:   memref.load %{{.*}}[
// DIST:   %[[SHIFT:.*]] = arith.divui %[[K0]], %c8
// DIST:   %[[AT:.*]] = arith.addi %{{.*}}, %[[SHIFT]]
// DIST:   memref.load %[[VEC]][%[[AT]]]
func.func @broadcast_chunk(%a: memref<16x8xf32, #gpu.address_space<workgroup>>,
                           %b: memref<8x32xf32, #gpu.address_space<workgroup>>,
                           %gv: memref<32xf32>, %dst: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %acc = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  %vec = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
  linalg.matmul ins(%a, %b : memref<16x8xf32, #gpu.address_space<workgroup>>, memref<8x32xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%gv : memref<32xf32>) outs(%vec : memref<32xf32, #gpu.address_space<workgroup>>)
  %view = memref.expand_shape %vec [[0, 1]] output_shape [1, 32] : memref<32xf32, #gpu.address_space<workgroup>> into memref<1x32xf32, #gpu.address_space<workgroup>>
  scf.for %k0 = %c0 to %c32 step %c16 {
    %block = memref.subview %acc[0, %k0] [16, 16] [1, 1] : memref<16x32xf32, #gpu.address_space<workgroup>> to memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %part = memref.subview %view[0, %k0] [1, 16] [1, 1] : memref<1x32xf32, #gpu.address_space<workgroup>> to memref<1x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    linalg.generic {indexing_maps = [#id, #cols, #id], iterator_types = ["parallel", "parallel"]}
        ins(%block, %part : memref<16x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<1x16xf32, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>)
        outs(%dst : memref<16x16xf32>) {
    ^bb0(%x: f32, %c: f32, %out: f32):
      %s = arith.subf %x, %c : f32
      linalg.yield %s : f32
    }
  }
  return
}
