// RUN: triton-spirv-opt %s | FileCheck %s
// RUN: triton-spirv-opt %s | triton-spirv-opt | FileCheck %s

// ttg.barrier as Triton 3.8 and later print it: one address space, several
// joined by `|`, or all of them.
// CHECK-LABEL: tt.func @barriers
tt.func @barriers() {
  // CHECK-NEXT: ttg.barrier all
  ttg.barrier all
  // CHECK-NEXT: ttg.barrier local{{$}}
  ttg.barrier local
  // CHECK-NEXT: ttg.barrier local|global_read|global_write{{$}}
  ttg.barrier local|global_read|global_write
  // The five spaces together print as `all`.
  // CHECK-NEXT: ttg.barrier all
  ttg.barrier local|global_read|global_write|tensor_read|tensor_write
  // CHECK-NEXT: ttg.barrier none
  ttg.barrier none
  tt.return
}
