// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-coalesce-transposed-stagings -split-input-file | FileCheck %s
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic max-workgroup-memory=4096 max-workgroup-size=1024" --triton-spirv-coalesce-transposed-stagings -split-input-file | FileCheck %s --check-prefix=BUDGET

#id = affine_map<(d0, d1) -> (d0, d1)>
#wg = #gpu.address_space<workgroup>

// K^T staged for a dot computed in register tiles: element (d, j) of the
// buffer is k[j * 64 + d], one element apart along d0 and 64 along d1. The
// loops are interchanged, d0 last, so that neighbouring invocations load
// neighbouring elements; the buffer's rows get one word of padding (2
// halves) against the bank conflicts of the now row-stepping stores.
// CHECK-DAG: #[[TRANSPOSED:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @k_transposed
// Where the padding does not fit (4096 bytes, all taken by the buffer), the
// staging stays as it is.
// BUDGET-LABEL: func.func @k_transposed
// BUDGET: memref.alloc() {alignment = 64 : i64} : memref<32x64xf16
// BUDGET-NOT: (d1, d0)
// BUDGET: return
// CHECK: %[[PADDED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32x66xf16, #gpu.address_space<workgroup>>
// CHECK: %[[VIEW:.*]] = memref.subview %[[PADDED]][0, 0] [32, 64] [1, 1] : memref<32x66xf16, #gpu.address_space<workgroup>> to memref<32x64xf16, strided<[66, 1]>, #gpu.address_space<workgroup>>
// CHECK: linalg.generic {indexing_maps = [#[[TRANSPOSED]]], iterator_types = ["parallel", "parallel"]} outs(%[[VIEW]]
// CHECK: linalg.matmul ins(%{{.*}}, %[[VIEW]] :
func.func @k_transposed(%k: memref<?xf16>, %q: memref<64x32xf16, #wg>) {
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %kt = memref.alloc() {alignment = 64 : i64} : memref<32x64xf16, #wg>
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[8, 16]>} : memref<64x64xf32, #wg>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%kt : memref<32x64xf16, #wg>) {
  ^bb0(%o: f16):
    %d = linalg.index 0 : index
    %j = linalg.index 1 : index
    %row = arith.muli %j, %c64 : index
    %at = arith.addi %row, %d : index
    %x = memref.load %k[%at] : memref<?xf16>
    linalg.yield %x : f16
  }
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x64xf32, #wg>)
  linalg.matmul ins(%q, %kt : memref<64x32xf16, #wg>, memref<32x64xf16, #wg>) outs(%acc : memref<64x64xf32, #wg>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#wg = #gpu.address_space<workgroup>

// Left as they are: loads already one element apart along the last loop;
// a buffer that a cooperative matmul may read (its accumulator has no grid
// layout: fragment loads want rows of whole 16-byte units); a buffer in
// registers (a layout); loads that disagree on the unit-stride loop.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: x66x
// CHECK-NOT: x34x
// CHECK-NOT: (d1, d0)
// CHECK: return
func.func @left_alone(%k: memref<?xf16>, %v: memref<?xf16>, %q: memref<64x32xf16, #wg>) {
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %rows = memref.alloc() : memref<32x64xf16, #wg>
  %coop = memref.alloc() : memref<32x64xf16, #wg>
  %regs = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<32x64xf16, #wg>
  %mixed = memref.alloc() : memref<32x64xf16, #wg>
  %grid = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[8, 16]>} : memref<64x64xf32, #wg>
  %plain = memref.alloc() : memref<64x64xf32, #wg>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%rows : memref<32x64xf16, #wg>) {
  ^bb0(%o: f16):
    %d = linalg.index 0 : index
    %j = linalg.index 1 : index
    %row = arith.muli %d, %c64 : index
    %at = arith.addi %row, %j : index
    %x = memref.load %k[%at] : memref<?xf16>
    linalg.yield %x : f16
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%coop : memref<32x64xf16, #wg>) {
  ^bb0(%o: f16):
    %d = linalg.index 0 : index
    %j = linalg.index 1 : index
    %row = arith.muli %j, %c64 : index
    %at = arith.addi %row, %d : index
    %x = memref.load %k[%at] : memref<?xf16>
    linalg.yield %x : f16
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%regs : memref<32x64xf16, #wg>) {
  ^bb0(%o: f16):
    %d = linalg.index 0 : index
    %j = linalg.index 1 : index
    %row = arith.muli %j, %c64 : index
    %at = arith.addi %row, %d : index
    %x = memref.load %k[%at] : memref<?xf16>
    linalg.yield %x : f16
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%mixed : memref<32x64xf16, #wg>) {
  ^bb0(%o: f16):
    %d = linalg.index 0 : index
    %j = linalg.index 1 : index
    %krow = arith.muli %j, %c64 : index
    %kat = arith.addi %krow, %d : index
    %x = memref.load %k[%kat] : memref<?xf16>
    %vrow = arith.muli %d, %c64 : index
    %vat = arith.addi %vrow, %j : index
    %y = memref.load %v[%vat] : memref<?xf16>
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  }
  linalg.fill ins(%zero : f32) outs(%grid : memref<64x64xf32, #wg>)
  linalg.matmul ins(%q, %rows : memref<64x32xf16, #wg>, memref<32x64xf16, #wg>) outs(%grid : memref<64x64xf32, #wg>)
  linalg.matmul ins(%q, %regs : memref<64x32xf16, #wg>, memref<32x64xf16, #wg>) outs(%grid : memref<64x64xf32, #wg>)
  linalg.matmul ins(%q, %mixed : memref<64x32xf16, #wg>, memref<32x64xf16, #wg>) outs(%grid : memref<64x64xf32, #wg>)
  linalg.fill ins(%zero : f32) outs(%plain : memref<64x64xf32, #wg>)
  linalg.matmul ins(%q, %coop : memref<64x32xf16, #wg>, memref<32x64xf16, #wg>) outs(%plain : memref<64x64xf32, #wg>)
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#wg = #gpu.address_space<workgroup>

// Rows of an odd number of words (18 halves: 9) already fall in distinct
// banks: interchanged, not padded. A buffer a register-tiled matmul reads
// as A (laid out anew from its allocation by the distribution) is left
// alone.
// CHECK-LABEL: func.func @odd_rows_and_a_operand
// CHECK: %[[ODD:.*]] = memref.alloc() : memref<32x18xf16, #gpu.address_space<workgroup>>
// CHECK: %[[A:.*]] = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.subview
// CHECK: linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel"]} outs(%[[ODD]]
// CHECK: affine.apply
// CHECK: linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel"]} outs(%[[A]]
// CHECK-SAME: memref<64x32xf16
// CHECK: ^bb0
// CHECK-NEXT: %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: arith.muli %[[J]], %c64
func.func @odd_rows_and_a_operand(%k: memref<?xf16>, %b: memref<32x18xf16, #wg>) {
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %odd = memref.alloc() : memref<32x18xf16, #wg>
  %a = memref.alloc() : memref<64x32xf16, #wg>
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[8, 16]>} : memref<64x18xf32, #wg>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%odd : memref<32x18xf16, #wg>) {
  ^bb0(%o: f16):
    %d = linalg.index 0 : index
    %j = linalg.index 1 : index
    %row = arith.muli %j, %c64 : index
    %at = arith.addi %row, %d : index
    %x = memref.load %k[%at] : memref<?xf16>
    linalg.yield %x : f16
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%a : memref<64x32xf16, #wg>) {
  ^bb0(%o: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %row = arith.muli %j, %c64 : index
    %at = arith.addi %row, %i : index
    %x = memref.load %k[%at] : memref<?xf16>
    linalg.yield %x : f16
  }
  linalg.fill ins(%zero : f32) outs(%acc : memref<64x18xf32, #wg>)
  linalg.matmul ins(%a, %odd : memref<64x32xf16, #wg>, memref<32x18xf16, #wg>) outs(%acc : memref<64x18xf32, #wg>)
  return
}
