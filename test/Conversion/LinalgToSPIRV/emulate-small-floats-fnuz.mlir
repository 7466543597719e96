// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" --triton-spirv-emulate-small-floats | FileCheck %s

// f8E4M3FNUZ (Triton's fp8e4b8): bias 8, no infinity, 0x80 the one NaN and
// no negative zero. Widening reads 0x80 as NaN (its magnitude reads as a
// zero); narrowing saturates at 0x7F (240), gives NaN 0x80, and drops the
// sign of a zero.
// CHECK-LABEL: func.func @fnuz
// CHECK-SAME: memref<?xi8>
// CHECK: %[[BYTE:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[IS_NAN:.*]] = arith.cmpi eq, %[[BYTE]], %c128_i32 : i32
// CHECK: %[[FINITE:.*]] = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK-NEXT: %[[WIDE:.*]] = arith.select %[[IS_NAN]], %c2143289344_i32, %[[FINITE]] : i32
// CHECK: arith.bitcast %[[WIDE]] : i32 to f32
// CHECK: %[[NORMAL:.*]] = arith.minui %{{.*}}, %c127_i32 : i32
// CHECK: %[[NAN_IN:.*]] = arith.cmpi ugt, %{{.*}}, %c2139095040_i32 : i32
// CHECK: %[[CODE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NORMAL]] : i32
// CHECK: %[[ZERO:.*]] = arith.cmpi eq, %[[CODE]], %c0_i32 : i32
// CHECK: %[[SIGNED:.*]] = arith.ori %{{.*}}, %[[CODE]] : i32
// CHECK: %[[KEPT:.*]] = arith.select %[[ZERO]], %[[CODE]], %[[SIGNED]] : i32
// CHECK: %[[NARROW:.*]] = arith.select %[[NAN_IN]], %c128_i32, %[[KEPT]] : i32
// CHECK: arith.trunci %[[NARROW]] : i32 to i8
func.func @fnuz(%buf: memref<?xf8E4M3FNUZ> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                %out: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %buf[%c0] : memref<?xf8E4M3FNUZ>
  %y = arith.extf %x : f8E4M3FNUZ to f32
  memref.store %y, %out[%c0] : memref<?xf32>
  %z = memref.load %out[%c0] : memref<?xf32>
  %w = arith.truncf %z : f32 to f8E4M3FNUZ
  memref.store %w, %buf[%c0] : memref<?xf8E4M3FNUZ>
  return
}
