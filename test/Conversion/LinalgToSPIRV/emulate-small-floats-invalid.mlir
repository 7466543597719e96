// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" --triton-spirv-emulate-small-floats -verify-diagnostics

// fp8 formats without an emulation are refused by name.
func.func @unsupported_format(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %buf[%c0] : memref<?xf32>
  // expected-error @+1 {{element type 'f8E3M4' is not supported by the SPIR-V backend (of the fp8 formats, f8E5M2, f8E4M3FN, f8E5M2FNUZ and f8E4M3FNUZ are)}}
  %y = arith.truncf %x : f32 to f8E3M4
  %z = arith.extf %y : f8E3M4 to f32
  memref.store %z, %buf[%c0] : memref<?xf32>
  return
}
