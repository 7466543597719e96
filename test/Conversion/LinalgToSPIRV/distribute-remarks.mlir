// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=64 subgroup-size=1 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-assign-layouts --triton-spirv-distribute -split-input-file -verify-diagnostics

// A block held in registers whose first element is also read alone (here
// to seed a reduction of the rest, as Inductor's reductions do) keeps every
// block of the kernel one element per invocation at a time: runs of 4, and
// with them 16-byte accesses, would put that element elsewhere. The remark
// names the block's first such use.
#line = affine_map<(d0) -> (d0)>
func.func @single_element_read(%src: memref<256xf32>, %r: memref<f32, #gpu.address_space<workgroup>>) {
  %row = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
  linalg.generic {indexing_maps = [#line, #line], iterator_types = ["parallel"]}
      ins(%src : memref<256xf32>) outs(%row : memref<256xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  // expected-remark @below {{this use of a block held in registers keeps the kernel's blocks one element per invocation at a time (no runs of 4, no 16-byte accesses)}}
  %first = memref.subview %row[0] [1] [1] : memref<256xf32, #gpu.address_space<workgroup>> to memref<f32, strided<[]>, #gpu.address_space<workgroup>>
  linalg.copy ins(%first : memref<f32, strided<[]>, #gpu.address_space<workgroup>>) outs(%r : memref<f32, #gpu.address_space<workgroup>>)
  %rest = memref.subview %row[1] [255] [1] : memref<256xf32, #gpu.address_space<workgroup>> to memref<255xf32, strided<[1], offset: 1>, #gpu.address_space<workgroup>>
  linalg.reduce { arith.maxnumf } ins(%rest : memref<255xf32, strided<[1], offset: 1>, #gpu.address_space<workgroup>>)
      outs(%r : memref<f32, #gpu.address_space<workgroup>>) dimensions = [0]
  return
}
