// Ops the lowering cannot express are rejected with a diagnostic at the op.
// RUN: triton-spirv-opt %s --triton-to-linalg -split-input-file -verify-diagnostics

tt.func public @unknown_library_function(%x: f32, %p: !tt.ptr<f32>) {
  // expected-error @+1 {{device-library function '__nv_lgammaf' is not supported by the SPIR-V backend}}
  %y = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_lgammaf"} : (f32) -> f32
  tt.store %p, %y : !tt.ptr<f32>
  tt.return
}

// -----

tt.func private @helper(%x: i32) -> i32 {
  tt.return %x : i32
}
// Calls are inlined first, so a kernel calling a helper lowers fine.
tt.func public @calls(%p: !tt.ptr<i32>, %x: i32) {
  %y = tt.call @helper(%x) : (i32) -> i32
  tt.store %p, %y : !tt.ptr<i32>
  tt.return
}

// -----

tt.func public @inline_asm(%s: i32, %q: !tt.ptr<i32>) {
  %x = tt.splat %s : i32 -> tensor<8xi32>
  %p = tt.splat %q : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  // expected-error @+1 {{inline assembly (tl.inline_asm_elementwise) targets a specific GPU ISA and cannot run on Vulkan}}
  %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<8xi32> -> tensor<8xi32>
  tt.store %p, %y : tensor<8x!tt.ptr<i32>>
  tt.return
}

// -----

tt.func public @packed_map(%s: i32, %q: !tt.ptr<i32>) {
  %x = tt.splat %s : i32 -> tensor<8xi32>
  %p = tt.splat %q : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  // expected-error @+1 {{tl.map_elementwise: the block's elements are not a whole number of packs}}
  %y = "tt.map_elementwise"(%x) <{pack = 3 : i32}> ({
  ^bb0(%a: i32, %b: i32, %c: i32):
    tt.map_elementwise.return %a, %b, %c : i32, i32, i32
  }) : (tensor<8xi32>) -> tensor<8xi32>
  tt.store %p, %y : tensor<8x!tt.ptr<i32>>
  tt.return
}

// -----

// Triton's own passes (which the backend runs) turn tensor descriptors and
// block pointers into plain pointers; raw ones are named.
tt.func public @descriptor(%p: !tt.ptr<f32>, %n: i32, %out: !tt.ptr<f32>) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{tt.make_tensor_descriptor must be rewritten to plain pointers first}}
  %d = tt.make_tensor_descriptor %p, [%n], [%c1] : !tt.ptr<f32>, !tt.tensordesc<tensor<16xf32>>
  // expected-error @+1 {{tt.descriptor_load must be rewritten to plain pointers first}}
  %v = tt.descriptor_load %d[%c0] : !tt.tensordesc<tensor<16xf32>> -> tensor<16xf32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %b = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %b, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %ptrs, %v : tensor<16x!tt.ptr<f32>>
  tt.return
}
