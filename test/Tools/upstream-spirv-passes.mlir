// RUN: triton-spirv-opt %s --pass-pipeline='builtin.module(spirv.module(spirv-update-vce))' | FileCheck %s

// The upstream SPIR-V passes the pipeline runs on the spirv.module are
// registered, so that the pipeline's tail runs from SPIR-V-ready IR:
// spirv-update-vce derives the capabilities an f16 multiply needs.
// CHECK: spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Float16, Shader{{.*}}], []>
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> attributes {
    spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Float16], []>, #spirv.resource_limits<>>} {
  spirv.func @twice(%x: f16) -> f16 "None" {
    %y = spirv.FMul %x, %x : f16
    spirv.ReturnValue %y : f16
  }
}
