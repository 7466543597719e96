// RUN: triton-spirv-opt %s --triton-tensors-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: tt.func @shapes
tt.func @shapes(%s: i32, %m: tensor<4x8xf32>) -> (tensor<4x8xi32>, tensor<8x4xf32>, tensor<32xf32>) {
  // CHECK: %[[RANGE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8xi32>)
  // CHECK: linalg.index 0 : index
  // CHECK: arith.addi %{{.*}}, %c4
  // CHECK: arith.index_cast %{{.*}} : index to i32
  %r = tt.make_range {end = 12 : i32, start = 4 : i32} : tensor<8xi32>
  // CHECK: tensor.expand_shape %[[RANGE]] {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xi32> into tensor<1x8xi32>
  %e = tt.expand_dims %r {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  // CHECK: linalg.generic {indexing_maps = [#[[BCAST:.*]], #{{.*}}], iterator_types = ["parallel", "parallel"]}
  %b = tt.broadcast %e : tensor<1x8xi32> -> tensor<4x8xi32>
  // CHECK: linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<4x8xi32>)
  %f = tt.splat %s : i32 -> tensor<4x8xi32>
  %sum = arith.addi %b, %f : tensor<4x8xi32>
  // CHECK: linalg.transpose ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>) permutation = [1, 0]
  %t = tt.trans %m {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %flat = tt.reshape %m : tensor<4x8xf32> -> tensor<32xf32>
  tt.return %sum, %t, %flat : tensor<4x8xi32>, tensor<8x4xf32>, tensor<32xf32>
}

// -----

// Reductions have no identity in general: element 0 seeds the accumulator,
// the rest is folded in by linalg.reduce with the combiner (accumulator
// first).
// CHECK-LABEL: tt.func @argmax
// CHECK-DAG: %[[V0:.*]] = tensor.extract_slice %{{.*}}[0] [1] [1] : tensor<8xf32> to tensor<f32>
// CHECK-DAG: %[[I0:.*]] = tensor.extract_slice %{{.*}}[0] [1] [1] : tensor<8xi32> to tensor<i32>
// CHECK-DAG: %[[VR:.*]] = tensor.extract_slice %{{.*}}[1] [7] [1] : tensor<8xf32> to tensor<7xf32>
// CHECK: %[[RED:.*]]:2 = linalg.reduce ins(%[[VR]], %{{.*}} : tensor<7xf32>, tensor<7xi32>) outs(%[[V0]], %[[I0]] : tensor<f32>, tensor<i32>) dimensions = [0]
// CHECK-NEXT: (%[[IN:.*]]: f32, %[[INI:.*]]: i32, %[[ACC:.*]]: f32, %[[ACCI:.*]]: i32) {
// CHECK-NEXT: arith.cmpf ogt, %[[ACC]], %[[IN]] : f32
// CHECK: tensor.extract %[[RED]]#0[] : tensor<f32>
tt.func @argmax(%v: tensor<8xf32>, %i: tensor<8xi32>) -> (f32, i32) {
  %0:2 = "tt.reduce"(%v, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %x = arith.select %gt, %a, %b : f32
    %xi = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %x, %xi : f32, i32
  }) : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32)
  tt.return %0#0, %0#1 : f32, i32
}

// -----

// The scan runs in place: the loop carries the input, reads each slice from
// the carried value and writes it back at the same position.
// CHECK-LABEL: tt.func @cumsum
// CHECK-SAME: (%[[V:.*]]: tensor<8xf32>)
// CHECK: %[[FIRST:.*]] = tensor.extract_slice %[[V]][0] [1] [1]
// CHECK: scf.for %[[IV:.*]] = %c1 to %c8 step %c1
// CHECK-SAME: iter_args(%[[ACC:.*]] = %[[FIRST]], %[[OUT:.*]] = %[[V]])
// CHECK: %[[NEXT:.*]] = tensor.extract_slice %[[OUT]][%[[IV]]] [1] [1] : tensor<8xf32> to tensor<f32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[ACC]], %[[NEXT]] :
// CHECK: arith.addf
// CHECK: tensor.insert_slice %{{.*}} into %[[OUT]][%[[IV]]] [1] [1]
tt.func @cumsum(%v: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "tt.scan"(%v) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: tt.func @dots
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x8xf16>, tensor<8x32xf16>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x16x8xf32>, tensor<2x8x4xf32>) outs(%{{.*}} : tensor<2x16x4xf32>)
tt.func @dots(%a: tensor<16x8xf16>, %b: tensor<8x32xf16>, %c: tensor<16x32xf32>, %ba: tensor<2x16x8xf32>, %bb: tensor<2x8x4xf32>, %bc: tensor<2x16x4xf32>) -> (tensor<16x32xf32>, tensor<2x16x4xf32>) {
  %0 = tt.dot %a, %b, %c : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  %1 = tt.dot %ba, %bb, %bc, inputPrecision = tf32 : tensor<2x16x8xf32> * tensor<2x8x4xf32> -> tensor<2x16x4xf32>
  tt.return %0, %1 : tensor<16x32xf32>, tensor<2x16x4xf32>
}

// -----

// An fp16 accumulator (out_dtype=tl.float16) is accumulated in f32 and
// rounded once.
// CHECK-LABEL: tt.func @fp16_accumulator
// CHECK-SAME: (%[[A:.*]]: tensor<2x16x16xf16>, %[[B:.*]]: tensor<2x16x16xf16>, %[[C:.*]]: tensor<2x16x16xf16>)
// CHECK: %[[WIDE:.*]] = arith.extf %[[C]] : tensor<2x16x16xf16> to tensor<2x16x16xf32>
// CHECK: %[[P:.*]] = linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<2x16x16xf16>, tensor<2x16x16xf16>) outs(%[[WIDE]] : tensor<2x16x16xf32>)
// CHECK: %[[R:.*]] = arith.truncf %[[P]] : tensor<2x16x16xf32> to tensor<2x16x16xf16>
// CHECK: tt.return %[[R]]
tt.func @fp16_accumulator(%a: tensor<2x16x16xf16>, %b: tensor<2x16x16xf16>, %c: tensor<2x16x16xf16>) -> tensor<2x16x16xf16> {
  %0 = tt.dot %a, %b, %c : tensor<2x16x16xf16> * tensor<2x16x16xf16> -> tensor<2x16x16xf16>
  tt.return %0 : tensor<2x16x16xf16>
}

// -----

// CHECK-LABEL: tt.func @elementwise
tt.func @elementwise(%x: tensor<8xf32>, %u: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>, tensor<8xf16>, tensor<8xf32>, tensor<8xf32>) {
  // CHECK: %[[LO:.*]] = arith.maximumf %{{.*}}, %{{.*}} : tensor<8xf32>
  // CHECK: arith.minimumf %[[LO]], %{{.*}} : tensor<8xf32>
  %0 = tt.clampf %x, %x, %x, propagateNan = all : tensor<8xf32>
  // CHECK: %{{.*}}, %[[HI:.*]] = arith.mului_extended
  %1 = tt.mulhiui %u, %u : tensor<8xi32>
  // CHECK: arith.truncf %{{.*}} to_nearest_even : tensor<8xf32> to tensor<8xf16>
  %2 = tt.fp_to_fp %x, rounding = rtne : tensor<8xf32> -> tensor<8xf16>
  // CHECK: math.tanh %{{.*}} : tensor<8xf32>
  %3 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<8xf32>) -> tensor<8xf32>
  // erfinv has no math op: Giles' polynomials in w = -log(1 - x^2), the
  // central one in w - 2.5, the tail one in sqrt(w) - 3.
  // CHECK: %[[W:.*]] = arith.negf %{{.*}} : tensor<8xf32>
  // CHECK: arith.subf %[[W]], %{{.*}} : tensor<8xf32>
  // CHECK: math.sqrt %[[W]] : tensor<8xf32>
  // CHECK: arith.cmpf olt, %[[W]], %{{.*}} : tensor<8xf32>
  %4 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_erfinvf"} : (tensor<8xf32>) -> tensor<8xf32>
  tt.return %0, %1, %2, %3, %4 : tensor<8xf32>, tensor<8xi32>, tensor<8xf16>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Between two formats of one width (Triton 3.9 converts f16 and bf16
// directly; arith's casts must change the width): through f32, which holds
// either exactly, so the value is rounded once. A bf16 truncation carries
// no rounding attribute: it is to nearest even, as the bf16 expansion
// needs.
// CHECK-LABEL: tt.func @same_width_conversions
// CHECK: %[[H:.*]] = arith.extf %{{.*}} : tensor<8xf16> to tensor<8xf32>
// CHECK: arith.truncf %[[H]] : tensor<8xf32> to tensor<8xbf16>
// CHECK: %[[B:.*]] = arith.extf %{{.*}} : tensor<8xbf16> to tensor<8xf32>
// CHECK: arith.truncf %[[B]] to_nearest_even : tensor<8xf32> to tensor<8xf16>
// CHECK: %[[E:.*]] = arith.extf %{{.*}} : tensor<8xf8E5M2> to tensor<8xf32>
// CHECK: arith.truncf %[[E]] to_nearest_even : tensor<8xf32> to tensor<8xf8E4M3FN>
tt.func @same_width_conversions(%h: tensor<8xf16>, %b: tensor<8xbf16>, %e: tensor<8xf8E5M2>) -> (tensor<8xbf16>, tensor<8xf16>, tensor<8xf8E4M3FN>) {
  %0 = tt.fp_to_fp %h, rounding = rtne : tensor<8xf16> -> tensor<8xbf16>
  %1 = tt.fp_to_fp %b, rounding = rtne : tensor<8xbf16> -> tensor<8xf16>
  %2 = tt.fp_to_fp %e, rounding = rtne : tensor<8xf8E5M2> -> tensor<8xf8E4M3FN>
  tt.return %0, %1, %2 : tensor<8xbf16>, tensor<8xf16>, tensor<8xf8E4M3FN>
}

// -----

// CHECK-LABEL: tt.func @mapped
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
tt.func @mapped(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "tt.map_elementwise"(%x, %x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    tt.map_elementwise.return %m : f32
  }) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  tt.return %0 : tensor<8xf32>
}

// -----

// With pack = 2 each call takes two elements of each input and gives two of
// each output: the blocks are split into their even and odd elements, one
// generic runs the region on those parts, and each output is interleaved
// back from its parts.
// CHECK-LABEL: tt.func @mapped_pairs
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xi32>, %[[Y:.*]]: tensor<2x4xi32>)
// CHECK: %[[FX:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<2x4xi32> into tensor<8xi32>
// CHECK: %[[GX:.*]] = tensor.expand_shape %[[FX]] {{\[\[}}0, 1]] output_shape [4, 2] : tensor<8xi32> into tensor<4x2xi32>
// CHECK: %[[X0:.*]] = tensor.extract_slice %[[GX]][0, 0] [4, 1] [1, 1] : tensor<4x2xi32> to tensor<4xi32>
// CHECK: %[[X1:.*]] = tensor.extract_slice %[[GX]][0, 1] [4, 1] [1, 1] : tensor<4x2xi32> to tensor<4xi32>
// CHECK: %[[Y0:.*]] = tensor.extract_slice %{{.*}}[0, 0] [4, 1] [1, 1]
// CHECK: %[[Y1:.*]] = tensor.extract_slice %{{.*}}[0, 1] [4, 1] [1, 1]
// CHECK: %[[PARTS:.*]]:4 = linalg.generic {{.*}} ins(%[[X0]], %[[X1]], %[[Y0]], %[[Y1]] :
// CHECK: ^bb0(%[[A0:[a-z0-9_]+]]: i32, %[[A1:[a-z0-9_]+]]: i32, %[[B0:[a-z0-9_]+]]: i32, %[[B1:[a-z0-9_]+]]: i32,
// CHECK: %[[Q0:.*]] = arith.divsi %[[A0]], %[[B0]]
// CHECK: %[[Q1:.*]] = arith.divsi %[[A1]], %[[B1]]
// CHECK: linalg.yield %[[Q0]], %[[Q1]], %[[A0]], %[[B1]]
// CHECK: tensor.insert_slice %[[PARTS]]#0 into %{{.*}}[0, 0] [4, 1] [1, 1]
// CHECK: tensor.insert_slice %[[PARTS]]#1 into %{{.*}}[0, 1] [4, 1] [1, 1]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x2xi32> into tensor<8xi32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xi32> into tensor<2x4xi32>
tt.func @mapped_pairs(%x: tensor<2x4xi32>, %y: tensor<2x4xi32>) -> (tensor<2x4xi32>, tensor<2x4xi32>) {
  %0:2 = "tt.map_elementwise"(%x, %y) <{pack = 2 : i32}> ({
  ^bb0(%a0: i32, %a1: i32, %b0: i32, %b1: i32):
    %q0 = arith.divsi %a0, %b0 : i32
    %q1 = arith.divsi %a1, %b1 : i32
    tt.map_elementwise.return %q0, %q1, %a0, %b1 : i32, i32, i32, i32
  }) : (tensor<2x4xi32>, tensor<2x4xi32>) -> (tensor<2x4xi32>, tensor<2x4xi32>)
  tt.return %0#0, %0#1 : tensor<2x4xi32>, tensor<2x4xi32>
}

// -----

// libdevice's counts of 64-bit integers return i32: the i64 count narrowed.
// CHECK-LABEL: tt.func @count_bits
// CHECK: %[[COUNT:.*]] = math.ctpop %{{.*}} : tensor<8xi64>
// CHECK: arith.trunci %[[COUNT]] : tensor<8xi64> to tensor<8xi32>
tt.func @count_bits(%x: tensor<8xi64>) -> tensor<8xi32> {
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_popcll"} : (tensor<8xi64>) -> tensor<8xi32>
  tt.return %0 : tensor<8xi32>
}

// -----

// libdevice's classifications return i32 (finite: |x| < inf, false for
// NaN); powi raises to an integer exponent, as a float.
// CHECK-LABEL: tt.func @classify_and_powi
// CHECK: %[[ABS:.*]] = math.absf %{{.*}} : tensor<8xf32>
// CHECK: %[[FINITE:.*]] = arith.cmpf olt, %[[ABS]], %{{.*}} : tensor<8xf32>
// CHECK: arith.extui %[[FINITE]] : tensor<8xi1> to tensor<8xi32>
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %{{.*}}, %{{.*}} : tensor<8xf32>
// CHECK: arith.extui %[[NAN]] : tensor<8xi1> to tensor<8xi32>
// CHECK: %[[EXPONENT:.*]] = arith.sitofp %{{.*}} : tensor<8xi32> to tensor<8xf32>
// CHECK: math.powf %{{.*}}, %[[EXPONENT]] : tensor<8xf32>
tt.func @classify_and_powi(%x: tensor<8xf32>, %n: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>, tensor<8xf32>) {
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_finitef"} : (tensor<8xf32>) -> tensor<8xi32>
  %1 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_isnanf"} : (tensor<8xf32>) -> tensor<8xi32>
  %2 = tt.extern_elementwise %x, %n {libname = "", libpath = "", pure = true, symbol = "__nv_powif"} : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return %0, %1, %2 : tensor<8xi32>, tensor<8xi32>, tensor<8xf32>
}

// -----

// A combiner that is one known op has an identity: it seeds the result
// (-0.0 for a float sum, -inf for a maximum, the largest value for a signed
// minimum) and the whole input is folded in, so the reduction reads one
// block.
// CHECK-LABEL: tt.func @identities
// CHECK: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[SEED:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: linalg.reduce { arith.addf } ins(%arg0 : tensor<4x8xf32>) outs(%[[SEED]] : tensor<4xf32>) dimensions = [1]
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NINF]] : f32)
// CHECK: arith.maxnumf
// CHECK: %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK: linalg.fill ins(%[[MAX]] : i32)
// CHECK: arith.minsi
tt.func @identities(%x: tensor<4x8xf32>, %n: tensor<8xi32>) -> (tensor<4xf32>, tensor<8xf32>, i32) {
  %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  %max = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    tt.reduce.return %m : f32
  }) : (tensor<4x8xf32>) -> tensor<8xf32>
  %min = "tt.reduce"(%n) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %m = arith.minsi %a, %b : i32
    tt.reduce.return %m : i32
  }) : (tensor<8xi32>) -> i32
  tt.return %sum, %max, %min : tensor<4xf32>, tensor<8xf32>, i32
}

// -----

// sqrt_rn and div_rn must round correctly, which Vulkan does not promise:
// the ops carry the mark the SPIR-V stage computes them by.
// CHECK-LABEL: tt.func @correctly_rounded
// CHECK: %[[Q:.*]] = arith.divf %{{.*}}, %{{.*}} {triton_spirv.correctly_rounded} : tensor<8xf32>
// CHECK: math.sqrt %[[Q]] {triton_spirv.correctly_rounded} : tensor<8xf32>
tt.func @correctly_rounded(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %q = tt.precise_divf %x, %y : tensor<8xf32>
  %s = tt.precise_sqrt %q : tensor<8xf32>
  tt.return %s : tensor<8xf32>
}
