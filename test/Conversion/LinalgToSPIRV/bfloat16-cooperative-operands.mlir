// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+bfloat16-cooperative-matrix workgroup-size=32 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-bfloat16-cooperative-operands -split-input-file | FileCheck %s

// A bf16 matmul into f32 reads f16-typed bits of its operands and casts them
// back in its body: the same products, from blocks cooperative matrices load.
// CHECK-LABEL: func.func @bf16_matmul
// CHECK-SAME: (%[[A:.*]]: tensor<32x16xbf16>, %[[B:.*]]: tensor<16x32xbf16>, %[[C:.*]]: tensor<32x32xf32>)
// CHECK: %[[ABITS:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<32x16xbf16>) outs(%{{.*}} : tensor<32x16xf16>)
// CHECK: arith.bitcast %{{.*}} : bf16 to f16
// CHECK: %[[BBITS:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<16x32xbf16>) outs(%{{.*}} : tensor<16x32xf16>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[ABITS]], %[[BBITS]] : tensor<32x16xf16>, tensor<16x32xf16>) outs(%[[C]] : tensor<32x32xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[XB:.*]] = arith.bitcast %[[X]] : f16 to bf16
// CHECK-NEXT: %[[XF:.*]] = arith.extf %[[XB]] : bf16 to f32
// CHECK-NEXT: %[[YB:.*]] = arith.bitcast %[[Y]] : f16 to bf16
// CHECK-NEXT: %[[YF:.*]] = arith.extf %[[YB]] : bf16 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[XF]], %[[YF]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NOT: linalg.matmul
func.func @bf16_matmul(%a: tensor<32x16xbf16>, %b: tensor<16x32xbf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x16xbf16>, tensor<16x32xbf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

// Sizes that are not multiples of 16 (no whole cooperative matrices), fp16
// operands and bf16 accumulators stay as they are.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: arith.bitcast
// CHECK-COUNT-3: linalg.matmul
func.func @unchanged(%a: tensor<24x16xbf16>, %b: tensor<16x32xbf16>, %c: tensor<24x32xf32>,
                     %h: tensor<32x16xf16>, %g: tensor<16x32xf16>, %d: tensor<32x32xf32>,
                     %e: tensor<32x16xbf16>, %f: tensor<16x32xbf16>, %o: tensor<32x32xbf16>)
    -> (tensor<24x32xf32>, tensor<32x32xf32>, tensor<32x32xbf16>) {
  %r = linalg.matmul ins(%a, %b : tensor<24x16xbf16>, tensor<16x32xbf16>) outs(%c : tensor<24x32xf32>) -> tensor<24x32xf32>
  %s = linalg.matmul ins(%h, %g : tensor<32x16xf16>, tensor<16x32xf16>) outs(%d : tensor<32x32xf32>) -> tensor<32x32xf32>
  %t = linalg.matmul ins(%e, %f : tensor<32x16xbf16>, tensor<16x32xbf16>) outs(%o : tensor<32x32xbf16>) -> tensor<32x32xbf16>
  return %r, %s, %t : tensor<24x32xf32>, tensor<32x32xf32>, tensor<32x32xbf16>
}
