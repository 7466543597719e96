// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv -split-input-file | FileCheck %s

// bf16 is stored as its 16 bits: the buffer holds i16, widening to f32 is a
// shift into the high half, bf16 arithmetic runs in f32, and narrowing
// rounds to nearest even with integer operations.
// CHECK-LABEL: spirv.module
// CHECK-SAME: element_type = "i16"
// CHECK: spirv.GlobalVariable @__arg0_i16 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i16, stride=2> [0])>, StorageBuffer>
// CHECK-NOT: : bf16
// CHECK: %[[BITS:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i16
// CHECK: %[[WIDE:.*]] = spirv.UConvert %[[BITS]] : i16 to i32
// CHECK: %[[HIGH:.*]] = spirv.ShiftLeftLogical %[[WIDE]], %{{.*}} : i32, i32
// CHECK: %[[X:.*]] = spirv.Bitcast %[[HIGH]] : i32 to f32
// CHECK: spirv.FMul %[[X]], %{{.*}} : f32
// CHECK: spirv.ShiftRightLogical
// CHECK: spirv.Store "StorageBuffer" %{{.*}}, %{{.*}} : i16
func.func @scale(%buf: memref<?xbf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                      %off: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
                      %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                      %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                      %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %two = arith.constant 2.0 : bf16
  %x = memref.load %buf[%off] : memref<?xbf16>
  %y = arith.mulf %x, %two : bf16
  memref.store %y, %buf[%off] : memref<?xbf16>
  return
}

// -----

// fp8 is stored as its 8 bits. Widening E5M2 to f32 moves the exponent and
// mantissa fields (rebias 127 - 15 = 112, << 23); narrowing f32 to E4M3FN
// rounds in f32's bits (shift 23 - 3), clamps to the largest finite code
// 0x7E (126), and scales subnormals by 2^(7 - 1 + 3) before rounding them.
// CHECK-LABEL: spirv.module
// CHECK-SAME: element_type = "i8"
// CHECK-NOT: f8E
// CHECK-DAG: spirv.Constant 939524096 : i32
// CHECK-DAG: %[[LARGEST:.*]] = spirv.Constant 126 : i32
// CHECK-DAG: spirv.Constant 5.120000e+02 : f32
// CHECK: %[[BYTE:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i8
// CHECK: spirv.UConvert %[[BYTE]] : i8 to i32
// CHECK: %[[CODE:.*]] = spirv.ISub %{{.*}}, %{{.*}} : i32
// CHECK: %[[BELOW:.*]] = spirv.ULessThan %[[CODE]], %[[LARGEST]] : i32
// CHECK: spirv.Select %[[BELOW]], %[[CODE]], %[[LARGEST]] : i1, i32
// CHECK: spirv.GL.RoundEven
// CHECK: spirv.Store "StorageBuffer" %{{.*}}, %{{.*}} : i8
func.func @convert(%in: memref<?xf8E5M2> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                   %out: memref<?xf8E4M3FN> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                   %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                   %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                   %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %in[%c0] : memref<?xf8E5M2>
  %wide = arith.extf %x : f8E5M2 to f32
  %y = arith.truncf %wide : f32 to f8E4M3FN
  memref.store %y, %out[%c0] : memref<?xf8E4M3FN>
  return
}

// -----

// f16 -> fp8 goes through f32 (exactly), also where folding would turn
// truncf(extf(x)) back into one truncation from f16.
// CHECK-LABEL: spirv.module
// CHECK: %[[HALF:.*]] = spirv.Load "StorageBuffer" %{{.*}} : f16
// CHECK: spirv.FConvert %[[HALF]] : f16 to f32
// CHECK: spirv.Store "StorageBuffer" %{{.*}}, %{{.*}} : i8
func.func @half_to_fp8(%in: memref<?xf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                       %out: memref<?xf8E4M3FN> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 1 : i64},
                       %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                       %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                       %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %in[%c0] : memref<?xf16>
  %y = arith.truncf %x : f16 to f8E4M3FN
  memref.store %y, %out[%c0] : memref<?xf8E4M3FN>
  return
}

// -----

// |x| of bf16 clears the sign bit of its stored bits; no f32 round trip.
// CHECK: entry_point = "magnitude"
// CHECK: %[[BITS:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i16
// CHECK: %[[ABS:.*]] = spirv.BitwiseAnd %[[BITS]], %{{.*}} : i16
// CHECK: spirv.Store "StorageBuffer" %{{.*}}, %[[ABS]] : i16
func.func @magnitude(%buf: memref<?xbf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                     %off: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
                     %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                     %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                     %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %x = memref.load %buf[%off] : memref<?xbf16>
  %y = math.absf %x : bf16
  memref.store %y, %buf[%off] : memref<?xbf16>
  return
}

// -----

// A bf16 scalar argument arrives as an f32 launch constant, as an f16 one
// does (the launcher writes Python floats into f32 slots), and the kernel
// rounds it to bf16 bits itself (it came as an i32 slot, which the launcher
// filled with the value as an integer: 42.0 arrived as 3.9e-39).
// CHECK-LABEL: entry_point = "bf16_scalar"
// CHECK-SAME: push_constants = [{{.*}}{arg_index = 1 : i64, offset = {{[0-9]+}} : i64, role = "scalar", type = "f32"}
// CHECK: %[[SLOT:.*]] = spirv.Load "PushConstant" %{{.*}} : f32
// CHECK: spirv.Bitcast %[[SLOT]] : f32 to i32
func.func @bf16_scalar(%d: memref<?xi16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
               %v: bf16 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64},
               %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
               %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
               %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %bits = arith.bitcast %v : bf16 to i16
  memref.store %bits, %d[%c0] : memref<?xi16>
  return
}

// -----

// A chain of bf16 operations rounds each result to bf16, as hardware
// computing in bf16 does (Triton 3.9 keeps bf16 arithmetic in bf16), so
// the product is not fused into the sum.
// CHECK-LABEL: spirv.module
// CHECK: %[[DIFFERENCE:.*]] = spirv.FSub %{{.*}}, %{{.*}} : f32
// CHECK: spirv.Bitcast %[[DIFFERENCE]] : f32 to i32
// CHECK: %[[PRODUCT:.*]] = spirv.FMul %{{.*}}, %{{.*}} : f32
// CHECK: spirv.Bitcast %[[PRODUCT]] : f32 to i32
// CHECK-NOT: spirv.GL.Fma
// CHECK: spirv.FAdd %{{.*}}, %{{.*}} : f32
// CHECK-NOT: spirv.GL.Fma
func.func @chain(%buf: memref<?xbf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                 %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                 %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                 %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %buf[%c0] : memref<?xbf16>
  %y = memref.load %buf[%c1] : memref<?xbf16>
  %d = arith.subf %x, %y : bf16
  %m = arith.mulf %x, %y : bf16
  %r = arith.addf %d, %m : bf16
  memref.store %r, %buf[%c0] : memref<?xbf16>
  return
}
