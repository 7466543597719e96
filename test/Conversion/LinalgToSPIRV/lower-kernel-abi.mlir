// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=64" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s

// Pointer arguments become storage buffers, offsets/scalars/grid push
// constants, the program id WorkgroupId plus a pushed base.
// CHECK: spirv.module Logical GLSL450 attributes {triton_spirv.abi = {bindings = [{arg_index = 0 : i64, binding = 0 : i64, element_type = "f32"}], entry_point = "scale"
// CHECK-SAME: push_constants = [{arg_index = 0 : i64, offset = 0 : i64, role = "offset", type = "i32"}, {arg_index = 1 : i64, offset = 4 : i64, role = "scalar", type = "f32"}, {offset = 8 : i64, role = "num_programs_x", type = "i32"}
// CHECK-SAME: workgroup_size = [64, 1, 1]
// CHECK: spirv.GlobalVariable @__push_constants : !spirv.ptr<!spirv.struct<(i32 [0], f32 [4], i32 [8], i32 [12], i32 [16], i32 [20], i32 [24], i32 [28])>, PushConstant>
// CHECK: spirv.GlobalVariable @__arg0_f32 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
// CHECK: spirv.func @scale() "None" attributes {{{.*}}spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>
// CHECK: spirv.Load "Input" %__builtin__WorkgroupId___addr
// CHECK: spirv.FMul
// CHECK: spirv.Store "StorageBuffer"
func.func @scale(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                 %off: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
                 %factor: f32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64},
                 %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                 %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                 %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %p = arith.index_cast %pid : i32 to index
  %i = arith.addi %off, %p : index
  %x = memref.load %buf[%i] : memref<?xf32>
  %y = arith.mulf %x, %factor : f32
  memref.store %y, %buf[%i] : memref<?xf32>
  return
}
