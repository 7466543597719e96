// RUN: triton-spirv-opt %s --triton-spirv-bufferize -split-input-file | FileCheck %s

// CSE leaves one tensor.empty as the destination of attention's staged keys
// and of its weights (a block of the same shape computed from the first
// dot's result). Each op computing a matmul operand gets an empty of its
// own, so that the two are not one buffer (which would tie the weights, a
// fragment family's member, to the staged operand's layout).
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @weights_apart_from_staged_keys
// CHECK-DAG: %[[WEIGHTS:.*]] = memref.alloc() {{.*}} : memref<32x32xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[KEYS:.*]] = memref.alloc() {{.*}} : memref<32x32xf16, #gpu.address_space<workgroup>>
// CHECK: linalg.generic {{.*}} outs(%[[KEYS]] :
// CHECK: linalg.matmul ins(%{{.*}}, %[[KEYS]] :
// CHECK: linalg.generic {{.*}} outs(%[[WEIGHTS]] :
// CHECK: linalg.matmul ins(%[[WEIGHTS]], %{{.*}} :
func.func @weights_apart_from_staged_keys(%keys: memref<?xf16>, %queries: memref<32x32xf16>,
                                          %values: memref<32x32xf16>, %out: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %c32 = arith.constant 32 : index
  %q = bufferization.to_tensor %queries restrict : memref<32x32xf16> to tensor<32x32xf16>
  %v = bufferization.to_tensor %values restrict : memref<32x32xf16> to tensor<32x32xf16>
  %empty = tensor.empty() : tensor<32x32xf16>
  %k = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%empty : tensor<32x32xf16>) {
  ^bb0(%o: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %row = arith.muli %i, %c32 : index
    %at = arith.addi %row, %j : index
    %x = memref.load %keys[%at] : memref<?xf16>
    linalg.yield %x : f16
  } -> tensor<32x32xf16>
  %e32 = tensor.empty() : tensor<32x32xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%e32 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %s = linalg.matmul ins(%q, %k : tensor<32x32xf16>, tensor<32x32xf16>)
                     outs(%zeros : tensor<32x32xf32>) -> tensor<32x32xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<32x32xf32>) outs(%empty : tensor<32x32xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<32x32xf16>
  %e32b = tensor.empty() : tensor<32x32xf32>
  %zeros2 = linalg.fill ins(%zero : f32) outs(%e32b : tensor<32x32xf32>) -> tensor<32x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<32x32xf16>, tensor<32x32xf16>)
                     outs(%zeros2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  bufferization.materialize_in_destination %o in restrict writable %out
      : (tensor<32x32xf32>, memref<32x32xf32>) -> ()
  return
}

// -----

// Destinations of ops that compute no matmul operand stay shared (one
// buffer where lives do not overlap).
// CHECK-LABEL: func.func @other_destinations_shared
// CHECK: %[[ONE:.*]] = memref.alloc() {{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc() {{.*}} : memref<64xf32
// CHECK: linalg.generic {{.*}} outs(%[[ONE]] :
// CHECK: linalg.generic {{.*}} outs(%[[ONE]] :
#line = affine_map<(d0) -> (d0)>
func.func @other_destinations_shared(%in: memref<64xf32>, %out: memref<64xf32>) {
  %x = bufferization.to_tensor %in restrict : memref<64xf32> to tensor<64xf32>
  %empty = tensor.empty() : tensor<64xf32>
  %doubled = linalg.generic {indexing_maps = [#line, #line], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%empty : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.addf %a, %a : f32
    linalg.yield %d : f32
  } -> tensor<64xf32>
  %squared = linalg.generic {indexing_maps = [#line, #line], iterator_types = ["parallel"]}
      ins(%doubled : tensor<64xf32>) outs(%empty : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  bufferization.materialize_in_destination %squared in restrict writable %out
      : (tensor<64xf32>, memref<64xf32>) -> ()
  return
}
