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
