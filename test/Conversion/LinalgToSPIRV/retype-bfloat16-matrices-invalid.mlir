// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv -verify-diagnostics

// An accumulator rounded to bf16 bits may only be stored: anything else
// would read the bits as f16.
func.func @rounded_to_bfloat16_and_kept(%pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                                        %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                                        %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %one = arith.constant 1.0 : f32
  %var = triton_spirv.fragment_variable : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf16, "COp">>
  %x = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<16x16xf32, "COp">
  // expected-error @+1 {{a matrix rounded to bf16 is used by spirv.Store besides cooperative-matrix stores}}
  %h = triton_spirv.convert_fragment %x {triton_spirv.bfloat16} : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  triton_spirv.write_fragment %h, %var : !gpu.mma_matrix<16x16xf16, "COp">, !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf16, "COp">>
  return
}
