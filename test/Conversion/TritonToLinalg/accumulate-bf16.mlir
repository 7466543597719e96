// RUN: triton-spirv-opt %s --triton-accumulate-bf16-in-f32 | FileCheck %s

// tl.cumsum and tl.sum of bf16 (Triton 3.8 and later add in bf16): the
// scan and the reduction add f32, and their results round to bf16 once.
// So does tl.cumprod's product.
// CHECK-LABEL: tt.func @sums
// CHECK-SAME: (%[[X:.*]]: tensor<8x32xbf16>)
// CHECK: %[[WIDE:.*]] = arith.extf %[[X]] : tensor<8x32xbf16> to tensor<8x32xf32>
// CHECK: %[[SCAN:.*]] = "tt.scan"(%[[WIDE]]) <{axis = 1 : i32, reverse = false}> ({
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK:   %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK:   tt.scan.return %[[S]] : f32
// CHECK: }) : (tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK: %[[CUMSUM:.*]] = arith.truncf %[[SCAN]] : tensor<8x32xf32> to tensor<8x32xbf16>
// CHECK: %[[WIDE2:.*]] = arith.extf %[[CUMSUM]] : tensor<8x32xbf16> to tensor<8x32xf32>
// CHECK: %[[REDUCE:.*]] = "tt.reduce"(%[[WIDE2]]) <{axis = 1 : i32}> ({
// CHECK:   arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: }) : (tensor<8x32xf32>) -> tensor<8xf32>
// CHECK: %[[SUM:.*]] = arith.truncf %[[REDUCE]] : tensor<8xf32> to tensor<8xbf16>
// CHECK: tt.return %[[SUM]]
tt.func @sums(%x: tensor<8x32xbf16>) -> tensor<8xbf16> {
  %cumsum = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: bf16, %b: bf16):
    %s = arith.addf %a, %b : bf16
    tt.scan.return %s : bf16
  }) : (tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %sum = "tt.reduce"(%cumsum) <{axis = 1 : i32}> ({
  ^bb0(%a: bf16, %b: bf16):
    %s = arith.addf %a, %b : bf16
    tt.reduce.return %s : bf16
  }) : (tensor<8x32xbf16>) -> tensor<8xbf16>
  tt.return %sum : tensor<8xbf16>
}

// CHECK-LABEL: tt.func @product
// CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = true}> ({
// CHECK:   arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: }) : (tensor<64xf32>) -> tensor<64xf32>
// CHECK: arith.truncf %{{.*}} : tensor<64xf32> to tensor<64xbf16>
tt.func @product(%x: tensor<64xbf16>) -> tensor<64xbf16> {
  %cumprod = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%a: bf16, %b: bf16):
    %p = arith.mulf %a, %b : bf16
    tt.scan.return %p : bf16
  }) : (tensor<64xbf16>) -> tensor<64xbf16>
  tt.return %cumprod : tensor<64xbf16>
}

// A full reduction's scalar result rounds too.
// CHECK-LABEL: tt.func @total
// CHECK: "tt.reduce"(%{{.*}}) <{axis = 0 : i32}> ({
// CHECK: }) : (tensor<64xf32>) -> f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
tt.func @total(%x: tensor<64xbf16>) -> bf16 {
  %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: bf16, %b: bf16):
    %s = arith.addf %a, %b : bf16
    tt.reduce.return %s : bf16
  }) : (tensor<64xbf16>) -> bf16
  tt.return %sum : bf16
}

// Other combiners (a maximum, a difference, a sum that doubles), other
// types (f16) and several operands are left alone.
// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: tt.return
tt.func @left_alone(%x: tensor<32xbf16>, %h: tensor<32xf16>, %i: tensor<32xi32>)
    -> (bf16, tensor<32xbf16>, bf16, f16, bf16) {
  %max = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: bf16, %b: bf16):
    %m = arith.maximumf %a, %b : bf16
    tt.reduce.return %m : bf16
  }) : (tensor<32xbf16>) -> bf16
  %prod = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: bf16, %b: bf16):
    %p = arith.subf %a, %b : bf16
    tt.scan.return %p : bf16
  }) : (tensor<32xbf16>) -> tensor<32xbf16>
  %scaled = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: bf16, %b: bf16):
    %s = arith.addf %a, %b : bf16
    %d = arith.addf %s, %s : bf16
    tt.reduce.return %d : bf16
  }) : (tensor<32xbf16>) -> bf16
  %half = "tt.reduce"(%h) <{axis = 0 : i32}> ({
  ^bb0(%a: f16, %b: f16):
    %s = arith.addf %a, %b : f16
    tt.reduce.return %s : f16
  }) : (tensor<32xf16>) -> f16
  %pair:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: bf16, %ai: i32, %b: bf16, %bi: i32):
    %s = arith.addf %a, %b : bf16
    tt.reduce.return %s, %ai : bf16, i32
  }) : (tensor<32xbf16>, tensor<32xi32>) -> (bf16, i32)
  tt.return %max, %prod, %scaled, %half, %pair#0 : bf16, tensor<32xbf16>, bf16, f16, bf16
}
