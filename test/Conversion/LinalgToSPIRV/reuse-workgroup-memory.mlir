// RUN: triton-spirv-opt %s --triton-spirv-reuse-workgroup-memory -split-input-file | FileCheck %s

// Three loops. The second loop's 32 x 32 buffer becomes a reshaped view of
// the first loop's 16 x 64 one (as many elements of the same type), and the
// third loop's 16 x 64 buffer takes it over as it is. A buffer used by the
// first two loops keeps its own memory.
// CHECK-LABEL: func.func @disjoint_loops
// CHECK: %[[A:.*]] = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[LIVE:.*]] = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc()
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[A]] {{\[}}[0, 1]]
// CHECK: %[[C:.*]] = memref.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [32, 32]
// CHECK: scf.for
// CHECK:   memref.store %{{.*}}, %[[A]]
// CHECK:   memref.store %{{.*}}, %[[LIVE]]
// CHECK: scf.for
// CHECK:   memref.store %{{.*}}, %[[C]]
// CHECK:   memref.load %[[LIVE]]
// CHECK: scf.for
// CHECK:   memref.store %{{.*}}, %[[A]]
func.func @disjoint_loops(%n: index, %x: f16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
  %live = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<32x32xf16, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %x, %a[%c0, %i] : memref<16x64xf16, #gpu.address_space<workgroup>>
    memref.store %x, %live[%c0, %i] : memref<16x64xf16, #gpu.address_space<workgroup>>
    gpu.barrier
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %x, %c[%c0, %i] : memref<32x32xf16, #gpu.address_space<workgroup>>
    %y = memref.load %live[%c0, %i] : memref<16x64xf16, #gpu.address_space<workgroup>>
    gpu.barrier
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %x, %b[%c0, %i] : memref<16x64xf16, #gpu.address_space<workgroup>>
    gpu.barrier
  }
  return
}

// -----

// Overlapping ranges keep their own buffers, and a buffer that a
// cooperative-matrix load reads is not viewed in another shape.
// CHECK-LABEL: func.func @kept_apart
// CHECK-COUNT-3: memref.alloc()
// CHECK-NOT: memref.collapse_shape
func.func @kept_apart(%x: f16) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<256xf16, #gpu.address_space<workgroup>>
  memref.store %x, %a[%c0, %c0] : memref<16x16xf16, #gpu.address_space<workgroup>>
  %m = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  %y = memref.load %a[%c0, %c0] : memref<16x16xf16, #gpu.address_space<workgroup>>
  gpu.barrier
  memref.store %x, %c[%c0] : memref<256xf16, #gpu.address_space<workgroup>>
  %z = memref.load %a[%c0, %c0] : memref<16x16xf16, #gpu.address_space<workgroup>>
  return
}

// -----

// Two dots in one loop body, each staging its operand chunks in an inner
// loop whose iterations write the chunk before reading it: nothing flows
// between iterations through them, so each chunk is live only over its own
// inner loop and the second dot's chunk takes the first's memory. A buffer
// whose first access in its loop is a read (a value carried from the last
// iteration) keeps its own memory for the whole outer loop.
// CHECK-LABEL: func.func @chunks_of_two_dots
// CHECK: %[[CHUNK:.*]] = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
// CHECK: %[[CARRIED:.*]] = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc()
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     memref.store %{{.*}}, %[[CHUNK]]
// CHECK:     memref.load %[[CHUNK]]
// CHECK:   scf.for
// CHECK:     memref.store %{{.*}}, %[[CHUNK]]
// CHECK:     memref.load %[[CHUNK]]
// CHECK:   memref.load %[[CARRIED]]
func.func @chunks_of_two_dots(%n: index, %k: index, %x: f16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %carried = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  %second = memref.alloc() : memref<32x16xf16, #gpu.address_space<workgroup>>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %k step %c1 {
      // An unused read of the element about to be written does not count.
      %old = memref.load %first[%c0, %j] : memref<32x16xf16, #gpu.address_space<workgroup>>
      memref.store %x, %first[%c0, %j] : memref<32x16xf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %first[%c0, %j] : memref<32x16xf16, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    scf.for %j = %c0 to %k step %c1 {
      memref.store %x, %second[%c0, %j] : memref<32x16xf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %y = memref.load %second[%c0, %j] : memref<32x16xf16, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    %z = memref.load %carried[%c0, %i] : memref<32x16xf16, #gpu.address_space<workgroup>>
    %sum = arith.addf %z, %x : f16
    memref.store %sum, %carried[%c0, %i] : memref<32x16xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Disjoint ranges that no barrier separates keep their own memory: another
// invocation may still be reading the first buffer when this one writes
// the second.
// CHECK-LABEL: func.func @no_barrier_between
// CHECK-COUNT-2: memref.alloc()
func.func @no_barrier_between(%x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %x, %a[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %y = memref.load %a[%c1] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %y, %b[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %z = memref.load %b[%c1] : memref<64xf32, #gpu.address_space<workgroup>>
  return
}
