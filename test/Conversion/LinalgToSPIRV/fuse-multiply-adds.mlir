// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s --check-prefixes=CHECK,FUSED
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=32" %prepare-for-spirv %convert-to-spirv | FileCheck %s --check-prefixes=CHECK,UNFUSED

// Triton's enable_fp_fusion lets a multiply and the add that alone uses it
// round once (an FMA), and allows nothing else: the compiler fuses them
// itself and decorates every float add, subtract and multiply
// NoContraction, so that drivers neither fuse nor reassociate. (lavapipe
// folded `(m + 2^23) - 2^23`, the round-to-integer of Triton's own
// conversion tests, into `m`.)
// CHECK-LABEL: entry_point = "fusion"
// FUSED: spirv.GL.Fma %[[A:.*]], %[[B:.*]], %[[C:.*]] : f32
// UNFUSED: %[[P:.*]] = spirv.FMul %{{.*}}, %{{.*}} {no_contraction} : f32
// UNFUSED: spirv.FAdd %[[P]], %{{.*}} {no_contraction} : f32
// CHECK: %[[UP:.*]] = spirv.FAdd %{{.*}}, %[[BIG:.*]] {no_contraction} : f32
// CHECK: spirv.FSub %[[UP]], %[[BIG]] {no_contraction} : f32
func.func @fusion(%d: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
               %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
               %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
               %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %big = arith.constant 8388608.0 : f32
  %a = memref.load %d[%c0] : memref<?xf32>
  %b = memref.load %d[%c1] : memref<?xf32>
  %c = memref.load %d[%c2] : memref<?xf32>
  %p = arith.mulf %a, %b : f32
  %s = arith.addf %p, %c : f32
  %up = arith.addf %a, %big : f32
  %rounded = arith.subf %up, %big : f32
  memref.store %s, %d[%c0] : memref<?xf32>
  memref.store %rounded, %d[%c1] : memref<?xf32>
  return
}
