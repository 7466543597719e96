// RUN: triton-spirv-opt %s --triton-lower-ttg-barriers | FileCheck %s

// Whatever spaces it names, a ttg.barrier becomes a gpu.barrier (every
// invocation meets, every memory ordered), as tl.debug_barrier() was in
// Triton 3.6.
// CHECK-LABEL: tt.func @debug_barriers
tt.func @debug_barriers(%p: !tt.ptr<f32>, %v: f32) {
  tt.store %p, %v : !tt.ptr<f32>
  // CHECK: tt.store
  // CHECK-NEXT: gpu.barrier{{$}}
  ttg.barrier all
  // CHECK-NEXT: gpu.barrier{{$}}
  ttg.barrier local|global_write
  // CHECK-NOT: ttg.barrier
  %x = tt.load %p : !tt.ptr<f32>
  tt.return
}
