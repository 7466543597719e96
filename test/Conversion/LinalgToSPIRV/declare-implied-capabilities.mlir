// RUN: triton-spirv-opt %s --split-input-file --pass-pipeline='builtin.module(spirv.module(triton-spirv-declare-implied-capabilities))' | FileCheck %s

// A 64-bit integer atomic needs Int64Atomics, which spirv-update-vce does
// not derive from the op.
// CHECK-LABEL: spirv.module
// CHECK-SAME: #spirv.vce<v1.5, [Shader, Int64, Int64Atomics], []>
spirv.module Logical GLSL450 requires #spirv.vce<v1.5, [Shader, Int64], []> {
  spirv.GlobalVariable @buffer bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
  spirv.func @add() "None" {
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i64
    %base = spirv.mlir.addressof @buffer : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
    %element = spirv.AccessChain %base[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i64, StorageBuffer>
    %old = spirv.AtomicIAdd <Device> <None> %element, %one : !spirv.ptr<i64, StorageBuffer>
    spirv.Return
  }
}

// -----

// 32-bit atomics need nothing more.
// CHECK-LABEL: spirv.module
// CHECK-SAME: #spirv.vce<v1.5, [Shader], []>
spirv.module Logical GLSL450 requires #spirv.vce<v1.5, [Shader], []> {
  spirv.GlobalVariable @buffer bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @add() "None" {
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %base = spirv.mlir.addressof @buffer : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %element = spirv.AccessChain %base[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    %old = spirv.AtomicIAdd <Device> <None> %element, %one : !spirv.ptr<i32, StorageBuffer>
    spirv.Return
  }
}

// -----

// A cooperative matrix of bf16 components needs BFloat16CooperativeMatrixKHR,
// which spirv-update-vce does not derive from the type.
// CHECK-LABEL: spirv.module
// CHECK-SAME: #spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, BFloat16TypeKHR, BFloat16CooperativeMatrixKHR], [SPV_KHR_cooperative_matrix, SPV_KHR_bfloat16]>
spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [Shader, CooperativeMatrixKHR, BFloat16TypeKHR], [SPV_KHR_cooperative_matrix, SPV_KHR_bfloat16]> {
  spirv.GlobalVariable @tile : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f16>)>, Workgroup>
  spirv.func @load() "None" {
    %zero = spirv.Constant 0 : i32
    %stride = spirv.Constant 16 : i32
    %base = spirv.mlir.addressof @tile : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f16>)>, Workgroup>
    %element = spirv.AccessChain %base[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f16>)>, Workgroup>, i32, i32 -> !spirv.ptr<f16, Workgroup>
    %matrix = spirv.KHR.CooperativeMatrixLoad %element, %stride, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixA>
    spirv.Return
  }
}
