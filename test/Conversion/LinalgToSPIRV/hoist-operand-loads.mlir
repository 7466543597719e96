// RUN: triton-spirv-opt %s --triton-spirv-hoist-operand-loads -split-input-file | FileCheck %s

#map = affine_map<(d0, d1) -> (d0, d1)>
#wg = #gpu.address_space<workgroup>

// Two operands staged by the run-time version for whole blocks: each loads
// global memory into a register buffer, then copies it to the workgroup
// buffer the matmul reads. The loads of both go first, each under its own
// condition (B's, computed between the stagings, moves along); the copies
// and the partial versions stay where they were.
// CHECK-LABEL: func.func @two_operands
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[WHOLE_A:.*]] = arith.cmpi slt, %[[I]]
// CHECK-NEXT: scf.if %[[WHOLE_A]] {
// CHECK-NEXT: %[[AT_A:.*]] = arith.addi %[[I]]
// CHECK-NEXT: linalg.generic
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<?xf16>
// CHECK: %[[WHOLE_B:.*]] = arith.cmpi sgt, %[[I]]
// CHECK-NEXT: scf.if %[[WHOLE_B]] {
// CHECK-NEXT: linalg.generic
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<?xf16>
// CHECK: scf.if %[[WHOLE_A]] {
// CHECK-NEXT: arith.addi
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: } else {
// CHECK-NEXT: linalg.fill
// CHECK: scf.if %[[WHOLE_B]] {
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: } else {
// CHECK-NEXT: linalg.fill
// CHECK: linalg.matmul
func.func @two_operands(%a: memref<?xf16>, %b: memref<?xf16>, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f16
  %ra = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<16x16xf16, #wg>
  %sa = memref.alloc() : memref<16x16xf16, #wg>
  %rb = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<16x16xf16, #wg>
  %sb = memref.alloc() : memref<16x16xf16, #wg>
  %acc = memref.alloc() : memref<16x16xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    %whole_a = arith.cmpi slt, %i, %k : index
    scf.if %whole_a {
      %at = arith.addi %i, %k : index
      linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%ra : memref<16x16xf16, #wg>) {
      ^bb0(%out: f16):
        %r = linalg.index 0 : index
        %x = memref.load %a[%at] : memref<?xf16>
        linalg.yield %x : f16
      }
      linalg.copy ins(%ra : memref<16x16xf16, #wg>) outs(%sa : memref<16x16xf16, #wg>)
    } else {
      linalg.fill ins(%zero : f16) outs(%sa : memref<16x16xf16, #wg>)
    }
    %whole_b = arith.cmpi sgt, %i, %k : index
    scf.if %whole_b {
      linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%rb : memref<16x16xf16, #wg>) {
      ^bb0(%out: f16):
        %x = memref.load %b[%i] : memref<?xf16>
        linalg.yield %x : f16
      }
      linalg.copy ins(%rb : memref<16x16xf16, #wg>) outs(%sb : memref<16x16xf16, #wg>)
    } else {
      linalg.fill ins(%zero : f16) outs(%sb : memref<16x16xf16, #wg>)
    }
    linalg.matmul ins(%sa, %sb : memref<16x16xf16, #wg>, memref<16x16xf16, #wg>) outs(%acc : memref<16x16xf32, #wg>)
  }
  return
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#wg = #gpu.address_space<workgroup>

// A loop that writes global memory (which the loads could read) is left
// alone; so is a staging whose loads go to a buffer not in registers.
// CHECK-LABEL: func.func @left_alone
// CHECK: scf.for
// CHECK-NEXT: scf.if
// CHECK-NEXT: linalg.generic
// CHECK: linalg.copy
// CHECK: scf.if
// CHECK-NEXT: linalg.generic
// CHECK: linalg.copy
// CHECK: linalg.matmul
// CHECK: memref.store
// CHECK: scf.for
// CHECK-NEXT: scf.if
// CHECK-NEXT: linalg.generic
func.func @left_alone(%a: memref<?xf16>, %n: index, %whole: i1, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f16
  %ra = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<16x16xf16, #wg>
  %rb = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<16x16xf16, #wg>
  %plain = memref.alloc() : memref<16x16xf16, #wg>
  %s = memref.alloc() : memref<16x16xf16, #wg>
  %acc = memref.alloc() : memref<16x16xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    scf.if %whole {
      linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%ra : memref<16x16xf16, #wg>) {
      ^bb0(%o: f16):
        %x = memref.load %a[%i] : memref<?xf16>
        linalg.yield %x : f16
      }
      linalg.copy ins(%ra : memref<16x16xf16, #wg>) outs(%s : memref<16x16xf16, #wg>)
    } else {
      linalg.fill ins(%zero : f16) outs(%s : memref<16x16xf16, #wg>)
    }
    scf.if %whole {
      linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%rb : memref<16x16xf16, #wg>) {
      ^bb0(%o: f16):
        %x = memref.load %a[%i] : memref<?xf16>
        linalg.yield %x : f16
      }
      linalg.copy ins(%rb : memref<16x16xf16, #wg>) outs(%s : memref<16x16xf16, #wg>)
    } else {
      linalg.fill ins(%zero : f16) outs(%s : memref<16x16xf16, #wg>)
    }
    linalg.matmul ins(%s, %s : memref<16x16xf16, #wg>, memref<16x16xf16, #wg>) outs(%acc : memref<16x16xf32, #wg>)
    memref.store %one, %out[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    scf.if %whole {
      linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%plain : memref<16x16xf16, #wg>) {
      ^bb0(%o: f16):
        %x = memref.load %a[%i] : memref<?xf16>
        linalg.yield %x : f16
      }
      linalg.copy ins(%plain : memref<16x16xf16, #wg>) outs(%s : memref<16x16xf16, #wg>)
    } else {
      linalg.fill ins(%zero : f16) outs(%s : memref<16x16xf16, #wg>)
    }
    scf.if %whole {
      linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%rb : memref<16x16xf16, #wg>) {
      ^bb0(%o: f16):
        %x = memref.load %a[%i] : memref<?xf16>
        linalg.yield %x : f16
      }
      linalg.copy ins(%rb : memref<16x16xf16, #wg>) outs(%s : memref<16x16xf16, #wg>)
    } else {
      linalg.fill ins(%zero : f16) outs(%s : memref<16x16xf16, #wg>)
    }
    linalg.matmul ins(%s, %s : memref<16x16xf16, #wg>, memref<16x16xf16, #wg>) outs(%acc : memref<16x16xf32, #wg>)
  }
  return
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#wg = #gpu.address_space<workgroup>

// Stagings whose copies go to other registers (bf16 operands before their
// bit casts): their workgroup stores already follow both loads, so they
// are left alone.
// CHECK-LABEL: func.func @register_copies
// CHECK: scf.for
// CHECK-NEXT: scf.if
// CHECK-NEXT: linalg.generic
// CHECK: linalg.copy
// CHECK: scf.if
// CHECK-NEXT: linalg.generic
func.func @register_copies(%a: memref<?xf16>, %n: index, %whole: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f16
  %ra = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<16x16xf16, #wg>
  %ra2 = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<16x16xf16, #wg>
  %rb = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<16x16xf16, #wg>
  %rb2 = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<16x16xf16, #wg>
  %acc = memref.alloc() : memref<16x16xf32, #wg>
  scf.for %i = %c0 to %n step %c1 {
    scf.if %whole {
      linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%ra : memref<16x16xf16, #wg>) {
      ^bb0(%o: f16):
        %x = memref.load %a[%i] : memref<?xf16>
        linalg.yield %x : f16
      }
      linalg.copy ins(%ra : memref<16x16xf16, #wg>) outs(%ra2 : memref<16x16xf16, #wg>)
    } else {
      linalg.fill ins(%zero : f16) outs(%ra2 : memref<16x16xf16, #wg>)
    }
    scf.if %whole {
      linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%rb : memref<16x16xf16, #wg>) {
      ^bb0(%o: f16):
        %x = memref.load %a[%i] : memref<?xf16>
        linalg.yield %x : f16
      }
      linalg.copy ins(%rb : memref<16x16xf16, #wg>) outs(%rb2 : memref<16x16xf16, #wg>)
    } else {
      linalg.fill ins(%zero : f16) outs(%rb2 : memref<16x16xf16, #wg>)
    }
    linalg.matmul ins(%ra2, %rb2 : memref<16x16xf16, #wg>, memref<16x16xf16, #wg>) outs(%acc : memref<16x16xf32, #wg>)
  }
  return
}
