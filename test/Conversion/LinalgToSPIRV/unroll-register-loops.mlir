// RUN: triton-spirv-opt %s --triton-spirv-unroll-register-loops --canonicalize -split-input-file -verify-diagnostics | FileCheck %s

// An element-wise loop over an invocation's 4 registers: unrolled, every
// access to the private array has a constant index.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: scf.for
// CHECK-DAG: memref.load %{{.*}}[%c0] : memref<4xf32, #gpu.address_space<private>>
// CHECK-DAG: memref.store %{{.*}}, %{{.*}}[%c3] : memref<4xf32, #gpu.address_space<private>>
// CHECK-NOT: scf.for
func.func @elementwise(%src: memref<?xf32>, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %row = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
  scf.for %k = %c0 to %c4 step %c1 {
    %scaled = arith.muli %k, %c128 : index
    %i = arith.addi %t, %scaled : index
    %x = memref.load %src[%i] : memref<?xf32>
    %old = memref.load %row[%k] : memref<4xf32, #gpu.address_space<private>>
    %sum = arith.addf %x, %old : f32
    memref.store %sum, %row[%k] : memref<4xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// A fold carried through iteration arguments is unrolled too; a loop that
// only touches memory of other address spaces, or a private array at an
// index it does not compute, stays.
// CHECK-LABEL: func.func @fold_and_others
// CHECK: %[[R1:.*]] = memref.load %[[ROW:.*]][%c1]
// CHECK: %[[F1:.*]] = arith.maxnumf %{{.*}}, %[[R1]]
// CHECK: %[[R2:.*]] = memref.load %[[ROW]][%c2]
// CHECK: %[[F2:.*]] = arith.maxnumf %[[F1]], %[[R2]]
// CHECK: scf.for
// CHECK:   memref.load %{{.*}} : memref<?xf32>
// CHECK:   memref.store %{{.*}}, %{{.*}}[%c0] : memref<3xf32, #gpu.address_space<private>>
// CHECK: return %[[F2]]
func.func @fold_and_others(%src: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %row = memref.alloca() : memref<3xf32, #gpu.address_space<private>>
  %first = memref.load %row[%c0] : memref<3xf32, #gpu.address_space<private>>
  %max = scf.for %k = %c1 to %c3 step %c1 iter_args(%acc = %first) -> (f32) {
    %x = memref.load %row[%k] : memref<3xf32, #gpu.address_space<private>>
    %m = arith.maxnumf %acc, %x : f32
    scf.yield %m : f32
  }
  scf.for %k = %c0 to %c3 step %c1 {
    %x = memref.load %src[%k] : memref<?xf32>
    memref.store %x, %row[%c0] : memref<3xf32, #gpu.address_space<private>>
  }
  return %max : f32
}

// -----

// Loops the pass cannot or may not unroll are named in remarks.
func.func @left_rolled(%n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2048 = arith.constant 2048 : index
  %cst = arith.constant 0.0 : f32
  %row = memref.alloca() : memref<2048xf32, #gpu.address_space<private>>
  // expected-remark @below {{indexes a private array with a trip count that is not constant}}
  scf.for %k = %c0 to %n step %c1 {
    memref.store %cst, %row[%k] : memref<2048xf32, #gpu.address_space<private>>
  }
  // expected-remark @below {{not unrolled: 2048 iterations of 4 ops exceed max-unrolled-ops=4096}}
  scf.for %k = %c0 to %c2048 step %c1 {
    %x = memref.load %row[%k] : memref<2048xf32, #gpu.address_space<private>>
    %y = arith.addf %x, %x : f32
    memref.store %y, %row[%k] : memref<2048xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// A loop of dynamic trip count that only decides, with an scf.if on its
// induction variable, whether an inner loop runs: the inner loop's indices
// do not depend on it, so the inner loop is unrolled and the outer one is
// no matter for a remark.
// CHECK-LABEL: func.func @guarded_by_outer_loop
// CHECK: scf.for
// CHECK:   scf.if
// CHECK-NOT: scf.for
// CHECK-DAG: memref.store %{{.*}}, %{{.*}}[%c0] : memref<2xf32, #gpu.address_space<private>>
// CHECK-DAG: memref.store %{{.*}}, %{{.*}}[%c1] : memref<2xf32, #gpu.address_space<private>>
func.func @guarded_by_outer_loop(%src: memref<?xf32>, %n: index, %limit: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %row = memref.alloca() : memref<2xf32, #gpu.address_space<private>>
  scf.for %k = %c0 to %n step %c1 {
    %inside = arith.cmpi slt, %k, %limit : index
    scf.if %inside {
      scf.for %r = %c0 to %c2 step %c1 {
        %x = memref.load %src[%r] : memref<?xf32>
        memref.store %x, %row[%r] : memref<2xf32, #gpu.address_space<private>>
      }
    }
  }
  %last = memref.load %row[%c1] : memref<2xf32, #gpu.address_space<private>>
  return %last : f32
}
