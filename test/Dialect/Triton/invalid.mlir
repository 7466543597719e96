// Malformed TTIR is rejected with a diagnostic, never a crash.
// RUN: triton-spirv-opt %s -split-input-file -verify-diagnostics

// expected-note @+1 {{prior use here}}
tt.func @load_other_mismatch(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<8xi1>, %o: tensor<8xf16>) {
  // expected-error @+1 {{use of value '%o' expects different type than prior uses: 'tensor<8xf32>' vs 'tensor<8xf16>'}}
  %0 = tt.load %p, %m, %o : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @addptr_shape_mismatch(%p: tensor<8x!tt.ptr<f32>>, %o: tensor<4xi32>) {
  // expected-error @+1 {{'tt.addptr' op all non-scalar operands/results must have the same shape and base type}}
  %0 = tt.addptr %p, %o : tensor<8x!tt.ptr<f32>>, tensor<4xi32>
  tt.return
}

// -----

tt.func @addptr_float_offset(%p: !tt.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'tt.addptr' op operand #1 must be}}
  %0 = tt.addptr %p, %o : !tt.ptr<f32>, f32
  tt.return
}

// -----

tt.func @bitcast_width(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.bitcast' op source and result element types must have the same bit width, got 'f32' and 'i16'}}
  %0 = tt.bitcast %x : tensor<8xf32> -> tensor<8xi16>
  tt.return
}

// -----

tt.func @fp_to_fp_needs_rounding(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.fp_to_fp' op a narrowing conversion from 'f32' to 'f16' needs a rounding mode}}
  %0 = tt.fp_to_fp %x : tensor<8xf32> -> tensor<8xf16>
  tt.return
}

// -----

tt.func @broadcast_bad_dim(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'tt.broadcast' op dimension 0 of size 2 cannot broadcast to 4}}
  %0 = tt.broadcast %x : tensor<2x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @expand_dims_bad_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.expand_dims' op result shape must be the source shape with a 1 inserted at axis 1}}
  %0 = tt.expand_dims %x {axis = 1 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  tt.return
}

// -----

tt.func @reshape_size(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.reshape' op source has 8 elements but the result has 16}}
  %0 = tt.reshape %x : tensor<8xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @trans_not_permutation(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.trans' op order must be a permutation of [0, 2)}}
  %0 = tt.trans %x {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @join_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.join' op result shape must be the operand shape followed by 2}}
  %0 = tt.join %x, %x : tensor<8xf32> -> tensor<2x8xf32>
  tt.return
}

// -----

tt.func @split_needs_pair(%x: tensor<8x4xf32>) {
  // expected-error @+1 {{'tt.split' op source's last dimension must have size 2}}
  %0:2 = tt.split %x : tensor<8x4xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @dot_k_mismatch(%a: tensor<16x8xf16>, %b: tensor<16x32xf16>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.dot' op reduction dimensions differ: 8 vs 16}}
  %0 = tt.dot %a, %b, %c : tensor<16x8xf16> * tensor<16x32xf16> -> tensor<16x32xf32>
  tt.return
}

// -----

tt.func @dot_rank(%a: tensor<16xf16>, %b: tensor<16xf16>, %c: tensor<16xf32>) {
  // expected-error @+1 {{'tt.dot' op operands must be 2-D, or 3-D for a batched product}}
  %0 = tt.dot %a, %b, %c : tensor<16xf16> * tensor<16xf16> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @make_range_size() {
  // expected-error @+1 {{'tt.make_range' op result must have end - start = 16 elements}}
  %0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<8xi32>
  tt.return
}

// -----

tt.func @make_range_empty() {
  // expected-error @+1 {{'tt.make_range' op end (0) must be greater than start (8)}}
  %0 = tt.make_range {end = 0 : i32, start = 8 : i32} : tensor<8xi32>
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.reduce' op axis 1 is out of range for rank 1}}
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_combiner_arity(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.reduce' op combiner must take 2 arguments, got 1}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_missing_terminator(%x: tensor<8xf32>) {
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{block with no terminator}}
    %s = arith.addf %a, %b : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @scan_result_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tt.scan' op results must have the inputs' types}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<8xf32>) -> tensor<8xf16>
  tt.return
}

// -----

tt.func @atomic_pointer_mismatch(%p: !tt.ptr<f32>, %v: i32) {
  // expected-error @+1 {{'tt.atomic_rmw' op pointer type '!tt.ptr<f32>' does not point to the value type 'i32'}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<f32>, i32) -> i32
  tt.return
}

// -----

tt.func @encoding_not_allowed(%x: tensor<8xf32, "layout">) {
  // expected-error @+1 {{'tt.precise_sqrt' op expects tensors without an encoding}}
  %0 = tt.precise_sqrt %x : tensor<8xf32, "layout">
  tt.return
}

// -----

tt.func @return_mismatch(%x: i32) -> f32 {
  // expected-error @+1 {{'tt.return' op type of returned value 0 ('i32') does not match the function result type ('f32')}}
  tt.return %x : i32
}

// -----

tt.func @call_unknown(%x: i32) {
  // expected-error @+1 {{'tt.call' op 'nowhere' does not name a tt.func in this module}}
  tt.call @nowhere(%x) : (i32) -> ()
  tt.return
}

// -----

tt.func @callee(%x: i32) {
  tt.return
}
tt.func @call_types(%x: f32) {
  // expected-error @+1 {{'tt.call' op operand types do not match the signature of 'callee'}}
  tt.call @callee(%x) : (f32) -> ()
  tt.return
}

// -----

tt.func @bad_enum(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'atomic_rmw_op' [and, or, xor, add, fadd, max, min, umax, umin, exch]}}
  %0 = tt.atomic_rmw mul, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

tt.func @unknown_op() {
  // expected-error @+1 {{custom op 'tt.frobnicate' is unknown}}
  tt.frobnicate
  tt.return
}

// -----

tt.func @missing_return() {
  // expected-error @+1 {{block with no terminator}}
  %c = arith.constant 0 : i32
}

// -----

// expected-error @+1 {{unknown pointer address space "shared" (expected "constant")}}
tt.func @unknown_pointer_space(%p: !tt.ptr<f32, "shared">) {
  tt.return
}
