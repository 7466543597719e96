// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=128 subgroup-size=32 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --canonicalize -split-input-file | FileCheck %s

// 128x64 on 128 invocations of subgroups of 32: a 16x8 grid of 8x8 tiles,
// so 8 lanes share each row of A. For fp16 operands that is enough (as
// measured): A is laid out tile-major, 8 rows per tile padded to 12, and
// read as two vectors of 4 per step.
// CHECK-LABEL: func.func @half_rows
// CHECK: %[[A:.*]] = memref.alloc() : memref<16x192xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for %[[STEP:.*]] = %c0 to %c16 step %c1
// CHECK-COUNT-2: vector.load %[[A]][%[[STEP]], %{{.*}}] : memref<16x192xf16, #gpu.address_space<workgroup>>, vector<4xf16>
func.func @half_rows(%ga: memref<128x16xf16>, %gb: memref<16x64xf16>,
                     %out: memref<128x64xf32>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<128x16xf16, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<128x64xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%c : memref<128x64xf32, #gpu.address_space<workgroup>>)
  scf.for %i = %c0 to %steps step %c1 {
    linalg.copy ins(%ga : memref<128x16xf16>) outs(%a : memref<128x16xf16, #gpu.address_space<workgroup>>)
    linalg.copy ins(%gb : memref<16x64xf16>) outs(%b : memref<16x64xf16, #gpu.address_space<workgroup>>)
    linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                    iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x64xf16, #gpu.address_space<workgroup>>)
        outs(%c : memref<128x64xf32, #gpu.address_space<workgroup>>) {
    ^bb0(%x: f16, %y: f16, %acc: f32):
      %xf = arith.extf %x : f16 to f32
      %yf = arith.extf %y : f16 to f32
      %p = arith.mulf %xf, %yf : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    }
  }
  linalg.copy ins(%c : memref<128x64xf32, #gpu.address_space<workgroup>>) outs(%out : memref<128x64xf32>)
  return
}

// -----

// The same grid with fp32 operands: 8 lanes per row are too few (vectors
// were slower), and A stays as it is.
// CHECK-LABEL: func.func @single_rows
// CHECK-NOT: vector.load
// CHECK: memref.alloc() : memref<128x16xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: vector.load
func.func @single_rows(%ga: memref<128x16xf32>, %gb: memref<16x64xf32>,
                       %out: memref<128x64xf32>, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<128x16xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<16x64xf32, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<128x64xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%zero : f32) outs(%c : memref<128x64xf32, #gpu.address_space<workgroup>>)
  scf.for %i = %c0 to %steps step %c1 {
    linalg.copy ins(%ga : memref<128x16xf32>) outs(%a : memref<128x16xf32, #gpu.address_space<workgroup>>)
    linalg.copy ins(%gb : memref<16x64xf32>) outs(%b : memref<16x64xf32, #gpu.address_space<workgroup>>)
    linalg.matmul ins(%a, %b : memref<128x16xf32, #gpu.address_space<workgroup>>, memref<16x64xf32, #gpu.address_space<workgroup>>)
                  outs(%c : memref<128x64xf32, #gpu.address_space<workgroup>>)
  }
  linalg.copy ins(%c : memref<128x64xf32, #gpu.address_space<workgroup>>) outs(%out : memref<128x64xf32>)
  return
}
