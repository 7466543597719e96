// Layout and spread attributes parse, verify and print back.
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

// Spreads of distributed loops: runs over a static space, or a layout's;
// a 0-d one for what invocation 0 runs.
// CHECK-LABEL: func.func @spreads
// CHECK: } {triton_spirv.spread = #triton_spirv.spread<[4096], run = 4>}
// CHECK: } {triton_spirv.spread = #triton_spirv.spread<[16, 32], run = 1, #triton_spirv.grid<[4, 16]>>}
// CHECK: } {triton_spirv.spread = #triton_spirv.spread<run = 1>}
func.func @spreads(%flag: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c1 step %c1 {
  } {triton_spirv.spread = #triton_spirv.spread<[4096], run = 4>}
  scf.for %i = %c0 to %c1 step %c1 {
  } {triton_spirv.spread = #triton_spirv.spread<[16, 32], run = 1, #triton_spirv.grid<[4, 16]>>}
  scf.if %flag {
  } {triton_spirv.spread = #triton_spirv.spread<run = 1>}
  return
}
