// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-chunk-matmul-reduction --canonicalize | FileCheck %s --check-prefix=THIRD
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+cooperative-matrix2 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-chunk-matmul-reduction --canonicalize | FileCheck %s --check-prefix=FRAGMENTS
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+cooperative-matrix2 workgroup-size=512 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-chunk-matmul-reduction --canonicalize | FileCheck %s --check-prefix=THIRD

#id = affine_map<(d0, d1) -> (d0, d1)>

// Attention's two dots: the second multiplies the exponentials of the
// first's result. Each dot's share is a third of 48 KiB over two: 8 KiB.
// Staged whole, the first takes (128 + 32) x 64 x 2 bytes = 20 KiB and the
// second (128 + 64) x 32 x 2 = 12 KiB: both run in chunks of 16.
// THIRD-LABEL: func.func @two_dots
// THIRD: scf.for %{{.*}} = %c0 to %c64 step %c16
// THIRD: linalg.matmul {{.*}} : tensor<128x16xf16>, tensor<16x32xf16>
// THIRD: scf.for %{{.*}} = %c0 to %c32 step %c16
// THIRD: linalg.matmul {{.*}} : tensor<128x16xf16>, tensor<16x64xf16>
//
// With cooperative-matrix2 the exponentials stay the first dot's fragments:
// the second dot stages only its 4 KiB right operand, whole; the first
// still runs in chunks of 16. With 16 subgroups (512 invocations) the 128
// rows do not give each a whole 16-row tile: no fragment family can form,
// and the weights count as staged again.
// FRAGMENTS-LABEL: func.func @two_dots
// FRAGMENTS: scf.for %{{.*}} = %c0 to %c64 step %c16
// FRAGMENTS: linalg.matmul {{.*}} : tensor<128x16xf16>, tensor<16x32xf16>
// FRAGMENTS-NOT: scf.for
// FRAGMENTS: linalg.matmul {{.*}} : tensor<128x32xf16>, tensor<32x64xf16>
func.func @two_dots(%q: tensor<128x64xf16>, %k: tensor<64x32xf16>, %v: tensor<32x64xf16>,
                    %acc: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x32xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x32xf32>) -> tensor<128x32xf32>
  %s = linalg.matmul ins(%q, %k : tensor<128x64xf16>, tensor<64x32xf16>) outs(%filled : tensor<128x32xf32>) -> tensor<128x32xf32>
  %empty16 = tensor.empty() : tensor<128x32xf16>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<128x32xf32>) outs(%empty16 : tensor<128x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %e = math.exp %x : f32
    %h = arith.truncf %e : f32 to f16
    linalg.yield %h : f16
  } -> tensor<128x32xf16>
  %r = linalg.matmul ins(%p, %v : tensor<128x32xf16>, tensor<32x64xf16>) outs(%acc : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}
