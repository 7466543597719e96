// RUN: triton-spirv-opt %s --triton-reuse-loads -split-input-file | FileCheck %s

// The second identical load takes the first's result: the store between
// them goes through another argument.
// CHECK-LABEL: tt.func public @reread
// CHECK: %[[X:.*]] = tt.load %[[P:.*]], %[[M:.*]] : !tt.ptr<f32>
// CHECK-NEXT: tt.store %{{.*}}, %[[X]]
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[X]], %[[X]] : f32
tt.func public @reread(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %m: i1) {
  %x = tt.load %x_ptr, %m : !tt.ptr<f32>
  tt.store %y_ptr, %x : !tt.ptr<f32>
  %again = tt.load %x_ptr, %m : !tt.ptr<f32>
  %sum = arith.addf %x, %again : f32
  tt.store %y_ptr, %sum : !tt.ptr<f32>
  tt.return
}

// -----

// A store or atomic through the same argument, a different mask, or a
// volatile load: each load stays.
// CHECK-LABEL: tt.func public @kept
// CHECK-COUNT-5: tt.load
tt.func public @kept(%x_ptr: !tt.ptr<f32>, %m: i1, %v: f32) {
  %a = tt.load %x_ptr : !tt.ptr<f32>
  tt.store %x_ptr, %v : !tt.ptr<f32>
  %b = tt.load %x_ptr : !tt.ptr<f32>
  %old = tt.atomic_rmw fadd, acq_rel, gpu, %x_ptr, %v : (!tt.ptr<f32>, f32) -> f32
  %c = tt.load %x_ptr : !tt.ptr<f32>
  %d = tt.load %x_ptr, %m : !tt.ptr<f32>
  %e = tt.load %x_ptr {isVolatile = true} : !tt.ptr<f32>
  %f = tt.load %x_ptr {isVolatile = true} : !tt.ptr<f32>
  tt.return
}

// -----

// A loop that may store through the argument ends what was available;
// loads in different blocks are not merged.
// CHECK-LABEL: tt.func public @across_a_loop
// CHECK: tt.load
// CHECK: scf.for
// CHECK: tt.load
// CHECK: tt.store
// CHECK: }
// CHECK: tt.load
tt.func public @across_a_loop(%x_ptr: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tt.load %x_ptr : !tt.ptr<f32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %b = tt.load %x_ptr : !tt.ptr<f32>
    tt.store %x_ptr, %b : !tt.ptr<f32>
  }
  %c = tt.load %x_ptr : !tt.ptr<f32>
  tt.return
}
