// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=128 max-workgroup-memory=32768 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-check-matmul-stagings -split-input-file | FileCheck %s

// A 128x128 accumulator in registers and its operands, 16 KiB each: exactly
// the target's workgroup memory, which the check allows (the
// accumulator's 64 KiB are registers, not workgroup memory).
// CHECK-LABEL: func.func @at_the_limit
// CHECK: linalg.matmul
func.func @at_the_limit(%a: memref<128x32xf32>, %b: memref<32x128xf32>,
                        %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %sa = memref.alloc() : memref<128x32xf32, #gpu.address_space<workgroup>>
  %sb = memref.alloc() : memref<32x128xf32, #gpu.address_space<workgroup>>
  %acc = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%a : memref<128x32xf32>) outs(%sa : memref<128x32xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%b : memref<32x128xf32>) outs(%sb : memref<32x128xf32, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%sa, %sb : memref<128x32xf32, #gpu.address_space<workgroup>>, memref<32x128xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// Both operands are views of one 24 KiB staging, which counts once.
// CHECK-LABEL: func.func @one_staging
// CHECK: linalg.matmul
func.func @one_staging(%a: memref<64x96xf32>, %c: memref<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<64x96xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%a : memref<64x96xf32>) outs(%s : memref<64x96xf32, #gpu.address_space<workgroup>>)
  %lhs = memref.subview %s[0, 0] [64, 64] [1, 1] : memref<64x96xf32, #gpu.address_space<workgroup>> to memref<64x64xf32, strided<[96, 1]>, #gpu.address_space<workgroup>>
  %rhs = memref.subview %s[0, 64] [64, 32] [1, 1] : memref<64x96xf32, #gpu.address_space<workgroup>> to memref<64x32xf32, strided<[96, 1], offset: 64>, #gpu.address_space<workgroup>>
  %acc = memref.alloc() : memref<64x32xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x32xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%lhs, %rhs : memref<64x64xf32, strided<[96, 1]>, #gpu.address_space<workgroup>>, memref<64x32xf32, strided<[96, 1], offset: 64>, #gpu.address_space<workgroup>>)
                outs(%acc : memref<64x32xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%acc : memref<64x32xf32, #gpu.address_space<workgroup>>) outs(%c : memref<64x32xf32>)
  return
}
