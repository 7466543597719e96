// RUN: triton-spirv-opt %s --triton-spirv-distribute="max-workgroup-memory=1024" -verify-diagnostics -allow-unregistered-dialect

// expected-error @+1 {{out of resources: the kernel needs 2048 bytes of workgroup memory, the target has 1024}}
func.func @too_much_workgroup_memory() {
  %a = memref.alloc() : memref<512xf32, #gpu.address_space<workgroup>>
  "test.use"(%a) : (memref<512xf32, #gpu.address_space<workgroup>>) -> ()
  return
}
