// RUN: triton-spirv-opt %s --triton-func-to-kernel-abi -split-input-file -verify-diagnostics

tt.func public @from_integer(%a: i64) {
  // expected-note @+1 {{pointer produced here}}
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  // expected-error @+1 {{unsupported pointer: made by tt.int_to_ptr from an integer that is not computed from a kernel pointer argument (tt.ptr_to_int)}}
  %v = tt.load %p : !tt.ptr<f32>
  tt.return
}

// -----

// An address loaded from memory names no buffer.
tt.func public @loaded_address(%table: !tt.ptr<i64>) {
  %a = tt.load %table : !tt.ptr<i64>
  %zero = arith.constant 0.0 : f32
  // expected-note @+1 {{pointer produced here}}
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  // expected-error @+1 {{unsupported pointer: made by tt.int_to_ptr}}
  tt.store %p, %zero : !tt.ptr<f32>
  tt.return
}

// -----

tt.func public @addresses_of_two_arguments(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: i1) {
  %ia = tt.ptr_to_int %a : !tt.ptr<f32> -> i64
  %ib = tt.ptr_to_int %b : !tt.ptr<f32> -> i64
  %i = arith.select %c, %ia, %ib : i64
  %p = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
  // expected-error @+1 {{unsupported pointer: it may come from different pointer arguments}}
  %v = tt.load %p : !tt.ptr<f32>
  tt.return
}

// -----

tt.func public @two_roots(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: i1) {
  %p = arith.select %c, %a, %b : !tt.ptr<f32>
  // expected-error @+1 {{unsupported pointer: it may come from different pointer arguments}}
  %v = tt.load %p : !tt.ptr<f32>
  tt.return
}

// -----

tt.func public @loaded_pointer(%a: !tt.ptr<!tt.ptr<f32>>) {
  // expected-note @+1 {{pointer produced here}}
  %p = tt.load %a : !tt.ptr<!tt.ptr<f32>>
  // expected-error @+1 {{unsupported pointer: loaded from memory}}
  %v = tt.load %p : !tt.ptr<f32>
  tt.return
}

// -----

// expected-error @+1 {{kernel 'returns' returns values; kernels return nothing}}
tt.func public @returns(%a: i32) -> i32 {
  tt.return %a : i32
}
