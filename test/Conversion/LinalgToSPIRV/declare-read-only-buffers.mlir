// RUN: triton-spirv-opt %s --pass-pipeline='builtin.module(spirv.module(triton-spirv-declare-read-only-buffers))' | FileCheck %s

// Binding 0 is only loaded: NonWritable. Binding 1 is written through one
// of its two variables (a buffer and its vector view), so neither is.
// CHECK: spirv.GlobalVariable @in bind(0, 0) {non_writable}
// CHECK: spirv.GlobalVariable @out bind(0, 1) :
// CHECK: spirv.GlobalVariable @out_vector bind(0, 1) :
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out_vector bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %c0 = spirv.Constant 0 : i32
    %in = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %in[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %x = spirv.Load "StorageBuffer" %p : f32
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %q = spirv.AccessChain %out[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    spirv.Store "StorageBuffer" %q, %x : f32
    %vector = spirv.mlir.addressof @out_vector : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %r = spirv.AccessChain %vector[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<vector<4xf32>, StorageBuffer>
    %y = spirv.Load "StorageBuffer" %r : vector<4xf32>
    spirv.Return
  }
}
