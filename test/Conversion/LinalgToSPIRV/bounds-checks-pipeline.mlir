// RUN: triton-spirv-opt %s --triton-to-spirv="target=lavapipe bounds-checks=1" | FileCheck %s
// RUN: triton-spirv-opt %s --triton-to-spirv="target=lavapipe" | FileCheck %s --check-prefix=UNCHECKED

// With bounds checks, each tensor argument's storage bounds follow its
// element offset among the launch constants; the debug buffer holds the
// header alone (no prints) and names each checked access.
// CHECK: spirv.module
// CHECK-SAME: debug_buffer = {asserts = [{location = "kernel.py:3:8", message = "out-of-bounds load through 'x_ptr': a pointer outside the tensor's storage"}, {location = "kernel.py:4:4", message = "out-of-bounds store through 'y_ptr': a pointer outside the tensor's storage"}], binding = 2 : i64, bytes = 32 : i64, capacity = 0 : i64
// CHECK-SAME: push_constants = [{arg_index = 0 : i64, offset = 0 : i64, role = "offset", type = "i32"}, {arg_index = 0 : i64, offset = 4 : i64, role = "bounds_begin", type = "i32"}, {arg_index = 0 : i64, offset = 8 : i64, role = "bounds_end", type = "i32"}, {arg_index = 1 : i64, offset = 12 : i64, role = "offset", type = "i32"}, {arg_index = 1 : i64, offset = 16 : i64, role = "bounds_begin", type = "i32"}, {arg_index = 1 : i64, offset = 20 : i64, role = "bounds_end", type = "i32"}
// CHECK: spirv.UDiv
// CHECK: spirv.SGreaterThanEqual
// CHECK: spirv.SLessThan
// CHECK: spirv.AtomicCompareExchange

// Without them: no debug buffer, no bounds.
// UNCHECKED: spirv.module
// UNCHECKED-NOT: debug_buffer
// UNCHECKED-NOT: bounds_begin
// UNCHECKED-SAME: entry_point = "copy"
tt.func public @copy(%x_ptr: !tt.ptr<f32> loc("x_ptr"("kernel.py":1:0)), %y_ptr: !tt.ptr<f32> loc("y_ptr"("kernel.py":1:0))) {
  %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %x = tt.load %xp : tensor<64x!tt.ptr<f32>> loc("kernel.py":3:8)
  %ys = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %yp, %x : tensor<64x!tt.ptr<f32>> loc("kernel.py":4:4)
  tt.return
}
