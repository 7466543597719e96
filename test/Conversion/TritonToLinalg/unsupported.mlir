// Ops the lowering cannot express are rejected with a diagnostic at the op.
// RUN: triton-spirv-opt %s --triton-to-linalg -split-input-file -verify-diagnostics

tt.func public @prints(%x: i32) {
  // expected-error @+1 {{tt.print is not supported: device-side printing has no Vulkan equivalent yet}}
  tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %x : i32
  tt.return
}

// -----

tt.func public @asserts(%c: i1) {
  // expected-error @+1 {{tt.assert is not supported}}
  tt.assert %c, "must hold" : i1
  tt.return
}

// -----

tt.func public @unknown_library_function(%x: f32, %p: !tt.ptr<f32>) {
  // expected-error @+1 {{device-library function '__nv_erfinvf' is not supported by the SPIR-V backend}}
  %y = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_erfinvf"} : (f32) -> f32
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
