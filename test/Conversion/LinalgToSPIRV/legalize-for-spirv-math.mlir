// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv -split-input-file | FileCheck %s

// GLSL.std.450's Exp takes 16/32-bit floats: f64 exp is written with f64
// arithmetic (range reduction by ln 2 in two parts, with FMAs the driver may
// not rearrange; a series; 2^k built in the exponent field); f32 exp stays
// the GLSL instruction.
// CHECK-LABEL: spirv.module
// CHECK-NOT: spirv.GL.Exp {{.*}} : f64
// CHECK: %[[K:.*]] = spirv.GL.RoundEven %{{.*}} : f64
// CHECK: %[[MINUS_K:.*]] = spirv.FNegate %[[K]] : f64
// CHECK: %[[HIGH:.*]] = spirv.GL.Fma %[[MINUS_K]], %{{.*}}, %{{.*}} {no_contraction} : f64
// CHECK: spirv.GL.Fma %[[MINUS_K]], %{{.*}}, %[[HIGH]] {no_contraction} : f64
// CHECK: spirv.ShiftLeftLogical %{{.*}}, %{{.*}} : i64, i64
// CHECK: spirv.Bitcast %{{.*}} : i64 to f64
// CHECK: spirv.GL.Exp %{{.*}} : f32
func.func @exp(%d: memref<?xf64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
               %s: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
               %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
               %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
               %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %d[%c0] : memref<?xf64>
  %y = math.exp %x : f64
  memref.store %y, %d[%c0] : memref<?xf64>
  %a = memref.load %s[%c0] : memref<?xf32>
  %b = math.exp %a : f32
  memref.store %b, %s[%c0] : memref<?xf32>
  return
}

// -----

// Vulkan counts bits of 32-bit integers: a 64-bit population count is the
// sum of its halves'. atan2, which GLSL lacks, is a polynomial in atan's.
// CHECK-LABEL: spirv.module
// CHECK: spirv.BitCount %{{.*}} : i32
// CHECK: spirv.BitCount %{{.*}} : i32
// CHECK: %[[SUM:.*]] = spirv.IAdd %{{.*}}, %{{.*}} : i32
// CHECK: spirv.UConvert %[[SUM]] : i32 to i64
// CHECK-NOT: math.atan2
func.func @popcount_atan2(%d: memref<?xi64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                          %s: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                          %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                          %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                          %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %d[%c0] : memref<?xi64>
  %n = math.ctpop %x : i64
  memref.store %n, %d[%c0] : memref<?xi64>
  %a = memref.load %s[%c0] : memref<?xf32>
  %b = memref.load %s[%c1] : memref<?xf32>
  %t = math.atan2 %a, %b : f32
  memref.store %t, %s[%c0] : memref<?xf32>
  return
}

// -----

// SPIR-V's integer arithmetic takes no booleans: i1 sums and differences
// (Triton's `tl.sum(x, dtype=tl.int1)`) are xors, products ands.
// CHECK-LABEL: spirv.module
// CHECK: %[[A:.*]] = spirv.INotEqual
// CHECK: %[[B:.*]] = spirv.INotEqual
// CHECK: %[[C:.*]] = spirv.INotEqual
// CHECK: spirv.LogicalNotEqual %[[A]], %[[B]] : i1
// CHECK: spirv.LogicalNotEqual %[[A]], %[[C]] : i1
// CHECK: spirv.LogicalAnd %[[B]], %[[C]] : i1
// CHECK-NOT: spirv.IAdd {{.*}} : i1
func.func @boolean_arithmetic(%d: memref<?xi32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
               %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
               %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
               %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i32
  %x = memref.load %d[%c0] : memref<?xi32>
  %y = memref.load %d[%c1] : memref<?xi32>
  %z = memref.load %d[%c2] : memref<?xi32>
  %a = arith.cmpi ne, %x, %zero : i32
  %b = arith.cmpi ne, %y, %zero : i32
  %c = arith.cmpi ne, %z, %zero : i32
  %sum = arith.addi %a, %b : i1
  %diff = arith.subi %a, %c : i1
  %product = arith.muli %b, %c : i1
  %s = arith.extui %sum : i1 to i32
  %t = arith.extui %diff : i1 to i32
  %p = arith.extui %product : i1 to i32
  memref.store %s, %d[%c0] : memref<?xi32>
  memref.store %t, %d[%c1] : memref<?xi32>
  memref.store %p, %d[%c2] : memref<?xi32>
  return
}

// -----

// f64 erf, which GLSL lacks: a series below |x| = 2.5, 1 - erfc from its
// continued fraction up to 6, 1 beyond; odd, through copysign.
// CHECK-LABEL: spirv.module
// CHECK-DAG: spirv.Constant 2.500000e+00 : f64
// CHECK-DAG: spirv.Constant 6.000000e+00 : f64
// CHECK: spirv.GL.FAbs %{{.*}} : f64
// CHECK: spirv.FOrdLessThan %{{.*}}, %{{.*}} : f64
// CHECK: spirv.Select
// CHECK-NOT: spirv.GL.Erf
func.func @erf(%d: memref<?xf64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
               %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
               %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
               %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %d[%c0] : memref<?xf64>
  %y = math.erf %x : f64
  memref.store %y, %d[%c0] : memref<?xf64>
  return
}

// -----

// f64 log: x = m 2^e from the exponent field (subnormals scaled by 2^54
// first), m folded into [sqrt(1/2), sqrt(2)), then log(m) = 2 atanh(s) as a
// series in s^2; e ln 2 in two parts.
// CHECK-LABEL: spirv.module
// CHECK-DAG: spirv.Constant 0x4350000000000000 : f64
// CHECK-DAG: spirv.Constant 1.4142135623730951 : f64
// CHECK: spirv.Bitcast %{{.*}} : f64 to i64
// CHECK: spirv.ShiftRightLogical %{{.*}}, %{{.*}} : i64, i64
// CHECK: spirv.Bitcast %{{.*}} : i64 to f64
// CHECK-NOT: spirv.GL.Log {{.*}} : f64
func.func @log(%d: memref<?xf64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
               %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
               %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
               %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %d[%c0] : memref<?xf64>
  %y = math.log %x : f64
  memref.store %y, %d[%c0] : memref<?xf64>
  return
}

// -----

// Triton's float `%` (fmod) is exact, SPIR-V's OpFRem is not: the remainder
// is a loop subtracting |y| * 2^k, the largest not above it (k from the
// exponent and fraction fields, |y| scaled by three exact powers of two),
// from |x|; then x's sign, and NaN for an infinite x or a zero y. f16 runs
// in f32 (the remainder of two f16 values is one).
// CHECK-LABEL: spirv.module
// CHECK-NOT: spirv.FRem
// CHECK: spirv.GL.FAbs %{{.*}} : f32
// CHECK: spirv.mlir.loop
// CHECK: spirv.FOrdGreaterThanEqual %{{.*}}, %{{.*}} : f32
// CHECK: spirv.ShiftRightLogical %{{.*}}, %{{.*}} : i32, i32
// CHECK: spirv.BitwiseAnd %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-3: spirv.FMul %{{.*}}, %{{.*}} : f32
// CHECK: spirv.GL.Fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: spirv.mlir.merge
// CHECK: spirv.FConvert %{{.*}} : f32 to f16
// CHECK: spirv.mlir.loop
// CHECK: spirv.ShiftRightLogical %{{.*}}, %{{.*}} : i64, i64
// CHECK: spirv.GL.Fma %{{.*}}, %{{.*}}, %{{.*}} : f64
// CHECK-NOT: spirv.FRem
func.func @remainder(%h: memref<?xf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                     %d: memref<?xf64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                     %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                     %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                     %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %h[%c0] : memref<?xf16>
  %b = memref.load %h[%c1] : memref<?xf16>
  %r = arith.remf %a, %b : f16
  memref.store %r, %h[%c0] : memref<?xf16>
  %x = memref.load %d[%c0] : memref<?xf64>
  %y = memref.load %d[%c1] : memref<?xf64>
  %s = arith.remf %x, %y : f64
  memref.store %s, %d[%c0] : memref<?xf64>
  return
}

// -----

// Signed integer remainders: the unsigned remainder of the magnitudes,
// negated where the dividend is negative: x != |x| or x == INT_MIN (which
// upstream's x == |x| test took as non-negative).
// CHECK: entry_point = "signed_remainder"
// CHECK: %[[X:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i32
// CHECK: %[[Y:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i32
// CHECK: %[[AX:.*]] = spirv.GL.SAbs %[[X]] : i32
// CHECK: %[[AY:.*]] = spirv.GL.SAbs %[[Y]] : i32
// CHECK: %[[R:.*]] = spirv.UMod %[[AX]], %[[AY]] : i32
// CHECK: %[[MIN:.*]] = spirv.IEqual %[[X]], %cst-2147483648_i32 : i32
// CHECK: %[[OTHER:.*]] = spirv.INotEqual %[[X]], %[[AX]] : i32
// CHECK: %[[NEG:.*]] = spirv.LogicalOr %[[OTHER]], %[[MIN]] : i1
// CHECK: %[[MINUS:.*]] = spirv.ISub %{{.*}}, %[[R]] : i32
// CHECK: spirv.Select %[[NEG]], %[[MINUS]], %[[R]] : i1, i32
// CHECK-NOT: spirv.SRem
func.func @signed_remainder(%buf: memref<?xi32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                            %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                            %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                            %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %buf[%c0] : memref<?xi32>
  %y = memref.load %buf[%c1] : memref<?xi32>
  %r = arith.remsi %x, %y : i32
  memref.store %r, %buf[%c0] : memref<?xi32>
  return
}

// -----

// Narrowing toward zero carries no FPRoundingMode decoration (Vulkan allows
// it only on conversions stored to 16-bit storage): integer operations on
// the bits. Normal results drop the low 13 mantissa bits and rebias (112 <<
// 10), clamped to the largest finite f16 (0x7BFF); subnormal ones are |x|
// times 2^24 truncated to an integer; infinity stays infinity (0x7C00) and
// NaN takes the plain conversion.
// CHECK: entry_point = "narrow_toward_zero"
// CHECK-NOT: FPRoundingMode
// CHECK-DAG: %[[INF16:.*]] = spirv.Constant 31744 : i32
// CHECK-DAG: %[[INF32:.*]] = spirv.Constant 2139095040 : i32
// CHECK-DAG: %[[SMALLEST_NORMAL:.*]] = spirv.Constant 947912704 : i32
// CHECK-DAG: %[[SCALE:.*]] = spirv.Constant 0x4B800000 : f32
// CHECK-DAG: %[[LARGEST:.*]] = spirv.Constant 31743 : i32
// CHECK-DAG: %[[REBIAS:.*]] = spirv.Constant 114688 : i32
// CHECK: %[[X:.*]] = spirv.Load "StorageBuffer" %{{.*}} : f32
// CHECK: %[[BITS:.*]] = spirv.Bitcast %[[X]] : f32 to i32
// CHECK: %[[MAGNITUDE:.*]] = spirv.BitwiseAnd %[[BITS]]
// CHECK: %[[KEPT:.*]] = spirv.ShiftRightLogical %[[MAGNITUDE]], %cst13_i32
// CHECK: %[[NORMAL:.*]] = spirv.ISub %[[KEPT]], %[[REBIAS]]
// CHECK: %[[FITS:.*]] = spirv.ULessThan %[[NORMAL]], %[[LARGEST]]
// CHECK: %[[CLAMPED:.*]] = spirv.Select %[[FITS]], %[[NORMAL]], %[[LARGEST]]
// CHECK: %[[ABS:.*]] = spirv.GL.FAbs %[[X]] : f32
// CHECK: %[[SCALED:.*]] = spirv.FMul %[[ABS]], %[[SCALE]] {no_contraction} : f32
// CHECK: %[[SUBNORMAL:.*]] = spirv.ConvertFToU %[[SCALED]] : f32 to i32
// CHECK: %[[IS_SUBNORMAL:.*]] = spirv.ULessThan %[[MAGNITUDE]], %[[SMALLEST_NORMAL]]
// CHECK: %[[IS_INF:.*]] = spirv.IEqual %[[MAGNITUDE]], %[[INF32]]
// CHECK: %[[FINITE:.*]] = spirv.Select %[[IS_SUBNORMAL]], %[[SUBNORMAL]], %[[CLAMPED]]
// CHECK: spirv.Select %[[IS_INF]], %[[INF16]], %[[FINITE]]
// CHECK: %[[PLAIN:.*]] = spirv.FConvert %[[X]] : f32 to f16
// CHECK: %[[IS_NAN:.*]] = spirv.UGreaterThan %[[MAGNITUDE]], %[[INF32]]
// CHECK: spirv.Select %[[IS_NAN]], %[[PLAIN]], %{{.*}} : i1, f16
func.func @narrow_toward_zero(%src: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                              %dst: memref<?xf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                              %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                              %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                              %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %src[%c0] : memref<?xf32>
  %h = arith.truncf %x toward_zero : f32 to f16
  memref.store %h, %dst[%c0] : memref<?xf16>
  return
}

// -----

// f64 sine: Payne and Hanek's reduction by pi/2 (the mantissa times words
// of 2/pi selected by the exponent, as 128-bit integer products summed
// with carries), then a series; no 32-bit GLSL Sin.
// CHECK: entry_point = "double_sine"
// CHECK-NOT: spirv.GL.Sin
// CHECK: spirv.ShiftRightArithmetic %{{.*}}, %{{.*}} : i64, i64
// CHECK: spirv.UMulExtended %{{.*}}, %{{.*}} : !spirv.struct<(i64, i64)>
// CHECK: spirv.IAddCarry %{{.*}}, %{{.*}} : !spirv.struct<(i64, i64)>
// CHECK: spirv.ConvertUToF %{{.*}} : i64 to f64
// CHECK: spirv.GL.Fma %{{.*}}, %{{.*}}, %{{.*}} {no_contraction} : f64
// CHECK-NOT: spirv.GL.Sin
func.func @double_sine(%buf: memref<?xf64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                       %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                       %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                       %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %buf[%c0] : memref<?xf64>
  %y = math.sin %x : f64
  memref.store %y, %buf[%c0] : memref<?xf64>
  return
}

// -----

// Boolean quotients and shifts are their left operand (the one nonzero i1
// divisor, and the one shift amount below the width), remainders are false,
// and `cmpf false` / `true` are constants: SPIR-V takes no booleans in
// integer division or shifts, and has no constant compare.
// CHECK-LABEL: entry_point = "boolean_division_and_shifts"
// CHECK: %[[A:.*]] = spirv.INotEqual
// CHECK-NOT: spirv.UDiv
// CHECK-NOT: spirv.SDiv
// CHECK-NOT: spirv.UMod
// CHECK-NOT: spirv.SRem
// CHECK-NOT: spirv.ShiftLeftLogical
// CHECK-NOT: spirv.ShiftRight
// CHECK-NOT: spirv.FOrd
// CHECK-NOT: spirv.FUnord
// CHECK: spirv.Select %[[A]],
// CHECK: spirv.Select %[[A]],
// CHECK-NOT: spirv.Select
// CHECK: spirv.Return
func.func @boolean_division_and_shifts(%d: memref<?xi32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
               %f: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
               %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
               %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
               %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %x = memref.load %d[%c0] : memref<?xi32>
  %y = memref.load %d[%c1] : memref<?xi32>
  %a = arith.cmpi ne, %x, %zero : i32
  %b = arith.cmpi ne, %y, %zero : i32
  %q = arith.divui %a, %b : i1
  %r = arith.remsi %a, %b : i1
  %shifted = arith.shrsi %a, %b : i1
  %v = memref.load %f[%c0] : memref<?xf32>
  %never = arith.cmpf false, %v, %v : f32
  %always = arith.cmpf true, %v, %v : f32
  %qi = arith.extui %q : i1 to i32
  %ri = arith.extui %r : i1 to i32
  %si = arith.extui %shifted : i1 to i32
  %ni = arith.extui %never : i1 to i32
  %ai = arith.extui %always : i1 to i32
  memref.store %qi, %d[%c0] : memref<?xi32>
  memref.store %ri, %d[%c1] : memref<?xi32>
  memref.store %si, %d[%c2] : memref<?xi32>
  memref.store %ni, %d[%c3] : memref<?xi32>
  memref.store %ai, %d[%c4] : memref<?xi32>
  return
}
