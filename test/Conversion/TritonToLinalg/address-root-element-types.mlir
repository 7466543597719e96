// RUN: triton-spirv-opt %s --triton-to-linalg | FileCheck %s

// An address read from a table and accessed as two element types (a load
// of f32, a store of i32 through a bitcast pointer) keeps a buffer of each
// through the whole lowering: the greedy rewrites between the ABI pass and
// the memory lowering must not drop the one the pointer cast does not start
// from.
// CHECK-LABEL: func.func @two_element_types
// CHECK-DAG: %[[F32:.*]] = triton_spirv.address_buffer %{{.*}} root 0 : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
// CHECK-DAG: %[[I32:.*]] = triton_spirv.address_buffer %{{.*}} root 0 : memref<?xi32, #spirv.storage_class<PhysicalStorageBuffer>>
// CHECK: memref.load %[[F32]][%{{.*}}] : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
// CHECK: memref.store %{{.*}}, %[[I32]][%{{.*}}] : memref<?xi32, #spirv.storage_class<PhysicalStorageBuffer>>
tt.func public @two_element_types(%table: !tt.ptr<i64>) {
  %a = tt.load %table : !tt.ptr<i64>
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  %v = tt.load %p : !tt.ptr<f32>
  %q = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
  %w = tt.bitcast %v : f32 -> i32
  tt.store %q, %w : !tt.ptr<i32>
  tt.return
}
