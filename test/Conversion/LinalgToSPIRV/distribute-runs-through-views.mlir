// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=64 subgroup-size=1 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --canonicalize --cse -split-input-file | FileCheck %s

// Inductor's reductions read blocks in registers through views that keep
// them in runs of 4 (each invocation holding 4 neighbouring elements, which
// it loads with one 16-byte access).

// A reduction seeded with the block's first element, of the other 255 (as
// triton-spirv-seed-reductions writes a max): the seed is invocation 0's
// register 0, and invocation 0 folds its registers from 1, the others all
// of theirs.
#line = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @seeded_reduction
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// CHECK:         %[[ZERO:.*]] = arith.cmpi eq, %[[TID]], %[[C0]]
// CHECK:         %[[REGS:.*]] = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
// CHECK:         %[[START:.*]] = arith.muli %[[TID]], %[[C4]]
// CHECK:         memref.load %{{.*}}[%[[START]]] : memref<256xf32>
// CHECK:         scf.if %[[ZERO]] {
// CHECK-NEXT:      %[[SEED:.*]] = memref.load %[[REGS]][%[[C0]]]
// CHECK-NEXT:      memref.store %[[SEED]], %{{.*}}[]
// CHECK:         %[[R0:.*]] = memref.load %[[REGS]][%[[C0]]]
// CHECK:         %[[R1:.*]] = memref.load %[[REGS]][%[[C1]]]
// CHECK:         %[[FIRST:.*]] = arith.select %[[ZERO]], %[[R1]], %[[R0]] : f32
// CHECK:         scf.for %[[K:.*]] = %[[C1]] to %[[C4]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[FIRST]])
// CHECK:           %[[MAX:.*]] = arith.maxnumf %[[ACC]], %{{.*}} : f32
// CHECK:           %[[STARTED:.*]] = arith.cmpi ule, %[[K]], %[[C1]]
// CHECK:           %[[SKIP:.*]] = arith.andi %[[ZERO]], %[[STARTED]]
// CHECK:           arith.select %[[SKIP]], %[[ACC]], %[[MAX]] : f32
func.func @seeded_reduction(%src: memref<256xf32>, %r: memref<f32, #gpu.address_space<workgroup>>) {
  %row = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#line, #line], iterator_types = ["parallel"]}
      ins(%src : memref<256xf32>) outs(%row : memref<256xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  %first = memref.subview %row[0] [1] [1] : memref<256xf32, #gpu.address_space<workgroup>> to memref<f32, strided<[]>, #gpu.address_space<workgroup>>
  linalg.copy ins(%first : memref<f32, strided<[]>, #gpu.address_space<workgroup>>) outs(%r : memref<f32, #gpu.address_space<workgroup>>)
  %rest = memref.subview %row[1] [255] [1] : memref<256xf32, #gpu.address_space<workgroup>> to memref<255xf32, strided<[1], offset: 1>, #gpu.address_space<workgroup>>
  linalg.reduce { arith.maxnumf } ins(%rest : memref<255xf32, strided<[1], offset: 1>, #gpu.address_space<workgroup>>)
      outs(%r : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  return
}

// -----

// `tl.arange(0, R)[None, :]`: a reshape of a block in registers keeps each
// element's position, so an element-wise op reads it register by register
// in runs, like the block itself.
#row = affine_map<(d0, d1) -> (d0, d1)>
#line = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @reshaped_indices
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[REGS:.*]] = memref.alloca() : memref<4xi32, #gpu.address_space<private>>
// CHECK-NOT:     memref.expand_shape
// CHECK:         %[[I0:.*]] = memref.load %[[REGS]][%[[C0]]]
// CHECK:         %[[I3:.*]] = memref.load %[[REGS]][%[[C3]]]
// CHECK:         %[[X0:.*]] = memref.load %arg0
// CHECK:         arith.cmpi slt, %[[I0]]
// CHECK:         arith.cmpi slt, %[[I3]]
func.func @reshaped_indices(%src: memref<1x256xf32>, %dst: memref<1x256xf32>) {
  %iota = memref.alloc() : memref<256xi32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#line], iterator_types = ["parallel"]}
      outs(%iota : memref<256xi32, #gpu.address_space<workgroup>>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i32
    linalg.yield %v : i32
  }
  %rows = memref.expand_shape %iota [[0, 1]] output_shape [1, 256] : memref<256xi32, #gpu.address_space<workgroup>> into memref<1x256xi32, #gpu.address_space<workgroup>>
  %c200 = arith.constant 200 : i32
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#row, #row, #row], iterator_types = ["parallel", "parallel"]}
      ins(%rows, %src : memref<1x256xi32, #gpu.address_space<workgroup>>, memref<1x256xf32>) outs(%dst : memref<1x256xf32>) {
  ^bb0(%i: i32, %x: f32, %y: f32):
    %inside = arith.cmpi slt, %i, %c200 : i32
    %v = arith.select %inside, %x, %zero : f32
    linalg.yield %v : f32
  }
  return
}
