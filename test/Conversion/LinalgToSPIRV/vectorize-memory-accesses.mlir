// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=-int16 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-vectorize-memory-accesses -split-input-file | FileCheck %s

// Four masked loads of one buffer at i .. i + 3 become one 16-byte load
// through an alias of the buffer (a new argument with its arg_index), taken
// when all four masks hold and i is a multiple of 4; the four scalar loads
// stay for the other case. Four stores of their sums likewise.
// CHECK-LABEL: func.func @runs
// CHECK-SAME: %[[SRC:[^:]*]]: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64}
// CHECK-SAME: %[[DST:[^:]*]]: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64}
// CHECK-SAME: %[[SRC4:[^:]*]]: memref<?xvector<4xf32>> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64}
// CHECK-SAME: %[[DST4:[^:]*]]: memref<?xvector<4xf32>> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64}
// CHECK: %[[SLOT:.*]] = arith.divui %[[I:.*]], %c4
// CHECK: %[[REM:.*]] = arith.remui %[[I]], %c4
// CHECK: %[[ALIGNED:.*]] = arith.cmpi eq, %[[REM]], %c0
// CHECK: %[[OK0:.*]] = arith.andi %[[ALIGNED]], %[[M0:.*]] : i1
// CHECK: %[[OK1:.*]] = arith.andi %[[OK0]], %[[M1:.*]] : i1
// CHECK: %[[OK2:.*]] = arith.andi %[[OK1]], %[[M2:.*]] : i1
// CHECK: %[[OK:.*]] = arith.andi %[[OK2]], %[[M3:.*]] : i1
// CHECK: %[[X:.*]]:4 = scf.if %[[OK]] -> (f32, f32, f32, f32) {
// CHECK:   %[[V:.*]] = memref.load %[[SRC4]][%[[SLOT]]] : memref<?xvector<4xf32>>
// CHECK:   %[[E0:.*]] = vector.extract %[[V]][0]
// CHECK:   %[[E3:.*]] = vector.extract %[[V]][3]
// CHECK:   scf.yield %[[E0]], %{{.*}}, %{{.*}}, %[[E3]]
// CHECK: } else {
// CHECK-COUNT-4: memref.load %[[SRC]]
// CHECK: arith.addf %[[X]]#0, %[[X]]#0
// CHECK: scf.if %{{.*}} {
// CHECK:   %[[W:.*]] = vector.from_elements
// CHECK:   memref.store %[[W]], %[[DST4]][%{{.*}}] : memref<?xvector<4xf32>>
// CHECK: } else {
// CHECK-COUNT-4: memref.store %{{.*}}, %[[DST]]
func.func @runs(%src: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                %dst: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                %base: index, %n: index) attributes {triton_spirv.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %fill = arith.constant 0.0 : f32
  %i1 = arith.addi %base, %c1 : index
  %i2 = arith.addi %base, %c2 : index
  %i3 = arith.addi %base, %c3 : index
  %m0 = arith.cmpi slt, %base, %n : index
  %m1 = arith.cmpi slt, %i1, %n : index
  %m2 = arith.cmpi slt, %i2, %n : index
  %m3 = arith.cmpi slt, %i3, %n : index
  %x0 = scf.if %m0 -> (f32) {
    %v = memref.load %src[%base] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %x1 = scf.if %m1 -> (f32) {
    %v = memref.load %src[%i1] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %x2 = scf.if %m2 -> (f32) {
    %v = memref.load %src[%i2] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %x3 = scf.if %m3 -> (f32) {
    %v = memref.load %src[%i3] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %y0 = arith.addf %x0, %x0 : f32
  %y1 = arith.addf %x1, %x1 : f32
  %y2 = arith.addf %x2, %x2 : f32
  %y3 = arith.addf %x3, %x3 : f32
  scf.if %m0 {
    memref.store %y0, %dst[%base] : memref<?xf32>
  }
  scf.if %m1 {
    memref.store %y1, %dst[%i1] : memref<?xf32>
  }
  scf.if %m2 {
    memref.store %y2, %dst[%i2] : memref<?xf32>
  }
  scf.if %m3 {
    memref.store %y3, %dst[%i3] : memref<?xf32>
  }
  return
}

// -----

// Left alone: indices that are not consecutive in order, 8-bit elements,
// accesses with other ops between them, and the debug buffer.
// CHECK-LABEL: func.func @not_runs
// CHECK-NOT: vector
// CHECK: return
func.func @not_runs(%src: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                    %bytes: memref<?xi8> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                    %debug: memref<?xi32> {triton_spirv.abi = "debug"},
                    %base: index) attributes {triton_spirv.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %i1 = arith.addi %base, %c1 : index
  %i2 = arith.addi %base, %c2 : index
  %i3 = arith.addi %base, %c3 : index
  %a0 = memref.load %src[%base] : memref<?xf32>
  %a1 = memref.load %src[%i1] : memref<?xf32>
  %a3 = memref.load %src[%i3] : memref<?xf32>
  %a2 = memref.load %src[%i2] : memref<?xf32>
  %b0 = memref.load %bytes[%base] : memref<?xi8>
  %b1 = memref.load %bytes[%i1] : memref<?xi8>
  %b2 = memref.load %bytes[%i2] : memref<?xi8>
  %b3 = memref.load %bytes[%i3] : memref<?xi8>
  %s0 = memref.load %src[%base] : memref<?xf32>
  %s1 = memref.load %src[%i1] : memref<?xf32>
  %sum = arith.addf %s0, %s1 : f32
  %s2 = memref.load %src[%i2] : memref<?xf32>
  %s3 = memref.load %src[%i3] : memref<?xf32>
  %d = arith.constant 7 : i32
  memref.store %d, %debug[%base] : memref<?xi32>
  memref.store %d, %debug[%i1] : memref<?xi32>
  memref.store %d, %debug[%i2] : memref<?xi32>
  memref.store %d, %debug[%i3] : memref<?xi32>
  return
}

// -----

// arith-int-range-narrowing leaves the column offsets of a run as i32 sums
// between index casts (it narrows only what provably fits): the casts are
// looked through, so the four loads are still seen at i .. i + 3.
// CHECK-LABEL: func.func @narrowed_offsets
// CHECK: scf.if %{{.*}} -> (f32, f32, f32, f32) {
// CHECK:   memref.load %{{.*}} : memref<?xvector<4xf32>>
func.func @narrowed_offsets(%src: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                            %dst: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                            %row: index, %col: index) attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %col32 = arith.index_castui %col : index to i32
  %c1 = arith.addi %col32, %one : i32
  %c2 = arith.addi %col32, %two : i32
  %c3 = arith.addi %col32, %three : i32
  %j1 = arith.index_castui %c1 : i32 to index
  %j2 = arith.index_castui %c2 : i32 to index
  %j3 = arith.index_castui %c3 : i32 to index
  %i0 = arith.addi %row, %col : index
  %i1 = arith.addi %row, %j1 : index
  %i2 = arith.addi %row, %j2 : index
  %i3 = arith.addi %row, %j3 : index
  %x0 = memref.load %src[%i0] : memref<?xf32>
  %x1 = memref.load %src[%i1] : memref<?xf32>
  %x2 = memref.load %src[%i2] : memref<?xf32>
  %x3 = memref.load %src[%i3] : memref<?xf32>
  %s0 = arith.addf %x0, %x1 : f32
  %s1 = arith.addf %x2, %x3 : f32
  %s = arith.addf %s0, %s1 : f32
  memref.store %s, %dst[%c0] : memref<?xf32>
  return
}

// -----

// Triton's hints prove the run aligned and its masks equal: the tensor's
// pointer is 16-byte aligned (bindings start 16-byte aligned, so its
// element offset is a multiple of 4), the row stride and the bound are
// multiples of 16, the run starts at (4 * thread id) mod 32. One vector
// load under the first mask (the fill otherwise), one vector store under
// it; no scalar fallback.
// CHECK-LABEL: func.func @aligned_runs
// CHECK: %[[M0:.*]] = arith.cmpi slt, %[[FIRST:.*]], %[[N:.*]] : index
// CHECK: %[[X:.*]]:4 = scf.if %[[M0]] -> (f32, f32, f32, f32) {
// CHECK:   memref.load %{{.*}}[%{{.*}}] : memref<?xvector<4xf32>>
// CHECK: } else {
// CHECK:   scf.yield %[[FILL:.*]], %[[FILL]], %[[FILL]], %[[FILL]] : f32, f32, f32, f32
// CHECK: }
// CHECK-NOT: arith.remui
// CHECK: scf.if %[[M0]] {
// CHECK:   memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xvector<4xf32>>
// CHECK-NEXT: }
// CHECK-NOT: memref.store
// CHECK: return
func.func @aligned_runs(%src: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64, tt.divisibility = 16 : i32},
                        %offset: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
                        %stride: i32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64, tt.divisibility = 16 : i32},
                        %cols: i32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 2 : i64, tt.divisibility = 16 : i32},
                        %row: i32 {triton_spirv.abi = "program_id_x"}) attributes {triton_spirv.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %fill = arith.constant 0.0 : f32
  %c32 = arith.constant 32 : index
  %tid = gpu.thread_id x
  %lanes = arith.muli %tid, %c4 : index
  %first = arith.remui %lanes, %c32 : index
  %row_start = arith.muli %row, %stride : i32
  %row_index = arith.index_cast %row_start : i32 to index
  %base = arith.addi %offset, %row_index : index
  %n = arith.index_cast %cols : i32 to index
  %l1 = arith.addi %first, %c1 : index
  %l2 = arith.addi %first, %c2 : index
  %l3 = arith.addi %first, %c3 : index
  %i0 = arith.addi %base, %first : index
  %i1 = arith.addi %base, %l1 : index
  %i2 = arith.addi %base, %l2 : index
  %i3 = arith.addi %base, %l3 : index
  %m0 = arith.cmpi slt, %first, %n : index
  %m1 = arith.cmpi slt, %l1, %n : index
  %m2 = arith.cmpi slt, %l2, %n : index
  %m3 = arith.cmpi slt, %l3, %n : index
  %x0 = scf.if %m0 -> (f32) {
    %v = memref.load %src[%i0] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %x1 = scf.if %m1 -> (f32) {
    %v = memref.load %src[%i1] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %x2 = scf.if %m2 -> (f32) {
    %v = memref.load %src[%i2] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %x3 = scf.if %m3 -> (f32) {
    %v = memref.load %src[%i3] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  scf.if %m0 {
    memref.store %x3, %src[%i0] : memref<?xf32>
  }
  scf.if %m1 {
    memref.store %x2, %src[%i1] : memref<?xf32>
  }
  scf.if %m2 {
    memref.store %x1, %src[%i2] : memref<?xf32>
  }
  scf.if %m3 {
    memref.store %x0, %src[%i3] : memref<?xf32>
  }
  return
}

// -----

// The same run with a bound Triton does not know to divide by 4 (no hint
// on %cols): its masks may differ, so the scalar fallback stays.
// CHECK-LABEL: func.func @bound_not_known_to_divide
// CHECK: arith.remui
// CHECK: scf.if
// CHECK: } else {
// CHECK-COUNT-4: memref.load %{{.*}} : memref<?xf32>
func.func @bound_not_known_to_divide(%src: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64, tt.divisibility = 16 : i32},
                                     %offset: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
                                     %cols: i32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64}) attributes {triton_spirv.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %fill = arith.constant 0.0 : f32
  %tid = gpu.thread_id x
  %first = arith.muli %tid, %c4 : index
  %n = arith.index_cast %cols : i32 to index
  %l1 = arith.addi %first, %c1 : index
  %l2 = arith.addi %first, %c2 : index
  %l3 = arith.addi %first, %c3 : index
  %i0 = arith.addi %offset, %first : index
  %i1 = arith.addi %offset, %l1 : index
  %i2 = arith.addi %offset, %l2 : index
  %i3 = arith.addi %offset, %l3 : index
  %m0 = arith.cmpi slt, %first, %n : index
  %m1 = arith.cmpi slt, %l1, %n : index
  %m2 = arith.cmpi slt, %l2, %n : index
  %m3 = arith.cmpi slt, %l3, %n : index
  %x0 = scf.if %m0 -> (f32) {
    %v = memref.load %src[%i0] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %x1 = scf.if %m1 -> (f32) {
    %v = memref.load %src[%i1] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %x2 = scf.if %m2 -> (f32) {
    %v = memref.load %src[%i2] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %x3 = scf.if %m3 -> (f32) {
    %v = memref.load %src[%i3] : memref<?xf32>
    scf.yield %v : f32
  } else {
    scf.yield %fill : f32
  }
  %s = arith.addf %x0, %x3 : f32
  %t = arith.addf %x1, %x2 : f32
  %u = arith.addf %s, %t : f32
  memref.store %u, %src[%offset] : memref<?xf32>
  return
}
