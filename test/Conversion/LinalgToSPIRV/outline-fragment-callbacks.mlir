// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | triton-spirv-opt --pass-pipeline="builtin.module(spirv.module(spirv-lower-abi-attrs,spirv-update-vce),triton-spirv-write-binary{output=%t.spv})"
// RUN: python3 %S/../../Tools/spirv_words.py %t.spv | FileCheck %s --check-prefix=BINARY

// Fragment ops become calls of placeholder functions named after their
// outlined bodies (the callbacks): a combiner of two elements, and an
// element function of (row, column, elements..., extras...).
// CHECK-LABEL: spirv.module Logical GLSL450
// CHECK: spirv.func @callbacks
// CHECK: %[[MAX:.*]] = spirv.FunctionCall @__triton_spirv_reduce_rows__callbacks_combine_rows_0(%{{.*}}) : (!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>) -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK: %[[SHIFTED:.*]] = spirv.FunctionCall @__triton_spirv_per_element__callbacks_per_element_1(%{{.*}}, %[[MAX]], %{{.*}}) : (!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, f32) -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK: spirv.FunctionCall @__triton_spirv_convert__callbacks_2(%[[SHIFTED]]) : (!spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>) -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
// CHECK: spirv.func @callbacks_combine_rows_0(%[[A:.*]]: f32, %[[B:.*]]: f32) -> f32 "None"
// CHECK-NEXT: %[[M:.*]] = spirv.GL.FMax %[[A]], %[[B]] : f32
// CHECK-NEXT: spirv.ReturnValue %[[M]] : f32
// CHECK: spirv.func @__triton_spirv_reduce_rows__callbacks_combine_rows_0(%[[F:.*]]: !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>) -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc> "None"
// CHECK-NEXT: spirv.ReturnValue %[[F]]
// CHECK: spirv.func @callbacks_per_element_1(%{{.*}}: i32, %{{.*}}: i32, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[S:.*]]: f32) -> f32 "None"
// CHECK: spirv.func @__triton_spirv_per_element__callbacks_per_element_1


// After serialization the calls are the NV instructions (5366: reduce with
// the Row mask 1 and the combiner; 5369: per-element with the callback,
// then the extra operands; 115: OpFConvert from an accumulator to an A
// operand), declared with their capabilities (5430, 5431, 5432) and
// extension.
// BINARY: version 0x00010600
// BINARY: 17 6022
// BINARY: 17 5430
// BINARY-NEXT: 17 5431
// BINARY-NEXT: 17 5432
// BINARY-NEXT: 10 SPV_NV_cooperative_matrix2
// BINARY: 5 [[COMBINE:[0-9]+]] callbacks_combine_rows_0
// BINARY: 5 [[ELEMENT:[0-9]+]] callbacks_per_element_1
// BINARY: 5366 [[TYPE:[0-9]+]] [[MAX:[0-9]+]] {{[0-9]+}} 1 [[COMBINE]]
// BINARY: 5369 [[TYPE]] [[SHIFTED:[0-9]+]] {{[0-9]+}} [[ELEMENT]] [[MAX]] {{[0-9]+}}
// BINARY: 115 {{[0-9]+}} {{[0-9]+}} [[SHIFTED]]
// BINARY-NOT: {{^}}57 {{[0-9]+ [0-9]+ [0-9]+ [0-9]+}}
func.func @callbacks(%pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                     %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                     %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"},
                     %scale: f32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %buffer = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %x = gpu.subgroup_mma_load_matrix %buffer[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf32, "COp">
  %max = triton_spirv.reduce_fragment_rows %x : !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    triton_spirv.yield %m : f32
  }
  %shifted = triton_spirv.map_fragments %x, %max args(%scale : f32) : !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%row: i32, %col: i32, %a: f32, %b: f32, %s: f32):
    %d = arith.subf %a, %b : f32
    %e = arith.mulf %d, %s : f32
    triton_spirv.yield %e : f32
  }
  %a = triton_spirv.convert_fragment %shifted : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "AOp">
  %halves = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
  %b = gpu.subgroup_mma_load_matrix %halves[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
  %p = gpu.subgroup_mma_compute %a, %b, %x : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
  gpu.subgroup_mma_store_matrix %p, %buffer[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32, #gpu.address_space<workgroup>>
  return
}
