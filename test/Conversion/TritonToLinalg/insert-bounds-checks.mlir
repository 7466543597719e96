// RUN: triton-spirv-opt %s --triton-insert-bounds-checks -split-input-file -verify-diagnostics | FileCheck %s

// A masked load asserts its pointers' bounds where the mask is set, at the
// load's location, naming the argument by its Python name.
// CHECK-LABEL: tt.func public @masked_load
// CHECK: %[[PTRS:.*]] = tt.addptr
// CHECK: %[[OK:.*]] = triton_spirv.pointer_in_bounds %[[PTRS]] : tensor<64x!tt.ptr<f32>> -> tensor<64xi1>
// CHECK: %[[OFF:.*]] = arith.xori %[[MASK:.*]], %{{.*}} : tensor<64xi1>
// CHECK: %[[HOLDS:.*]] = arith.ori %[[OK]], %[[OFF]] : tensor<64xi1>
// CHECK: tt.assert %[[HOLDS]], "out-of-bounds load through 'x_ptr': a pointer outside the tensor's storage" : tensor<64xi1>
// CHECK: tt.load %[[PTRS]], %[[MASK]]
tt.func public @masked_load(%x_ptr: !tt.ptr<f32> loc("x_ptr"("kernel.py":1:0)), %n: i32) {
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %bound = tt.splat %n : i32 -> tensor<64xi32>
  %mask = arith.cmpi slt, %offs, %bound : tensor<64xi32>
  %base = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %ptrs, %mask : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// Unmasked: the bounds alone. A scalar store and an atomic through an
// argument without a recorded name are named by position.
// CHECK-LABEL: tt.func public @scalar_store_and_atomic
// CHECK: %[[OK:.*]] = triton_spirv.pointer_in_bounds %[[P:.*]] : !tt.ptr<i32> -> i1
// CHECK-NEXT: tt.assert %[[OK]], "out-of-bounds store through argument 0: a pointer outside the tensor's storage" : i1
// CHECK-NEXT: tt.store %[[P]]
// CHECK: %[[OK2:.*]] = triton_spirv.pointer_in_bounds %[[P]] : !tt.ptr<i32> -> i1
// CHECK: tt.assert %{{.*}}, "out-of-bounds atomic through argument 0: a pointer outside the tensor's storage" : i1
// CHECK: tt.atomic_rmw add
// CHECK: %[[OK3:.*]] = triton_spirv.pointer_in_bounds %[[P]] : !tt.ptr<i32> -> i1
// CHECK-NEXT: tt.assert %[[OK3]], "out-of-bounds atomic
// CHECK-NEXT: tt.atomic_cas
tt.func public @scalar_store_and_atomic(%out: !tt.ptr<i32>, %v: i32, %on: i1) {
  %p = tt.addptr %out, %v : !tt.ptr<i32>, i32
  tt.store %p, %v : !tt.ptr<i32>
  %old = tt.atomic_rmw add, acq_rel, gpu, %p, %v, %on : (!tt.ptr<i32>, i32, i1) -> i32
  %cas = tt.atomic_cas acq_rel, gpu, %p, %v, %old : (!tt.ptr<i32>, i32, i32) -> i32
  tt.return
}

// -----

// Block pointers are not checked, and a remark says so.
// CHECK-LABEL: tt.func public @block_pointer
// CHECK-NOT: triton_spirv.pointer_in_bounds
// CHECK-NOT: tt.assert
tt.func public @block_pointer(%x_ptr: !tt.ptr<f32>, %n: i64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %block = tt.make_tensor_ptr %x_ptr, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tt.ptr<tensor<32xf32>>
  // expected-remark @below {{bounds of this load through a block pointer are not checked}}
  %x = tt.load %block : !tt.ptr<tensor<32xf32>>
  tt.return
}

// -----

// A pointer loaded from memory has no argument behind it: left to the
// kernel ABI, which rejects it.
// CHECK-LABEL: tt.func public @loaded_pointer
// CHECK: triton_spirv.pointer_in_bounds
// CHECK-NOT: triton_spirv.pointer_in_bounds
tt.func public @loaded_pointer(%table: !tt.ptr<!tt.ptr<f32>>) {
  %p = tt.load %table : !tt.ptr<!tt.ptr<f32>>
  %x = tt.load %p : !tt.ptr<f32>
  tt.return
}

// -----

// Memory reached through an address read from a table has no known bounds:
// a remark says so, and the access stays as it is.
// CHECK-LABEL: tt.func public @through_address
// CHECK-NOT: triton_spirv.pointer_in_bounds %[[P:.*]] : !tt.ptr<f32>
// CHECK: tt.load %{{.*}} : !tt.ptr<f32>
tt.func public @through_address(%table: !tt.ptr<i64>) {
  %a = tt.load %table : !tt.ptr<i64>
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  // expected-remark @below {{bounds of this load through an address read from memory are not checked}}
  %v = tt.load %p : !tt.ptr<f32>
  tt.return
}
