// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-vectorize-memory-accesses -split-input-file | FileCheck %s
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=-int16 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-vectorize-memory-accesses -split-input-file | FileCheck %s --check-prefix=SCALAR

// Without sixteen-bit (targets without Float16 and Int16), 16-bit accesses
// stay scalar.
// SCALAR-NOT: vector<2xi32>

// Four f16 elements move as two 32-bit words (8 bytes) through a
// vector<2xi32> alias, each word bit cast to two halves (the first the low
// one); the stores pack their halves the same way. Unproven alignment: the
// scalar accesses stay for the other case.
// CHECK-LABEL: func.func @half_runs
// CHECK-SAME: %[[SRC2:[^:]*]]: memref<?xvector<2xi32>> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64}
// CHECK: %[[X:.*]]:4 = scf.if %{{.*}} -> (f16, f16, f16, f16) {
// CHECK:   %[[V:.*]] = memref.load %[[SRC2]][%{{.*}}] : memref<?xvector<2xi32>>
// CHECK:   %[[W0:.*]] = vector.extract %[[V]][0] : i32 from vector<2xi32>
// CHECK:   %[[B0:.*]] = vector.from_elements %[[W0]] : vector<1xi32>
// CHECK:   %[[P0:.*]] = vector.bitcast %[[B0]] : vector<1xi32> to vector<2xf16>
// CHECK:   %[[H0:.*]] = vector.extract %[[P0]][0] : f16 from vector<2xf16>
// CHECK:   %[[H1:.*]] = vector.extract %[[P0]][1] : f16 from vector<2xf16>
// CHECK:   vector.extract %[[V]][1] : i32 from vector<2xi32>
// CHECK:   scf.yield %[[H0]], %[[H1]], %{{.*}}, %{{.*}} : f16, f16, f16, f16
// CHECK: } else {
// CHECK-COUNT-4: memref.load %{{.*}} : memref<?xf16>
// CHECK: scf.if %{{.*}} {
// CHECK:   %[[S0:.*]] = vector.from_elements %[[X]]#0, %[[X]]#1 : vector<2xf16>
// CHECK:   %[[T0:.*]] = vector.bitcast %[[S0]] : vector<2xf16> to vector<1xi32>
// CHECK:   %[[U0:.*]] = vector.extract %[[T0]][0] : i32 from vector<1xi32>
// CHECK:   %[[S1:.*]] = vector.from_elements %[[X]]#2, %[[X]]#3 : vector<2xf16>
// CHECK:   %[[T1:.*]] = vector.bitcast %[[S1]] : vector<2xf16> to vector<1xi32>
// CHECK:   %[[U1:.*]] = vector.extract %[[T1]][0] : i32 from vector<1xi32>
// CHECK:   %[[WORDS:.*]] = vector.from_elements %[[U0]], %[[U1]] : vector<2xi32>
// CHECK:   memref.store %[[WORDS]], %{{.*}}[%{{.*}}] : memref<?xvector<2xi32>>
// CHECK: } else {
// CHECK-COUNT-4: memref.store %{{.*}} : memref<?xf16>
func.func @half_runs(%src: memref<?xf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                     %dst: memref<?xf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                     %base: index) attributes {triton_spirv.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %i1 = arith.addi %base, %c1 : index
  %i2 = arith.addi %base, %c2 : index
  %i3 = arith.addi %base, %c3 : index
  %x0 = memref.load %src[%base] : memref<?xf16>
  %x1 = memref.load %src[%i1] : memref<?xf16>
  %x2 = memref.load %src[%i2] : memref<?xf16>
  %x3 = memref.load %src[%i3] : memref<?xf16>
  memref.store %x0, %dst[%base] : memref<?xf16>
  memref.store %x1, %dst[%i1] : memref<?xf16>
  memref.store %x2, %dst[%i2] : memref<?xf16>
  memref.store %x3, %dst[%i3] : memref<?xf16>
  return
}

// -----

// bf16 halves go through i16: the emulation of bf16 bit casts scalars only.
// CHECK-LABEL: func.func @bfloat16_runs
// CHECK: memref.load %{{.*}} : memref<?xvector<2xi32>>
// CHECK: %[[P:.*]] = vector.bitcast %{{.*}} : vector<1xi32> to vector<2xi16>
// CHECK: %[[H:.*]] = vector.extract %[[P]][0] : i16 from vector<2xi16>
// CHECK: arith.bitcast %[[H]] : i16 to bf16
// CHECK: arith.bitcast %{{.*}} : bf16 to i16
// CHECK: vector.from_elements %{{.*}}, %{{.*}} : vector<2xi16>
// CHECK: memref.store %{{.*}} : memref<?xvector<2xi32>>
func.func @bfloat16_runs(%src: memref<?xbf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                         %dst: memref<?xbf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                         %base: index) attributes {triton_spirv.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %i1 = arith.addi %base, %c1 : index
  %i2 = arith.addi %base, %c2 : index
  %i3 = arith.addi %base, %c3 : index
  %x0 = memref.load %src[%base] : memref<?xbf16>
  %x1 = memref.load %src[%i1] : memref<?xbf16>
  %x2 = memref.load %src[%i2] : memref<?xbf16>
  %x3 = memref.load %src[%i3] : memref<?xbf16>
  memref.store %x0, %dst[%base] : memref<?xbf16>
  memref.store %x1, %dst[%i1] : memref<?xbf16>
  memref.store %x2, %dst[%i2] : memref<?xbf16>
  memref.store %x3, %dst[%i3] : memref<?xbf16>
  return
}

// -----

// A column taken modulo the size, as `(pid * BLOCK + arange) % N` lowers
// (`x rem max(N, 1)`, the max kept from dividing by zero), divides by what x
// and N divide by: where the max takes the 1 the remainder is 0. The run is
// proven aligned, one vector load without a fallback.
// CHECK-LABEL: func.func @column_modulo_size
// CHECK-NOT: scf.if
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<?xvector<2xi32>>
// CHECK-NOT: memref.load
// CHECK: return
func.func @column_modulo_size(%src: memref<?xf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64, tt.divisibility = 16 : i32},
                              %offset: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
                              %cols: i32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64, tt.divisibility = 16 : i32},
                              %pid: i32 {triton_spirv.abi = "program_id_x"}) -> (f16, f16, f16, f16) attributes {triton_spirv.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  %c128_i32 = arith.constant 128 : i32
  %block = arith.muli %pid, %c128_i32 : i32
  %size = arith.maxsi %cols, %c1_i32 : i32
  %column = arith.remsi %block, %size : i32
  %column_index = arith.index_cast %column : i32 to index
  %tid = gpu.thread_id x
  %lanes = arith.muli %tid, %c4 : index
  %first = arith.remui %lanes, %c32 : index
  %start = arith.addi %offset, %column_index : index
  %i0 = arith.addi %start, %first : index
  %i1 = arith.addi %i0, %c1 : index
  %i2 = arith.addi %i0, %c2 : index
  %i3 = arith.addi %i0, %c3 : index
  %x0 = memref.load %src[%i0] : memref<?xf16>
  %x1 = memref.load %src[%i1] : memref<?xf16>
  %x2 = memref.load %src[%i2] : memref<?xf16>
  %x3 = memref.load %src[%i3] : memref<?xf16>
  return %x0, %x1, %x2, %x3 : f16, f16, f16, f16
}

// -----

// The same column modulo a size Triton knows nothing of: not proven, the
// run keeps its run-time alignment test and scalar fallback.
// CHECK-LABEL: func.func @column_modulo_unknown_size
// CHECK: arith.remui %{{.*}}, %c4
// CHECK: scf.if
// CHECK: } else {
// CHECK-COUNT-4: memref.load %{{.*}} : memref<?xf16>
func.func @column_modulo_unknown_size(%src: memref<?xf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64, tt.divisibility = 16 : i32},
                                      %offset: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
                                      %cols: i32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64},
                                      %pid: i32 {triton_spirv.abi = "program_id_x"}) -> (f16, f16, f16, f16) attributes {triton_spirv.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c1_i32 = arith.constant 1 : i32
  %c128_i32 = arith.constant 128 : i32
  %block = arith.muli %pid, %c128_i32 : i32
  %size = arith.maxsi %cols, %c1_i32 : i32
  %column = arith.remsi %block, %size : i32
  %column_index = arith.index_cast %column : i32 to index
  %i0 = arith.addi %offset, %column_index : index
  %i1 = arith.addi %i0, %c1 : index
  %i2 = arith.addi %i0, %c2 : index
  %i3 = arith.addi %i0, %c3 : index
  %x0 = memref.load %src[%i0] : memref<?xf16>
  %x1 = memref.load %src[%i1] : memref<?xf16>
  %x2 = memref.load %src[%i2] : memref<?xf16>
  %x3 = memref.load %src[%i3] : memref<?xf16>
  return %x0, %x1, %x2, %x3 : f16, f16, f16, f16
}

// -----

// x rem max(y, 2) is not a guarded division by y: the rule does not apply.
// CHECK-LABEL: func.func @column_modulo_other_bound
// CHECK: arith.remui %{{.*}}, %c4
// CHECK: scf.if
func.func @column_modulo_other_bound(%src: memref<?xf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64, tt.divisibility = 16 : i32},
                                     %offset: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
                                     %cols: i32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64, tt.divisibility = 16 : i32},
                                     %pid: i32 {triton_spirv.abi = "program_id_x"}) -> (f16, f16, f16, f16) attributes {triton_spirv.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c2_i32 = arith.constant 2 : i32
  %c128_i32 = arith.constant 128 : i32
  %block = arith.muli %pid, %c128_i32 : i32
  %size = arith.maxsi %cols, %c2_i32 : i32
  %column = arith.remsi %block, %size : i32
  %column_index = arith.index_cast %column : i32 to index
  %i0 = arith.addi %offset, %column_index : index
  %i1 = arith.addi %i0, %c1 : index
  %i2 = arith.addi %i0, %c2 : index
  %i3 = arith.addi %i0, %c3 : index
  %x0 = memref.load %src[%i0] : memref<?xf16>
  %x1 = memref.load %src[%i1] : memref<?xf16>
  %x2 = memref.load %src[%i2] : memref<?xf16>
  %x3 = memref.load %src[%i3] : memref<?xf16>
  return %x0, %x1, %x2, %x3 : f16, f16, f16, f16
}
