// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=256" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s

// A kernel whose distribution needs fewer invocations than the workgroup
// size (scalar code, one subgroup) declares that many, in its entry point
// and in the metadata.
// CHECK: spirv.module Logical GLSL450 attributes {triton_spirv.abi = {{{.*}}entry_point = "scalar_only"
// CHECK-SAME: workgroup_size = [8, 1, 1]
// CHECK: spirv.func @scalar_only() "None" attributes {{{.*}}spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>
func.func @scalar_only(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                       %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                       %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                       %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel, triton_spirv.workgroup_size = 8 : i64} {
  %p = arith.index_cast %pid : i32 to index
  %x = memref.load %buf[%p] : memref<?xf32>
  %y = arith.addf %x, %x : f32
  memref.store %y, %buf[%p] : memref<?xf32>
  return
}
