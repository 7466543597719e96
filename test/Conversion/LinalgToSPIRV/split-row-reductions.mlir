// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=128 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-split-row-reductions -split-input-file | FileCheck %s

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

// -----

// A reduction without an identity (a two-output combiner) seeded from the
// block's first column, with a splat second input: the column copy becomes
// one copy of each row's first element, the rest views are composed into
// views of the block, and the splat is filled again in the block's shape
// so that its row views start where the block's do.
// CHECK-LABEL: func.func @seeded_from_the_first_column
// CHECK-NOT: memref<2x255xf32
// CHECK: %[[SEED0:.*]] = memref.subview %[[X:.*]][0, 0] [1, 1] [1, 1] : memref<2x256xf32, {{.*}}> to memref<1xf32, strided<[256]>, {{.*}}>
// CHECK: linalg.copy ins(%[[SEED0]] : {{.*}}) outs(%{{.*}} : memref<1xf32, strided<[1]>, {{.*}}>)
// CHECK: %[[SEED1:.*]] = memref.subview %[[X]][1, 0] [1, 1] [1, 1] : memref<2x256xf32, {{.*}}> to memref<1xf32, strided<[256], offset: 256>, {{.*}}>
// CHECK: linalg.copy ins(%[[SEED1]] : {{.*}}) outs(%{{.*}} : memref<1xf32, strided<[1], offset: 1>, {{.*}}>)
// CHECK: %[[ZEROS:.*]] = memref.alloc() : memref<2x256xf32, #gpu.address_space<workgroup>>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[ZEROS]] : memref<2x256xf32, {{.*}}>)
// CHECK: %[[REST0:.*]] = memref.subview %[[X]][0, 1] [1, 255] [1, 1] : memref<2x256xf32, {{.*}}> to memref<1x255xf32, strided<[256, 1], offset: 1>, {{.*}}>
// CHECK: %[[ZEROS0:.*]] = memref.subview %[[ZEROS]][0, 1] [1, 255] [1, 1] : memref<2x256xf32, {{.*}}> to memref<1x255xf32, strided<[256, 1], offset: 1>, {{.*}}>
// CHECK: linalg.reduce ins(%[[REST0]], %[[ZEROS0]] : {{.*}}) outs(
// CHECK: %[[REST1:.*]] = memref.subview %[[X]][1, 1] [1, 255] [1, 1] : memref<2x256xf32, {{.*}}> to memref<1x255xf32, strided<[256, 1], offset: 257>, {{.*}}>
// CHECK: %[[ZEROS1:.*]] = memref.subview %[[ZEROS]][1, 1] [1, 255] [1, 1]
// CHECK: linalg.reduce ins(%[[REST1]], %[[ZEROS1]] : {{.*}}) outs(
// CHECK-NOT: linalg.reduce
func.func @seeded_from_the_first_column(%x: memref<2x256xf32, #gpu.address_space<workgroup>>, %first: memref<2xf32, #gpu.address_space<workgroup>>,
                                        %second: memref<2xf32, #gpu.address_space<workgroup>>) {
  %zero = arith.constant 0.0 : f32
  %zeros = memref.alloc() : memref<2x255xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%zeros : memref<2x255xf32, #gpu.address_space<workgroup>>)
  %column = memref.subview %x[0, 0] [2, 1] [1, 1] : memref<2x256xf32, #gpu.address_space<workgroup>> to memref<2xf32, strided<[256]>, #gpu.address_space<workgroup>>
  linalg.copy ins(%column : memref<2xf32, strided<[256]>, #gpu.address_space<workgroup>>) outs(%first : memref<2xf32, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%second : memref<2xf32, #gpu.address_space<workgroup>>)
  %rest = memref.subview %x[0, 1] [2, 255] [1, 1] : memref<2x256xf32, #gpu.address_space<workgroup>> to memref<2x255xf32, strided<[256, 1], offset: 1>, #gpu.address_space<workgroup>>
  linalg.reduce ins(%rest, %zeros : memref<2x255xf32, strided<[256, 1], offset: 1>, #gpu.address_space<workgroup>>, memref<2x255xf32, #gpu.address_space<workgroup>>)
                outs(%first, %second : memref<2xf32, #gpu.address_space<workgroup>>, memref<2xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%in: f32, %in2: f32, %acc: f32, %acc2: f32) {
      %s = arith.addf %in, %acc : f32
      %t = arith.addf %in2, %acc2 : f32
      %u = arith.addf %s, %t : f32
      linalg.yield %u, %t : f32, f32
    }
  return
}

// -----

// One row: split no further, but its seed copy and its splat input are
// rewritten the same way. A one-row reduction with neither is kept.
// CHECK-LABEL: func.func @one_row
// CHECK: %[[SEED:.*]] = memref.subview %[[X:.*]][0, 0] [1, 1] [1, 1] : memref<1x256xf32, {{.*}}> to memref<1xf32, strided<[256]>, {{.*}}>
// CHECK: linalg.copy ins(%[[SEED]]
// CHECK: %[[ZEROS:.*]] = memref.alloc() : memref<1x256xf32
// CHECK: linalg.reduce ins(%{{.*}}, %{{.*}} : memref<1x255xf32, strided<[256, 1], offset: 1>, {{.*}}>, memref<1x255xf32, strided<[256, 1], offset: 1>, {{.*}}>)
// CHECK: linalg.reduce ins(%[[X]] : memref<1x256xf32, #gpu.address_space<workgroup>>)
func.func @one_row(%x: memref<1x256xf32, #gpu.address_space<workgroup>>, %first: memref<1xf32, #gpu.address_space<workgroup>>,
                   %second: memref<1xf32, #gpu.address_space<workgroup>>, %sum: memref<1xf32, #gpu.address_space<workgroup>>) {
  %zero = arith.constant 0.0 : f32
  %zeros = memref.alloc() : memref<1x255xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%zeros : memref<1x255xf32, #gpu.address_space<workgroup>>)
  %column = memref.subview %x[0, 0] [1, 1] [1, 1] : memref<1x256xf32, #gpu.address_space<workgroup>> to memref<1xf32, strided<[256]>, #gpu.address_space<workgroup>>
  linalg.copy ins(%column : memref<1xf32, strided<[256]>, #gpu.address_space<workgroup>>) outs(%first : memref<1xf32, #gpu.address_space<workgroup>>)
  linalg.fill ins(%zero : f32) outs(%second : memref<1xf32, #gpu.address_space<workgroup>>)
  %rest = memref.subview %x[0, 1] [1, 255] [1, 1] : memref<1x256xf32, #gpu.address_space<workgroup>> to memref<1x255xf32, strided<[256, 1], offset: 1>, #gpu.address_space<workgroup>>
  linalg.reduce ins(%rest, %zeros : memref<1x255xf32, strided<[256, 1], offset: 1>, #gpu.address_space<workgroup>>, memref<1x255xf32, #gpu.address_space<workgroup>>)
                outs(%first, %second : memref<1xf32, #gpu.address_space<workgroup>>, memref<1xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%in: f32, %in2: f32, %acc: f32, %acc2: f32) {
      %s = arith.addf %in, %acc : f32
      %t = arith.addf %in2, %acc2 : f32
      linalg.yield %s, %t : f32, f32
    }
  linalg.reduce ins(%x : memref<1x256xf32, #gpu.address_space<workgroup>>) outs(%sum : memref<1xf32, #gpu.address_space<workgroup>>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
