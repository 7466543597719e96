// RUN: triton-spirv-opt %s --triton-spirv-expand-remainders | FileCheck %s

// Remainders (ExpandRemainders.cpp). fmod as a long division: while the remainder is at least |y|, subtract the
// largest |y| * 2^k not above it (exact); then x's sign, and NaN for an
// infinite x or a zero y. f16 is computed in f32.
// CHECK-LABEL: func.func @float_remainders
// CHECK-NOT: arith.remf
// CHECK: %[[X:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: %[[Y:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: %[[AX:.*]] = math.absf %[[X]] : f32
// CHECK: %[[AY:.*]] = math.absf %[[Y]] : f32
// CHECK: %[[LOOP:.*]] = scf.while (%[[R:.*]] = %[[AX]]) : (f32) -> f32
// CHECK: arith.cmpf oge, %[[R]], %[[AY]] : f32
// CHECK: arith.subf
// CHECK: %[[SIGNED:.*]] = math.copysign %[[LOOP]], %[[X]] : f32
// CHECK: %[[RESULT:.*]] = arith.select %{{.*}}, %[[SIGNED]], %{{.*}} : f32
// CHECK: arith.truncf %[[RESULT]] : f32 to f16
// CHECK: scf.while ({{.*}}) : (f64) -> f64
// CHECK: math.copysign {{.*}} : f64
// CHECK-NOT: arith.remf
func.func @float_remainders(%a: f16, %b: f16, %x: f64, %y: f64) -> (f16, f64)
    attributes {triton_spirv.kernel} {
  %r = arith.remf %a, %b : f16
  %s = arith.remf %x, %y : f64
  return %r, %s : f16, f64
}

// C's truncating remainder from the magnitudes, negated where x < 0, which
// is x != |x| or x == INT_MIN (|INT_MIN| wraps to INT_MIN).
// CHECK-LABEL: func.func @signed_remainder
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
// CHECK: %[[AX:.*]] = math.absi %[[X]] : i32
// CHECK: %[[AY:.*]] = math.absi %[[Y]] : i32
// CHECK: %[[R:.*]] = arith.remui %[[AX]], %[[AY]] : i32
// CHECK-DAG: %[[OTHER:.*]] = arith.cmpi ne, %[[X]], %[[AX]] : i32
// CHECK-DAG: %[[MIN:.*]] = arith.cmpi eq, %[[X]], %{{.*}} : i32
// CHECK: %[[NEGATIVE:.*]] = arith.ori %[[OTHER]], %[[MIN]] : i1
// CHECK: %[[MINUS:.*]] = arith.subi %{{.*}}, %[[R]] : i32
// CHECK: arith.select %[[NEGATIVE]], %[[MINUS]], %[[R]] : i32
// CHECK-NOT: arith.remsi
func.func @signed_remainder(%x: i32, %y: i32) -> i32
    attributes {triton_spirv.kernel} {
  %r = arith.remsi %x, %y : i32
  return %r : i32
}

// Functions that are not kernels are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK: arith.remsi %{{.*}}, %{{.*}} : i1
// CHECK: arith.remf %{{.*}}, %{{.*}} : f32
func.func @left_alone(%p: i1, %q: i1, %x: f32, %y: f32) -> (i1, f32) {
  %r = arith.remsi %p, %q : i1
  %s = arith.remf %x, %y : f32
  return %r, %s : i1, f32
}
