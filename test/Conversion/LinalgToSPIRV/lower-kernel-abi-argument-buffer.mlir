// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s

// 17 i64 scalars need more than lavapipe's 128 bytes of push constants: the
// element offset and the scalars move to a storage buffer bound after the
// tensors (binding 1); the grid and the program id bases stay in push
// constants.
// CHECK: spirv.module Logical GLSL450 attributes {triton_spirv.abi = {argument_buffer = {binding = 1 : i64, bytes = 144 : i64, slots = [{arg_index = 0 : i64, offset = 0 : i64, role = "offset", type = "i32"}, {arg_index = 1 : i64, offset = 8 : i64, role = "scalar", type = "i64"}
// CHECK-SAME: {arg_index = 17 : i64, offset = 136 : i64, role = "scalar", type = "i64"}]}
// CHECK-SAME: push_constant_bytes = 24 : i64, push_constants = [{offset = 0 : i64, role = "num_programs_x", type = "i32"}
// CHECK-DAG: spirv.GlobalVariable @__push_constants : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8], i32 [12], i32 [16], i32 [20])>, PushConstant>
// CHECK-DAG: spirv.GlobalVariable @__arguments bind(0, 1) : !spirv.ptr<!spirv.struct<(i32 [0], i64 [8], {{.*}}, i64 [136])>, StorageBuffer>
// CHECK: %[[ARGS:.*]] = spirv.mlir.addressof @__arguments
// CHECK: spirv.AccessChain %[[ARGS]][%{{.*}}]
// CHECK: spirv.Load "StorageBuffer" %{{.*}} : i32
// CHECK-COUNT-17: spirv.Load "StorageBuffer" %{{.*}} : i64
func.func @many_scalars(%buf: memref<?xi64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                        %off: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
                        %s1: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64},
                        %s2: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 2 : i64},
                        %s3: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 3 : i64},
                        %s4: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 4 : i64},
                        %s5: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 5 : i64},
                        %s6: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 6 : i64},
                        %s7: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 7 : i64},
                        %s8: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 8 : i64},
                        %s9: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 9 : i64},
                        %s10: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 10 : i64},
                        %s11: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 11 : i64},
                        %s12: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 12 : i64},
                        %s13: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 13 : i64},
                        %s14: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 14 : i64},
                        %s15: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 15 : i64},
                        %s16: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 16 : i64},
                        %s17: i64 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 17 : i64},
                        %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                        %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                        %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  memref.store %s17, %buf[%off] : memref<?xi64>
  return
}
