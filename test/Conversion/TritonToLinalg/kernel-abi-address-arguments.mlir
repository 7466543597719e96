// RUN: triton-spirv-opt %s --triton-func-to-kernel-abi="address-arguments=0" -split-input-file | FileCheck %s

// A pointer argument passed by address: an i64 address in place of its
// buffers, one address buffer (without a root number) per element type
// accessed through it, and the offset as for a bound buffer. The other
// pointer argument stays bound.
// CHECK-LABEL: func.func @by_address
// CHECK-SAME: (%[[ADDR:.*]]: i64 {triton_spirv.abi = "address", triton_spirv.arg_index = 0 : i64, tt.divisibility = 16 : i32},
// CHECK-SAME: %[[OFF:.*]]: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
// CHECK-SAME: %[[OUT:.*]]: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
// CHECK-DAG: %[[F32:.*]] = triton_spirv.address_buffer %[[ADDR]] : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
// CHECK-DAG: %[[I32:.*]] = triton_spirv.address_buffer %[[ADDR]] : memref<?xi32, #spirv.storage_class<PhysicalStorageBuffer>>
// CHECK: builtin.unrealized_conversion_cast %[[F32]], %[[I32]], %[[OFF]] : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>, memref<?xi32, #spirv.storage_class<PhysicalStorageBuffer>>, index to !tt.ptr<f32>
// CHECK: tt.load %{{.*}} {triton_spirv.root_arg = 0 : i64}
tt.func public @by_address(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32>) {
  %v = tt.load %x : !tt.ptr<f32>
  %q = tt.bitcast %x : !tt.ptr<f32> -> !tt.ptr<i32>
  %w = tt.load %q : !tt.ptr<i32>
  tt.store %out, %v : !tt.ptr<f32>
  tt.return
}
