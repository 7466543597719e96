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
// cooperative-matrix load reads is not viewed in another shape: the two of
// other shapes become one flat array, each access at the row-major position
// of its indices.
// CHECK-LABEL: func.func @kept_apart
// CHECK-DAG: %[[A:.*]] = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[FLAT:.*]] = memref.alloc() : memref<256xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc()
// CHECK-NOT: memref.collapse_shape
// CHECK: gpu.subgroup_mma_load_matrix %[[FLAT]][%{{.*}}] {leadDimension = 16 : index}
// CHECK: memref.store %{{.*}}, %[[FLAT]][%{{.*}}] : memref<256xf16
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

// -----

// A block staged once before a loop (loaded whole into fragments) and the
// loop's stagings of other shapes: one flat array of the largest size, the
// loop's buffer at the start of it. A buffer with a view keeps its shape.
// CHECK-LABEL: func.func @staged_once_then_loop
// CHECK-DAG: %[[FLAT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8192xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[VIEWED:.*]] = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %[[C128]] : index
// CHECK: %[[AT:.*]] = arith.addi %[[ROW]], %{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[FLAT]][%[[AT]]] : memref<8192xf16
// CHECK: gpu.subgroup_mma_load_matrix %[[FLAT]][%{{.*}}] {leadDimension = 128 : index}
// CHECK: scf.for
// CHECK:   %[[C40:.*]] = arith.constant 40 : index
// CHECK:   arith.muli %{{.*}}, %[[C40]] : index
// CHECK:   memref.store %{{.*}}, %[[FLAT]][%{{.*}}] : memref<8192xf16
// CHECK:   gpu.subgroup_mma_load_matrix %[[FLAT]][%{{.*}}] {leadDimension = 40 : index}
// CHECK:   memref.subview %[[VIEWED]]
func.func @staged_once_then_loop(%x: f16, %i: index, %j: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %once = memref.alloc() {alignment = 64 : i64} : memref<64x128xf16, #gpu.address_space<workgroup>>
  %chunk = memref.alloc() : memref<64x40xf16, #gpu.address_space<workgroup>>
  %viewed = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
  memref.store %x, %once[%i, %j] : memref<64x128xf16, #gpu.address_space<workgroup>>
  gpu.barrier
  %q = gpu.subgroup_mma_load_matrix %once[%i, %c0] {leadDimension = 128 : index} : memref<64x128xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  scf.for %k = %c0 to %n step %c1 {
    gpu.barrier
    memref.store %x, %chunk[%i, %j] : memref<64x40xf16, #gpu.address_space<workgroup>>
    gpu.barrier
    %b = gpu.subgroup_mma_load_matrix %chunk[%k, %c0] {leadDimension = 40 : index} : memref<64x40xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
    %v = memref.subview %viewed[0, 0] [16, 16] [1, 1] : memref<16x32xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    memref.store %x, %v[%i, %j] : memref<16x16xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// No barrier between the staged block's last read and the loop that stages
// the other one: the sharing puts one before the loop.
// CHECK-LABEL: func.func @barrier_before_loop
// CHECK: %[[FLAT:.*]] = memref.alloc() : memref<8192xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc()
// CHECK: gpu.subgroup_mma_load_matrix %[[FLAT]][%{{.*}}] {leadDimension = 128 : index}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for
func.func @barrier_before_loop(%x: f16, %i: index, %j: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %once = memref.alloc() : memref<64x128xf16, #gpu.address_space<workgroup>>
  %chunk = memref.alloc() : memref<64x40xf16, #gpu.address_space<workgroup>>
  memref.store %x, %once[%i, %j] : memref<64x128xf16, #gpu.address_space<workgroup>>
  gpu.barrier
  %q = gpu.subgroup_mma_load_matrix %once[%i, %c0] {leadDimension = 128 : index} : memref<64x128xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  scf.for %k = %c0 to %n step %c1 {
    memref.store %x, %chunk[%i, %j] : memref<64x40xf16, #gpu.address_space<workgroup>>
    gpu.barrier
    %b = gpu.subgroup_mma_load_matrix %chunk[%k, %c0] {leadDimension = 40 : index} : memref<64x40xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
  }
  return
}

// -----

// A buffer already shared through a reshape (the 32 x 32 one, a view of the
// 16 x 64 one) becomes part of a flat array when a buffer of another size
// takes the memory over too: the accesses through the reshape take their
// row-major positions, and no reshape of the flat array is left.
// CHECK-LABEL: func.func @reshaped_then_flattened
// CHECK: %[[FLAT:.*]] = memref.alloc() : memref<1024xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc()
// CHECK-NOT: memref.collapse_shape
// CHECK-NOT: memref.expand_shape
// CHECK: memref.store %{{.*}}, %[[FLAT]][%{{.*}}] : memref<1024xf16
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c32 : index
// CHECK: %[[POSITION:.*]] = arith.addi %[[ROW]], %{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[FLAT]][%[[POSITION]]] : memref<1024xf16
// CHECK: memref.store %{{.*}}, %[[FLAT]][%{{.*}}] : memref<1024xf16
func.func @reshaped_then_flattened(%i: index, %x: f16) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<32x32xf16, #gpu.address_space<workgroup>>
  %d = memref.alloc() : memref<8x16xf16, #gpu.address_space<workgroup>>
  memref.store %x, %a[%c0, %i] : memref<16x64xf16, #gpu.address_space<workgroup>>
  gpu.barrier
  memref.store %x, %c[%i, %c0] : memref<32x32xf16, #gpu.address_space<workgroup>>
  gpu.barrier
  memref.store %x, %d[%c0, %i] : memref<8x16xf16, #gpu.address_space<workgroup>>
  return
}
