// RUN: triton-spirv-opt %s --triton-spirv-assign-layouts="workgroup-size=64 subgroup-size=8" --triton-spirv-distribute="workgroup-size=64 subgroup-size=8" --canonicalize -split-input-file | FileCheck %s

// A full reduction over 100 elements on 64 invocations in subgroups of 8:
// each folds its partial (element t, then t + 64 where it exists), a
// butterfly of 3 xor shuffles (distances 1, 2, 4) leaves every lane with its
// subgroup's fold, and only the 8 subgroup results meet in workgroup memory,
// where invocation 0 folds them in order behind one barrier, then the
// initial value.
// CHECK-LABEL: func.func @full_reduction
// CHECK: %[[PARTIALS:.*]] = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK: %[[FIRST:.*]] = memref.load %arg0[%[[ID]]]
// CHECK: %[[SECOND:.*]] = arith.addi %[[ID]], %c64
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[SECOND]], %c100
// CHECK: %[[PARTIAL:.*]] = scf.if %[[INSIDE]]
// CHECK: %[[S1:.*]], %{{.*}} = gpu.shuffle  xor %[[PARTIAL]], %c1_i32, %c8_i32 : f32
// CHECK: %[[F1:.*]] = arith.addf %[[PARTIAL]], %[[S1]]
// CHECK: %[[S2:.*]], %{{.*}} = gpu.shuffle  xor %[[F1]], %c2_i32, %c8_i32 : f32
// CHECK: %[[F2:.*]] = arith.addf %[[F1]], %[[S2]]
// CHECK: %[[S4:.*]], %{{.*}} = gpu.shuffle  xor %[[F2]], %c4_i32, %c8_i32 : f32
// CHECK: %[[F4:.*]] = arith.addf %[[F2]], %[[S4]]
// CHECK: memref.store %[[F4]], %[[PARTIALS]][%[[ID]]]
// CHECK: gpu.barrier
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[ID]], %c0
// CHECK: scf.if %[[LEADER]]
// CHECK:   %[[OWN:.*]] = memref.load %[[PARTIALS]][%[[ID]]]
// CHECK:   %[[FOLD:.*]] = scf.for %[[J:.*]] = %c1 to %c8 step %c1 iter_args(%[[ACC:.*]] = %[[OWN]])
// CHECK:     %[[DISTANCE:.*]] = arith.muli %[[J]], %c8
// CHECK:     %[[PARTNER:.*]] = arith.addi %[[ID]], %[[DISTANCE]]
// CHECK:     %[[THEIRS:.*]] = memref.load %[[PARTIALS]][%[[PARTNER]]]
// CHECK:     arith.addf %[[ACC]], %[[THEIRS]]
// CHECK:   %[[INIT:.*]] = memref.load %{{.*}}[]
// CHECK:   %[[RESULT:.*]] = arith.addf %[[INIT]], %[[FOLD]]
// CHECK:   memref.store %[[RESULT]], %{{.*}}[]
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
func.func @full_reduction(%a: memref<100xf32, #gpu.address_space<workgroup>>,
                          %r: memref<f32, #gpu.address_space<workgroup>>) {
  linalg.reduce { arith.addf } ins(%a : memref<100xf32, #gpu.address_space<workgroup>>)
      outs(%r : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  return
}

// -----

// 16 rows of 8 on 64 invocations: 4 neighbouring lanes per row, combined by
// 2 shuffles; the first lane of each row writes it. No workgroup memory.
// CHECK-LABEL: func.func @row_max
// CHECK-NOT: memref.alloc
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK-DAG: %[[ROW:.*]] = arith.divui %[[ID]], %c4
// CHECK-DAG: %[[MEMBER:.*]] = arith.remui %[[ID]], %c4
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c8_i32 : f32
// CHECK: arith.maxnumf
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c8_i32 : f32
// CHECK: %[[MAX:.*]] = arith.maxnumf
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[MEMBER]], %c0
// CHECK: scf.if %[[LEADER]] {
// CHECK:   %[[INIT:.*]] = memref.load %{{.*}}[%[[ROW]]]
// CHECK:   %[[RESULT:.*]] = arith.maxnumf %[[INIT]], %[[MAX]]
// CHECK:   memref.store %[[RESULT]], %{{.*}}[%[[ROW]]]
func.func @row_max(%a: memref<16x8xf32, #gpu.address_space<workgroup>>,
                   %r: memref<16xf32, #gpu.address_space<workgroup>>) {
  linalg.reduce { arith.maxnumf } ins(%a : memref<16x8xf32, #gpu.address_space<workgroup>>)
      outs(%r : memref<16xf32, #gpu.address_space<workgroup>>) dimensions = [1]
  return
}

// -----

// i1 has no shuffle here: the partials go through workgroup memory.
// CHECK-LABEL: func.func @any
// CHECK-NOT: gpu.shuffle
// CHECK: memref.alloc() : memref<64xi1, #gpu.address_space<workgroup>>
func.func @any(%a: memref<128xi1, #gpu.address_space<workgroup>>,
               %r: memref<i1, #gpu.address_space<workgroup>>) {
  linalg.reduce { arith.ori } ins(%a : memref<128xi1, #gpu.address_space<workgroup>>)
      outs(%r : memref<i1, #gpu.address_space<workgroup>>) dimensions = [0]
  return
}
