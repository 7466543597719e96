// RUN: triton-spirv-opt %s --triton-recognize-pair-swaps -split-input-file | FileCheck %s

// tl.sort's partner exchange: x ^ xor_sum(x, axis 1, keep_dims) over a size-2
// axis is x read with that axis mirrored; the reduction goes.
// CHECK-DAG: #[[MIRROR:.*]] = affine_map<(d0, d1, d2) -> (d0, -d1 + 1, d2)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: tt.func @swap_middle_axis
// CHECK-SAME: (%[[X:.*]]: tensor<4x2x8xi32>)
// CHECK-NOT: tt.reduce
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4x2x8xi32>
// CHECK: %[[SWAP:.*]] = linalg.generic {indexing_maps = [#[[MIRROR]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]] : tensor<4x2x8xi32>) outs(%[[INIT]] : tensor<4x2x8xi32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: linalg.yield %[[IN]] : i32
// CHECK: tt.return %[[SWAP]]
tt.func @swap_middle_axis(%x: tensor<4x2x8xi32>) -> tensor<4x2x8xi32> {
  %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %c = arith.xori %a, %b : i32
    tt.reduce.return %c : i32
  }) : (tensor<4x2x8xi32>) -> tensor<4x8xi32>
  %kept = tt.expand_dims %sum {axis = 1 : i32} : tensor<4x8xi32> -> tensor<4x1x8xi32>
  %back = tt.broadcast %kept : tensor<4x1x8xi32> -> tensor<4x2x8xi32>
  %partner = arith.xori %x, %back : tensor<4x2x8xi32>
  tt.return %partner : tensor<4x2x8xi32>
}

// -----

// Either operand order of the xor (tl.flip's `y ^ xor_sum(y)` and the
// reverse), and a 1-D pair, whose sum is a scalar kept as tensor<1>.
// CHECK-DAG: #[[MIRROR1:.*]] = affine_map<(d0) -> (-d0 + 1)>
// CHECK-LABEL: tt.func @swap_pair
// CHECK-NOT: tt.reduce
// CHECK: linalg.generic {indexing_maps = [#[[MIRROR1]], #{{.*}}]
tt.func @swap_pair(%x: tensor<2xi16>) -> tensor<2xi16> {
  %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: i16, %b: i16):
    %c = arith.xori %b, %a : i16
    tt.reduce.return %c : i16
  }) : (tensor<2xi16>) -> i16
  %kept = tt.splat %sum : i16 -> tensor<1xi16>
  %back = tt.broadcast %kept : tensor<1xi16> -> tensor<2xi16>
  %partner = arith.xori %back, %x : tensor<2xi16>
  tt.return %partner : tensor<2xi16>
}

// -----

// Not a swap, left as it is: an axis of 4 elements (the xor of all four
// is not one partner), a sum instead of a xor, and the xor_sum of another
// block.
// CHECK-LABEL: tt.func @not_swaps
// CHECK-NOT: linalg.generic
// CHECK-COUNT-3: "tt.reduce"
// CHECK-NOT: linalg.generic
tt.func @not_swaps(%x: tensor<4x4xi32>, %y: tensor<2x4xi32>, %z: tensor<2x4xi32>) -> (tensor<4x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>) {
  %s4 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %c = arith.xori %a, %b : i32
    tt.reduce.return %c : i32
  }) : (tensor<4x4xi32>) -> tensor<4xi32>
  %k4 = tt.expand_dims %s4 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %b4 = tt.broadcast %k4 : tensor<1x4xi32> -> tensor<4x4xi32>
  %r4 = arith.xori %x, %b4 : tensor<4x4xi32>
  %sadd = "tt.reduce"(%y) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tt.reduce.return %c : i32
  }) : (tensor<2x4xi32>) -> tensor<4xi32>
  %kadd = tt.expand_dims %sadd {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %badd = tt.broadcast %kadd : tensor<1x4xi32> -> tensor<2x4xi32>
  %radd = arith.xori %y, %badd : tensor<2x4xi32>
  %sz = "tt.reduce"(%z) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %c = arith.xori %a, %b : i32
    tt.reduce.return %c : i32
  }) : (tensor<2x4xi32>) -> tensor<4xi32>
  %kz = tt.expand_dims %sz {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %bz = tt.broadcast %kz : tensor<1x4xi32> -> tensor<2x4xi32>
  %rz = arith.xori %y, %bz : tensor<2x4xi32>
  tt.return %r4, %radd, %rz : tensor<4x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>
}
