// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv -split-input-file | FileCheck %s

// Subgroup matrix ops on workgroup buffers become KHR cooperative-matrix
// loads, multiply-adds and stores through workgroup pointers (SPIR-V 1.6).
// The spirv-val of Debian 12 predates SPV_KHR_cooperative_matrix, so only the
// IR is checked here.
// CHECK: spirv.module Logical GLSL450
// CHECK: %[[A:.*]] = spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
// CHECK: %[[B:.*]] = spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
// CHECK: %[[C:.*]] = spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<f32, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK: %[[D:.*]] = spirv.KHR.CooperativeMatrixMulAdd %[[A]], %[[B]], %[[C]]
// CHECK: spirv.KHR.CooperativeMatrixStore %{{.*}}, %[[D]], %{{.*}}, <RowMajor>
func.func @mma(%pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
               %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
               %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %x = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  %y = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
  %z = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf32, "COp">
  %r = gpu.subgroup_mma_compute %x, %y, %z : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
  gpu.subgroup_mma_store_matrix %r, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// Fragments (an accumulator kept in registers): a constant matrix for the
// fill, and the epilogue's store of a fragment to the subgroup's scratch
// tile, read back by lane.
// CHECK: entry_point = "fragments"
// CHECK: %[[ZERO:.*]] = spirv.CompositeConstruct %{{.*}} : (f32) -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK: spirv.KHR.CooperativeMatrixStore %{{.*}}, %[[ZERO]], %{{.*}}, <RowMajor>
// CHECK: spirv.Load "Input" %__builtin__SubgroupLocalInvocationId
func.func @fragments(%pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                     %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                     %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"},
                     %out: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %scratch = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %fragment = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
  gpu.subgroup_mma_store_matrix %fragment, %scratch[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %lane = gpu.lane_id
  %x = memref.load %scratch[%c0, %lane] : memref<16x16xf32, #gpu.address_space<workgroup>>
  memref.store %x, %out[%lane] : memref<?xf32>
  return
}
