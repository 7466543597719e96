// RUN: triton-spirv-opt %s --triton-spirv-distribute="workgroup-size=64" --canonicalize -split-input-file | FileCheck %s

// An element-wise op over a 2-D block: invocation t takes linear indices
// t, t + 64, ... and recovers (row, column) from them; barriers follow.
// CHECK-LABEL: func.func @elementwise
// CHECK: %[[ID:.*]] = gpu.thread_id x
// CHECK: gpu.barrier
// CHECK: scf.for %[[L:.*]] = %[[ID]] to %c128 step %c64 {
// CHECK:   %[[COL:.*]] = arith.remui %[[L]], %c16
// CHECK:   %[[ROW:.*]] = arith.divui %[[L]], %c16
// CHECK:   memref.load %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK:   memref.store %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK: gpu.barrier
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

// A full reduction has no parallel dimension: invocation 0 runs it.
// CHECK-LABEL: func.func @full_reduction
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK: scf.if %[[IS0]] {
// CHECK:   scf.for
// CHECK: gpu.barrier
func.func @full_reduction(%a: memref<64xf32, #gpu.address_space<workgroup>>,
                          %r: memref<f32, #gpu.address_space<workgroup>>) {
  linalg.reduce { arith.addf } ins(%a : memref<64xf32, #gpu.address_space<workgroup>>)
      outs(%r : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
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
