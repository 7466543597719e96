// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia workgroup-size=32" %prepare-for-spirv %convert-to-spirv | FileCheck %s

// A reshape of a contiguous workgroup buffer (a tensor descriptor's
// rank-reducing load, 1x32 to 32) reads the same flat array: the read
// through it indexes the buffer's one variable, and no reshape is left.
// CHECK-LABEL: spirv.module
// CHECK: spirv.GlobalVariable @[[ROW:.*]] : !spirv.ptr<!spirv.struct<(!spirv.array<32 x f32{{.*}}>)>, Workgroup>
// CHECK: spirv.func @rank_reducing
// CHECK: %[[ADDR:.*]] = spirv.mlir.addressof @[[ROW]]
// CHECK: %[[STORED:.*]] = spirv.AccessChain %[[ADDR]]
// CHECK: spirv.Store "Workgroup" %[[STORED]]
// CHECK: %[[LOADED:.*]] = spirv.AccessChain %[[ADDR]]
// CHECK: spirv.Load "Workgroup" %[[LOADED]]
// CHECK-NOT: collapse_shape
func.func @rank_reducing(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                         %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                         %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                         %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c31 = arith.constant 31 : index
  %tid = gpu.thread_id x
  %row = memref.alloc() : memref<1x32xf32, #gpu.address_space<workgroup>>
  %x = memref.load %buf[%tid] : memref<?xf32>
  memref.store %x, %row[%c0, %tid] : memref<1x32xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %flat = memref.collapse_shape %row [[0, 1]] : memref<1x32xf32, #gpu.address_space<workgroup>> into memref<32xf32, #gpu.address_space<workgroup>>
  %other = arith.subi %c31, %tid : index
  %y = memref.load %flat[%other] : memref<32xf32, #gpu.address_space<workgroup>>
  memref.store %y, %buf[%tid] : memref<?xf32>
  return
}
