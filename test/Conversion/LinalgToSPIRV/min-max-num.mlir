// RUN: triton-spirv-opt %s --triton-to-spirv="target=nvidia" | FileCheck %s --check-prefix=NVIDIA
// RUN: triton-spirv-opt %s --triton-to-spirv="target=lavapipe" | FileCheck %s --check-prefix=CHECKED

// tl.maximum / tl.minimum (arith.maxnumf / minnumf) return the operand that
// is not NaN. NVIDIA's FMax/FMin do that themselves: one instruction each.
// Elsewhere the SPIR-V specification leaves NaN operands undefined, so
// compares, NaN tests and selects spell it out.
// NVIDIA: spirv.GL.FMax %{{.*}}, %{{.*}} : f32
// NVIDIA: spirv.GL.FMin %{{.*}}, %{{.*}} : f32
// NVIDIA-NOT: spirv.IsNan
// CHECKED-NOT: spirv.GL.FMax
// CHECKED: spirv.IsNan
tt.func public @min_max(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>) {
  %x = tt.load %x_ptr : !tt.ptr<f32>
  %y = tt.load %y_ptr : !tt.ptr<f32>
  %hi = arith.maxnumf %x, %y : f32
  %lo = arith.minnumf %x, %y : f32
  %both = arith.addf %hi, %lo : f32
  tt.store %out_ptr, %both : !tt.ptr<f32>
  tt.return
}
