// RUN: triton-spirv-opt %s --triton-func-to-kernel-abi --triton-tensors-to-linalg --triton-pointers-to-memref -split-input-file | FileCheck %s

// A kernel that asserts gets a debug buffer (before the grid arguments) and
// the assertion's message and source line for the launcher. Each failing
// element tries to claim word 0 with 1 + the assertion's number; the one that
// does records its program id (words 1-3) and element (word 4).
// CHECK-LABEL: func.func @asserts
// CHECK-SAME: %[[DEBUG:[^:]*]]: memref<?xi32> {triton_spirv.abi = "debug"}, %[[PID:[^:]*]]: i32 {triton_spirv.abi = "program_id_x"}
// CHECK-SAME: triton_spirv.debug = {asserts = [{location = "kernel.py:7:3", message = "x must be positive"}], prints = []}
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<8xi1>)
// CHECK: %[[FAILS:.*]] = arith.xori %{{.*}}, %{{.*}} : i1
// CHECK: scf.if %[[FAILS]] {
// CHECK: %[[OLD:.*]] = memref.generic_atomic_rmw %[[DEBUG]][%{{.*}}] : memref<?xi32> {
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[OLD]], %{{.*}} : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK: memref.store %[[PID]], %[[DEBUG]][%{{.*}}] : memref<?xi32>
tt.func public @asserts(%s: f32) {
  %x = tt.splat %s : f32 -> tensor<8xf32>
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %positive = arith.cmpf ogt, %x, %zero : tensor<8xf32>
  tt.assert %positive, "x must be positive" : tensor<8xi1> loc("kernel.py":7:3)
  tt.return
}

// -----

// Each printed element takes the next record (word 5 counts them) and, when
// it fits, writes print id, operand, program id, element and value bits: an
// f16 widened to f32, its bits in the low word.
// CHECK-LABEL: func.func @prints
// CHECK-SAME: triton_spirv.debug = {asserts = [], prints = [{hex = false, operands = [{shape = [], signed = false, type = "f16"}], prefix = " h: "}]}
// CHECK: %[[SLOT:.*]] = memref.atomic_rmw addi %{{.*}}, %{{.*}}[%{{.*}}] : (i32, memref<?xi32>) -> i32
// CHECK: %[[FITS:.*]] = arith.cmpi ult, %[[SLOT]], %{{.*}} : i32
// CHECK: scf.if %[[FITS]] {
// CHECK: %[[WIDE:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: %[[BITS:.*]] = arith.bitcast %[[WIDE]] : f32 to i32
// CHECK: memref.store %[[BITS]]
tt.func public @prints(%h: f16) {
  tt.print " h: " {hex = false, isSigned = array<i32: 0>} : %h : f16
  tt.return
}
