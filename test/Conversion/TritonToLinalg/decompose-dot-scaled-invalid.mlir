// Scaled products the decomposition cannot express are rejected at the op.
// RUN: triton-spirv-opt %s --triton-decompose-dot-scaled -split-input-file -verify-diagnostics

tt.func @fp6_operand(%a: tensor<16x64xi8>, %s: tensor<16x2xi8>, %b: tensor<64x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{tl.dot_scaled: operand format e2m3 is not supported}}
  %d = tt.dot_scaled %a scale %s, %b, %c lhs = e2m3 rhs = bf16 {fastMath = false} : tensor<16x64xi8>, tensor<16x2xi8> * tensor<64x16xbf16> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// -----

tt.func @uneven_scale_groups(%a: tensor<16x48xf8E5M2>, %s: tensor<16x5xi8>, %b: tensor<48x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{tl.dot_scaled: a scale tensor of shape 'tensor<16x5xi8>' does not divide K = 48 into equal groups}}
  %d = tt.dot_scaled %a scale %s, %b, %c lhs = e5m2 rhs = bf16 {fastMath = false} : tensor<16x48xf8E5M2>, tensor<16x5xi8> * tensor<48x16xbf16> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}

// -----

tt.func @float_scales(%a: tensor<16x64xf8E5M2>, %s: tensor<16x2xf32>, %b: tensor<64x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{tl.dot_scaled: scales of type 'f32' are not supported (e8m0 as uint8, or e4m3)}}
  %d = tt.dot_scaled %a scale %s, %b, %c lhs = e5m2 rhs = bf16 {fastMath = false} : tensor<16x64xf8E5M2>, tensor<16x2xf32> * tensor<64x16xbf16> -> tensor<16x16xf32>
  tt.return %d : tensor<16x16xf32>
}
