// RUN: triton-spirv-opt %s -split-input-file -verify-diagnostics

tt.func @unknown_space() {
  // expected-error @+1 {{unknown address space 'shared' of ttg.barrier}}
  ttg.barrier local|shared
  tt.return
}
