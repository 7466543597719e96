// RUN: triton-spirv-opt %s --triton-version-single-iteration-loops -split-input-file | FileCheck %s

// Two passes over a row, both loading x_ptr: from the first loop on, the
// kernel runs either the loops' bodies once (0 < N <= 64) or the loops.
// CHECK-LABEL: tt.func public @two_passes
// CHECK: %[[PID:.*]] = tt.get_program_id x
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[ENTERED:.*]] = arith.cmpi sgt, %[[N:.*]], %[[C0]] : i32
// CHECK: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: %[[ONCE:.*]] = arith.cmpi sle, %[[N]], %[[C64]] : i32
// CHECK: %[[BOTH:.*]] = arith.andi %[[ENTERED]], %[[ONCE]] : i1
// CHECK: scf.if %[[BOTH]] {
// CHECK-NOT: scf.for
// CHECK: %[[START:.*]] = arith.constant 0 : i32
// CHECK: tt.splat %[[START]]
// CHECK: %[[FIRST:.*]] = tt.load
// CHECK: arith.addf %{{.*}}, %[[FIRST]]
// CHECK: "tt.reduce"
// CHECK: %[[SECOND:.*]] = tt.load
// CHECK: tt.store
// CHECK: } else {
// CHECK: scf.for
// CHECK: "tt.reduce"
// CHECK: scf.for
// CHECK: tt.store
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
tt.func public @two_passes(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %N: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zeros = arith.constant dense<0.0> : tensor<64xf32>
  %pid = tt.get_program_id x : i32
  %sum = scf.for %start = %c0 to %N step %c64 iter_args(%acc = %zeros) -> (tensor<64xf32>) : i32 {
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %base = tt.splat %start : i32 -> tensor<64xi32>
    %cols = arith.addi %base, %range : tensor<64xi32>
    %ptrs0 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %ptrs = tt.addptr %ptrs0, %cols : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %x = tt.load %ptrs : tensor<64x!tt.ptr<f32>>
    %next = arith.addf %acc, %x : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<64xf32>) -> f32
  scf.for %start = %c0 to %N step %c64 : i32 {
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %base = tt.splat %start : i32 -> tensor<64xi32>
    %cols = arith.addi %base, %range : tensor<64xi32>
    %ptrs0 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %ptrs = tt.addptr %ptrs0, %cols : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %x = tt.load %ptrs : tensor<64x!tt.ptr<f32>>
    %t = tt.splat %total : f32 -> tensor<64xf32>
    %y = arith.divf %x, %t : tensor<64xf32>
    %out0 = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %out = tt.addptr %out0, %cols : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %out, %y : tensor<64x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Loops over different arguments (no row read twice), or with different
// steps: left alone.
// CHECK-LABEL: tt.func public @nothing_read_twice
// CHECK-NOT: scf.if
tt.func public @nothing_read_twice(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %N: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  scf.for %start = %c0 to %N step %c64 : i32 {
    %p = tt.addptr %x_ptr, %start : !tt.ptr<f32>, i32
    %x = tt.load %p : !tt.ptr<f32>
    tt.store %p, %x : !tt.ptr<f32>
  }
  scf.for %start = %c0 to %N step %c64 : i32 {
    %p = tt.addptr %y_ptr, %start : !tt.ptr<f32>, i32
    %y = tt.load %p : !tt.ptr<f32>
    tt.store %p, %y : !tt.ptr<f32>
  }
  scf.for %start = %c0 to %N step %c32 : i32 {
    %p = tt.addptr %x_ptr, %start : !tt.ptr<f32>, i32
    %x = tt.load %p : !tt.ptr<f32>
    tt.store %p, %x : !tt.ptr<f32>
  }
  tt.return
}
