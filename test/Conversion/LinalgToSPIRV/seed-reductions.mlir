// RUN: triton-spirv-opt %s --triton-spirv-seed-reductions -split-input-file | FileCheck %s
// RUN: triton-spirv-opt %s --triton-spirv-seed-reductions --triton-spirv-resolve-target="target=generic workgroup-size=64 subgroup-size=1 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-distribute --canonicalize -split-input-file | FileCheck %s --check-prefix=DIST

// Layer norm's two sums as bufferization leaves them: a 0-d splat of zero
// in %zero, copied into %sum for the first reduction; the second reduces
// into %zero itself. Each reduction gets a fill of zero right before it;
// the splat and the copy, overwritten before anyone reads them, go.
// CHECK-LABEL: func.func @two_sums
// CHECK-SAME: (%[[X:.*]]: memref<256xf32, {{.*}}>, %[[Y:.*]]: memref<256xf32, {{.*}}>, %[[OUT:.*]]: memref<2xf32>)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ZERO_BUF:.*]] = memref.collapse_shape %{{.*}} []
// CHECK-DAG: %[[SUM_BUF:.*]] = memref.collapse_shape %{{.*}} []
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.copy
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[SUM_BUF]]
// CHECK-NEXT: linalg.reduce { arith.addf } ins(%[[X]] {{.*}} outs(%[[SUM_BUF]]
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[ZERO_BUF]]
// CHECK-NEXT: linalg.reduce { arith.addf } ins(%[[Y]] {{.*}} outs(%[[ZERO_BUF]]

// Distributed, both reductions start from the constant: neither reads an
// initial value nor writes its output, whose one load takes the result.
// Their partials go to two buffers, so that the second need not wait for
// the first's reads before publishing its own.
// DIST-LABEL: func.func @two_sums
// DIST-COUNT-2: memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
// DIST-NOT: memref.load %{{.*}}[] :
// DIST-NOT: memref.store %{{.*}}, %{{.*}}[] :
// DIST: memref.store %{{.*}}, %arg2[%c0]
// DIST-NOT: memref.load %{{.*}}[] :
// DIST-NOT: memref.store %{{.*}}, %{{.*}}[] :
// DIST: memref.store %{{.*}}, %arg2[%c1]
#scalar = affine_map<() -> ()>
func.func @two_sums(%x: memref<256xf32, #gpu.address_space<workgroup>>,
                    %y: memref<256xf32, #gpu.address_space<workgroup>>, %out: memref<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
  %a0 = memref.collapse_shape %a [] : memref<1xf32, #gpu.address_space<workgroup>> into memref<f32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#scalar], iterator_types = []} outs(%a0 : memref<f32, #gpu.address_space<workgroup>>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  %b = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
  %b0 = memref.collapse_shape %b [] : memref<1xf32, #gpu.address_space<workgroup>> into memref<f32, #gpu.address_space<workgroup>>
  linalg.copy ins(%a0 : memref<f32, #gpu.address_space<workgroup>>) outs(%b0 : memref<f32, #gpu.address_space<workgroup>>)
  linalg.reduce { arith.addf } ins(%x : memref<256xf32, #gpu.address_space<workgroup>>)
      outs(%b0 : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  %s = memref.load %b0[] : memref<f32, #gpu.address_space<workgroup>>
  memref.store %s, %out[%c0] : memref<2xf32>
  linalg.reduce { arith.addf } ins(%y : memref<256xf32, #gpu.address_space<workgroup>>)
      outs(%a0 : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  %t = memref.load %a0[] : memref<f32, #gpu.address_space<workgroup>>
  memref.store %t, %out[%c1] : memref<2xf32>
  return
}

// -----

// What the output holds is unknown: a kernel argument (which other
// arguments may alias), or a buffer last written by something else than a
// fill or a copy. Nothing changes.
// CHECK-LABEL: func.func @unknown_contents
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT: linalg.fill
// CHECK: return
#flat = affine_map<(d0) -> (d0)>
func.func @unknown_contents(%x: memref<64xf32, #gpu.address_space<workgroup>>, %arg: memref<f32>,
                            %row: memref<64xf32, #gpu.address_space<workgroup>>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%arg : memref<f32>)
  linalg.reduce { arith.addf } ins(%x : memref<64xf32, #gpu.address_space<workgroup>>)
      outs(%arg : memref<f32>) dimensions = [0]
  %acc = memref.alloc() : memref<f32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#flat, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%row : memref<64xf32, #gpu.address_space<workgroup>>) outs(%acc : memref<f32, #gpu.address_space<workgroup>>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %o : f32
    linalg.yield %m : f32
  }
  linalg.reduce { arith.addf } ins(%x : memref<64xf32, #gpu.address_space<workgroup>>)
      outs(%acc : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  return
}
