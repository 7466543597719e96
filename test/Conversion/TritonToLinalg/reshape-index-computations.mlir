// RUN: triton-spirv-opt %s --triton-reshape-index-computations -split-input-file | FileCheck %s

// A masked load's operands reshaped by --triton-reshape-pointers-before-
// loads: the reshapes move to the leaves. The range [0, 512) reshaped to
// 16x32 is columns + rows * 32 (its start, 0, folds away), the splats take
// the new shape, and the comparison and addptr run on 16x32 blocks.
// CHECK-LABEL: tt.func public @reshaped_mask_and_pointers
// CHECK-SAME: (%[[IN:[^:]*]]: !tt.ptr<f32>, %[[N:[^:]*]]: i32
// CHECK-DAG: %[[OTHER:.*]] = arith.constant dense<-1.000000e+00> : tensor<16x32xf32>
// CHECK-DAG: %[[ROW_LEN:.*]] = arith.constant dense<32> : tensor<16x32xi32>
// CHECK-DAG: %[[BASE:.*]] = tt.splat %[[IN]] : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
// CHECK: %[[COLS:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
// CHECK: %[[COLS2:.*]] = tt.expand_dims %[[COLS]] {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
// CHECK: %[[COLSB:.*]] = tt.broadcast %[[COLS2]] : tensor<1x32xi32> -> tensor<16x32xi32>
// CHECK: %[[ROWS:.*]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK: %[[ROWS2:.*]] = tt.expand_dims %[[ROWS]] {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
// CHECK: %[[ROWSB:.*]] = tt.broadcast %[[ROWS2]] : tensor<16x1xi32> -> tensor<16x32xi32>
// CHECK: %[[ROWOFF:.*]] = arith.muli %[[ROWSB]], %[[ROW_LEN]] : tensor<16x32xi32>
// CHECK: %[[INDEX:.*]] = arith.addi %[[COLSB]], %[[ROWOFF]] : tensor<16x32xi32>
// CHECK: %[[PTRS:.*]] = tt.addptr %[[BASE]], %[[INDEX]] : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
// CHECK: %[[INDEX2:.*]] = arith.addi
// CHECK: %[[BOUND:.*]] = tt.splat %[[N]] : i32 -> tensor<16x32xi32>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[INDEX2]], %[[BOUND]] : tensor<16x32xi32>
// CHECK: tt.load %[[PTRS]], %[[MASK]], %[[OTHER]] : tensor<16x32x!tt.ptr<f32>>
// CHECK-NOT: tt.reshape
tt.func public @reshaped_mask_and_pointers(%in: !tt.ptr<f32>, %n: i32, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %base = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %bound = tt.splat %n : i32 -> tensor<512xi32>
  %mask = arith.cmpi slt, %range, %bound : tensor<512xi32>
  %other = arith.constant dense<-1.0> : tensor<512xf32>
  %ptrs2 = tt.reshape %ptrs : tensor<512x!tt.ptr<f32>> -> tensor<16x32x!tt.ptr<f32>>
  %mask2 = tt.reshape %mask : tensor<512xi1> -> tensor<16x32xi1>
  %other2 = tt.reshape %other : tensor<512xf32> -> tensor<16x32xf32>
  %x = tt.load %ptrs2, %mask2, %other2 : tensor<16x32x!tt.ptr<f32>>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
  tt.store %out_base, %x : tensor<16x32x!tt.ptr<f32>>
  tt.return
}

// -----

// A range that starts elsewhere, into unit and non-unit dimensions: the
// start is added once, unit dimensions get no range.
// CHECK-LABEL: tt.func public @offset_range_with_unit_dimension
// CHECK-DAG: %[[ROW_LEN:.*]] = arith.constant dense<8> : tensor<4x1x8xi32>
// CHECK-DAG: %[[START:.*]] = arith.constant dense<64> : tensor<4x1x8xi32>
// CHECK: tt.make_range {end = 8 : i32, start = 0 : i32}
// CHECK: %[[INNERB:.*]] = tt.broadcast %{{.*}} : tensor<1x1x8xi32> -> tensor<4x1x8xi32>
// CHECK: %[[FIRST:.*]] = arith.addi %[[INNERB]], %[[START]] : tensor<4x1x8xi32>
// CHECK: tt.make_range {end = 4 : i32, start = 0 : i32}
// CHECK: %[[OUTERB:.*]] = tt.broadcast %{{.*}} : tensor<4x1x1xi32> -> tensor<4x1x8xi32>
// CHECK: %[[OUTER:.*]] = arith.muli %[[OUTERB]], %[[ROW_LEN]]
// CHECK: arith.addi %[[FIRST]], %[[OUTER]] : tensor<4x1x8xi32>
// CHECK-NOT: tt.make_range {end = 1
// CHECK-NOT: tt.reshape
tt.func public @offset_range_with_unit_dimension(%out: !tt.ptr<i32>) {
  %range = tt.make_range {end = 96 : i32, start = 64 : i32} : tensor<32xi32>
  %x = tt.reshape %range : tensor<32xi32> -> tensor<4x1x8xi32>
  %base = tt.splat %out : !tt.ptr<i32> -> tensor<4x1x8x!tt.ptr<i32>>
  tt.store %base, %x : tensor<4x1x8x!tt.ptr<i32>>
  tt.return
}

// -----

// A reshape of a loaded block is not an index computation: it stays.
// CHECK-LABEL: tt.func public @loaded_block
// CHECK: %[[X:.*]] = tt.load
// CHECK: %[[Y:.*]] = arith.addf %[[X]], %[[X]] : tensor<512xf32>
// CHECK: tt.reshape %[[Y]] : tensor<512xf32> -> tensor<16x32xf32>
tt.func public @loaded_block(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %base = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %x = tt.load %ptrs : tensor<512x!tt.ptr<f32>>
  %y = arith.addf %x, %x : tensor<512xf32>
  %z = tt.reshape %y : tensor<512xf32> -> tensor<16x32xf32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
  tt.store %out_base, %z : tensor<16x32x!tt.ptr<f32>>
  tt.return
}
