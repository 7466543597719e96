// RUN: triton-spirv-opt %s --pass-pipeline="builtin.module(triton-spirv-resolve-target{target=nvidia},spirv.module(triton-spirv-preserve-denormals))" | FileCheck %s
// RUN: triton-spirv-opt %s --pass-pipeline="builtin.module(triton-spirv-resolve-target{target=nvidia features=-denorm-preserve-float32},spirv.module(triton-spirv-preserve-denormals))" | FileCheck %s --check-prefix=FLUSHED
// RUN: triton-spirv-opt %s --pass-pipeline="builtin.module(triton-spirv-resolve-target{target=lavapipe},spirv.module(triton-spirv-preserve-denormals))" | FileCheck %s --check-prefix=FLUSHED

// Where the target keeps f32 denormals (NVIDIA's driver flushes them
// otherwise), each entry point asks for it; CUDA keeps them too.
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
