// RUN: triton-spirv-opt %s --triton-fold-pointer-round-trips -split-input-file | FileCheck %s

// int64 values cast to pointers, selected (tl.where) and stored back as
// int64 are the integers selected: no pointer is made.
// CHECK-LABEL: tt.func @select_cast_integers
// CHECK-SAME: (%[[C:.*]]: tensor<8xi1>, %[[A:.*]]: tensor<8xi64>, %[[B:.*]]: tensor<8xi64>)
// CHECK-NOT: tt.int_to_ptr
// CHECK-NOT: tt.ptr_to_int
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[A]], %[[B]] : tensor<8xi1>, tensor<8xi64>
// CHECK: tt.return %[[S]], %[[A]]
tt.func @select_cast_integers(%c: tensor<8xi1>, %a: tensor<8xi64>, %b: tensor<8xi64>)
    -> (tensor<8xi64>, tensor<8xi64>) {
  %pa = tt.int_to_ptr %a : tensor<8xi64> -> tensor<8x!tt.ptr<i32>>
  %pb = tt.int_to_ptr %b : tensor<8xi64> -> tensor<8x!tt.ptr<i32>>
  %p = arith.select %c, %pa, %pb : tensor<8xi1>, tensor<8x!tt.ptr<i32>>
  %i = tt.ptr_to_int %p : tensor<8x!tt.ptr<i32>> -> tensor<8xi64>
  %j = tt.ptr_to_int %pa : tensor<8x!tt.ptr<i32>> -> tensor<8xi64>
  tt.return %i, %j : tensor<8xi64>, tensor<8xi64>
}

// -----

// The address of a real pointer, also selected with a cast one, stays.
// CHECK-LABEL: tt.func @real_pointers
// CHECK: tt.ptr_to_int %{{.*}} : !tt.ptr<f32> -> i64
// CHECK: %[[MIXED:.*]] = arith.select
// CHECK: tt.ptr_to_int %[[MIXED]]
tt.func @real_pointers(%p: !tt.ptr<f32>, %c: i1, %a: i64) -> (i64, i64) {
  %i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %q = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  %m = arith.select %c, %p, %q : !tt.ptr<f32>
  %j = tt.ptr_to_int %m : !tt.ptr<f32> -> i64
  tt.return %i, %j : i64, i64
}
