// Layouts that the distribution cannot follow are errors, never a crash.
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=64 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-distribute -split-input-file -verify-diagnostics

func.func @grid_not_tiling() {
  // expected-error @+1 {{layout #triton_spirv.grid<[4, 8]> does not tile 'memref<16x32xf32, #gpu.address_space<workgroup>>' with 64 invocations}}
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 8]>} : memref<16x32xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @unknown_layout() {
  // expected-error @+1 {{unknown layout 1 : i64}}
  %acc = memref.alloc() {triton_spirv.layout = 1} : memref<16x32xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// A grid buffer read through a transposing map cannot be distributed.
func.func @grid_read_transposed(%dst: memref<32x32xf32>) {
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[4, 16]>} : memref<32x32xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{accesses a buffer in layout #triton_spirv.grid<[4, 16]> at elements that other invocations hold}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<32x32xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<32x32xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A pair swap of a block in registers that the workgroup does not divide:
// the invocations past its end would miss the exchange.
func.func @pair_swap_not_divided(%dst: memref<16x2xf32>) {
  %x = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic} : memref<16x2xf32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{a pair swap of a block in registers needs the workgroup size to divide its elements}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, -d1 + 1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<16x2xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<16x2xf32>) {
  ^bb0(%v: f32, %out: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

// Fragments are cooperative matrices: a target without them cannot hold
// them.
func.func @fragments_without_cooperative_matrices() {
  // expected-error @+1 {{layout #triton_spirv.fragments<[1, 2]> does not tile 'memref<32x32xf32, #gpu.address_space<workgroup>>' with the cooperative matrices of 2 subgroups}}
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.fragments<[1, 2]>} : memref<32x32xf32, #gpu.address_space<workgroup>>
  return
}
