// RUN: triton-spirv-opt %s --triton-spirv-fold-block-copies -split-input-file | FileCheck %s

// A masked structured load (view, fill, copy of the leading %n elements,
// to_tensor) becomes an element-wise read of the buffer at offset + i * stride
// for i < %n, the fill value elsewhere; the masked store an element-wise
// write for i < %n. No block buffer, view or copy is left.
// CHECK-LABEL: func.func @copy
// CHECK-SAME: (%[[IN:[^:]*]]: memref<?xf32>, %[[OFF:[^:]*]]: index, %[[OUT:[^:]*]]: memref<?xf32>, %[[N:[^:]*]]: index)
// CHECK-NOT: memref.alloc
// CHECK: %[[LOADED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<64xf32>) {
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[STEP:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK: %[[AT:.*]] = arith.addi %[[OFF]], %[[STEP]] : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK: scf.if %[[INSIDE]] -> (f32) {
// CHECK: memref.load %[[IN]][%[[AT]]] : memref<?xf32>
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : f32
// CHECK: linalg.generic {{.*}} ins(%[[LOADED]] : tensor<64xf32>) {
// CHECK: scf.if %{{.*}} {
// CHECK: memref.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<?xf32>
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.reinterpret_cast
// CHECK-NOT: materialize_in_destination
func.func @copy(%in: memref<?xf32>, %off: index, %out: memref<?xf32>, %n: index) {
  %other = arith.constant -1.0 : f32
  %view = memref.reinterpret_cast %in to offset: [%off], sizes: [64], strides: [2] : memref<?xf32> to memref<64xf32, strided<[2], offset: ?>>
  %block = memref.alloc() : memref<64xf32>
  linalg.fill ins(%other : f32) outs(%block : memref<64xf32>)
  %src = memref.subview %view[0] [%n] [1] : memref<64xf32, strided<[2], offset: ?>> to memref<?xf32, strided<[2], offset: ?>>
  %dst = memref.subview %block[0] [%n] [1] : memref<64xf32> to memref<?xf32, strided<[1]>>
  memref.copy %src, %dst : memref<?xf32, strided<[2], offset: ?>> to memref<?xf32, strided<[1]>>
  %loaded = bufferization.to_tensor %block restrict writable : memref<64xf32> to tensor<64xf32>
  %out_view = memref.reinterpret_cast %out to offset: [0], sizes: [64], strides: [1] : memref<?xf32> to memref<64xf32, strided<[1]>>
  %slice = tensor.extract_slice %loaded[0] [%n] [1] : tensor<64xf32> to tensor<?xf32>
  %part = memref.subview %out_view[0] [%n] [1] : memref<64xf32, strided<[1]>> to memref<?xf32, strided<[1]>>
  bufferization.materialize_in_destination %slice in writable %part : (tensor<?xf32>, memref<?xf32, strided<[1]>>) -> ()
  return
}

// -----

// Two copies into one block (a wrapped block's head and tail): each element
// is read from the copy whose region holds it, the tail's rows counted from
// its region's first row %h.
// CHECK-LABEL: func.func @two_copies
// CHECK-SAME: (%[[BUF:[^:]*]]: memref<?xf32>, %[[HEAD_AT:[^:]*]]: index, %[[H:[^:]*]]: index)
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[IN_HEAD:.*]] = arith.cmpi slt, %[[I]], %[[H]] : index
// CHECK: %[[HEAD:.*]] = scf.if %[[IN_HEAD]] -> (f32) {
// CHECK: memref.load %[[BUF]]
// CHECK: %[[J:.*]] = linalg.index 0 : index
// CHECK: %[[IN_TAIL:.*]] = arith.cmpi sge, %[[J]], %[[H]] : index
// CHECK: %[[ROW:.*]] = arith.subi %[[J]], %[[H]] : index
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK: memref.load %[[BUF]]
// CHECK: } else {
// CHECK: scf.yield %[[HEAD]] : f32
func.func @two_copies(%buf: memref<?xf32>, %head_at: index, %h: index) -> tensor<16xf32> {
  %c16 = arith.constant 16 : index
  %t = arith.subi %c16, %h : index
  %head_view = memref.reinterpret_cast %buf to offset: [%head_at], sizes: [16], strides: [1] : memref<?xf32> to memref<16xf32, strided<[1], offset: ?>>
  %tail_view = memref.reinterpret_cast %buf to offset: [0], sizes: [16], strides: [1] : memref<?xf32> to memref<16xf32, strided<[1]>>
  %block = memref.alloc() : memref<16xf32>
  %head_src = memref.subview %head_view[0] [%h] [1] : memref<16xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
  %head_dst = memref.subview %block[0] [%h] [1] : memref<16xf32> to memref<?xf32, strided<[1]>>
  memref.copy %head_src, %head_dst : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1]>>
  %tail_src = memref.subview %tail_view[0] [%t] [1] : memref<16xf32, strided<[1]>> to memref<?xf32, strided<[1]>>
  %tail_dst = memref.subview %block[%h] [%t] [1] : memref<16xf32> to memref<?xf32, strided<[1], offset: ?>>
  memref.copy %tail_src, %tail_dst : memref<?xf32, strided<[1]>> to memref<?xf32, strided<[1], offset: ?>>
  %loaded = bufferization.to_tensor %block restrict writable : memref<16xf32> to tensor<16xf32>
  return %loaded : tensor<16xf32>
}

// -----

// A masked store of a splat whose mask covers a constant leading region
// (`tl.store(p + cols, 0.0, mask=cols < 1000)` with 4096 columns): the slice
// of the splat folded into a constant of the region's size, which is written
// whole, element by element, with no extents to check (Liger-Kernel's GRPO
// backward: "failed to legalize operation 'memref.reinterpret_cast'").
// CHECK-LABEL: func.func @splat_into_leading_region
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1000xf32>) {
// CHECK-NOT: scf.if
// CHECK: memref.store %{{.*}}, %[[OUT:.*]][%{{.*}}] : memref<?xf32>
// CHECK-NOT: memref.reinterpret_cast
// CHECK-NOT: materialize_in_destination
func.func @splat_into_leading_region(%out: memref<?xf32>, %off: index) {
  %zeros = arith.constant dense<0.0> : tensor<1000xf32>
  %view = memref.reinterpret_cast %out to offset: [%off], sizes: [4096], strides: [1] : memref<?xf32> to memref<4096xf32, strided<[1], offset: ?>>
  %part = memref.subview %view[0] [1000] [1] : memref<4096xf32, strided<[1], offset: ?>> to memref<1000xf32, strided<[1], offset: ?>>
  bufferization.materialize_in_destination %zeros in writable %part : (tensor<1000xf32>, memref<1000xf32, strided<[1], offset: ?>>) -> ()
  return
}
