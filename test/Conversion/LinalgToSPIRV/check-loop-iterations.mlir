// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" --triton-spirv-check-loop-iterations -split-input-file -verify-diagnostics
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia" --triton-spirv-check-loop-iterations -split-input-file | FileCheck %s --check-prefix=NVIDIA

// lavapipe ends every loop after 65,535 iterations per invocation, counted
// over all of its entries; NVIDIA's driver has no such limit.

// NVIDIA-LABEL: func.func @at_the_limit
func.func @at_the_limit(%out: memref<i32>) attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = arith.constant 65535 : i32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %next = arith.addi %acc, %c1 : i32
    scf.yield %next : i32
  }
  memref.store %sum, %out[] : memref<i32>
  return
}

// -----

// NVIDIA-LABEL: func.func @one_past
func.func @one_past(%out: memref<i32>) attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = arith.constant 65536 : i32
  // expected-error @below {{this loop runs 65536 iterations per program (with the loops around it); lavapipe ends every loop after 65535 (its driver's loop limiter), so the kernel would stop early and compute a wrong answer}}
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %next = arith.addi %acc, %c1 : i32
    scf.yield %next : i32
  }
  memref.store %sum, %out[] : memref<i32>
  return
}

// -----

// The inner loop's entries add up: 2 x 40,000.
// NVIDIA-LABEL: func.func @nested
func.func @nested(%out: memref<i32>) attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c40000 = arith.constant 40000 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %sum = scf.for %o = %c0 to %c2 step %c1 iter_args(%outer = %zero) -> (i32) {
    // expected-error @below {{this loop runs 80000 iterations per program}}
    %inner = scf.for %i = %c0 to %c40000 step %c1 iter_args(%acc = %outer) -> (i32) {
      %next = arith.addi %acc, %one : i32
      scf.yield %next : i32
    }
    scf.yield %inner : i32
  }
  memref.store %sum, %out[] : memref<i32>
  return
}

// -----

// Counts known only at run time are not checked; nor is a loop stepped
// past its limit in few iterations.
// NVIDIA-LABEL: func.func @unknown_or_few
func.func @unknown_or_few(%out: memref<i32>, %n: i32) attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c1024 = arith.constant 1024 : i32
  %big = arith.constant 1000000 : i32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %next = arith.addi %acc, %c1 : i32
    scf.yield %next : i32
  }
  %strided = scf.for %i = %c0 to %big step %c1024 iter_args(%acc = %sum) -> (i32) : i32 {
    %next = arith.addi %acc, %c1 : i32
    scf.yield %next : i32
  }
  memref.store %strided, %out[] : memref<i32>
  return
}
