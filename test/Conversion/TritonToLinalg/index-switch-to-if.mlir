// RUN: triton-spirv-opt %s --triton-index-switch-to-if | FileCheck %s

// Each case becomes an scf.if on arg == case, the default the innermost
// else; the results flow out through every level.
// CHECK-LABEL: func.func @exits
// CHECK-SAME: (%[[ARG:.*]]: index, %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32)
// CHECK-NOT: scf.index_switch
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[ARG]], %c0
// CHECK: %[[R:.*]] = scf.if %[[IS0]] -> (i32) {
// CHECK:   scf.yield %[[A]] : i32
// CHECK: } else {
// CHECK:   %[[IS2:.*]] = arith.cmpi eq, %[[ARG]], %c2
// CHECK:   %[[S:.*]] = scf.if %[[IS2]] -> (i32) {
// CHECK:     scf.yield %[[B]] : i32
// CHECK:   } else {
// CHECK:     scf.yield %[[C]] : i32
// CHECK:   }
// CHECK:   scf.yield %[[S]] : i32
// CHECK: }
// CHECK: return %[[R]]
func.func @exits(%arg: index, %a: i32, %b: i32, %c: i32) -> i32 {
  %r = scf.index_switch %arg -> i32
  case 0 {
    scf.yield %a : i32
  }
  case 2 {
    scf.yield %b : i32
  }
  default {
    scf.yield %c : i32
  }
  return %r : i32
}
