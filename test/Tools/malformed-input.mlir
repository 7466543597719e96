// Malformed text gets a diagnostic with file:line:col and a non-zero exit.
// RUN: not triton-spirv-opt %s 2>&1 | FileCheck %s
// RUN: not triton-spirv-opt %S/does-not-exist.ttir 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: malformed-input.mlir:[[@LINE+2]]:{{[0-9]+}}: error: unbalanced
tt.func @truncated(%p: !tt.ptr<f32>) {
  %0 = tt.load %p : !tt.ptr<f32
  tt.return
}

// MISSING: does-not-exist.ttir{{.*}}No such file or directory
