// RUN: triton-spirv-opt %s --triton-split-pointer-selects -split-input-file | FileCheck %s

// A load through a pointer chosen by a scalar between two arguments: the
// offsets move into both sides (splat, addptr), and the load becomes one
// masked load of each argument, the result selected.
// CHECK-LABEL: tt.func @scalar_choice
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: !tt.ptr<f32>, %[[B:.*]]: !tt.ptr<f32>, %[[OFFS:.*]]: tensor<8xi32>, %[[M:.*]]: tensor<8xi1>)
// CHECK-DAG: %[[SA:.*]] = tt.splat %[[A]]
// CHECK-DAG: %[[SB:.*]] = tt.splat %[[B]]
// CHECK-DAG: %[[PA:.*]] = tt.addptr %[[SA]], %[[OFFS]]
// CHECK-DAG: %[[PB:.*]] = tt.addptr %[[SB]], %[[OFFS]]
// CHECK: %[[CS:.*]] = tt.splat %[[C]] : i1 -> tensor<8xi1>
// CHECK: %[[NOT:.*]] = arith.xori %[[CS]], %{{.*}} : tensor<8xi1>
// CHECK: %[[MA:.*]] = arith.andi %[[M]], %[[CS]]
// CHECK: %[[MB:.*]] = arith.andi %[[M]], %[[NOT]]
// CHECK: %[[LA:.*]] = tt.load %[[PA]], %[[MA]]
// CHECK: %[[LB:.*]] = tt.load %[[PB]], %[[MB]]
// CHECK: %[[R:.*]] = arith.select %[[C]], %[[LA]], %[[LB]] : tensor<8xf32>
// CHECK: tt.return %[[R]]
tt.func @scalar_choice(%c: i1, %a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %offs: tensor<8xi32>,
                       %m: tensor<8xi1>) -> tensor<8xf32> {
  %p = arith.select %c, %a, %b : !tt.ptr<f32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %pp = tt.addptr %ps, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %pp, %m : tensor<8x!tt.ptr<f32>>
  tt.return %v : tensor<8xf32>
}

// -----

// Element by element: stores go to both arguments under complementary
// masks; atomics too, their old values selected.
// CHECK-LABEL: tt.func @element_choice
// CHECK-SAME: (%[[C:.*]]: tensor<8xi1>, %[[PA:.*]]: tensor<8x!tt.ptr<i32>>, %[[PB:.*]]: tensor<8x!tt.ptr<i32>>, %[[V:.*]]: tensor<8xi32>)
// CHECK: %[[NOT:.*]] = arith.xori %[[C]]
// CHECK: tt.store %[[PA]], %[[V]], %[[C]]
// CHECK: tt.store %[[PB]], %[[V]], %[[NOT]]
// CHECK: %[[OLD_A:.*]] = tt.atomic_rmw add, relaxed, gpu, %[[PA]], %[[V]], %{{.*}}
// CHECK: %[[OLD_B:.*]] = tt.atomic_rmw add, relaxed, gpu, %[[PB]], %[[V]], %{{.*}}
// CHECK: arith.select %[[C]], %[[OLD_A]], %[[OLD_B]]
tt.func @element_choice(%c: tensor<8xi1>, %pa: tensor<8x!tt.ptr<i32>>,
                        %pb: tensor<8x!tt.ptr<i32>>, %v: tensor<8xi32>) -> tensor<8xi32> {
  %p = arith.select %c, %pa, %pb : tensor<8xi1>, tensor<8x!tt.ptr<i32>>
  tt.store %p, %v : tensor<8x!tt.ptr<i32>>
  %old = tt.atomic_rmw add, relaxed, gpu, %p, %v : (tensor<8x!tt.ptr<i32>>, tensor<8xi32>) -> tensor<8xi32>
  tt.return %old : tensor<8xi32>
}

// -----

// A select between pointers into one argument is lowered as it is.
// CHECK-LABEL: tt.func @one_argument
// CHECK: %[[P:.*]] = arith.select
// CHECK-NEXT: %[[S:.*]] = tt.splat %[[P]]
// CHECK-NEXT: %[[Q:.*]] = tt.addptr %[[S]]
// CHECK-NEXT: tt.load %[[Q]]
// CHECK-NOT: tt.load
tt.func @one_argument(%c: i1, %a: !tt.ptr<f32>, %offs: tensor<8xi32>) -> tensor<8xf32> {
  %c4 = arith.constant 4 : i32
  %a4 = tt.addptr %a, %c4 : !tt.ptr<f32>, i32
  %p = arith.select %c, %a, %a4 : !tt.ptr<f32>
  %ps = tt.splat %p : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %pp = tt.addptr %ps, %offs : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %v = tt.load %pp : tensor<8x!tt.ptr<f32>>
  tt.return %v : tensor<8xf32>
}
