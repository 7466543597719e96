// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=64 subgroup-size=8 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --triton-spirv-remove-redundant-barriers --canonicalize -split-input-file | FileCheck %s

// A full reduction over 100 elements on 64 invocations in subgroups of 8:
// each folds its partial (element t, then t + 64 where it exists), a
// butterfly of 3 xor shuffles (distances 1, 2, 4) leaves every lane with its
// subgroup's fold, and only the 8 subgroup results meet in workgroup memory,
// where every invocation folds them in the same order (slots 0, 8, .., 56)
// behind one barrier, then the initial value (read before that barrier,
// which orders it before invocation 0 writes the result).
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
// CHECK: %[[INIT:.*]] = memref.load %{{.*}}[]
// CHECK: memref.store %[[F4]], %[[PARTIALS]][%[[ID]]]
// CHECK: gpu.barrier
// CHECK: %[[P0:.*]] = memref.load %[[PARTIALS]][%c0]
// CHECK: %[[P1:.*]] = memref.load %[[PARTIALS]][%c8]
// CHECK: arith.addf %[[P0]], %[[P1]]
// CHECK: memref.load %[[PARTIALS]][%c56]
// CHECK: %[[FOLD:.*]] = arith.addf
// CHECK: %[[RESULT:.*]] = arith.addf %[[INIT]], %[[FOLD]]
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

// -----

// Every invocation holds a full reduction's result, so reads of the output
// that follow in the scalar code take it directly. Nothing after reads the
// output buffer, so no barrier follows its write.
// CHECK-LABEL: func.func @forwarded_result
// CHECK: %[[INIT:.*]] = memref.load %arg1[]
// CHECK: %[[RESULT:.*]] = arith.maxnumf %[[INIT]], %{{.*}} : f32
// CHECK: scf.if
// CHECK:   memref.store %[[RESULT]], %arg1[]
// CHECK: }
// CHECK-NOT: gpu.barrier
// CHECK-NOT: memref.load %arg1
// CHECK: arith.subf %{{.*}}, %[[RESULT]]
#line = affine_map<(d0) -> (d0)>
func.func @forwarded_result(%a: memref<64xf32, #gpu.address_space<workgroup>>,
                            %r: memref<f32, #gpu.address_space<workgroup>>,
                            %dst: memref<64xf32>) {
  linalg.reduce { arith.maxnumf } ins(%a : memref<64xf32, #gpu.address_space<workgroup>>)
      outs(%r : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  %m = memref.load %r[] : memref<f32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#line, #line], iterator_types = ["parallel"]}
      ins(%a : memref<64xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    %d = arith.subf %x, %m : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// A scalar store to a global buffer takes no barrier, so it does not end the
// reads that take the reduction's result: the load after it is forwarded
// too (from memory it could see the output before invocation 0 wrote it).
// CHECK-LABEL: func.func @forwarded_past_a_scalar_store
// CHECK: %[[INIT:.*]] = memref.load %arg1[]
// CHECK: %[[RESULT:.*]] = arith.maxnumf %[[INIT]], %{{.*}} : f32
// CHECK: memref.store %[[RESULT]], %arg1[]
// CHECK: memref.store %arg3, %arg2[%c0] : memref<?xf32>
// CHECK-NOT: memref.load %arg1
// CHECK: arith.subf %{{.*}}, %[[RESULT]]
#row = affine_map<(d0) -> (d0)>
func.func @forwarded_past_a_scalar_store(%a: memref<64xf32, #gpu.address_space<workgroup>>,
                                         %r: memref<f32, #gpu.address_space<workgroup>>,
                                         %flags: memref<?xf32>, %v: f32,
                                         %dst: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  linalg.reduce { arith.maxnumf } ins(%a : memref<64xf32, #gpu.address_space<workgroup>>)
      outs(%r : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  memref.store %v, %flags[%c0] : memref<?xf32>
  %m = memref.load %r[] : memref<f32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel"]}
      ins(%a : memref<64xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    %d = arith.subf %x, %m : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// A kernel without block work runs on invocation 0: its workgroups shrink
// to one subgroup.
// CHECK-LABEL: func.func @scalar_only
// CHECK-SAME: attributes {triton_spirv.workgroup_size = 8 : i64}
func.func @scalar_only(%buf: memref<?xf32>, %i: index) {
  %x = memref.load %buf[%i] : memref<?xf32>
  %y = arith.addf %x, %x : f32
  memref.store %y, %buf[%i] : memref<?xf32>
  return
}
