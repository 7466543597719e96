// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=64 subgroup-size=1 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute -split-input-file -verify-diagnostics

// A block held in registers with one element read alone, other than in
// invocation 0's first run (elements 0-3, which it holds either way), keeps
// every block of the kernel one element per invocation at a time: runs of
// 4, and with them 16-byte accesses, would put element 64 (invocation 0's
// second register, one at a time) in invocation 16. The remark names the
// block's first such use.
#line = affine_map<(d0) -> (d0)>
func.func @single_element_read(%src: memref<256xf32>, %r: memref<f32, #gpu.address_space<workgroup>>) {
  %row = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#line, #line], iterator_types = ["parallel"]}
      ins(%src : memref<256xf32>) outs(%row : memref<256xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  // expected-remark @below {{this use of a block held in registers keeps the kernel's blocks one element per invocation at a time (no runs of 4, no 16-byte accesses)}}
  %second = memref.subview %row[64] [1] [1] : memref<256xf32, #gpu.address_space<workgroup>> to memref<f32, strided<[], offset: 64>, #gpu.address_space<workgroup>>
  linalg.copy ins(%second : memref<f32, strided<[], offset: 64>, #gpu.address_space<workgroup>>) outs(%r : memref<f32, #gpu.address_space<workgroup>>)
  return
}
