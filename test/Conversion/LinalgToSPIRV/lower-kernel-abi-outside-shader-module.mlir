// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" --triton-spirv-lower-kernel-abi -verify-diagnostics

// The kernel must be in the shader module its interface variables go to.
// expected-error @+1 {{the kernel is not in a shader module: --triton-spirv-create-shader-modules comes first}}
func.func @outside_a_shader_module() attributes {triton_spirv.kernel} {
  return
}
