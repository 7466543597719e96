// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia workgroup-size=256" | FileCheck %s --check-prefix=NVIDIA
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia features=-cooperative-matrix2 subgroup-size=32 max-workgroup-memory=24576" | FileCheck %s --check-prefix=OVERRIDES
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia cooperative-matrix=0" | FileCheck %s --check-prefix=NO-MATRICES
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" | FileCheck %s --check-prefix=LAVAPIPE

// The device, the workgroup one program runs on, and the SPIR-V environment
// they imply, for every later pass.
// NVIDIA: module attributes
// NVIDIA-SAME: spirv.target_env = #spirv.target_env<#spirv.vce<v1.6
// NVIDIA-SAME: triton_spirv.target = #triton_spirv.target<"nvidia", subgroup_size = 32, workgroup_memory = 49152, max_workgroup_size = 1024>
// NVIDIA-SAME: triton_spirv.workgroup = #triton_spirv.workgroup<size = 256, subgroup_size = 32, memory = 49152, cooperative_matrix = true, bfloat16_cooperative_matrix = true, cooperative_matrix2 = true>

// The device's own limits and the features it lacks override the preset's.
// OVERRIDES: triton_spirv.target = #triton_spirv.target<"nvidia", subgroup_size = 32, workgroup_memory = 24576, max_workgroup_size = 1024, features = ["-cooperative-matrix2"]>
// OVERRIDES-SAME: triton_spirv.workgroup = #triton_spirv.workgroup<size = 128, subgroup_size = 32, memory = 24576, cooperative_matrix = true, bfloat16_cooperative_matrix = true, cooperative_matrix2 = false>

// NO-MATRICES: cooperative_matrix = false, bfloat16_cooperative_matrix = false, cooperative_matrix2 = false

// Cooperative matrices need 32-wide subgroups; lavapipe's are 8 wide.
// LAVAPIPE: #triton_spirv.workgroup<size = 128, subgroup_size = 8, memory = 32768, cooperative_matrix = false

module {
}
