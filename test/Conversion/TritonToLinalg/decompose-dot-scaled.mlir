// tt.dot_scaled becomes f32 upcasts, per-group scales and an ieee tt.dot.
// RUN: triton-spirv-opt %s --triton-decompose-dot-scaled -split-input-file | FileCheck %s

// e2m1 pairs packed along K on the lhs: each byte is broadcast over a new
// pair dimension whose index (0, 1) shifts out the low or the high nibble;
// the decoded values merge back into K. The e8m0 scale is broadcast over its
// 32 elements of K. The bf16 rhs has no scale.
// CHECK-LABEL: tt.func @fp4_lhs_scaled
// CHECK-SAME: (%[[A:.*]]: tensor<16x32xi8>, %[[S:.*]]: tensor<16x2xi8>, %[[B:.*]]: tensor<64x16xbf16>, %[[C:.*]]: tensor<16x16xf32>)
// CHECK: %[[E:.*]] = tt.expand_dims %[[A]] {axis = 2 : i32} : tensor<16x32xi8> -> tensor<16x32x1xi8>
// CHECK: %[[PAIRS:.*]] = tt.broadcast %[[E]] : tensor<16x32x1xi8> -> tensor<16x32x2xi8>
// CHECK: %[[INDEX:.*]] = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
// CHECK: %[[I3:.*]] = tt.reshape %[[INDEX]] : tensor<2xi32> -> tensor<1x1x2xi32>
// CHECK: %[[IB:.*]] = tt.broadcast %[[I3]] : tensor<1x1x2xi32> -> tensor<16x32x2xi32>
// CHECK: %[[SHIFT:.*]] = arith.muli %[[IB]], %{{.*}} : tensor<16x32x2xi32>
// CHECK: %[[BYTES:.*]] = arith.extui %[[PAIRS]] : tensor<16x32x2xi8> to tensor<16x32x2xi32>
// CHECK: %[[SHIFTED:.*]] = arith.shrui %[[BYTES]], %[[SHIFT]] : tensor<16x32x2xi32>
// CHECK: %[[NIBBLE:.*]] = arith.andi %[[SHIFTED]], %{{.*}} : tensor<16x32x2xi32>
// The decoding: exponent (bits 1-2) + 126 into the f32 exponent, the
// mantissa bit to f32 bit 22, 0.5 (0x3F000000) where the exponent is 0, and
// the sign (bit 3) to bit 31.
// CHECK: arith.constant dense<126> : tensor<16x32x2xi32>
// CHECK: arith.constant dense<1056964608> : tensor<16x32x2xi32>
// CHECK: arith.constant dense<28> : tensor<16x32x2xi32>
// CHECK: %[[DECODED:.*]] = arith.bitcast %{{.*}} : tensor<16x32x2xi32> to tensor<16x32x2xf32>
// CHECK: %[[AF:.*]] = tt.reshape %[[DECODED]] : tensor<16x32x2xf32> -> tensor<16x64xf32>
// CHECK: %[[SW:.*]] = arith.extui %[[S]] : tensor<16x2xi8> to tensor<16x2xi32>
// CHECK: %[[SB:.*]] = arith.shli %[[SW]], %{{.*}} : tensor<16x2xi32>
// CHECK: %[[SF:.*]] = arith.bitcast %{{.*}} : tensor<16x2xi32> to tensor<16x2xf32>
// CHECK: %[[SE:.*]] = tt.expand_dims %[[SF]] {axis = 2 : i32} : tensor<16x2xf32> -> tensor<16x2x1xf32>
// CHECK: %[[SG:.*]] = tt.broadcast %[[SE]] : tensor<16x2x1xf32> -> tensor<16x2x32xf32>
// CHECK: %[[SK:.*]] = tt.reshape %[[SG]] : tensor<16x2x32xf32> -> tensor<16x64xf32>
// CHECK: %[[AS:.*]] = arith.mulf %[[AF]], %[[SK]] : tensor<16x64xf32>
// CHECK: %[[BF:.*]] = arith.extf %[[B]] : tensor<64x16xbf16> to tensor<64x16xf32>
// CHECK: %[[D:.*]] = tt.dot %[[AS]], %[[BF]], %[[C]] : tensor<16x64xf32> * tensor<64x16xf32> -> tensor<16x16xf32>
// CHECK: tt.return %[[D]]
// CHECK-NOT: tt.dot_scaled
tt.func @fp4_lhs_scaled(%a: tensor<16x32xi8>, %s: tensor<16x2xi8>, %b: tensor<64x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<16x32xi8>, tensor<16x2xi8> * tensor<64x16xbf16> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// -----

// e4m3 on the rhs: widened with tt.fp_to_fp; its [N, K/32] scale is
// expanded to [N, K] and transposed to the operand's [K, N].
// CHECK-LABEL: tt.func @fp8_rhs_scaled
// CHECK: %[[AF:.*]] = arith.extf %{{.*}} : tensor<16x64xf16> to tensor<16x64xf32>
// CHECK: %[[BF:.*]] = tt.fp_to_fp %{{.*}} : tensor<64x32xf8E4M3FN> -> tensor<64x32xf32>
// CHECK: %[[SK:.*]] = tt.reshape %{{.*}} : tensor<32x2x32xf32> -> tensor<32x64xf32>
// CHECK: %[[ST:.*]] = tt.trans %[[SK]] {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
// CHECK: %[[BS:.*]] = arith.mulf %[[BF]], %[[ST]] : tensor<64x32xf32>
// CHECK: tt.dot %[[AF]], %[[BS]], %{{.*}} : tensor<16x64xf32> * tensor<64x32xf32> -> tensor<16x32xf32>
tt.func @fp8_rhs_scaled(%a: tensor<16x64xf16>, %b: tensor<64x32xf8E4M3FN>, %s: tensor<32x2xi8>, %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %d = tt.dot_scaled %a, %b scale %s, %c lhs = fp16 rhs = e4m3 {fastMath = false} : tensor<16x64xf16> * tensor<64x32xf8E4M3FN>, tensor<32x2xi8> -> tensor<16x32xf32>
  tt.return %d : tensor<16x32xf32>
}

// -----

// fp4 packed along M (k_pack = false): the pair dimension follows M.
// e4m3 scales group 16 elements of K.
// CHECK-LABEL: tt.func @fp4_packed_along_m
// CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<8x64xi8> -> tensor<8x1x64xi8>
// CHECK: tt.reshape %{{.*}} : tensor<2xi32> -> tensor<1x2x1xi32>
// CHECK: tt.reshape %{{.*}} : tensor<8x2x64xf32> -> tensor<16x64xf32>
// CHECK: tt.fp_to_fp %{{.*}} : tensor<16x4xf8E4M3FN> -> tensor<16x4xf32>
// CHECK: tt.broadcast %{{.*}} : tensor<16x4x1xf32> -> tensor<16x4x16xf32>
// CHECK: tt.dot {{.*}} : tensor<16x64xf32> * tensor<64x16xf32> -> tensor<16x16xf32>
tt.func @fp4_packed_along_m(%a: tensor<8x64xi8>, %s: tensor<16x4xf8E4M3FN>, %b: tensor<64x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tt.dot_scaled %a scale %s, %b, %c lhs = e2m1 rhs = fp16 {fastMath = false, lhs_k_pack = false} : tensor<8x64xi8>, tensor<16x4xf8E4M3FN> * tensor<64x16xf16> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}
