// RUN: triton-spirv-opt %s --triton-insert-bounds-checks --triton-func-to-kernel-abi --triton-tensors-to-linalg --triton-pointers-to-memref -split-input-file | FileCheck %s

// A checked argument gets the byte bounds of its storage after its offset;
// an unchecked one (no access) does not. Each element offset is compared
// with the whole f32 elements between them: begin rounded up, end down.
// CHECK-LABEL: func.func @load_f32
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64}
// CHECK-SAME: %{{[^:]*}}: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64}
// CHECK-SAME: %[[BEGIN:[^:]*]]: index {triton_spirv.abi = "bounds_begin", triton_spirv.arg_index = 0 : i64}
// CHECK-SAME: %[[END:[^:]*]]: index {triton_spirv.abi = "bounds_end", triton_spirv.arg_index = 0 : i64}
// CHECK-SAME: %{{[^:]*}}: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 1 : i64}
// CHECK-NOT: bounds_begin
// CHECK-SAME: triton_spirv.debug = {asserts = [{location = "kernel.py:4:8", message = "out-of-bounds load through 'x_ptr': a pointer outside the tensor's storage"}], prints = []}
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[ROUNDED:.*]] = arith.addi %[[BEGIN]], %[[C3]] : index
// CHECK: %[[FIRST:.*]] = arith.divui %[[ROUNDED]], %[[C4]] : index
// CHECK: %[[LAST:.*]] = arith.divui %[[END]], %[[C4]] : index
// CHECK: linalg.generic
// CHECK: ^bb0(%[[OFFSET:.*]]: index, %{{.*}}: i1):
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[OFFSET]], %[[FIRST]] : index
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[OFFSET]], %[[LAST]] : index
// CHECK: arith.andi %[[GE]], %[[LT]] : i1
// CHECK: memref.generic_atomic_rmw
// CHECK: memref.load %[[X]]
tt.func public @load_f32(%x_ptr: !tt.ptr<f32> loc("x_ptr"("kernel.py":1:0)), %unused: !tt.ptr<f32>) {
  %offs = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %base = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %offs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %x = tt.load %ptrs : tensor<16x!tt.ptr<f32>> loc("kernel.py":4:8)
  tt.return
}

// -----

// A pointer reinterpreted as another element type is checked in elements of
// that type (i8 here: no rounding).
// CHECK-LABEL: func.func @store_bytes
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: arith.addi %{{.*}}, %[[C0]] : index
// CHECK: arith.divui %{{.*}}, %[[C1]] : index
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
tt.func public @store_bytes(%out: !tt.ptr<i32>, %v: i8) {
  %bytes = tt.bitcast %out : !tt.ptr<i32> -> !tt.ptr<i8>
  tt.store %bytes, %v : !tt.ptr<i8>
  tt.return
}
