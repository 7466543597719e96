// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+cooperative-matrix2,+bfloat16-cooperative-matrix workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --canonicalize | FileCheck %s
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix,+bfloat16-cooperative-matrix workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --canonicalize | FileCheck %s --check-prefix=LANES
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+cooperative-matrix workgroup-size=128 max-workgroup-memory=49152 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --canonicalize | FileCheck %s --check-prefix=LANES

// An epilogue that only rounds the accumulator to bf16 (a matmul stored as
// bf16) rounds the fragments instead, where cooperative matrices take bf16
// and have per-element operations. A matrix's conversion rounds as the
// driver chooses (NVIDIA's truncates to bf16), so each element is first
// rounded to bf16 in f32 (to nearest even), which the conversion then
// keeps exactly. Each conversion is marked to give bf16 bits, held as f16
// in an f16 scratch (the element type of bf16 operands' stagings, whose
// memory it can share), and each lane reads the bits back as bf16.
// CHECK-LABEL: func.func @stored_as_bfloat16
// CHECK: %[[SCRATCH:.*]] = memref.alloc() : memref<64x16xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SUMS:.*]]:16 = scf.for
// CHECK: %[[EXACT:.*]] = triton_spirv.map_fragments %[[SUMS]]#0 : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp"> {
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %[[X:.*]]: f32):
// CHECK-NEXT:   %[[B:.*]] = arith.truncf %[[X]] : f32 to bf16
// CHECK-NEXT:   %[[F:.*]] = arith.extf %[[B]] : bf16 to f32
// CHECK-NEXT:   triton_spirv.yield %[[F]] : f32
// CHECK: %[[ROUNDED:.*]] = triton_spirv.convert_fragment %[[EXACT]] {triton_spirv.bfloat16} : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
// CHECK: gpu.subgroup_mma_store_matrix %[[ROUNDED]], %[[SCRATCH]]
// CHECK: scf.for
// CHECK:   %[[BITS:.*]] = memref.load %[[SCRATCH]]
// CHECK:   %[[V:.*]] = arith.bitcast %[[BITS]] : f16 to bf16
// CHECK-NOT: arith.truncf
// CHECK:   memref.store %[[V]], %{{.*}} : memref<16384xbf16>
// CHECK-COUNT-15: triton_spirv.convert_fragment %{{.*}} {triton_spirv.bfloat16}
// CHECK-NOT: memref<64x16xf32

// Without bf16 cooperative matrices, or without per-element operations,
// the f32 fragments go through an f32 scratch and each lane rounds.
// LANES-LABEL: func.func @stored_as_bfloat16
// LANES: memref.alloc() : memref<64x16xf32, #gpu.address_space<workgroup>>
// LANES-NOT: triton_spirv.convert_fragment
// LANES: arith.truncf %{{.*}} : f32 to bf16
func.func @stored_as_bfloat16(%a: memref<128x32xf16, #gpu.address_space<workgroup>>,
                              %b: memref<32x128xf16, #gpu.address_space<workgroup>>,
                              %out: memref<16384xbf16>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<128x128xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>)
  scf.for %k = %c0 to %steps step %c1 {
    linalg.matmul ins(%a, %b : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>)
                  outs(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>)
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<128x128xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32):
    %h = arith.truncf %x : f32 to bf16
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %row = arith.muli %i, %c128 : index
    %at = arith.addi %row, %j : index
    memref.store %h, %out[%at] : memref<16384xbf16>
    linalg.yield
  }
  return
}
