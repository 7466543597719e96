// RUN: triton-spirv-opt %s --triton-spirv-kernel-to-spirv="target=nvidia workgroup-size=32" | FileCheck %s

// Fragment variables are Function-storage variables of cooperative matrices,
// written and read whole.
// CHECK: spirv.func @variables
// CHECK: %[[VAR:.*]] = spirv.Variable : !spirv.ptr<!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, Function>
// CHECK: spirv.Store "Function" %[[VAR]], %{{.*}} : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK: spirv.Load "Function" %[[VAR]] : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
func.func @variables(%pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                     %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                     %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %var = triton_spirv.fragment_variable : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf32, "COp">>
  %buffer = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %z = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
  triton_spirv.write_fragment %z, %var : !gpu.mma_matrix<16x16xf32, "COp">, !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf32, "COp">>
  %x = triton_spirv.read_fragment %var : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf32, "COp">> -> !gpu.mma_matrix<16x16xf32, "COp">
  gpu.subgroup_mma_store_matrix %x, %buffer[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, #gpu.address_space<workgroup>>
  return
}
