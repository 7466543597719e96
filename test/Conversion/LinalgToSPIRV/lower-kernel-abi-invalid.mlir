// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" --triton-spirv-create-shader-modules --triton-spirv-lower-kernel-abi -split-input-file -verify-diagnostics

// Roles are the KernelArgRole names of KernelABI.td.
// expected-error @+1 {{kernel argument #0 has an unknown role 'pointer'}}
func.func @unknown_role(%buf: memref<?xf32> {triton_spirv.abi = "pointer", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  return
}

// -----

// expected-error @+1 {{kernel argument #0 has role 'program_id_base_x', which only the SPIR-V stage assigns}}
func.func @runtime_role_on_an_argument(%base: i32 {triton_spirv.abi = "program_id_base_x"})
    attributes {triton_spirv.kernel} {
  return
}

// -----

// expected-error @+1 {{kernel argument #0 has no triton_spirv.abi role}}
func.func @missing_role(%x: i32) attributes {triton_spirv.kernel} {
  return
}
