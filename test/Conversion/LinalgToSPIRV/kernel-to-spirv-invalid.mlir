// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" --triton-spirv-assign-storage-classes --triton-spirv-check-workgroup-memory --triton-spirv-round-correctly --triton-spirv-atomics-to-compare-and-swap --triton-spirv-emulate-small-floats --triton-spirv-expand-double-math --triton-spirv-legalize-for-spirv --triton-spirv-fuse-multiply-adds --triton-spirv-kernel-to-spirv -split-input-file -verify-diagnostics

// Checked after clean-up, on the allocations left; lavapipe has 32 KiB.
// expected-error @+2 {{out of resources: the kernel needs 36864 bytes of workgroup memory, the target has 32768}}
// expected-note @+1 {{overrun: {limit = 32768 : i64, needed = 36864 : i64, resource = "workgroup-memory"}}
func.func @too_much_workgroup_memory(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %a = memref.alloc() : memref<8192xf32, #gpu.address_space<workgroup>>
  %b = memref.alloc() : memref<1024xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<8192xf32, #gpu.address_space<workgroup>>
  %y = memref.load %b[%c0] : memref<1024xf32, #gpu.address_space<workgroup>>
  %z = arith.addf %x, %y : f32
  memref.store %z, %buf[%c0] : memref<?xf32>
  return
}

// -----

func.func @double_tangent(%buf: memref<?xf64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %x = memref.load %buf[%c0] : memref<?xf64>
  // expected-error @+1 {{double-precision 'math.tan' is not supported: Vulkan's GLSL.std.450 functions take 16/32-bit floats}}
  %y = math.tan %x : f64
  memref.store %y, %buf[%c0] : memref<?xf64>
  return
}

// -----

// Roles are the KernelArgRole names of KernelABI.td.
// expected-error @+1 {{kernel argument #0 has an unknown role 'pointer'}}
func.func @unknown_role(%buf: memref<?xf32> {triton_spirv.abi = "pointer", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  return
}

// -----

// expected-error @+1 {{kernel argument #0 has role 'program_id_base_x', which only the SPIR-V stage assigns}}
func.func @runtime_role_on_an_argument(%base: i32 {triton_spirv.abi = "program_id_base_x"})
    attributes {triton_spirv.kernel} {
  return
}

// -----

// expected-error @+1 {{kernel argument #0 has no triton_spirv.abi role}}
func.func @missing_role(%x: i32) attributes {triton_spirv.kernel} {
  return
}
