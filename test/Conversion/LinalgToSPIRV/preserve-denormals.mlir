// RUN: triton-spirv-opt %s --pass-pipeline="builtin.module(triton-spirv-resolve-target{target=nvidia features=+denorm-preserve-float32},spirv.module(triton-spirv-preserve-denormals))" | FileCheck %s
// RUN: triton-spirv-opt %s --pass-pipeline="builtin.module(triton-spirv-resolve-target{target=nvidia},spirv.module(triton-spirv-preserve-denormals))" | FileCheck %s --check-prefix=FLUSHED
// RUN: triton-spirv-opt %s --pass-pipeline="builtin.module(triton-spirv-resolve-target{target=lavapipe},spirv.module(triton-spirv-preserve-denormals))" | FileCheck %s --check-prefix=FLUSHED

// Where the target can keep f32 denormals (no preset can: the H200's NVIDIA
// driver flushes them), each entry point asks for it, as CUDA keeps them.
// CHECK: spirv.EntryPoint "GLCompute" @kernel
// CHECK-NEXT: spirv.ExecutionMode @kernel "DenormPreserve", 32
// CHECK: spirv.ExecutionMode @kernel "LocalSize", 32, 1, 1
// FLUSHED-NOT: DenormPreserve
spirv.module Logical GLSL450 {
  spirv.func @kernel() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @kernel
  spirv.ExecutionMode @kernel "LocalSize", 32, 1, 1
}
