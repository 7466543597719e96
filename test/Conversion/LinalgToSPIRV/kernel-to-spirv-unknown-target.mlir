// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=opengl" --triton-spirv-assign-storage-classes --triton-spirv-check-workgroup-memory --triton-spirv-round-correctly --triton-spirv-atomics-to-compare-and-swap --triton-spirv-emulate-small-floats --triton-spirv-expand-double-math --triton-spirv-legalize-for-spirv --triton-spirv-fuse-multiply-adds --triton-spirv-kernel-to-spirv -verify-diagnostics

// expected-error @+1 {{unknown target 'opengl'; expected one of lavapipe, nvidia, generic}}
module {
}
