// RUN: triton-spirv-opt %s --triton-func-to-kernel-abi -split-input-file -verify-diagnostics

// An address passed as an integer: the launcher translates only the
// elements of address tables.
tt.func public @from_integer(%a: i64) {
  // expected-error @+1 {{unsupported pointer: tt.int_to_ptr of an integer that is not read from a kernel pointer argument (an address table) and offset by arithmetic}}
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  %v = tt.load %p : !tt.ptr<f32>
  tt.return
}

// -----

tt.func public @constant_address() {
  %a = arith.constant 4096 : i64
  // expected-error @+1 {{unsupported pointer: tt.int_to_ptr of a constant address}}
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  %v = tt.load %p : !tt.ptr<f32>
  tt.return
}

// -----

// Each element of a block of addresses would be a buffer of its own.
tt.func public @block_of_addresses(%table: !tt.ptr<i64>) {
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %s = tt.splat %table : !tt.ptr<i64> -> tensor<4x!tt.ptr<i64>>
  %t = tt.addptr %s, %r : tensor<4x!tt.ptr<i64>>, tensor<4xi32>
  %a = tt.load %t : tensor<4x!tt.ptr<i64>>
  // expected-note @+1 {{pointer produced here}}
  %p = tt.int_to_ptr %a : tensor<4xi64> -> tensor<4x!tt.ptr<f32>>
  // expected-error @+1 {{unsupported pointer: made by tt.int_to_ptr from a block of integers}}
  %v = tt.load %p : tensor<4x!tt.ptr<f32>>
  tt.return
}

// -----

// The launcher binds a table with device addresses: the kernel may not read
// its elements as numbers.
tt.func public @table_read_as_numbers(%table: !tt.ptr<i64>, %out: !tt.ptr<i64>) {
  // expected-error @+1 {{kernel argument 0 holds addresses (tt.int_to_ptr of its elements); it may only be read, and only for addresses}}
  %a = tt.load %table : !tt.ptr<i64>
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  %v = tt.load %p : !tt.ptr<f32>
  tt.store %out, %a : !tt.ptr<i64>
  tt.return
}

// -----

tt.func public @table_written(%table: !tt.ptr<i64>) {
  %a = tt.load %table : !tt.ptr<i64>
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  %v = tt.load %p : !tt.ptr<f32>
  %zero = arith.constant 0 : i64
  // expected-error @+1 {{kernel argument 0 holds addresses}}
  tt.store %table, %zero : !tt.ptr<i64>
  tt.return
}

// -----

// Two levels of indirection: the inner table is not a kernel argument.
tt.func public @address_of_address(%table: !tt.ptr<i64>) {
  %a = tt.load %table : !tt.ptr<i64>
  %inner = tt.int_to_ptr %a : i64 -> !tt.ptr<i64>
  %b = tt.load %inner : !tt.ptr<i64>
  // expected-error @+1 {{unsupported pointer: its address is loaded through another address}}
  %p = tt.int_to_ptr %b : i64 -> !tt.ptr<f32>
  %v = tt.load %p : !tt.ptr<f32>
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
