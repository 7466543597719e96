// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe" --triton-spirv-assign-storage-classes --triton-spirv-check-workgroup-memory -verify-diagnostics

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
