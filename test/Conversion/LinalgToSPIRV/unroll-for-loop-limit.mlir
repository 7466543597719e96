// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" --triton-spirv-unroll-for-loop-limit | FileCheck %s
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia" --triton-spirv-unroll-for-loop-limit | FileCheck %s --check-prefix=NVIDIA

// A block's loop of 128 runs (the distribution's) inside a program loop of
// 600: 76,800 iterations, past lavapipe's 65,535. Unrolled by 2 it runs 64
// a time, 38,400 in all. NVIDIA has no limit: nothing changes.

// CHECK-LABEL: func.func @block_in_long_loop
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK:           %[[C2:.*]] = arith.constant 2 : index
// CHECK:           scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %[[C2]] {
// CHECK:             memref.store
// CHECK:             %[[NEXT:.*]] = arith.addi %[[R]]
// CHECK:             memref.store
// CHECK-NOT:     scf.for
// NVIDIA-LABEL: func.func @block_in_long_loop
// NVIDIA-NOT:     arith.constant 2 : index
// NVIDIA:         return
func.func @block_in_long_loop(%out: memref<256xf32>) attributes {triton_spirv.kernel} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c600 = arith.constant 600 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0_i32 to %c600 step %c1_i32 : i32 {
    scf.for %r = %c0 to %c128 step %c1 {
      memref.store %one, %out[%r] : memref<256xf32>
    } {triton_spirv.spread = #triton_spirv.spread<[128], run = 1>}
  }
  return
}

// Within the limit (200 x 128), or not a loop of the distribution: left.
// CHECK-LABEL: func.func @within_or_the_programs
// CHECK-NOT:     arith.constant 2 : index
// CHECK:         return
func.func @within_or_the_programs(%out: memref<256xf32>) attributes {triton_spirv.kernel} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c200 = arith.constant 200 : i32
  %c600 = arith.constant 600 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0_i32 to %c200 step %c1_i32 : i32 {
    scf.for %r = %c0 to %c128 step %c1 {
      memref.store %one, %out[%r] : memref<256xf32>
    } {triton_spirv.spread = #triton_spirv.spread<[128], run = 1>}
  }
  scf.for %i = %c0_i32 to %c600 step %c1_i32 : i32 {
    scf.for %r = %c0 to %c128 step %c1 {
      memref.store %one, %out[%r] : memref<256xf32>
    }
  }
  return
}
