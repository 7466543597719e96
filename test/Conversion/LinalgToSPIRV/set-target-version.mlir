// RUN: triton-spirv-opt %s --split-input-file --pass-pipeline='builtin.module(spirv.module(triton-spirv-set-target-version))' | FileCheck %s

// The module declares the target's version, not the lowest its ops need:
// the entry point's interface was built for the target's.
// CHECK-LABEL: spirv.module
// CHECK-SAME: #spirv.vce<v1.6, [Shader], []>
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.6, [Shader], []>, #spirv.resource_limits<>>} {
  spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  }
}

// -----

// Physical storage buffers are declared through the KHR extension, which
// Vulkan 1.2's buffer device addresses provide; a later version stays.
// CHECK-LABEL: spirv.module
// CHECK-SAME: #spirv.vce<v1.6, [Shader, PhysicalStorageBufferAddresses], [SPV_KHR_physical_storage_buffer]>
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.5, [Shader], []>, #spirv.resource_limits<>>} {
  spirv.module PhysicalStorageBuffer64 GLSL450 requires #spirv.vce<v1.6, [Shader, PhysicalStorageBufferAddresses], [SPV_EXT_physical_storage_buffer]> {
  }
}

// -----

// Without a declared triple there is nothing to raise.
// CHECK-LABEL: spirv.module
// CHECK-NOT: requires
module {
  spirv.module Logical GLSL450 {
  }
}
