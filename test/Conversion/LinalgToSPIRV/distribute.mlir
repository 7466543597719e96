// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=64 subgroup-size=1 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --triton-spirv-remove-redundant-barriers --canonicalize -split-input-file | FileCheck %s

// An element-wise op over a 2-D block: in iteration k, invocation t takes
// linear index t + 64 k and recovers (row, column) from it. Nothing before
// or after it needs ordering, so no barrier is left.
// CHECK-LABEL: func.func @elementwise
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK-NOT: gpu.barrier
// CHECK: scf.for %[[K:.*]] = %c0 to %c2 step %c1 {
// CHECK:   %[[OFF:.*]] = arith.muli %[[K]], %c64
// CHECK:   %[[L:.*]] = arith.addi %[[ID]], %[[OFF]]
// CHECK:   %[[COL:.*]] = arith.remui %[[L]], %c16
// CHECK:   %[[ROW:.*]] = arith.divui %[[L]], %c16
// CHECK:   memref.load %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK:   memref.store %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK-NOT: gpu.barrier
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%a: memref<8x16xf32, #gpu.address_space<workgroup>>,
                       %b: memref<8x16xf32, #gpu.address_space<workgroup>>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8x16xf32, #gpu.address_space<workgroup>>)
      outs(%b : memref<8x16xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %x : f32
    linalg.yield %z : f32
  }
  return
}

// -----

// A full reduction over 100 elements on 64 invocations: each folds its
// elements t and t + 64 (where it exists) into a partial, the partials meet
// in workgroup memory, one halving step leaves 32, and every invocation
// folds those in the same order, then the output's initial value;
// invocation 0 writes the result.
// CHECK-LABEL: func.func @full_reduction
// CHECK: %[[PARTIALS:.*]] = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK-NOT: gpu.barrier
// CHECK: %[[FIRST:.*]] = memref.load %{{.*}}[%[[ID]]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[ID]], %c64
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[NEXT]], %c100
// CHECK: %[[PARTIAL:.*]] = scf.if %[[INSIDE]]
// CHECK:   %[[E:.*]] = memref.load %{{.*}}[%[[NEXT]]]
// CHECK:   %[[SUM:.*]] = arith.addf %[[FIRST]], %[[E]]
// CHECK:   scf.yield %[[SUM]]
// CHECK: %[[INIT:.*]] = memref.load %{{.*}}[]
// CHECK: memref.store %[[PARTIAL]], %[[PARTIALS]][%[[ID]]]
// CHECK: gpu.barrier
// CHECK: arith.cmpi ult, %[[ID]], %c32
// CHECK: scf.if
// CHECK:   %[[MINE:.*]] = memref.load %[[PARTIALS]][%[[ID]]]
// CHECK:   %[[PARTNER:.*]] = arith.addi %[[ID]], %c32
// CHECK:   %[[THEIRS:.*]] = memref.load %[[PARTIALS]][%[[PARTNER]]]
// CHECK:   %[[BOTH:.*]] = arith.addf %[[MINE]], %[[THEIRS]]
// CHECK:   memref.store %[[BOTH]], %[[PARTIALS]][%[[ID]]]
// CHECK: gpu.barrier
// CHECK: %[[P0:.*]] = memref.load %[[PARTIALS]][%c0]
// CHECK: %[[P1:.*]] = memref.load %[[PARTIALS]][%c1]
// CHECK: arith.addf %[[P0]], %[[P1]]
// CHECK: memref.load %[[PARTIALS]][%c31]
// CHECK: %[[LAST:.*]] = arith.addf
// CHECK: %[[RESULT:.*]] = arith.addf %[[INIT]], %[[LAST]]
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[ID]], %c0
// CHECK: scf.if %[[LEADER]]
// CHECK:   memref.store %[[RESULT]], %{{.*}}[]
// CHECK-NOT: gpu.barrier
// CHECK: return
func.func @full_reduction(%a: memref<100xf32, #gpu.address_space<workgroup>>,
                          %r: memref<f32, #gpu.address_space<workgroup>>) {
  linalg.reduce { arith.addf } ins(%a : memref<100xf32, #gpu.address_space<workgroup>>)
      outs(%r : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  return
}

// -----

// Reducing the outer dimension of 128x8: neighbouring invocations take
// neighbouring columns (outputs), 8 invocations share each column, each
// folding 16 rows (a loop of a constant trip count); the first member of a
// column folds the 8 partials, 8 slots apart.
// CHECK-LABEL: func.func @column_reduction
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK: %[[COLUMN:.*]] = arith.remui %[[ID]], %c8
// CHECK: %[[MEMBER:.*]] = arith.divui %[[ID]], %c8
// CHECK: memref.load %{{.*}}[%[[MEMBER]], %[[COLUMN]]]
// CHECK: scf.for %[[K:.*]] = %c1 to %c16 step %c1
// CHECK:   %[[STRIDE:.*]] = arith.muli %[[K]], %c8
// CHECK:   %[[ROW:.*]] = arith.addi %[[MEMBER]], %[[STRIDE]]
// CHECK:   memref.load %{{.*}}[%[[ROW]], %[[COLUMN]]]
// CHECK:   arith.maxnumf
// CHECK: gpu.barrier
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[MEMBER]], %c0
// CHECK: scf.if %[[LEADER]]
// CHECK:   scf.for %{{.*}} = %c1 to %c8 step %c1
func.func @column_reduction(%a: memref<128x8xf32, #gpu.address_space<workgroup>>,
                            %r: memref<8xf32, #gpu.address_space<workgroup>>) {
  linalg.reduce { arith.maxnumf } ins(%a : memref<128x8xf32, #gpu.address_space<workgroup>>)
      outs(%r : memref<8xf32, #gpu.address_space<workgroup>>) dimensions = [0]
  return
}

// -----

// With as many outputs as invocations there is nothing to share: each
// invocation reduces its own rows.
// CHECK-LABEL: func.func @row_reduction
// CHECK-NOT: memref.alloc
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:   memref.load %{{.*}}[%[[ID]], %{{.*}}]
func.func @row_reduction(%a: memref<64x4xf32, #gpu.address_space<workgroup>>,
                         %r: memref<64xf32, #gpu.address_space<workgroup>>) {
  linalg.reduce { arith.addf } ins(%a : memref<64x4xf32, #gpu.address_space<workgroup>>)
      outs(%r : memref<64xf32, #gpu.address_space<workgroup>>) dimensions = [1]
  return
}

// -----

// A scalar atomic happens once per program; its old value is shared through
// workgroup memory.
// CHECK-LABEL: func.func @scalar_atomic
// CHECK: %[[SLOT:.*]] = memref.alloc() : memref<1xi32, #gpu.address_space<workgroup>>
// CHECK: scf.if %{{.*}} {
// CHECK:   %[[OLD:.*]] = memref.atomic_rmw addi
// CHECK:   memref.store %[[OLD]], %[[SLOT]]
// CHECK: gpu.barrier
// CHECK: %[[SHARED:.*]] = memref.load %[[SLOT]]
// CHECK: return %[[SHARED]]
func.func @scalar_atomic(%buf: memref<?xi32>, %i: index, %v: i32) -> i32 {
  %old = memref.atomic_rmw addi %v, %buf[%i] : (i32, memref<?xi32>) -> i32
  return %old : i32
}

// -----

// A block that is only touched element-wise and by a full reduction (each
// element by the invocation that owns it, t mod 64) needs no workgroup
// memory: each invocation keeps its 2 elements in a private array, indexed
// by the iteration number. Its first element, read by invocation 0 to seed
// the reduction, is private element 0 of invocation 0; the reduction of the
// rest (a view at offset 1) rotates members so each reads its own elements,
// at constant register indices: invocation 0's first element of the view is
// its register 1, the others' their register 0.
// Elements that do not fill the last round (100 of 128) are guarded.
// CHECK-LABEL: func.func @private_block
// CHECK-DAG: %[[ROW:.*]] = memref.alloca() : memref<2xf32, #gpu.address_space<private>>
// CHECK-DAG: %[[ID:.*]] = gpu.thread_id x
// CHECK: scf.for %[[K:.*]] = %c0 to %c2 step %c1 {
// CHECK:   %[[L:.*]] = arith.addi %[[ID]], %{{.*}}
// CHECK:   %[[IN:.*]] = arith.cmpi ult, %[[L]], %c100
// CHECK:   scf.if %[[IN]] {
// CHECK:     memref.store %{{.*}}, %[[ROW]][%[[K]]]
// CHECK: scf.if
// CHECK:   memref.load %[[ROW]][%c0]
// CHECK: %[[SHIFTED:.*]] = arith.addi %[[ID]], %c63
// CHECK: %[[MEMBER:.*]] = arith.remui %[[SHIFTED]], %c64
// CHECK: %[[CARRIES:.*]] = arith.cmpi ult, %[[ID]], %c1
// CHECK: %[[R0:.*]] = memref.load %[[ROW]][%c0]
// CHECK: %[[R1:.*]] = memref.load %[[ROW]][%c1]
// CHECK: arith.select %[[CARRIES]], %[[R1]], %[[R0]]
// CHECK: return
#map = affine_map<(d0) -> (d0)>
func.func @private_block(%src: memref<100xf32>, %r: memref<f32, #gpu.address_space<workgroup>>) {
  %row = memref.alloc() : memref<100xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%src : memref<100xf32>) outs(%row : memref<100xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  %first = memref.subview %row[0] [1] [1] : memref<100xf32, #gpu.address_space<workgroup>> to memref<f32, strided<[]>, #gpu.address_space<workgroup>>
  linalg.copy ins(%first : memref<f32, strided<[]>, #gpu.address_space<workgroup>>) outs(%r : memref<f32, #gpu.address_space<workgroup>>)
  %rest = memref.subview %row[1] [99] [1] : memref<100xf32, #gpu.address_space<workgroup>> to memref<99xf32, strided<[1], offset: 1>, #gpu.address_space<workgroup>>
  linalg.reduce { arith.maxnumf } ins(%rest : memref<99xf32, strided<[1], offset: 1>, #gpu.address_space<workgroup>>)
      outs(%r : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  return
}

// -----

// Inductor's reductions: a [1, R] block (here written through a reshape of a
// 1-D index block) whose first element seeds the reduction of the rest, a
// contiguous view at offset 1 of a 2-D block. All of it is private: the
// reshape reads in the same cyclic order, and the reduction rotates members
// as for a 1-D view.
// CHECK-LABEL: func.func @private_unit_rows
// CHECK-NOT: memref<{{(1x)?}}128xi32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[INDICES:.*]] = memref.alloca() : memref<2xi32, #gpu.address_space<private>>
// CHECK-DAG: %[[ROW:.*]] = memref.alloca() : memref<2xi32, #gpu.address_space<private>>
// CHECK-DAG: %[[ID:.*]] = gpu.thread_id x
// CHECK: %[[SHIFTED:.*]] = arith.addi %[[ID]], %c63
// CHECK: arith.remui %[[SHIFTED]], %c64
// CHECK: %[[CARRIES:.*]] = arith.cmpi ult, %[[ID]], %c1
// CHECK: %[[R0:.*]] = memref.load %[[ROW]][%c0]
// CHECK: %[[R1:.*]] = memref.load %[[ROW]][%c1]
// CHECK: arith.select %[[CARRIES]], %[[R1]], %[[R0]]
// CHECK: return
#line = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @private_unit_rows(%r: memref<1xi32, #gpu.address_space<workgroup>>) {
  %indices = memref.alloc() : memref<128xi32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#line], iterator_types = ["parallel"]}
      outs(%indices : memref<128xi32, #gpu.address_space<workgroup>>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  }
  %row_indices = memref.expand_shape %indices [[0, 1]] output_shape [1, 128] : memref<128xi32, #gpu.address_space<workgroup>> into memref<1x128xi32, #gpu.address_space<workgroup>>
  %row = memref.alloc() : memref<1x128xi32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%row_indices : memref<1x128xi32, #gpu.address_space<workgroup>>)
      outs(%row : memref<1x128xi32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: i32, %y: i32):
    %twice = arith.addi %x, %x : i32
    linalg.yield %twice : i32
  }
  %first = memref.subview %row[0, 0] [1, 1] [1, 1] : memref<1x128xi32, #gpu.address_space<workgroup>> to memref<1xi32, strided<[128]>, #gpu.address_space<workgroup>>
  linalg.copy ins(%first : memref<1xi32, strided<[128]>, #gpu.address_space<workgroup>>) outs(%r : memref<1xi32, #gpu.address_space<workgroup>>)
  %rest = memref.subview %row[0, 1] [1, 127] [1, 1] : memref<1x128xi32, #gpu.address_space<workgroup>> to memref<1x127xi32, strided<[128, 1], offset: 1>, #gpu.address_space<workgroup>>
  linalg.reduce { arith.maxsi } ins(%rest : memref<1x127xi32, strided<[128, 1], offset: 1>, #gpu.address_space<workgroup>>)
      outs(%r : memref<1xi32, #gpu.address_space<workgroup>>) dimensions = [1]
  return
}

// -----

// Column accumulators (4x64 on 64 invocations), reduced over rows 1..3 into
// row 0's copy: every access is by the owning invocation, so the block is
// private, 4 elements per invocation.
// CHECK-LABEL: func.func @private_columns
// CHECK-NOT: memref.alloc() : memref<4x64xf32
// CHECK: memref.alloca() : memref<4xf32, #gpu.address_space<private>>
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @private_columns(%src: memref<4x64xf32>, %r: memref<64xf32, #gpu.address_space<workgroup>>) {
  %acc = memref.alloc() : memref<4x64xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%src : memref<4x64xf32>) outs(%acc : memref<4x64xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  %first = memref.subview %acc[0, 0] [1, 64] [1, 1] : memref<4x64xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>>
  linalg.copy ins(%first : memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>>) outs(%r : memref<64xf32, #gpu.address_space<workgroup>>)
  %rest = memref.subview %acc[1, 0] [3, 64] [1, 1] : memref<4x64xf32, #gpu.address_space<workgroup>> to memref<3x64xf32, strided<[64, 1], offset: 64>, #gpu.address_space<workgroup>>
  linalg.reduce { arith.addf } ins(%rest : memref<3x64xf32, strided<[64, 1], offset: 64>, #gpu.address_space<workgroup>>)
      outs(%r : memref<64xf32, #gpu.address_space<workgroup>>) dimensions = [0]
  return
}

// -----

// A 16x32 matmul on 64 invocations: a 4x16 grid of invocations, each with a
// 4x2 tile of accumulators in registers (rows t/16 + 4r, columns t%16 + 16c).
// Per step of the reduction it loads 4 elements of A and 2 of B.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK-NOT: gpu.barrier
// CHECK-DAG: %[[ROW0:.*]] = arith.divui %[[ID]], %c16
// CHECK-DAG: %[[COL0:.*]] = arith.remui %[[ID]], %c16
// CHECK-DAG: %[[COL1:.*]] = arith.addi %[[COL0]], %c16
// CHECK-DAG: %[[ROW3:.*]] = arith.addi %[[ROW0]], %c12
// CHECK-COUNT-8: memref.load %{{.*}} : memref<16x32xf32
// CHECK: %[[SUMS:.*]]:8 = scf.for %[[K:.*]] = %c0 to %c8 step %c1 iter_args(
// CHECK-COUNT-4: memref.load %{{.*}}[%{{.*}}, %[[K]]] : memref<16x8xf16
// CHECK-NEXT: memref.load %{{.*}}[%[[K]], %[[COL0]]] : memref<8x32xf16
// CHECK-NEXT: memref.load %{{.*}}[%[[K]], %[[COL1]]] : memref<8x32xf16
// CHECK-COUNT-8: arith.mulf
// CHECK: scf.yield
// CHECK: memref.store %[[SUMS]]#0, %{{.*}}[%[[ROW0]], %[[COL0]]]
// CHECK: memref.store %[[SUMS]]#7, %{{.*}}[%[[ROW3]], %[[COL1]]]
// CHECK-NEXT: return
func.func @matmul(%a: memref<16x8xf16, #gpu.address_space<workgroup>>,
                  %b: memref<8x32xf16, #gpu.address_space<workgroup>>,
                  %c: memref<16x32xf32, #gpu.address_space<workgroup>>) {
  linalg.matmul ins(%a, %b : memref<16x8xf16, #gpu.address_space<workgroup>>, memref<8x32xf16, #gpu.address_space<workgroup>>)
                outs(%c : memref<16x32xf32, #gpu.address_space<workgroup>>)
  return
}

// -----

// With fewer outputs than invocations, a matmul is spread like any op: one
// output per invocation (the first 16), the reduction sequential.
// CHECK-LABEL: func.func @small_matmul
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[ID]], %c16
// CHECK: scf.if %[[INSIDE]] {
// CHECK:   scf.for %{{.*}} = %c0 to %c8 step %c1 {
// CHECK:     arith.mulf
func.func @small_matmul(%a: memref<4x8xf32, #gpu.address_space<workgroup>>,
                        %b: memref<8x4xf32, #gpu.address_space<workgroup>>,
                        %c: memref<4x4xf32, #gpu.address_space<workgroup>>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32, #gpu.address_space<workgroup>>, memref<8x4xf32, #gpu.address_space<workgroup>>)
                outs(%c : memref<4x4xf32, #gpu.address_space<workgroup>>)
  return
}

// -----

// A matmul accumulating across a loop into a buffer nothing else in the loop
// touches: its accumulators are loaded before the loop, carried through it
// and stored after it. The buffer has the matmul's grid layout, so they are
// registers 0..7 of each invocation, and no workgroup memory is left. Stores
// to registers need no barrier after them.
// CHECK-LABEL: func.func @matmul_in_loop
// CHECK-NOT: memref.alloc()
// CHECK: %[[REGS:.*]] = memref.alloca() : memref<8xf32, #gpu.address_space<private>>
// CHECK-NOT: memref.alloc()
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-8: memref.load %[[REGS]][%c{{[0-7]}}]
// CHECK: %[[CARRIED:.*]]:8 = scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%[[FIRST:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK-NOT: memref.load %[[REGS]]
// CHECK:   scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%{{.*}} = %[[FIRST]],
// CHECK-NOT: memref.store %{{.*}}, %[[REGS]]
// CHECK:   scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %[[CARRIED]]#0, %[[REGS]][%c0]
// CHECK-COUNT-7: memref.store
// CHECK-NEXT: return
func.func @matmul_in_loop(%a: memref<16x8xf32, #gpu.address_space<workgroup>>,
                          %b: memref<8x32xf32, #gpu.address_space<workgroup>>,
                          %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %steps step %c1 {
    linalg.matmul ins(%a, %b : memref<16x8xf32, #gpu.address_space<workgroup>>, memref<8x32xf32, #gpu.address_space<workgroup>>)
                  outs(%c : memref<16x32xf32, #gpu.address_space<workgroup>>)
  }
  return
}

// -----

// The same with an accumulator that a reduction reads afterwards: it has no
// layout and stays in workgroup memory, loaded and stored at its positions.
// CHECK-LABEL: func.func @matmul_in_loop_shared_accumulator
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<16x32xf32
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-8: memref.load %[[ACC]][%{{.*}}, %{{.*}}] : memref<16x32xf32
// CHECK: %[[CARRIED:.*]]:8 = scf.for
// CHECK-NOT: memref.load %[[ACC]]
// CHECK: scf.yield
// CHECK: gpu.barrier
// CHECK: memref.store %[[CARRIED]]#0, %[[ACC]]
// CHECK-COUNT-7: memref.store
// CHECK: gpu.barrier
func.func @matmul_in_loop_shared_accumulator(
    %a: memref<16x8xf32, #gpu.address_space<workgroup>>,
    %b: memref<8x32xf32, #gpu.address_space<workgroup>>,
    %r: memref<32xf32, #gpu.address_space<workgroup>>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %steps step %c1 {
    linalg.matmul ins(%a, %b : memref<16x8xf32, #gpu.address_space<workgroup>>, memref<8x32xf32, #gpu.address_space<workgroup>>)
                  outs(%c : memref<16x32xf32, #gpu.address_space<workgroup>>)
  }
  linalg.reduce ins(%c : memref<16x32xf32, #gpu.address_space<workgroup>>)
                outs(%r : memref<32xf32, #gpu.address_space<workgroup>>) dimensions = [0]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A fill, a matmul and an epilogue on an accumulator in the grid layout: the
// 64 invocations form a 4 x 16 grid; invocation (t0, t1) keeps the outputs
// (t0 + 4 r0, t1 + 16 r1) as its registers 2 r0 + r1. The fill and the
// epilogue run over those elements only, in loops over the register tile;
// the fill touches registers only, so no barrier follows it.
// CHECK-LABEL: func.func @grid_epilogue
// CHECK-NOT: memref.alloc()
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK: %[[REGS:.*]] = memref.alloca() : memref<8xf32, #gpu.address_space<private>>
// CHECK: scf.for %[[R0:.*]] = %c0 to %c4 step %c1 {
// CHECK:   scf.for %[[R1:.*]] = %c0 to %c2 step %c1 {
// CHECK:     %[[SLOT0:.*]] = arith.muli %[[R0]], %c2
// CHECK:     %[[SLOT:.*]] = arith.addi %[[SLOT0]], %[[R1]]
// CHECK:     memref.store %cst, %[[REGS]][%[[SLOT]]]
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-8: memref.load %[[REGS]][%c{{[0-7]}}]
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(
// CHECK-COUNT-8: memref.store %{{.*}}, %[[REGS]][%c{{[0-7]}}]
// CHECK-NOT: gpu.barrier
// CHECK: %[[T1:.*]] = arith.remui %[[ID]], %c16
// CHECK: %[[T0:.*]] = arith.divui %[[ID]], %c16
// CHECK: scf.for %[[E0:.*]] = %c0 to %c4 step %c1 {
// CHECK:   %[[ROW0:.*]] = arith.muli %[[E0]], %c4
// CHECK:   %[[ROW:.*]] = arith.addi %[[T0]], %[[ROW0]]
// CHECK:   scf.for %[[E1:.*]] = %c0 to %c2 step %c1 {
// CHECK:     %[[COL0:.*]] = arith.muli %[[E1]], %c16
// CHECK:     %[[COL:.*]] = arith.addi %[[T1]], %[[COL0]]
// CHECK:     %[[X:.*]] = memref.load %[[REGS]][
// CHECK:     %[[H:.*]] = arith.truncf %[[X]]
// CHECK:     memref.store %[[H]], %{{.*}}[%[[ROW]], %[[COL]]] : memref<16x32xf16>
func.func @grid_epilogue(%a: memref<16x8xf32, #gpu.address_space<workgroup>>,
                         %b: memref<8x32xf32, #gpu.address_space<workgroup>>,
                         %dst: memref<16x32xf16>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 16]>} : memref<16x32xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%a, %b : memref<16x8xf32, #gpu.address_space<workgroup>>, memref<8x32xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<16x32xf16>) {
  ^bb0(%x: f32, %out: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// Barriers order what other invocations can see: none is needed after a loop
// that works on registers only, nor between the reads of global memory and
// a loop that writes it with the same spread (each invocation writes at the
// iterations where it read, each loop marked with its spread).
// CHECK-LABEL: func.func @register_barriers
// CHECK: %[[ROW:.*]] = memref.alloca() : memref<2xf32, #gpu.address_space<private>>
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %arg0
// CHECK: memref.store %{{.*}}, %[[ROW]]
// CHECK-NOT: gpu.barrier
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[ROW]]
// CHECK: } {triton_spirv.spread = #triton_spirv.spread<[128], run = 1>}
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: } {triton_spirv.spread = #triton_spirv.spread<[128], run = 1>}
// CHECK-NOT: gpu.barrier
// CHECK: return
#flat = affine_map<(d0) -> (d0)>
func.func @register_barriers(%src: memref<128xf32>, %dst: memref<128xf32>) {
  %row = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#flat, #flat], iterator_types = ["parallel"]}
      ins(%src : memref<128xf32>) outs(%row : memref<128xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#flat], iterator_types = ["parallel"]}
      outs(%row : memref<128xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32):
    %sq = arith.mulf %x, %x : f32
    linalg.yield %sq : f32
  }
  linalg.generic {indexing_maps = [#flat, #flat], iterator_types = ["parallel"]}
      ins(%row : memref<128xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<128xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}


// -----

// A write of global memory spread differently from the reads before it (a
// 2-D space here) keeps its barrier: another invocation may write what one
// has yet to read.
// CHECK-LABEL: func.func @global_barrier_between_spreads
// CHECK: memref.load %arg0
// CHECK: } {triton_spirv.spread = #triton_spirv.spread<[128], run = 1>}
// CHECK-NEXT: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: } {triton_spirv.spread = #triton_spirv.spread<[2, 64], run = 1>}
#flat = affine_map<(d0) -> (d0)>
#rows = affine_map<(d0, d1) -> (d0, d1)>
func.func @global_barrier_between_spreads(%src: memref<128xf32>, %dst: memref<2x64xf32>) {
  %row = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#flat, #flat], iterator_types = ["parallel"]}
      ins(%src : memref<128xf32>) outs(%row : memref<128xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  %grid = memref.expand_shape %row [[0, 1]] output_shape [2, 64] : memref<128xf32, #gpu.address_space<workgroup>> into memref<2x64xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#rows, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%grid : memref<2x64xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<2x64xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}
// -----

// Over 256 elements on 64 invocations, element-wise loops that touch no
// workgroup memory take runs of 4: invocation t computes elements 4t..4t+3,
// each op for the 4 of them in turn, so that their accesses sit side by
// side. The private row is held in the same runs (element 4t + j is
// register j), and the full reduction folds the 4 registers.
// CHECK-LABEL: func.func @runs_of_four
// CHECK-DAG: %[[ROW:.*]] = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
// CHECK-DAG: %[[ID:.*]] = gpu.thread_id x
// CHECK: %[[START:.*]] = arith.muli %[[ID]], %c4
// CHECK: %[[E1:.*]] = arith.addi %[[START]], %c1
// CHECK: %[[E2:.*]] = arith.addi %[[START]], %c2
// CHECK: %[[E3:.*]] = arith.addi %[[START]], %c3
// CHECK: %[[X0:.*]] = memref.load %arg0[%[[START]]]
// CHECK-NEXT: %[[X1:.*]] = memref.load %arg0[%[[E1]]]
// CHECK-NEXT: %[[X2:.*]] = memref.load %arg0[%[[E2]]]
// CHECK-NEXT: %[[X3:.*]] = memref.load %arg0[%[[E3]]]
// CHECK-NEXT: memref.store %[[X0]], %[[ROW]][%c0]
// CHECK-NEXT: memref.store %[[X1]], %[[ROW]][%c1]
// CHECK-NEXT: memref.store %[[X2]], %[[ROW]][%c2]
// CHECK-NEXT: memref.store %[[X3]], %[[ROW]][%c3]
// CHECK: %[[R0:.*]] = memref.load %[[ROW]][%c0]
// CHECK: %[[PARTIAL:.*]] = scf.for %[[K:.*]] = %c1 to %c4 step %c1 iter_args(%{{.*}} = %[[R0]])
// CHECK:   memref.load %[[ROW]][%[[K]]]
// CHECK: memref.store %[[PARTIAL]], %{{.*}}[%[[ID]]]
#vec = affine_map<(d0) -> (d0)>
func.func @runs_of_four(%src: memref<256xf32>, %r: memref<f32, #gpu.address_space<workgroup>>) {
  %row = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%src : memref<256xf32>) outs(%row : memref<256xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.reduce { arith.addf } ins(%row : memref<256xf32, #gpu.address_space<workgroup>>)
      outs(%r : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  return
}

// -----

// A scalar store to a global buffer happens once per program, on invocation
// 0, with no barrier around it (its value is every invocation's own). A
// kernel without block work needs one subgroup, here one invocation.
// CHECK-LABEL: func.func @scalar_store
// CHECK-SAME: attributes {triton_spirv.workgroup_size = 1 : i64}
// CHECK-NOT: gpu.barrier
// CHECK: scf.if %{{.*}} {
// CHECK:   memref.store %arg2, %arg0[%arg1] : memref<?xf32>
// CHECK: }
// CHECK-NOT: gpu.barrier
// CHECK: return
func.func @scalar_store(%buf: memref<?xf32>, %i: index, %v: f32) {
  memref.store %v, %buf[%i] : memref<?xf32>
  return
}

// -----

#ident3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A batched matmul with a cyclic accumulator: invocation t computes the
// outputs t and t + 64 of the (batch, row, column) space, each in its
// registers across the whole reduction; only the operands take workgroup
// memory, and one barrier separates their staging from the reduction. The
// reduction loop runs outside the loop over the invocation's outputs, so
// that once those are unrolled one loop updates all its accumulators.
// CHECK-LABEL: func.func @batched_matmul
// CHECK: %[[A:.*]] = memref.alloc() : memref<2x8x16xf16
// CHECK: %[[B:.*]] = memref.alloc() : memref<2x16x8xf16
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<2xf32, #gpu.address_space<private>>
// CHECK-NOT: memref.alloc()
// CHECK: memref.store %cst, %[[ACC]]
// CHECK: gpu.barrier
// CHECK: scf.for %[[K:.*]] = %c0 to %c16 step %c1 {
// CHECK:   scf.for %[[R:.*]] = %c0 to %c2 step %c1 {
// CHECK:     memref.load %[[A]][%{{.*}}, %{{.*}}, %[[K]]]
// CHECK:     memref.load %[[B]][%{{.*}}, %[[K]], %{{.*}}]
// CHECK:     memref.load %[[ACC]][%[[R]]]
// CHECK:     memref.store %{{.*}}, %[[ACC]][%[[R]]]
// CHECK:   } {triton_spirv.spread = #triton_spirv.spread<[2, 8, 8], run = 1>}
// CHECK: }
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %[[ACC]]
// CHECK: memref.store %{{.*}}, %arg2
func.func @batched_matmul(%q: memref<2x8x16xf16>, %k: memref<2x16x8xf16>, %out: memref<2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<2x8x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<2x16x8xf16, #gpu.address_space<workgroup>>
  %acc = memref.alloc() : memref<2x8x8xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%q : memref<2x8x16xf16>) outs(%a : memref<2x8x16xf16, #gpu.address_space<workgroup>>)
  linalg.copy ins(%k : memref<2x16x8xf16>) outs(%b : memref<2x16x8xf16, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%acc : memref<2x8x8xf32, #gpu.address_space<workgroup>>)
  linalg.batch_matmul ins(%a, %b : memref<2x8x16xf16, #gpu.address_space<workgroup>>, memref<2x16x8xf16, #gpu.address_space<workgroup>>)
                      outs(%acc : memref<2x8x8xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [#ident3, #ident3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc : memref<2x8x8xf32, #gpu.address_space<workgroup>>) outs(%out : memref<2x8x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Element-wise ops that touch workgroup memory take runs of 4 too (barriers
// order workgroup buffers per buffer, whatever the spread): a block staged
// in workgroup memory is loaded 4 consecutive elements of a row at a time,
// the run's column indices its first one plus 0..3, which
// triton-spirv-vectorize-memory-accesses merges into one 16-byte load.
// CHECK-LABEL: func.func @stage_in_runs
// CHECK: %[[STAGE:.*]] = memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
// CHECK: %[[FIRST:.*]] = arith.muli %thread_id_x, %c4 : index
// CHECK: %[[COL:.*]] = arith.remui %[[FIRST]], %c32 : index
// CHECK: %[[ROW:.*]] = arith.divui %[[FIRST]], %c32 : index
// CHECK: %[[COL1:.*]] = arith.addi %[[COL]], %c1 : index
// CHECK: %[[COL2:.*]] = arith.addi %[[COL]], %c2 : index
// CHECK: %[[COL3:.*]] = arith.addi %[[COL]], %c3 : index
// CHECK: %[[X0:.*]] = memref.load %arg0[%[[ROW]], %[[COL]]]
// CHECK: %[[X1:.*]] = memref.load %arg0[%[[ROW]], %[[COL1]]]
// CHECK: %[[X2:.*]] = memref.load %arg0[%[[ROW]], %[[COL2]]]
// CHECK: %[[X3:.*]] = memref.load %arg0[%[[ROW]], %[[COL3]]]
// CHECK: memref.store %[[X0]], %[[STAGE]][%[[ROW]], %[[COL]]]
// CHECK: memref.store %[[X3]], %[[STAGE]][%[[ROW]], %[[COL3]]]
// CHECK: gpu.barrier
func.func @stage_in_runs(%src: memref<8x32xf32>, %dst: memref<32x8xf32>) {
  %stage = memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<8x32xf32>) outs(%stage : memref<8x32xf32, #gpu.address_space<workgroup>>)
  linalg.transpose ins(%stage : memref<8x32xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<32x8xf32>) permutation = [1, 0]
  return
}

// -----

// The program's own barrier (tl.debug_barrier()) is marked as requested
// and stays, though the element-wise writes of global memory on its two
// sides need no ordering; the distribution's own barriers around them go.
// CHECK-LABEL: func.func @program_barrier
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: } {triton_spirv.spread
// CHECK-NEXT: gpu.barrier {triton_spirv.requested_barrier}
// CHECK-NEXT: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: return
#map = affine_map<(d0) -> (d0)>
func.func @program_barrier(%a: memref<128xf32>) {
  linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]}
      outs(%a : memref<128xf32>) {
  ^bb0(%y: f32):
    %z = arith.addf %y, %y : f32
    linalg.yield %z : f32
  }
  gpu.barrier
  linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]}
      outs(%a : memref<128xf32>) {
  ^bb0(%y: f32):
    %z = arith.mulf %y, %y : f32
    linalg.yield %z : f32
  }
  return
}
