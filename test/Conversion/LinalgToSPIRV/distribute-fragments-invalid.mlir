// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix workgroup-size=128 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-distribute -split-input-file -verify-diagnostics

// Accumulators in a fragments layout are created by their fill, computed by
// their matmul and then read; the distribution rejects other orders and
// uses (the layout analysis never assigns them).
func.func @read_before_matmul(%a: memref<32x32xf16, #gpu.address_space<workgroup>>,
                              %dst: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.fragments<[2, 2]>} : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  // expected-error @+1 {{reads a buffer in layout #triton_spirv.fragments<[2, 2]> before its matmul computed it}}
  linalg.copy ins(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<32x32xf32>)
  return
}

// -----

func.func @matmul_before_fill(%a: memref<32x32xf16, #gpu.address_space<workgroup>>) {
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.fragments<[2, 2]>} : memref<32x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{accumulates into a buffer in layout #triton_spirv.fragments<[2, 2]> before its fill}}
  linalg.matmul ins(%a, %a : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>)
                outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  return
}

// -----

func.func @viewed(%dst: memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.fragments<[2, 2]>} : memref<32x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{accesses a buffer in layout #triton_spirv.fragments<[2, 2]> other than by its fill, its matmul and element-wise reads}}
  %view = memref.subview %acc[0, 0] [16, 16] [1, 1] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<16x16xf32, strided<[32, 1]>, #gpu.address_space<workgroup>>
  memref.copy %view, %dst : memref<16x16xf32, strided<[32, 1]>, #gpu.address_space<workgroup>> to memref<16x16xf32>
  return
}

// -----

func.func @not_cooperative_form(%a: memref<32x32xf32, #gpu.address_space<workgroup>>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.fragments<[2, 2]>} : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  // expected-error @+1 {{a matmul accumulating into a buffer in layout #triton_spirv.fragments<[2, 2]> must have the cooperative-matrix form, be tiled by the layout and sit in loops below its accumulator's fill}}
  linalg.matmul ins(%a, %a : memref<32x32xf32, #gpu.address_space<workgroup>>, memref<32x32xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  return
}

// -----

func.func @transposed_read(%a: memref<32x32xf16, #gpu.address_space<workgroup>>,
                           %dst: memref<32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.fragments<[2, 2]>} : memref<32x32xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%a, %a : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>)
                outs(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>)
  // expected-error @+1 {{reads a buffer in layout #triton_spirv.fragments<[2, 2]> at other elements than its own}}
  linalg.transpose ins(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<32x32xf32>) permutation = [1, 0]
  return
}
