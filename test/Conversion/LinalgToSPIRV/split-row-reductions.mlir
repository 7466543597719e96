// RUN: triton-spirv-opt %s --triton-spirv-split-row-reductions="workgroup-size=128" -split-input-file | FileCheck %s

// Two rows of 256 elements (each at least a workgroup of 128) reduced along
// the rows: one reduction per row, of the row's view into its element of the
// output, with the same combiner.
// CHECK-LABEL: func.func @two_long_rows
// CHECK: %[[ROW0:.*]] = memref.subview %[[X:.*]][0, 0] [1, 256] [1, 1]
// CHECK: %[[OUT0:.*]] = memref.subview %[[OUT:.*]][0] [1] [1]
// CHECK: linalg.reduce ins(%[[ROW0]] : memref<1x256xf32, strided<[256, 1]>, #gpu.address_space<workgroup>>) outs(%[[OUT0]] : memref<1xf32, strided<[1]>, #gpu.address_space<workgroup>>) dimensions = [1]
// CHECK: arith.addf
// CHECK: %[[ROW1:.*]] = memref.subview %[[X]][1, 0] [1, 256] [1, 1]
// CHECK: %[[OUT1:.*]] = memref.subview %[[OUT]][1] [1] [1]
// CHECK: linalg.reduce ins(%[[ROW1]] : {{.*}}) outs(%[[OUT1]] : {{.*}}) dimensions = [1]
// CHECK-NOT: linalg.reduce
func.func @two_long_rows(%x: memref<2x256xf32, #gpu.address_space<workgroup>>, %out: memref<2xf32, #gpu.address_space<workgroup>>) {
  linalg.reduce ins(%x : memref<2x256xf32, #gpu.address_space<workgroup>>) outs(%out : memref<2xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Rows shorter than the workgroup, more than 8 rows, or an outer dimension
// reduced: kept whole (each row would use fewer invocations, or the
// reduction already spreads over its outputs).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: linalg.reduce ins(%{{.*}} : memref<{{2x64|16x256|2x256}}xf32
// CHECK-NOT: memref.subview
func.func @kept(%short: memref<2x64xf32, #gpu.address_space<workgroup>>, %many: memref<16x256xf32, #gpu.address_space<workgroup>>,
                %outer: memref<2x256xf32, #gpu.address_space<workgroup>>, %o2: memref<2xf32, #gpu.address_space<workgroup>>,
                %o16: memref<16xf32, #gpu.address_space<workgroup>>, %o256: memref<256xf32, #gpu.address_space<workgroup>>) {
  linalg.reduce ins(%short : memref<2x64xf32, #gpu.address_space<workgroup>>) outs(%o2 : memref<2xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%many : memref<16x256xf32, #gpu.address_space<workgroup>>) outs(%o16 : memref<16xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%outer : memref<2x256xf32, #gpu.address_space<workgroup>>) outs(%o256 : memref<256xf32, #gpu.address_space<workgroup>>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
