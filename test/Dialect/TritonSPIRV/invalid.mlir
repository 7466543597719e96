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

// -----

func.func @in_bounds_of_block_pointer(%p: !tt.ptr<tensor<8xf32>>) {
  // expected-error @below {{takes a pointer to scalars or a ranked tensor of them, not '!tt.ptr<tensor<8xf32>>'}}
  %ok = triton_spirv.pointer_in_bounds %p : !tt.ptr<tensor<8xf32>> -> i1
  return
}

// -----

func.func @in_bounds_of_integers(%x: tensor<8xi32>) {
  // expected-error @below {{takes a pointer to scalars or a ranked tensor of them, not 'tensor<8xi32>'}}
  %ok = triton_spirv.pointer_in_bounds %x : tensor<8xi32> -> tensor<8xi1>
  return
}

// -----

func.func @in_bounds_misshaped(%p: tensor<8x!tt.ptr<f32>>) {
  // expected-error @below {{result must be 'tensor<8xi1>', not 'tensor<4xi1>'}}
  %ok = triton_spirv.pointer_in_bounds %p : tensor<8x!tt.ptr<f32>> -> tensor<4xi1>
  return
}

// -----

// A buffer at a device address is a whole runtime array in the
// PhysicalStorageBuffer class.
func.func @address_buffer_in_storage_buffer(%a: i64) {
  // expected-error @+1 {{result must be a memref<?xT, #spirv.storage_class<PhysicalStorageBuffer>>, not 'memref<?xf32, #spirv.storage_class<StorageBuffer>>'}}
  %b = triton_spirv.address_buffer %a root 0 : memref<?xf32, #spirv.storage_class<StorageBuffer>>
  return
}

// -----

func.func @address_buffer_of_fixed_size(%a: i64) {
  // expected-error @+1 {{result must be a memref<?xT}}
  %b = triton_spirv.address_buffer %a root 0 : memref<16xf32, #spirv.storage_class<PhysicalStorageBuffer>>
  return
}

// -----

func.func @address_buffer_negative_root(%a: i64) {
  // expected-error @+1 {{root must be at least 0}}
  %b = triton_spirv.address_buffer %a root -1 : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
  return
}

// -----

func.func @reduce_operand_fragment(%x: !gpu.mma_matrix<16x16xf16, "AOp">) {
  // expected-error @+1 {{reduces accumulator (COp) fragments, not AOp ones}}
  %r = triton_spirv.reduce_fragment_rows %x : !gpu.mma_matrix<16x16xf16, "AOp"> {
  ^bb0(%a: f16, %b: f16):
    triton_spirv.yield %a : f16
  }
  return
}

// -----

func.func @combiner_of_three(%x: !gpu.mma_matrix<16x16xf32, "COp">) {
  // expected-error @+1 {{body must take ('f32', 'f32'), not ('f32', 'f32', 'f32')}}
  %r = triton_spirv.reduce_fragment_rows %x : !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%a: f32, %b: f32, %c: f32):
    triton_spirv.yield %a : f32
  }
  return
}

// -----

func.func @map_without_coordinates(%x: !gpu.mma_matrix<16x16xf32, "COp">) {
  // expected-error @+1 {{body must take ('i32', 'i32', 'f32'), not ('f32')}}
  %r = triton_spirv.map_fragments %x : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%a: f32):
    triton_spirv.yield %a : f32
  }
  return
}

// -----

func.func @map_of_two_types(%x: !gpu.mma_matrix<16x16xf32, "COp">, %y: !gpu.mma_matrix<16x16xf16, "COp">) {
  // expected-error @+1 {{fragments must all be of the result's type}}
  %r = triton_spirv.map_fragments %x, %y : !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf16, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%row: i32, %col: i32, %a: f32, %b: f16):
    triton_spirv.yield %a : f32
  }
  return
}

// -----

func.func @map_yielding_another_type(%x: !gpu.mma_matrix<16x16xf32, "COp">) {
  // expected-error @+1 {{body must yield one 'f32'}}
  %r = triton_spirv.map_fragments %x : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%row: i32, %col: i32, %a: f32):
    triton_spirv.yield %row : i32
  }
  return
}

// -----

func.func @map_capturing(%x: !gpu.mma_matrix<16x16xf32, "COp">, %s: f32) {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = triton_spirv.map_fragments %x : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp"> {
  ^bb0(%row: i32, %col: i32, %a: f32):
    // expected-error @+1 {{using value defined outside the region}}
    %b = arith.mulf %a, %s : f32
    triton_spirv.yield %b : f32
  }
  return
}

// -----

func.func @read_of_another_type(%v: !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf32, "COp">>) {
  // expected-error @+1 {{reads a '!gpu.mma_matrix<16x16xf32, "COp">', not a '!gpu.mma_matrix<16x16xf16, "COp">'}}
  %x = triton_spirv.read_fragment %v : !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf32, "COp">> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}

// -----

func.func @write_of_another_type(%v: !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf32, "COp">>, %x: !gpu.mma_matrix<16x16xf16, "AOp">) {
  // expected-error @+1 {{writes a '!gpu.mma_matrix<16x16xf32, "COp">', not a '!gpu.mma_matrix<16x16xf16, "AOp">'}}
  triton_spirv.write_fragment %x, %v : !gpu.mma_matrix<16x16xf16, "AOp">, !triton_spirv.fragment_var<!gpu.mma_matrix<16x16xf32, "COp">>
  return
}

// -----

func.func @convert_to_the_same_accumulator(%x: !gpu.mma_matrix<16x16xf32, "COp">) {
  // expected-error @+1 {{converts an accumulator to an operand (AOp or BOp) or to an accumulator of another element type}}
  %y = triton_spirv.convert_fragment %x : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp">
  return
}

// -----

func.func @convert_an_operand(%x: !gpu.mma_matrix<16x16xf16, "AOp">) {
  // expected-error @+1 {{converts an accumulator (COp) fragment}}
  %y = triton_spirv.convert_fragment %x : !gpu.mma_matrix<16x16xf16, "AOp"> -> !gpu.mma_matrix<16x16xf16, "BOp">
  return
}
