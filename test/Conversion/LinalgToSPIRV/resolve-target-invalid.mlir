// RUN: triton-spirv-opt %s --triton-spirv-assign-layouts -verify-diagnostics
// RUN: triton-spirv-opt %s --triton-spirv-plan-matmuls -verify-diagnostics
// RUN: triton-spirv-opt %s %convert-to-spirv -verify-diagnostics

// A pass that reads target facts refuses a module without them.
// expected-error @below {{the module has no target: run --triton-spirv-resolve-target first}}
module {
  func.func @kernel() {
    return
  }
}
