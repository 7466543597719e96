// The whole pipeline with a pointer argument passed by address: the kernel
// reads it through a PhysicalStorageBuffer pointer made from an i64 launch
// constant (role "address"), binds only the other argument, and passes
// spirv-val.
// RUN: triton-spirv-opt --triton-to-spirv="target=lavapipe num-warps=1 address-arguments=0 output=%t.spv" %S/../../corpus/ttir/vector_add.ttir -o /dev/null
// RUN: spirv-val --target-env vulkan1.2 %t.spv
// RUN: FileCheck %s < %t.spv.json
// RUN: spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// CHECK: "bindings": [
// CHECK-NOT: "arg_index": 0,
// CHECK: "arg_index": 1,
// CHECK: "push_constants": [
// CHECK: "arg_index": 0,
// CHECK-NEXT: "offset": {{[0-9]+}},
// CHECK-NEXT: "role": "address",
// CHECK-NEXT: "type": "i64"
// SPIRV: OpMemoryModel PhysicalStorageBuffer64
// SPIRV: OpConvertUToPtr
// Element addresses are computed in 64 bits
// (--triton-spirv-compute-element-addresses).
// SPIRV: OpConvertPtrToU %ulong
// SPIRV-NEXT: OpIAdd %ulong
// SPIRV-NEXT: OpConvertUToPtr %_ptr_PhysicalStorageBuffer_float
