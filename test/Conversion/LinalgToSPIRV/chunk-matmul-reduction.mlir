// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic max-workgroup-memory=24576 max-workgroup-size=1024" --triton-spirv-chunk-matmul-reduction --canonicalize -split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// Operands of 64 x 64 and 64 x 64 f32 take 32 KiB, over a third of 24 KiB:
// the matmul runs over chunks of 16 of K (8 KiB of operands), and the loads
// of A and B, used by the matmul only, are computed a chunk at a time in the
// loop (each a 64 x 16 or 16 x 64 block, not a slice of a whole one).
// CHECK-LABEL: func.func @chunked
// CHECK: scf.for %[[K0:.*]] = %c0 to %c64 step %c16 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xf32>)
// CHECK:   %[[A:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<64x16xf32>)
// CHECK:     affine.apply #{{.*}}(%[[K0]])
// CHECK:     memref.load %arg0
// CHECK:   %[[B:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<16x64xf32>)
// CHECK:     memref.load %arg1
// CHECK:   %[[C:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<64x16xf32>, tensor<16x64xf32>) outs(%[[ACC]] : tensor<64x64xf32>)
// CHECK:   scf.yield %[[C]]
// CHECK-NOT: tensor<64x64xf32>) outs
func.func @chunked(%a: memref<?xf32>, %b: memref<?xf32>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %empty = tensor.empty() : tensor<64x64xf32>
  %lhs = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<64x64xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c64 = arith.constant 64 : index
    %row = arith.muli %i, %c64 : index
    %at = arith.addi %row, %j : index
    %x = memref.load %a[%at] : memref<?xf32>
    linalg.yield %x : f32
  } -> tensor<64x64xf32>
  %rhs = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<64x64xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c64 = arith.constant 64 : index
    %row = arith.muli %i, %c64 : index
    %at = arith.addi %row, %j : index
    %x = memref.load %b[%at] : memref<?xf32>
    linalg.yield %x : f32
  } -> tensor<64x64xf32>
  %c = linalg.matmul ins(%lhs, %rhs : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// Operands that fit (2 x 32 x 32 f32 = 8 KiB) are left whole.
// CHECK-LABEL: func.func @fits
// CHECK-NOT: scf.for
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<32x32xf32>, tensor<32x32xf32>)
func.func @fits(%lhs: tensor<32x32xf32>, %rhs: tensor<32x32xf32>, %acc: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %c = linalg.matmul ins(%lhs, %rhs : tensor<32x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A computed operand that another op also uses is not computed again: its
// chunks are copied out of the whole block (which can then stay in
// registers). An operand from elsewhere (a function argument) is sliced.
// CHECK-LABEL: func.func @shared_operand
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: scf.for %[[K0:.*]] = %c0 to %c64 step %c16
// CHECK:   %[[PS:.*]] = tensor.extract_slice %[[P]][0, %[[K0]]] [64, 16] [1, 1]
// CHECK:   %[[PC:.*]] = bufferization.alloc_tensor() copy(%[[PS]]) : tensor<64x16xf32>
// CHECK:   %[[BS:.*]] = tensor.extract_slice %arg1[%[[K0]], 0] [16, 64] [1, 1]
// CHECK:   linalg.matmul ins(%[[PC]], %[[BS]] :
func.func @shared_operand(%x: tensor<64x64xf32>, %rhs: tensor<64x64xf32>, %acc: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %empty = tensor.empty() : tensor<64x64xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x64xf32>) outs(%empty : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<64x64xf32>
  %c = linalg.matmul ins(%p, %rhs : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c, %p : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A load under the wrap check of a wrapped block (an scf.if yielding a
// block from each branch) is computed a chunk at a time in both branches.
// CHECK-LABEL: func.func @wrapped_load
// CHECK: scf.for %[[K0:.*]] = %c0 to %c64 step %c16
// CHECK:   %[[A:.*]] = scf.if %arg2 -> (tensor<64x16xf32>) {
// CHECK:     linalg.generic {{.*}} outs(%{{.*}} : tensor<64x16xf32>)
// CHECK:   } else {
// CHECK:     linalg.fill {{.*}} -> tensor<64x16xf32>
// CHECK:   linalg.matmul ins(%[[A]], %{{.*}} : tensor<64x16xf32>, tensor<16x64xf32>)
func.func @wrapped_load(%a: memref<?xf32>, %rhs: tensor<64x64xf32>, %wraps: i1, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %empty = tensor.empty() : tensor<64x64xf32>
  %lhs = scf.if %wraps -> (tensor<64x64xf32>) {
    %l = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<64x64xf32>) {
    ^bb0(%out: f32):
      %j = linalg.index 1 : index
      %x = memref.load %a[%j] : memref<?xf32>
      linalg.yield %x : f32
    } -> tensor<64x64xf32>
    scf.yield %l : tensor<64x64xf32>
  } else {
    %zero = arith.constant 0.0 : f32
    %z = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
    scf.yield %z : tensor<64x64xf32>
  }
  %c = linalg.matmul ins(%lhs, %rhs : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#groups = affine_map<(d0, d1, d2) -> (d0, d1, 0)>

// A chain of element-wise producers and reshapes, each used by the next
// alone (a scaled operand: a load times a per-32-element scale broadcast
// along K and merged into it), is chunked whole: the scale's load shrinks to
// the one group a chunk of 16 lies in (column k0 floordiv 32), its
// broadcast to the chunk's part of that group, and the collapse and the
// product are of chunks.
// CHECK-DAG: #[[GROUP:.*]] = affine_map<(d0) -> (d0 floordiv 32)>
// CHECK-LABEL: func.func @scaled_chain
// CHECK: scf.for %[[K0:.*]] = %c0 to %c64 step %c16
// CHECK:   %[[LOADED:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<64x16xf32>)
// CHECK:     memref.load %arg0
// CHECK:   %[[SCALE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<64x1xf32>)
// CHECK:     affine.apply #[[GROUP]](%[[K0]])
// CHECK:     memref.load %arg1
// CHECK:   %[[E:.*]] = tensor.expand_shape %[[SCALE]] {{.*}} into tensor<64x1x1xf32>
// CHECK:   %[[B:.*]] = linalg.generic {{.*}} ins(%[[E]] : tensor<64x1x1xf32>) outs(%{{.*}} : tensor<64x1x16xf32>)
// CHECK:   %[[PER:.*]] = tensor.collapse_shape %[[B]] {{.*}} into tensor<64x16xf32>
// CHECK:   %[[A:.*]] = linalg.generic {{.*}} ins(%[[LOADED]], %[[PER]] : tensor<64x16xf32>, tensor<64x16xf32>)
// CHECK:   linalg.matmul ins(%[[A]], %{{.*}} : tensor<64x16xf32>, tensor<16x64xf32>)
// CHECK-NOT: tensor<64x2x32xf32>
func.func @scaled_chain(%a: memref<?xf32>, %s: memref<?xf32>, %rhs: tensor<64x64xf32>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %empty = tensor.empty() : tensor<64x64xf32>
  %loaded = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<64x64xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c64 = arith.constant 64 : index
    %row = arith.muli %i, %c64 : index
    %at = arith.addi %row, %j : index
    %x = memref.load %a[%at] : memref<?xf32>
    linalg.yield %x : f32
  } -> tensor<64x64xf32>
  %empty2 = tensor.empty() : tensor<64x2xf32>
  %scale = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%empty2 : tensor<64x2xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %row = arith.muli %i, %c2 : index
    %at = arith.addi %row, %j : index
    %x = memref.load %s[%at] : memref<?xf32>
    linalg.yield %x : f32
  } -> tensor<64x2xf32>
  %expanded = tensor.expand_shape %scale [[0], [1, 2]] output_shape [64, 2, 1] : tensor<64x2xf32> into tensor<64x2x1xf32>
  %empty3 = tensor.empty() : tensor<64x2x32xf32>
  %broadcast = linalg.generic {indexing_maps = [#groups, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<64x2x1xf32>) outs(%empty3 : tensor<64x2x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x2x32xf32>
  %perElement = tensor.collapse_shape %broadcast [[0], [1, 2]] : tensor<64x2x32xf32> into tensor<64x64xf32>
  %lhs = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%loaded, %perElement : tensor<64x64xf32>, tensor<64x64xf32>) outs(%empty : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<64x64xf32>
  %c = linalg.matmul ins(%lhs, %rhs : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

#flat = affine_map<(d0) -> (d0)>
#swap = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// A batched matmul (a 4-D tl.dot of blocks loaded flat, reshaped, one
// transposed) is chunked along K for all batches. Its operands' chunks are
// no boxes of the flat loads: the reshapes fold into the loads, which
// then load each chunk in the operand's shape (linearizing the indices
// into the flat offset); the transpose is computed a chunk at a time too.
// A and B take 16 KiB whole, 8 KiB in chunks of 16 (a third of 24 KiB).
// CHECK-LABEL: func.func @batched_flat_loads
// CHECK: scf.for %[[K0:.*]] = %c0 to %c32 step %c16 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<4x32x32xf32>)
// CHECK:   %[[A:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x2x16x32xf16>)
// CHECK:     memref.load %arg0
// CHECK:   %[[AT:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<2x2x16x32xf16>) outs(%{{.*}} : tensor<2x2x32x16xf16>)
// CHECK:   %[[ACHUNK:.*]] = tensor.collapse_shape %[[AT]] {{\[\[}}0, 1], [2], [3]] : tensor<2x2x32x16xf16> into tensor<4x32x16xf16>
// CHECK:   %[[B:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x16x32xf16>)
// CHECK:     memref.load %arg1
// CHECK:   linalg.batch_matmul ins(%[[ACHUNK]], %[[B]] : tensor<4x32x16xf16>, tensor<4x16x32xf16>) outs(%[[ACC]] : tensor<4x32x32xf32>)
func.func @batched_flat_loads(%a: memref<?xf16>, %b: memref<?xf16>, %acc: tensor<4x32x32xf32>) -> tensor<4x32x32xf32> {
  %empty = tensor.empty() : tensor<4096xf16>
  %la = linalg.generic {indexing_maps = [#flat], iterator_types = ["parallel"]} outs(%empty : tensor<4096xf16>) {
  ^bb0(%out: f16):
    %i = linalg.index 0 : index
    %v = memref.load %a[%i] : memref<?xf16>
    linalg.yield %v : f16
  } -> tensor<4096xf16>
  %lb = linalg.generic {indexing_maps = [#flat], iterator_types = ["parallel"]} outs(%empty : tensor<4096xf16>) {
  ^bb0(%out: f16):
    %i = linalg.index 0 : index
    %v = memref.load %b[%i] : memref<?xf16>
    linalg.yield %v : f16
  } -> tensor<4096xf16>
  %ea = tensor.expand_shape %la [[0, 1, 2, 3]] output_shape [2, 2, 32, 32] : tensor<4096xf16> into tensor<2x2x32x32xf16>
  %e4 = tensor.empty() : tensor<2x2x32x32xf16>
  %ta = linalg.generic {indexing_maps = [#swap, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ea : tensor<2x2x32x32xf16>) outs(%e4 : tensor<2x2x32x32xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2x2x32x32xf16>
  %ca = tensor.collapse_shape %ta [[0, 1], [2], [3]] : tensor<2x2x32x32xf16> into tensor<4x32x32xf16>
  %eb = tensor.expand_shape %lb [[0, 1, 2]] output_shape [4, 32, 32] : tensor<4096xf16> into tensor<4x32x32xf16>
  %r = linalg.batch_matmul ins(%ca, %eb : tensor<4x32x32xf16>, tensor<4x32x32xf16>) outs(%acc : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  return %r : tensor<4x32x32xf32>
}
