// RUN: triton-spirv-opt %s --triton-spirv-narrow-loop-indices -split-input-file | FileCheck %s

// A loop from a sign-extended program id to a constant, stepping by a
// sign-extended grid size (Triton's `range(tl.cast(pid, tl.int64), 1, n)`):
// every value and the increment past the last fit 32 bits, so the loop runs
// on i32 bounds and its body sees the sign-extended induction variable.
// CHECK-LABEL: func.func @from_a_program_id
// CHECK: %[[LB:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[UB:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[STEP:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[SUM:.*]] = scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) : i32 {
// CHECK:   %[[WIDE:.*]] = arith.extsi %[[IV]] : i32 to i64
// CHECK:   arith.sitofp %[[WIDE]] : i64 to f32
// CHECK:   scf.yield
// CHECK: return %[[SUM]]
func.func @from_a_program_id(%pid: i32, %programs: i32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1 : i64
  %lb = arith.extsi %pid : i32 to i64
  %step = arith.extsi %programs : i32 to i64
  %sum = scf.for %i = %lb to %one step %step iter_args(%acc = %zero) -> (f32) : i64 {
    %x = arith.sitofp %i : i64 to f32
    %next = arith.addf %acc, %x : f32
    scf.yield %next : f32
  }
  return %sum : f32
}

// -----

// Without iteration arguments: the body keeps its one terminator.
// CHECK-LABEL: func.func @without_results
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT: %[[WIDE:.*]] = arith.extsi %[[IV]] : i32 to i64
// CHECK-NEXT: memref.store %[[WIDE]]
// CHECK-NEXT: }
func.func @without_results(%pid: i32, %out: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %lb = arith.extsi %pid : i32 to i64
  scf.for %i = %lb to %one step %one : i64 {
    memref.store %i, %out[%c0] : memref<?xi64>
  }
  return
}

// -----

// Kept: an upper bound of i32's range with a step of i32's range (the
// increment past the last value could overflow 32 bits), a bound that is
// a 64-bit argument, and a loop that is already 32-bit.
// CHECK-LABEL: func.func @kept
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i64
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i64
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32
// CHECK-NOT: arith.trunci
func.func @kept(%n: i32, %s: i32, %wide: i64, %out: memref<?xi64>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c0_index = arith.constant 0 : index
  %upper = arith.extsi %n : i32 to i64
  %step = arith.extsi %s : i32 to i64
  scf.for %i = %c0 to %upper step %step : i64 {
    memref.store %i, %out[%c0_index] : memref<?xi64>
  }
  scf.for %i = %c0 to %wide step %c1 : i64 {
    memref.store %i, %out[%c0_index] : memref<?xi64>
  }
  scf.for %i = %c0_i32 to %n step %c1_i32 : i32 {
  }
  return
}
