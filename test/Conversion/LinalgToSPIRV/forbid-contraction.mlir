// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=32" %prepare-for-spirv %convert-to-spirv | FileCheck %s
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s --check-prefix=FUSED

// Triton's enable_fp_fusion=False: the driver may not fuse the multiply and
// the add into an FMA, each rounds on its own.
// CHECK: spirv.FMul %{{.*}}, %{{.*}} {no_contraction} : f32
// CHECK: spirv.FAdd %{{.*}}, %{{.*}} {no_contraction} : f32
// FUSED-NOT: no_contraction
func.func @multiply_add(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                        %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                        %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                        %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %buf[%c0] : memref<?xf32>
  %y = memref.load %buf[%c1] : memref<?xf32>
  %p = arith.mulf %x, %y : f32
  %s = arith.addf %p, %x : f32
  memref.store %s, %buf[%c0] : memref<?xf32>
  return
}
