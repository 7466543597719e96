// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv -verify-diagnostics -o /dev/null

// Without 64-bit floats (the generic preset), marked ops keep the driver's
// precision, and a remark says so.
func.func @precise(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                   %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                   %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                   %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %buf[%c0] : memref<?xf32>
  %y = memref.load %buf[%c1] : memref<?xf32>
  // expected-remark @below {{not correctly rounded: the target has no 64-bit floats to compute it with; the driver's precision applies}}
  %q = arith.divf %x, %y {triton_spirv.correctly_rounded} : f32
  // expected-remark @below {{not correctly rounded}}
  %s = math.sqrt %q {triton_spirv.correctly_rounded} : f32
  memref.store %s, %buf[%c0] : memref<?xf32>
  return
}
