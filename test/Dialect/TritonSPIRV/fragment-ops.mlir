// Fragment ops parse, verify and print back.
// RUN: triton-spirv-opt %s | FileCheck %s
// RUN: triton-spirv-opt %s | triton-spirv-opt | FileCheck %s

// CHECK-LABEL: func.func @fragment_ops
// CHECK: %[[MAX:.*]] = triton_spirv.reduce_fragment_rows %[[X:.*]] : !gpu.mma_matrix<16x16xf32, "COp"> {
// CHECK: arith.maxnumf
// CHECK: triton_spirv.yield %{{.*}} : f32
// CHECK: triton_spirv.map_fragments %[[X]], %[[MAX]] args(%{{.*}} : f32) : !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp"> {
// CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
func.func @fragment_ops(%x: !gpu.mma_matrix<16x16xf32, "COp">, %scale: f32) -> !gpu.mma_matrix<16x16xf32, "COp"> {
  %max = triton_spirv.reduce_fragment_rows %x : !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maxnumf %a, %b : f32
    triton_spirv.yield %m : f32
  }
  %d = triton_spirv.map_fragments %x, %max args(%scale : f32) : !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%row: i32, %col: i32, %a: f32, %b: f32, %s: f32):
    %e = arith.subf %a, %b : f32
    %f = arith.mulf %e, %s : f32
    triton_spirv.yield %f : f32
  }
  return %d : !gpu.mma_matrix<16x16xf32, "COp">
}

// CHECK-LABEL: func.func @fragment_variables
// CHECK: %[[V:.*]] = triton_spirv.fragment_variable : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf16, "AOp">>
// CHECK: triton_spirv.write_fragment %{{.*}}, %[[V]] : !gpu.mma_matrix<16x16xf16, "AOp">, !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf16, "AOp">>
// CHECK: triton_spirv.read_fragment %[[V]] : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf16, "AOp">> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK: triton_spirv.convert_fragment %{{.*}} : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "AOp">
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.fragment_rows<4>} : memref<64xf32
func.func @fragment_variables(%x: !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf16, "AOp"> {
  %v = triton_spirv.fragment_variable : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf16, "AOp">>
  %a = triton_spirv.convert_fragment %x : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "AOp">
  triton_spirv.write_fragment %a, %v : !gpu.mma_matrix<16x16xf16, "AOp">, !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf16, "AOp">>
  %b = triton_spirv.read_fragment %v : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf16, "AOp">> -> !gpu.mma_matrix<16x16xf16, "AOp">
  %c = triton_spirv.convert_fragment %x : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "AOp">
  %rows = memref.alloc() {triton_spirv.layout = #triton_spirv.fragment_rows<4>} : memref<64xf32, #gpu.address_space<workgroup>>
  return %b : !gpu.mma_matrix<16x16xf16, "AOp">
}
