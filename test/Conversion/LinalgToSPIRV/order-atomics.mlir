// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s --check-prefix=LAVAPIPE
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s --check-prefix=NVIDIA

// lavapipe mishandles ordered atomics in loops that invocations leave at
// different iterations, so they are emitted relaxed there. Elsewhere an
// ordered atomic orders storage-buffer memory (UniformMemory): without a
// storage class it would order nothing; and the kernel's storage buffers
// are Coherent, so that what it orders bypasses incoherent caches.
// LAVAPIPE-NOT: coherent
// LAVAPIPE: spirv.AtomicIAdd <Device> <None>
// NVIDIA: spirv.GlobalVariable @__arg0_i32 bind(0, 0) {coherent}
// NVIDIA: spirv.AtomicIAdd <Device> <AcquireRelease|UniformMemory>
func.func @count(%buf: memref<?xi32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                 %off: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %one = arith.constant 1 : i32
  %r = memref.atomic_rmw addi %one, %buf[%off] : (i32, memref<?xi32>) -> i32
  return
}
