// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=opengl" -verify-diagnostics

// expected-error @+1 {{unknown target 'opengl'; expected one of lavapipe, nvidia, generic}}
module {
}
