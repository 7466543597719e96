// Every tt op parses, verifies and prints back in Triton's textual form; the
// printed form parses again to the same text.
// RUN: triton-spirv-opt %s | FileCheck %s
// RUN: triton-spirv-opt %s | triton-spirv-opt | FileCheck %s
// RUN: triton-spirv-opt %s --mlir-print-op-generic | triton-spirv-opt | FileCheck %s

// CHECK-LABEL: tt.func public @casts_and_math
tt.func public @casts_and_math(%p: !tt.ptr<f32>, %i: tensor<8xi64>, %f: tensor<8xf32>, %u: tensor<8xi32>) {
  // CHECK: tt.int_to_ptr %{{.*}} : tensor<8xi64> -> tensor<8x!tt.ptr<f32>>
  %0 = tt.int_to_ptr %i : tensor<8xi64> -> tensor<8x!tt.ptr<f32>>
  // CHECK: tt.ptr_to_int %{{.*}} : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
  %1 = tt.ptr_to_int %0 : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
  // CHECK: tt.bitcast %{{.*}} : tensor<8xf32> -> tensor<8xi32>
  %2 = tt.bitcast %f : tensor<8xf32> -> tensor<8xi32>
  // CHECK: tt.bitcast %{{.*}} : !tt.ptr<f32> -> !tt.ptr<i8>
  %3 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i8>
  // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<8xf32> -> tensor<8xf8E5M2>
  %4 = tt.fp_to_fp %f, rounding = rtne : tensor<8xf32> -> tensor<8xf8E5M2>
  // CHECK: tt.fp_to_fp %{{.*}} : tensor<8xf8E5M2> -> tensor<8xf32>
  %5 = tt.fp_to_fp %4 : tensor<8xf8E5M2> -> tensor<8xf32>
  // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<8xf32>
  %6 = tt.clampf %f, %f, %f, propagateNan = all : tensor<8xf32>
  // CHECK: tt.precise_sqrt %{{.*}} : tensor<8xf32>
  %7 = tt.precise_sqrt %f : tensor<8xf32>
  // CHECK: tt.precise_divf %{{.*}}, %{{.*}} : tensor<8xf32>
  %8 = tt.precise_divf %f, %f : tensor<8xf32>
  // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : tensor<8xi32>
  %9 = tt.mulhiui %u, %u : tensor<8xi32>
  // CHECK: tt.extern_elementwise %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__nv_erff"} : (tensor<8xf32>) -> tensor<8xf32>
  %10 = tt.extern_elementwise %f {libname = "", libpath = "", pure = true, symbol = "__nv_erff"} : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<8xi32> -> tensor<8xi32>
  %11 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %u : tensor<8xi32> -> tensor<8xi32>
  // CHECK: tt.return
  tt.return
}

// CHECK-LABEL: tt.func @memory
tt.func @memory(%p: !tt.ptr<f16, 3>, %ptrs: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>, %o: tensor<16xf32>, %off: tensor<16xi32>, %s: !tt.ptr<i32>) {
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %0 = tt.addptr %ptrs, %off : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  // CHECK: tt.load %{{.*}} : tensor<16x!tt.ptr<f32>>
  %1 = tt.load %0 : tensor<16x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<16x!tt.ptr<f32>>
  %2 = tt.load %0, %m, %o cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<16x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} cacheModifier = wt : tensor<16x!tt.ptr<f32>>
  tt.store %0, %2, %m cacheModifier = wt : tensor<16x!tt.ptr<f32>>
  // Triton 3.9 prints the hints as one cache policy.
  // CHECK: tt.load %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_first>} : tensor<16x!tt.ptr<f32>>
  %p39 = tt.load %0 {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_first>} : tensor<16x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>} : tensor<16x!tt.ptr<f32>>
  tt.store %0, %p39 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>} : tensor<16x!tt.ptr<f32>>
  // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>
  %3 = tt.atomic_rmw fadd, acq_rel, gpu, %0, %2, %m : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: tt.atomic_rmw exch, relaxed, sys, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32) -> i32
  %4 = tt.atomic_rmw exch, relaxed, sys, %s, %c1 : (!tt.ptr<i32>, i32) -> i32
  // CHECK: tt.atomic_cas acquire, cta, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32, i32) -> i32
  %5 = tt.atomic_cas acquire, cta, %s, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
  // CHECK: tt.return
  tt.return
}

// CHECK-LABEL: tt.func @block_pointers
tt.func @block_pointers(%base: !tt.ptr<f16>, %n: i64, %i: i32) -> tensor<16x32xf16> {
  // CHECK: tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<16x32xf16>>
  %0 = tt.make_tensor_ptr %base, [%n, %n], [%n, %n], [%i, %i] {order = array<i32: 1, 0>} : <tensor<16x32xf16>>
  // CHECK: tt.advance %{{.*}}, [%{{.*}}, %{{.*}}] : <tensor<16x32xf16>>
  %1 = tt.advance %0, [%i, %i] : <tensor<16x32xf16>>
  // CHECK: tt.load %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x32xf16>>
  %2 = tt.load %1 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<16x32xf16>>
  // CHECK: tt.store %{{.*}}, %{{.*}} {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<16x32xf16>>
  tt.store %1, %2 {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<16x32xf16>>
  // CHECK: tt.return %{{.*}} : tensor<16x32xf16>
  tt.return %2 : tensor<16x32xf16>
}

// CHECK-LABEL: tt.func @descriptors
tt.func @descriptors(%base: !tt.ptr<f16>, %n: i32, %s: i64, %rows: tensor<8xi32>, %t: tensor<16x32xf16>, %g: tensor<8x32xf16>) {
  // CHECK: tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <f16>, <tensor<16x32xf16>>
  %0 = tt.make_tensor_descriptor %base, [%n, %n], [%s, %s] : <f16>, <tensor<16x32xf16>>
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
  %1 = tt.descriptor_load %0[%n, %n] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
  // CHECK: tt.descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
  tt.descriptor_store %0[%n, %n], %t : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
  // CHECK: tt.descriptor_reduce add, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
  tt.descriptor_reduce add, %0[%n, %n], %t : !tt.tensordesc<tensor<16x32xf16>>, tensor<16x32xf16>
  // CHECK: tt.descriptor_gather %{{.*}}[%{{.*}}, %{{.*}}] : (!tt.tensordesc<tensor<16x32xf16>>, tensor<8xi32>, i32) -> tensor<8x32xf16>
  %2 = tt.descriptor_gather %0[%rows, %n] : (!tt.tensordesc<tensor<16x32xf16>>, tensor<8xi32>, i32) -> tensor<8x32xf16>
  // CHECK: tt.descriptor_scatter %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<16x32xf16>>, tensor<8xi32>, i32, tensor<8x32xf16>
  tt.descriptor_scatter %0[%rows, %n], %g : !tt.tensordesc<tensor<16x32xf16>>, tensor<8xi32>, i32, tensor<8x32xf16>
  tt.return
}

// CHECK-LABEL: tt.func @shapes
tt.func @shapes(%x: f32, %v: tensor<8xf32>, %m: tensor<4x8xf32>, %one: tensor<1xf32>, %idx: tensor<4x8xi32>) {
  // CHECK: tt.splat %{{.*}} : f32 -> tensor<8xf32>
  %0 = tt.splat %x : f32 -> tensor<8xf32>
  // CHECK: tt.unsplat %{{.*}} : tensor<1xf32>
  %1 = tt.unsplat %one : tensor<1xf32>
  // CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %2 = tt.expand_dims %v {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  // CHECK: tt.broadcast %{{.*}} : tensor<1x8xf32> -> tensor<4x8xf32>
  %3 = tt.broadcast %2 : tensor<1x8xf32> -> tensor<4x8xf32>
  // CHECK: tt.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
  %4 = tt.reshape %3 : tensor<4x8xf32> -> tensor<32xf32>
  // CHECK: tt.reshape %{{.*}} allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
  %5 = tt.reshape %3 allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
  // CHECK: tt.cat %{{.*}}, %{{.*}} : tensor<8xf32> -> tensor<16xf32>
  %6 = tt.cat %v, %v : tensor<8xf32> -> tensor<16xf32>
  // CHECK: tt.join %{{.*}}, %{{.*}} : tensor<8xf32> -> tensor<8x2xf32>
  %7 = tt.join %v, %v : tensor<8xf32> -> tensor<8x2xf32>
  // CHECK: tt.split %{{.*}} : tensor<8x2xf32> -> tensor<8xf32>
  %8:2 = tt.split %7 : tensor<8x2xf32> -> tensor<8xf32>
  // CHECK: tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %9 = tt.trans %m {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: tt.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
  %10 = tt.gather %m[%idx] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
  // CHECK: tt.make_range {end = 16 : i32, start = 8 : i32} : tensor<8xi32>
  %11 = tt.make_range {end = 16 : i32, start = 8 : i32} : tensor<8xi32>
  // CHECK: tt.histogram %{{.*}} : tensor<8xi32> -> tensor<4xi32>
  %12 = tt.histogram %11 : tensor<8xi32> -> tensor<4xi32>
  %mask = arith.constant dense<true> : tensor<8xi1>
  // CHECK: tt.histogram %{{.*}}, %{{.*}} : tensor<8xi32> -> tensor<4xi32>
  %13 = tt.histogram %11, %mask : tensor<8xi32> -> tensor<4xi32>
  tt.return
}

// CHECK-LABEL: tt.func @programs_and_dots
tt.func @programs_and_dots(%a: tensor<16x8xf16>, %b: tensor<8x32xf16>, %c: tensor<16x32xf32>, %ba: tensor<2x16x8xf32>, %bb: tensor<2x8x4xf32>, %bc: tensor<2x16x4xf32>) {
  // CHECK: tt.get_program_id x : i32
  %0 = tt.get_program_id x : i32
  // CHECK: tt.get_program_id z : i32
  %1 = tt.get_program_id z : i32
  // CHECK: tt.get_num_programs y : i32
  %2 = tt.get_num_programs y : i32
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  %3 = tt.dot %a, %b, %c : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}}, inputPrecision = tf32 : tensor<2x16x8xf32> * tensor<2x8x4xf32> -> tensor<2x16x4xf32>
  %4 = tt.dot %ba, %bb, %bc, inputPrecision = tf32 : tensor<2x16x8xf32> * tensor<2x8x4xf32> -> tensor<2x16x4xf32>
  // CHECK: tt.dot %{{.*}}, %{{.*}}, %{{.*}} {maxNumImpreciseAcc = 32 : i32} : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  %5 = tt.dot %a, %b, %c {maxNumImpreciseAcc = 32 : i32} : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  tt.return
}

// CHECK-LABEL: tt.func @scaled_dot
tt.func @scaled_dot(%a: tensor<16x32xf8E4M3FN>, %as: tensor<16x1xi8>, %b: tensor<32x16xf8E4M3FN>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // CHECK: tt.dot_scaled %{{.*}} scale %{{.*}}, %{{.*}}, %{{.*}} lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<16x32xf8E4M3FN>, tensor<16x1xi8> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>
  %0 = tt.dot_scaled %a scale %as, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<16x32xf8E4M3FN>, tensor<16x1xi8> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>
  tt.return %0 : tensor<16x16xf32>
}

// CHECK-LABEL: tt.func @regions
tt.func @regions(%v: tensor<4x8xf32>, %i: tensor<4x8xi32>) {
  // CHECK: "tt.reduce"(%{{.*}}, %{{.*}}) <{axis = 1 : i32}> ({
  // CHECK: tt.reduce.return %{{.*}}, %{{.*}} : f32, i32
  // CHECK: }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  %0:2 = "tt.reduce"(%v, %i) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %x = arith.select %gt, %a, %b : f32
    %xi = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %x, %xi : f32, i32
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  // CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = true}> ({
  // CHECK: tt.scan.return %{{.*}} : f32
  %1 = "tt.scan"(%v) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: "tt.map_elementwise"(%{{.*}}) <{pack = 1 : i32}> ({
  // CHECK: tt.map_elementwise.return %{{.*}} : i32
  %2 = "tt.map_elementwise"(%i) <{pack = 1 : i32}> ({
  ^bb0(%a: i32):
    %n = arith.addi %a, %a : i32
    tt.map_elementwise.return %n : i32
  }) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  tt.return
}

// CHECK-LABEL: tt.func @debugging
tt.func @debugging(%c: tensor<8xi1>, %v: tensor<8xi32>) {
  // CHECK: tt.print " v: " {hex = false, isSigned = array<i32: 1>} : %{{.*}} : tensor<8xi32>
  tt.print " v: " {hex = false, isSigned = array<i32: 1>} : %v : tensor<8xi32>
  // CHECK: tt.assert %{{.*}}, "must hold" : tensor<8xi1>
  tt.assert %c, "must hold" : tensor<8xi1>
  tt.return
}

// CHECK-LABEL: tt.func private @callee
// CHECK-SAME: (%{{.*}}: i32 {tt.divisibility = 16 : i32}) -> i32 attributes {noinline = true}
tt.func private @callee(%x: i32 {tt.divisibility = 16 : i32}) -> i32 attributes {noinline = true} {
  tt.return %x : i32
}

// CHECK-LABEL: tt.func public @caller
tt.func public @caller(%x: i32) -> i32 {
  // CHECK: tt.call @callee(%{{.*}}) : (i32) -> i32
  %0 = tt.call @callee(%x) : (i32) -> i32
  tt.return %0 : i32
}

// A pointer the kernel only reads (tl.const), as Triton 3.9 prints it.
// CHECK-LABEL: tt.func public @constant_pointers
// CHECK-SAME: %{{.*}}: !tt.ptr<f32, "constant">
tt.func public @constant_pointers(%p: !tt.ptr<f32, "constant">, %o: tensor<8xi32>) -> tensor<8xf32> {
  // CHECK: tt.splat %{{.*}} : !tt.ptr<f32, "constant"> -> tensor<8x!tt.ptr<f32, "constant">>
  %0 = tt.splat %p : !tt.ptr<f32, "constant"> -> tensor<8x!tt.ptr<f32, "constant">>
  // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<8x!tt.ptr<f32, "constant">>, tensor<8xi32>
  %1 = tt.addptr %0, %o : tensor<8x!tt.ptr<f32, "constant">>, tensor<8xi32>
  %2 = tt.load %1 : tensor<8x!tt.ptr<f32, "constant">>
  tt.return %2 : tensor<8xf32>
}
