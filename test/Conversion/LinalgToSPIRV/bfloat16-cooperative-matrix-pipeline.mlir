// RUN: triton-spirv-opt %s --triton-to-spirv="target=nvidia num-warps=4" | FileCheck %s
// RUN: triton-spirv-opt %s --triton-to-spirv="target=nvidia num-warps=4 features=-bfloat16-cooperative-matrix" | FileCheck %s --check-prefix=EMULATED

// A bf16 dot into f32 of whole 16x16 tiles runs on bf16 cooperative
// matrices: its operands are staged as f16-typed bits, loaded as bf16
// matrices and multiplied into f32 ones. Without the feature (an NVIDIA
// driver without VK_KHR_shader_bfloat16), bf16 is emulated on CUDA cores.
// CHECK: spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}BFloat16TypeKHR{{.*}}BFloat16CooperativeMatrixKHR{{.*}}], [{{.*}}SPV_KHR_bfloat16{{.*}}]>
// CHECK: %[[A:.*]] = spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixA>
// CHECK: %[[B:.*]] = spirv.KHR.CooperativeMatrixLoad %{{.*}}, %{{.*}}, <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixB>
// CHECK: spirv.KHR.CooperativeMatrixMulAdd %[[A]], %[[B]], %{{.*}} : !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xbf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// EMULATED-NOT: BFloat16
// EMULATED-NOT: CooperativeMatrixMulAdd
module {
  tt.func public @bf16_dot(%arg0: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %c16384_i32 = arith.constant 16384 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant dense<128> : tensor<128x1xi32>
    %cst_1 = arith.constant dense<128> : tensor<64x1xi32>
    %cst_2 = arith.constant dense<64> : tensor<128x1xi32>
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %2 = tt.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %3 = arith.muli %2, %cst_2 : tensor<128x1xi32>
    %4 = tt.splat %arg0 : !tt.ptr<bf16> -> tensor<128x1x!tt.ptr<bf16>>
    %5 = tt.addptr %4, %3 : tensor<128x1x!tt.ptr<bf16>>, tensor<128x1xi32>
    %6 = tt.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %7 = tt.broadcast %5 : tensor<128x1x!tt.ptr<bf16>> -> tensor<128x64x!tt.ptr<bf16>>
    %8 = tt.broadcast %6 : tensor<1x64xi32> -> tensor<128x64xi32>
    %9 = tt.addptr %7, %8 : tensor<128x64x!tt.ptr<bf16>>, tensor<128x64xi32>
    %10 = tt.load %9 : tensor<128x64x!tt.ptr<bf16>>
    %11 = tt.expand_dims %1 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %12 = arith.muli %11, %cst_1 : tensor<64x1xi32>
    %13 = tt.splat %arg1 : !tt.ptr<bf16> -> tensor<64x1x!tt.ptr<bf16>>
    %14 = tt.addptr %13, %12 : tensor<64x1x!tt.ptr<bf16>>, tensor<64x1xi32>
    %15 = tt.expand_dims %0 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %16 = tt.broadcast %14 : tensor<64x1x!tt.ptr<bf16>> -> tensor<64x128x!tt.ptr<bf16>>
    %17 = tt.broadcast %15 : tensor<1x128xi32> -> tensor<64x128xi32>
    %18 = tt.addptr %16, %17 : tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xi32>
    %19 = tt.load %18 : tensor<64x128x!tt.ptr<bf16>>
    %20 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %cst) -> (tensor<128x128xf32>)  : i32 {
      %30 = tt.dot %10, %19, %arg5, inputPrecision = tf32 : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
      scf.yield %30 : tensor<128x128xf32>
    }
    %21 = tt.get_program_id x : i32
    %22 = arith.muli %21, %c16384_i32 : i32
    %23 = tt.addptr %arg2, %22 : !tt.ptr<f32>, i32
    %24 = arith.muli %2, %cst_0 : tensor<128x1xi32>
    %25 = tt.splat %23 : !tt.ptr<f32> -> tensor<128x1x!tt.ptr<f32>>
    %26 = tt.addptr %25, %24 : tensor<128x1x!tt.ptr<f32>>, tensor<128x1xi32>
    %27 = tt.broadcast %26 : tensor<128x1x!tt.ptr<f32>> -> tensor<128x128x!tt.ptr<f32>>
    %28 = tt.broadcast %15 : tensor<1x128xi32> -> tensor<128x128xi32>
    %29 = tt.addptr %27, %28 : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi32>
    tt.store %29, %20 : tensor<128x128x!tt.ptr<f32>>
    tt.return
  }
}

