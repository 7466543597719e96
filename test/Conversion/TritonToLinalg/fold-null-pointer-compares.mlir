// RUN: triton-spirv-opt %s --triton-fold-null-pointer-compares -split-input-file | FileCheck %s

// `if w_ptr:` on a pointer argument holds, also for pointers made from it.
// CHECK-LABEL: tt.func @argument_is_not_null
// CHECK-NOT: arith.cmpi
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: %[[SPLAT:.*]] = arith.constant dense<true> : tensor<4xi1>
// CHECK: tt.return %[[TRUE]], %[[FALSE]], %[[SPLAT]]
tt.func @argument_is_not_null(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>, %c: i1,
                              %o: i32) -> (i1, i1, tensor<4xi1>) {
  %zero = arith.constant 0 : i64
  %zeros = arith.constant dense<0> : tensor<4xi64>
  %a = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %ne = arith.cmpi ne, %a, %zero : i64
  %s = arith.select %c, %p, %q : !tt.ptr<f32>
  %moved = tt.addptr %s, %o : !tt.ptr<f32>, i32
  %b = tt.ptr_to_int %moved : !tt.ptr<f32> -> i64
  %eq = arith.cmpi eq, %zero, %b : i64
  %block = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %addresses = tt.ptr_to_int %block : tensor<4x!tt.ptr<f32>> -> tensor<4xi64>
  %all = arith.cmpi ne, %addresses, %zeros : tensor<4xi64>
  tt.return %ne, %eq, %all : i1, i1, tensor<4xi1>
}

// -----

// A pointer cast from an integer may be null; other compares stay.
// CHECK-LABEL: tt.func @may_be_null
// CHECK-COUNT-2: arith.cmpi
tt.func @may_be_null(%p: !tt.ptr<f32>, %i: i64) -> (i1, i1) {
  %zero = arith.constant 0 : i64
  %cast = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
  %a = tt.ptr_to_int %cast : !tt.ptr<f32> -> i64
  %ne = arith.cmpi ne, %a, %zero : i64
  %b = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %sixteen = arith.constant 16 : i64
  %lt = arith.cmpi ult, %b, %sixteen : i64
  tt.return %ne, %lt : i1, i1
}
