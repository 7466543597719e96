// RUN: triton-spirv-opt %s --triton-spirv-kernel-to-spirv="target=lavapipe" | FileCheck %s --check-prefix=LAVAPIPE
// RUN: triton-spirv-opt %s --triton-spirv-kernel-to-spirv="target=nvidia" | FileCheck %s --check-prefix=NVIDIA

// lavapipe mishandles ordered atomics in loops that invocations leave at
// different iterations, so they are emitted relaxed there.
// LAVAPIPE: spirv.AtomicIAdd <Device> <None>
// NVIDIA: spirv.AtomicIAdd <Device> <AcquireRelease>
func.func @count(%buf: memref<?xi32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                 %off: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %one = arith.constant 1 : i32
  %r = memref.atomic_rmw addi %one, %buf[%off] : (i32, memref<?xi32>) -> i32
  return
}
