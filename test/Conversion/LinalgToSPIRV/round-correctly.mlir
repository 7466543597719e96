// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s

// f32 roots and quotients Triton asks correctly rounded (sqrt_rn, div_rn)
// are computed in f64: operands widened exactly (subnormals from their
// bits), the driver's estimate, two Newton steps whose residuals are FMAs,
// and one rounding to f32 (the estimate where it is zero or the refinement
// is not finite).
// CHECK-LABEL: spirv.func @precise
// CHECK: %[[XBITS:.*]] = spirv.Bitcast %{{.*}} : f32 to i32
// CHECK: spirv.ConvertUToF %{{.*}} : i32 to f64
// CHECK: %[[XWIDE:.*]] = spirv.FConvert %{{.*}} : f32 to f64
// CHECK: %[[X:.*]] = spirv.Select %{{.*}}, %{{.*}}, %[[XWIDE]] : i1, f64
// CHECK: %[[YWIDE:.*]] = spirv.FConvert %{{.*}} : f32 to f64
// CHECK: %[[Y:.*]] = spirv.Select %{{.*}}, %{{.*}}, %[[YWIDE]] : i1, f64
// CHECK: %[[Q0:.*]] = spirv.FDiv %[[X]], %[[Y]] : f64
// CHECK: %[[N0:.*]] = spirv.FNegate %[[Q0]] : f64
// CHECK: %[[R0:.*]] = spirv.GL.Fma %[[N0]], %[[Y]], %[[X]] : f64
// CHECK: %[[C0:.*]] = spirv.FDiv %[[R0]], %[[Y]] : f64
// CHECK: %[[Q1:.*]] = spirv.FAdd %[[Q0]], %[[C0]] {no_contraction} : f64
// CHECK: spirv.GL.Fma %{{.*}}, %[[Y]], %[[X]] : f64
// CHECK: %[[Q2:.*]] = spirv.FAdd %[[Q1]], %{{.*}} {no_contraction} : f64
// CHECK: %[[ABS:.*]] = spirv.GL.FAbs %[[Q2]] : f64
// CHECK: %[[FINITE:.*]] = spirv.FOrdLessThan %[[ABS]], %{{.*}} : f64
// CHECK: %[[NONZERO:.*]] = spirv.FUnordNotEqual %[[Q0]], %{{.*}} : f64
// CHECK: %[[REFINE:.*]] = spirv.LogicalAnd %[[FINITE]], %[[NONZERO]] : i1
// CHECK: %[[PICK:.*]] = spirv.Select %[[REFINE]], %[[Q2]], %[[Q0]] : i1, f64
// CHECK: spirv.FConvert %[[PICK]] : f64 to f32
// CHECK: %[[S0:.*]] = spirv.GL.Sqrt %{{.*}} : f64
// CHECK: spirv.GL.Fma %{{.*}}, %[[S0]], %{{.*}} : f64
// CHECK: spirv.FConvert %{{.*}} : f64 to f32
// An unmarked division stays one f32 FDiv.
// CHECK: spirv.FDiv %{{.*}}, %{{.*}} : f32
func.func @precise(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                   %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                   %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                   %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %buf[%c0] : memref<?xf32>
  %y = memref.load %buf[%c1] : memref<?xf32>
  %q = arith.divf %x, %y {triton_spirv.correctly_rounded} : f32
  %s = math.sqrt %q {triton_spirv.correctly_rounded} : f32
  %t = arith.divf %s, %x : f32
  memref.store %t, %buf[%c0] : memref<?xf32>
  return
}
