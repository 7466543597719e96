// RUN: triton-spirv-opt %s --triton-reshape-pointers-before-loads -split-input-file | FileCheck %s

// An unmasked load, reshaped: the pointers are reshaped instead (with the
// reshape's attributes), and the load, with its own attributes, gives the
// reshaped block.
// CHECK-LABEL: tt.func public @reshaped_load
// CHECK: %[[PTRS:.*]] = tt.addptr
// CHECK: %[[PTRS2:.*]] = tt.reshape %[[PTRS]] allow_reorder : tensor<512x!tt.ptr<f32>> -> tensor<16x32x!tt.ptr<f32>>
// CHECK: %[[X:.*]] = tt.load %[[PTRS2]] evictionPolicy = evict_last : tensor<16x32x!tt.ptr<f32>>
// CHECK: "tt.reduce"(%[[X]])
tt.func public @reshaped_load(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %base = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %flat = tt.load %ptrs evictionPolicy = evict_last : tensor<512x!tt.ptr<f32>>
  %x = tt.reshape %flat allow_reorder : tensor<512xf32> -> tensor<16x32xf32>
  %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x32xf32>) -> tensor<16xf32>
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %rows : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %out_ptrs, %sum : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// A load masked by an index computation, with a constant `other`: all
// three are reshaped (--triton-reshape-index-computations computes the
// mask in the new shape).
// CHECK-LABEL: tt.func public @masked_load
// CHECK: %[[OTHER:.*]] = arith.constant dense<0.000000e+00> : tensor<512xf32>
// CHECK: %[[PTRS:.*]] = tt.addptr
// CHECK: %[[MASK:.*]] = arith.cmpi slt
// CHECK: %[[PTRS2:.*]] = tt.reshape %[[PTRS]] : tensor<512x!tt.ptr<f32>> -> tensor<16x32x!tt.ptr<f32>>
// CHECK: %[[MASK2:.*]] = tt.reshape %[[MASK]] : tensor<512xi1> -> tensor<16x32xi1>
// CHECK: %[[OTHER2:.*]] = tt.reshape %[[OTHER]] : tensor<512xf32> -> tensor<16x32xf32>
// CHECK: tt.load %[[PTRS2]], %[[MASK2]], %[[OTHER2]] : tensor<16x32x!tt.ptr<f32>>
tt.func public @masked_load(%in: !tt.ptr<f32>, %n: i32, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %base = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %bound = tt.splat %n : i32 -> tensor<512xi32>
  %mask = arith.cmpi slt, %range, %bound : tensor<512xi32>
  %other = arith.constant dense<0.0> : tensor<512xf32>
  %flat = tt.load %ptrs, %mask, %other : tensor<512x!tt.ptr<f32>>
  %x = tt.reshape %flat : tensor<512xf32> -> tensor<16x32xf32>
  %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x32xf32>) -> tensor<16xf32>
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %rows : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %out_ptrs, %sum : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// A mask computed from loaded data stays flat, and so does its load: the
// reshaped mask would be a reshape of a computed block.
// CHECK-LABEL: tt.func public @data_masked_load
// CHECK: %[[FLAT:.*]] = tt.load %{{.*}}, %{{.*}} : tensor<512x!tt.ptr<f32>>
// CHECK: tt.reshape %[[FLAT]] : tensor<512xf32> -> tensor<16x32xf32>
tt.func public @data_masked_load(%in: !tt.ptr<f32>, %flags: !tt.ptr<i32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %flag_base = tt.splat %flags : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>>
  %flag_ptrs = tt.addptr %flag_base, %range : tensor<512x!tt.ptr<i32>>, tensor<512xi32>
  %flag = tt.load %flag_ptrs : tensor<512x!tt.ptr<i32>>
  %zero = arith.constant dense<0> : tensor<512xi32>
  %mask = arith.cmpi ne, %flag, %zero : tensor<512xi32>
  %base = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %flat = tt.load %ptrs, %mask : tensor<512x!tt.ptr<f32>>
  %x = tt.reshape %flat : tensor<512xf32> -> tensor<16x32xf32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
  tt.store %out_base, %x : tensor<16x32x!tt.ptr<f32>>
  tt.return
}

// -----

// The loaded block is also used flat: it stays one load, reshaped after.
// CHECK-LABEL: tt.func public @load_with_another_use
// CHECK: %[[FLAT:.*]] = tt.load %{{.*}} : tensor<512x!tt.ptr<f32>>
// CHECK: tt.reshape %[[FLAT]] : tensor<512xf32> -> tensor<16x32xf32>
// CHECK-NOT: tt.load
tt.func public @load_with_another_use(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  %base = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  %flat = tt.load %ptrs : tensor<512x!tt.ptr<f32>>
  %x = tt.reshape %flat : tensor<512xf32> -> tensor<16x32xf32>
  %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x32xf32>) -> tensor<16xf32>
  %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %rows : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %out_ptrs, %sum : tensor<16x!tt.ptr<f32>>
  %flat_out = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>>
  %flat_ptrs = tt.addptr %flat_out, %range : tensor<512x!tt.ptr<f32>>, tensor<512xi32>
  tt.store %flat_ptrs, %flat : tensor<512x!tt.ptr<f32>>
  tt.return
}
