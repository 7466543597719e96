// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=32 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts -split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// A block written and reduced whole is cyclic. A 1-D block that is read
// through a broadcast is not (invocations read other invocations' elements).
// CHECK-LABEL: func.func @cyclic_row
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<64xf32
// CHECK: memref.alloc() : memref<32xf32
func.func @cyclic_row(%src: memref<64xf32>, %dst: memref<16x32xf32>,
                      %r: memref<f32, #gpu.address_space<workgroup>>) {
  %row = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %bias = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<64xf32>) outs(%row : memref<64xf32, #gpu.address_space<workgroup>>)
  linalg.reduce ins(%row : memref<64xf32, #gpu.address_space<workgroup>>)
                outs(%r : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<32xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<16x32xf32>) {
  ^bb0(%b: f32, %out: f32):
    linalg.yield %b : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A matmul's accumulator takes the grid of its register tiles (4 x 8
// invocations for 16 x 32 outputs and 32 invocations), and so does the
// buffer its epilogue writes element by element; the operands, read by
// every invocation, stay in workgroup memory.
// CHECK-LABEL: func.func @matmul_epilogue
// CHECK: %[[A:.*]] = memref.alloc() : memref<16x8xf32
// CHECK: %[[B:.*]] = memref.alloc() : memref<8x32xf32
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 8]>} : memref<16x32xf32
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 8]>} : memref<16x32xf16
func.func @matmul_epilogue(%ga: memref<16x8xf32>, %gb: memref<8x32xf32>, %dst: memref<16x32xf16>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<16x8xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
  %acc = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  %half = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
  linalg.copy ins(%ga : memref<16x8xf32>) outs(%a : memref<16x8xf32, #gpu.address_space<workgroup>>)
  linalg.copy ins(%gb : memref<8x32xf32>) outs(%b : memref<8x32xf32, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%a, %b : memref<16x8xf32, #gpu.address_space<workgroup>>, memref<8x32xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>) outs(%half : memref<16x32xf16, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %out: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  linalg.copy ins(%half : memref<16x32xf16, #gpu.address_space<workgroup>>) outs(%dst : memref<16x32xf16>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// An element-wise op iterates in one layout. %scale could be cyclic (its
// outer reduction has 32 outputs for 32 invocations) but meets the grid of
// the accumulator in the epilogue and cannot take it (the reduction needs
// the cyclic placement): it stays in workgroup memory.
// CHECK-LABEL: func.func @layouts_meet
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 8]>} : memref<16x32xf32
// CHECK: memref.alloc() : memref<16x32xf32
func.func @layouts_meet(%a: memref<16x8xf32, #gpu.address_space<workgroup>>,
                        %b: memref<8x32xf32, #gpu.address_space<workgroup>>,
                        %gs: memref<16x32xf32>, %dst: memref<16x32xf32>,
                        %sums: memref<32xf32, #gpu.address_space<workgroup>>) {
  %acc = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  %scale = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%gs : memref<16x32xf32>) outs(%scale : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.matmul ins(%a, %b : memref<16x8xf32, #gpu.address_space<workgroup>>, memref<8x32xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %scale : memref<16x32xf32, #gpu.address_space<workgroup>>, memref<16x32xf32, #gpu.address_space<workgroup>>)
      outs(%dst : memref<16x32xf32>) {
  ^bb0(%x: f32, %s: f32, %out: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  }
  linalg.reduce ins(%scale : memref<16x32xf32, #gpu.address_space<workgroup>>)
                outs(%sums : memref<32xf32, #gpu.address_space<workgroup>>) dimensions = [0]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// An accumulator that a reduction reads has no layout: the reduction is not
// computed in the matmul's grid (yet), so it reads workgroup memory.
// CHECK-LABEL: func.func @reduced_accumulator
// CHECK: memref.alloc() : memref<16x32xf32
func.func @reduced_accumulator(%a: memref<16x8xf32, #gpu.address_space<workgroup>>,
                               %b: memref<8x32xf32, #gpu.address_space<workgroup>>,
                               %r: memref<16xf32, #gpu.address_space<workgroup>>) {
  %acc = memref.alloc() : memref<16x32xf32, #gpu.address_space<workgroup>>
  linalg.matmul ins(%a, %b : memref<16x8xf32, #gpu.address_space<workgroup>>, memref<8x32xf32, #gpu.address_space<workgroup>>)
                outs(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
  linalg.reduce ins(%acc : memref<16x32xf32, #gpu.address_space<workgroup>>)
                outs(%r : memref<16xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return
}

// -----

#ident3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// A batched matmul is not tiled: the distribution spreads its parallel
// (batch, row, column) space cyclically and runs the reduction inside, so
// its accumulator, filled and stored element by element, is cyclic. Its
// operands, read at other invocations' positions, stay in workgroup memory.
// CHECK-LABEL: func.func @batched_matmul
// CHECK: memref.alloc() : memref<2x8x16xf16
// CHECK: memref.alloc() : memref<2x16x8xf16
// CHECK: memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<2x8x8xf32
func.func @batched_matmul(%q: memref<2x8x16xf16>, %k: memref<2x16x8xf16>, %out: memref<2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<2x8x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<2x16x8xf16, #gpu.address_space<workgroup>>
  %acc = memref.alloc() : memref<2x8x8xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%q : memref<2x8x16xf16>) outs(%a : memref<2x8x16xf16, #gpu.address_space<workgroup>>)
  linalg.copy ins(%k : memref<2x16x8xf16>) outs(%b : memref<2x16x8xf16, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%acc : memref<2x8x8xf32, #gpu.address_space<workgroup>>)
  linalg.batch_matmul ins(%a, %b : memref<2x8x16xf16, #gpu.address_space<workgroup>>, memref<2x16x8xf16, #gpu.address_space<workgroup>>)
                      outs(%acc : memref<2x8x8xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [#ident3, #ident3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%acc : memref<2x8x8xf32, #gpu.address_space<workgroup>>) outs(%out : memref<2x8x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}
