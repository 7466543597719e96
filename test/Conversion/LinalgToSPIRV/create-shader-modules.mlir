// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia" --triton-spirv-create-shader-modules | FileCheck %s

// Each kernel gets a module of its own, with the addressing model its
// spirv.module will have: physical where it reaches memory through device
// addresses. Functions that are not kernels stay where they are.
// CHECK-LABEL: module attributes {spirv.target_env
// CHECK: func.func @helper
// CHECK: module attributes {triton_spirv.addressing_model = #spirv.addressing_model<Logical>}
// CHECK-NEXT: func.func @plain
// CHECK: module attributes {triton_spirv.addressing_model = #spirv.addressing_model<PhysicalStorageBuffer64>}
// CHECK-NEXT: func.func @through_addresses
func.func @helper() {
  return
}

func.func @plain(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  return
}

func.func @through_addresses(%address: i64 {triton_spirv.abi = "address", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %buf = triton_spirv.address_buffer %address root 0 : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
  %x = memref.load %buf[%c0] : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
  return
}
