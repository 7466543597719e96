// RUN: triton-spirv-opt %s --triton-func-to-kernel-abi -split-input-file -verify-diagnostics

tt.func public @from_integer(%a: i64) {
  // expected-note @+1 {{pointer produced here}}
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  // expected-error @+1 {{unsupported pointer: made from an integer by tt.int_to_ptr}}
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
