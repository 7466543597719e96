// RUN: triton-spirv-opt %s --triton-func-to-kernel-abi="address-arguments=1" -split-input-file -verify-diagnostics

// Only pointer arguments can be passed by address.
// expected-error @+1 {{address-arguments names argument 1, which is not a pointer argument}}
tt.func public @scalar(%x: !tt.ptr<f32>, %n: i32) {
  tt.return
}

// -----

// An address table is bound as a translated copy.
// expected-error @+1 {{kernel argument 1 holds addresses (an address table, bound as a copy); it cannot be passed by address}}
tt.func public @table(%out: !tt.ptr<f32>, %table: !tt.ptr<i64>) {
  %a = tt.load %table : !tt.ptr<i64>
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  %v = tt.load %p : !tt.ptr<f32>
  tt.store %out, %v : !tt.ptr<f32>
  tt.return
}

// -----

// expected-error @+1 {{address-arguments names argument 1, which is not a pointer argument}}
tt.func public @missing(%x: !tt.ptr<f32>) {
  tt.return
}
