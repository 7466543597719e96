// Malformed layouts are rejected with a diagnostic.
// RUN: triton-spirv-opt %s -split-input-file -verify-diagnostics

func.func @zero_invocations() {
  // expected-error @+1 {{a grid layout needs positive invocation counts}}
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[0, 8]>} : memref<16x16xf32>
  return
}

// -----

func.func @no_dimensions() {
  // expected-error @+2 {{expected integer value}}
  // expected-error @+1 {{failed to parse TritonSPIRV_GridLayoutAttr parameter 'invocations'}}
  %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[]>} : memref<16x16xf32>
  return
}

// -----

func.func @slice_of_everything() {
  // expected-error @+1 {{a slice layout removes one of its parent's dimensions, and leaves at least one}}
  %r = memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 0, parent = #triton_spirv.grid<[128]>>} : memref<f32>
  return
}

// -----

func.func @slice_out_of_range() {
  // expected-error @+1 {{a slice layout removes one of its parent's dimensions, and leaves at least one}}
  %r = memref.alloc() {triton_spirv.layout = #triton_spirv.slice<dim = 2, parent = #triton_spirv.grid<[16, 8]>>} : memref<16xf32>
  return
}
