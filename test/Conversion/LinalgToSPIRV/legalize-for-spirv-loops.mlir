// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s

// Upstream's loop lowering sets a loop's results only in its body, so a loop
// that may run zero times is guarded by `lb < ub`, its initial value being
// the result otherwise.
// CHECK-LABEL: spirv.func @sum
// CHECK: %[[RUNS:.*]] = spirv.SGreaterThan %{{.*}}, %cst0_i32
// CHECK: spirv.mlir.selection {
// CHECK:   spirv.BranchConditional %[[RUNS]], ^[[LOOP:.*]], ^[[EMPTY:.*]]
// CHECK: ^[[LOOP]]:
// CHECK:   spirv.mlir.loop
// CHECK: ^[[EMPTY]]:
// CHECK:   spirv.Store "Function" %{{.*}}, %cst_f32 : f32
func.func @sum(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
               %off: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
               %n: i32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %init = arith.constant 1.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> f32 : i32 {
    %twice = arith.addf %acc, %acc : f32
    scf.yield %twice : f32
  }
  memref.store %sum, %buf[%off] : memref<?xf32>
  return
}
