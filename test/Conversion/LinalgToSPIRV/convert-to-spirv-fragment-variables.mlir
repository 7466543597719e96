// RUN: triton-spirv-opt %s -split-input-file --triton-spirv-resolve-target="target=nvidia workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s

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

// -----

// An accumulator rounded to f16 keeps its use: a plain FConvert of
// cooperative matrices (SPV_KHR_cooperative_matrix), with no
// VK_NV_cooperative_matrix2 callback.
// CHECK: spirv.func @rounded_accumulator
// CHECK: %[[F16:.*]] = spirv.FConvert %{{.*}} : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc> to !spirv.coopmatrix<16x16xf16, Subgroup, MatrixAcc>
// CHECK: spirv.KHR.CooperativeMatrixStore %{{.*}}, %[[F16]], %{{.*}}, <RowMajor>
func.func @rounded_accumulator(%pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                               %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                               %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %buffer = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %x = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<16x16xf32, "COp">
  %h = triton_spirv.convert_fragment %x : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  gpu.subgroup_mma_store_matrix %h, %buffer[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16, #gpu.address_space<workgroup>>
  return
}

// -----

// Rounded to bf16 bits held as f16 (marked by the distribution): the
// FConvert gives a bf16 matrix (SPV_KHR_bfloat16), which the store writes
// as 16-bit words into the f16 buffer.
// CHECK: spirv.func @rounded_to_bfloat16
// CHECK: %[[BF16:.*]] = spirv.FConvert %{{.*}} : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc> to !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixAcc>
// CHECK-NOT: triton_spirv.bfloat16
// CHECK: spirv.KHR.CooperativeMatrixStore %{{.*}}, %[[BF16]], %{{.*}}, <RowMajor> : !spirv.ptr<f16, Workgroup>, !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixAcc>
func.func @rounded_to_bfloat16(%pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                               %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                               %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %buffer = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %x = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<16x16xf32, "COp">
  %h = triton_spirv.convert_fragment %x {triton_spirv.bfloat16} : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  gpu.subgroup_mma_store_matrix %h, %buffer[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16, #gpu.address_space<workgroup>>
  return
}
