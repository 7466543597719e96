// Layout attributes parse, verify and print back.
// RUN: triton-spirv-opt %s | FileCheck %s
// RUN: triton-spirv-opt %s | triton-spirv-opt | FileCheck %s

// CHECK-LABEL: func.func @layouts
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic}
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[16, 8]>}
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[2, 4, 16]>}
func.func @layouts() {
  %row = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<1024xf32, #gpu.address_space<workgroup>>
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[16, 8]>} : memref<128x128xf32, #gpu.address_space<workgroup>>
  %batch = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[2, 4, 16]>} : memref<2x8x32xf32, #gpu.address_space<workgroup>>
  return
}

// CHECK-LABEL: func.func @slices
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 1, parent = #triton_spirv.grid<[16, 8]>>} : memref<128xf32
func.func @slices() {
  %row_max = memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 1, parent = #triton_spirv.grid<[16, 8]>>} : memref<128xf32, #gpu.address_space<workgroup>>
  return
}
