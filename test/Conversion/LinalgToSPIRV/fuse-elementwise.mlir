// RUN: triton-spirv-opt %s --triton-spirv-fuse-elementwise --split-input-file | FileCheck %s

#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

// A cheap index computation used by two loads is recomputed in both, so no
// index tensor is left; the loads stay in their own generics.
// CHECK-LABEL: func.func @recompute_cheap_producer
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @recompute_cheap_producer(%a: memref<?xf32>, %b: memref<?xf32>, %base: index) -> (tensor<64xf32>, tensor<64xf32>) {
  %idx_init = tensor.empty() : tensor<64xindex>
  %idx = linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel"]}
      ins(%base : index) outs(%idx_init : tensor<64xindex>) {
  ^bb0(%in: index, %out: index):
    %i = linalg.index 0 : index
    %s = arith.addi %in, %i : index
    linalg.yield %s : index
  } -> tensor<64xindex>
  %init = tensor.empty() : tensor<64xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%idx : tensor<64xindex>) outs(%init : tensor<64xf32>) {
  ^bb0(%in: index, %out: f32):
    %v = memref.load %a[%in] : memref<?xf32>
    linalg.yield %v : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%idx : tensor<64xindex>) outs(%init : tensor<64xf32>) {
  ^bb0(%in: index, %out: f32):
    %v = memref.load %b[%in] : memref<?xf32>
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %x, %y : tensor<64xf32>, tensor<64xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// A load with two users is not duplicated.
// CHECK-LABEL: func.func @keep_shared_load
// CHECK-COUNT-3: linalg.generic
func.func @keep_shared_load(%a: memref<?xf32>, %idx: tensor<64xindex>) -> (tensor<64xf32>, tensor<64xf32>) {
  %init = tensor.empty() : tensor<64xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%idx : tensor<64xindex>) outs(%init : tensor<64xf32>) {
  ^bb0(%in: index, %out: f32):
    %v = memref.load %a[%in] : memref<?xf32>
    linalg.yield %v : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %in : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %in : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %y, %z : tensor<64xf32>, tensor<64xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

// Offsets advanced by the same amount each iteration (`ptrs += BLOCK * stride`)
// are carried as one scalar; the tensor becomes loop-invariant, and its cheap
// computation is redone where it is used, plus the scalar. After the loop,
// the tensor is rebuilt from the final sum.
// CHECK-LABEL: func.func @carry_uniform_increment
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[SUM:.*]] = %c0) -> (tensor<64xf32>, index)
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[OFF:.*]] = arith.addi %{{.*}}, %[[I]] : index
// CHECK: %[[ADDR:.*]] = arith.addi %[[OFF]], %[[SUM]] : index
// CHECK: memref.load %{{.*}}[%[[ADDR]]]
// CHECK: %[[STEP:.*]] = arith.index_cast
// CHECK: %[[NEXT:.*]] = arith.addi %[[SUM]], %[[STEP]] : index
// CHECK: scf.yield %{{.*}}, %[[NEXT]] : tensor<64xf32>, index
// CHECK: linalg.generic
// CHECK: arith.addi %{{.*}}, %[[LOOP]]#1 : index
func.func @carry_uniform_increment(%a: memref<?xf32>, %base: index, %stride: i32, %n: index) -> (tensor<64xf32>, tensor<64xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %idx_init = tensor.empty() : tensor<64xindex>
  %offs = linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel"]}
      ins(%base : index) outs(%idx_init : tensor<64xindex>) {
  ^bb0(%in: index, %out: index):
    %i = linalg.index 0 : index
    %s = arith.addi %in, %i : index
    linalg.yield %s : index
  } -> tensor<64xindex>
  %init = tensor.empty() : tensor<64xf32>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ptrs = %offs) -> (tensor<64xf32>, tensor<64xindex>) {
    %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%ptrs, %acc : tensor<64xindex>, tensor<64xf32>) outs(%init : tensor<64xf32>) {
    ^bb0(%p: index, %in: f32, %out: f32):
      %v = memref.load %a[%p] : memref<?xf32>
      %s = arith.addf %in, %v : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    %step = arith.muli %stride, %stride : i32
    %next = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel"]}
        ins(%ptrs, %step : tensor<64xindex>, i32) outs(%idx_init : tensor<64xindex>) {
    ^bb0(%p: index, %s: i32, %out: index):
      %c = arith.index_cast %s : i32 to index
      %q = arith.addi %p, %c : index
      linalg.yield %q : index
    } -> tensor<64xindex>
    scf.yield %x, %next : tensor<64xf32>, tensor<64xindex>
  }
  return %r#0, %r#1 : tensor<64xf32>, tensor<64xindex>
}

// -----

#id = affine_map<(d0) -> (d0)>

// An increment that differs per element stays a carried tensor.
// CHECK-LABEL: func.func @keep_varying_increment
// CHECK: scf.for {{.*}} -> (tensor<64xindex>)
func.func @keep_varying_increment(%offs: tensor<64xindex>, %n: index) -> tensor<64xindex> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %idx_init = tensor.empty() : tensor<64xindex>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%ptrs = %offs) -> (tensor<64xindex>) {
    %next = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%ptrs : tensor<64xindex>) outs(%idx_init : tensor<64xindex>) {
    ^bb0(%p: index, %out: index):
      %i = linalg.index 0 : index
      %q = arith.addi %p, %i : index
      linalg.yield %q : index
    } -> tensor<64xindex>
    scf.yield %next : tensor<64xindex>
  }
  return %r : tensor<64xindex>
}

// -----

#id = affine_map<(d0) -> (d0)>

// A producer that writes memory (an atomic) is never cloned into its user:
// the original stays for its effect, so the atomic would run twice.
// CHECK-LABEL: func.func @keep_atomic_producer
// CHECK-COUNT-1: memref.atomic_rmw
// CHECK-NOT: memref.atomic_rmw
func.func @keep_atomic_producer(%a: memref<?xi32>, %idx: tensor<64xindex>, %v: tensor<64xi32>) -> tensor<64xi32> {
  %init = tensor.empty() : tensor<64xi32>
  %old = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%idx, %v : tensor<64xindex>, tensor<64xi32>) outs(%init : tensor<64xi32>) {
  ^bb0(%i: index, %x: i32, %out: i32):
    %r = memref.atomic_rmw addi %x, %a[%i] : (i32, memref<?xi32>) -> i32
    linalg.yield %r : i32
  } -> tensor<64xi32>
  %twice = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%old : tensor<64xi32>) outs(%init : tensor<64xi32>) {
  ^bb0(%x: i32, %out: i32):
    %y = arith.addi %x, %x : i32
    linalg.yield %y : i32
  } -> tensor<64xi32>
  return %twice : tensor<64xi32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// The same when the step is a splat constant (a stride specialized to 1).
// CHECK-LABEL: func.func @carry_splat_increment
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.for {{.*}} iter_args(%[[SUM:.*]] = %c0) -> (index)
// CHECK:   %[[NEXT:.*]] = arith.addi %[[SUM]], %[[C64]] : index
// CHECK:   scf.yield %[[NEXT]] : index
func.func @carry_splat_increment(%offs: tensor<64xindex>, %n: index) -> tensor<64xindex> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %step = arith.constant dense<64> : tensor<64xindex>
  %idx_init = tensor.empty() : tensor<64xindex>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%ptrs = %offs) -> (tensor<64xindex>) {
    %next = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%ptrs, %step : tensor<64xindex>, tensor<64xindex>) outs(%idx_init : tensor<64xindex>) {
    ^bb0(%p: index, %s: index, %out: index):
      %q = arith.addi %p, %s : index
      linalg.yield %q : index
    } -> tensor<64xindex>
    scf.yield %next : tensor<64xindex>
  }
  return %r : tensor<64xindex>
}

// -----

// A store of a constant block (`tl.store(p + offsets, tl.zeros(...))`): the
// constant folds into the body; fusing the offsets too would leave the store
// no operand to size its loop by, so they stay an operand.
#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>

// CHECK-LABEL: func.func @store_of_a_constant_keeps_a_shaped_operand
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[OFFSETS:.*]] = linalg.generic
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[OFFSETS]] : tensor<64xindex>)
// CHECK-NEXT: ^bb0(%[[OFFSET:.*]]: index):
// CHECK-NEXT: memref.store %[[ZERO]], %{{.*}}[%[[OFFSET]]]
func.func @store_of_a_constant_keeps_a_shaped_operand(%out: memref<?xi32>, %base: index) {
  %idx_init = tensor.empty() : tensor<64xindex>
  %idx = linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel"]}
      ins(%base : index) outs(%idx_init : tensor<64xindex>) {
  ^bb0(%in: index, %o: index):
    %i = linalg.index 0 : index
    %s = arith.addi %in, %i : index
    linalg.yield %s : index
  } -> tensor<64xindex>
  %zeros = arith.constant dense<0> : tensor<64xi32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%idx, %zeros : tensor<64xindex>, tensor<64xi32>) {
  ^bb0(%offset: index, %value: i32):
    memref.store %value, %out[%offset] : memref<?xi32>
    linalg.yield
  }
  return
}

// -----

// The offsets computed in the body: the constant is the only operand, and
// becomes a fill instead of folding away.
#id = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @store_of_only_a_constant_keeps_a_fill
// CHECK: %[[FILL:.*]] = linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<64xf32>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[FILL]] : tensor<64xf32>)
// CHECK: memref.store
func.func @store_of_only_a_constant_keeps_a_fill(%out: memref<?xf32>, %base: index) {
  %halves = arith.constant dense<0.5> : tensor<64xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      ins(%halves : tensor<64xf32>) {
  ^bb0(%value: f32):
    %i = linalg.index 0 : index
    %offset = arith.addi %base, %i : index
    memref.store %value, %out[%offset] : memref<?xf32>
    linalg.yield
  }
  return
}
