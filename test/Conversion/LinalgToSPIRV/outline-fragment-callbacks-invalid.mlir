// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia features=-cooperative-matrix2" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv -verify-diagnostics

// Fragment ops need VK_NV_cooperative_matrix2.
func.func @fragment_ops_without_the_feature(%pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                     %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                     %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %buffer = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %x = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
  // expected-error @+1 {{'triton_spirv.reduce_fragment_rows' needs the target's cooperative-matrix2 feature (VK_NV_cooperative_matrix2)}}
  %max = triton_spirv.reduce_fragment_rows %x : !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    triton_spirv.yield %m : f32
  }
  gpu.subgroup_mma_store_matrix %max, %buffer[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, #gpu.address_space<workgroup>>
  return
}
