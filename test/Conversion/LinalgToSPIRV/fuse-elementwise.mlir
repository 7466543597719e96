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

// -----

#id = affine_map<(d0) -> (d0)>

// A cheap producer shared by three consumers is recomputed in the small one
// but not in the two whose bodies would pass the bound on fused ops (64):
// the bound keeps integer networks (a sort's stages) from merging into one
// op without end.
// CHECK-LABEL: func.func @bounded_shared_fusion
// CHECK: %[[SHARED:.*]] = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.muli
// CHECK: linalg.generic {{.*}} ins(%[[SHARED]], %{{.*}} : tensor<64xi32>, tensor<64xi32>)
// CHECK: linalg.generic {{.*}} ins(%[[SHARED]], %{{.*}} : tensor<64xi32>, tensor<64xi32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<64xi32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.subi
// CHECK: return
func.func @bounded_shared_fusion(%v: tensor<64xi32>, %w: tensor<64xi32>) -> (tensor<64xi32>, tensor<64xi32>, tensor<64xi32>) {
  %init = tensor.empty() : tensor<64xi32>
  %shared = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%v : tensor<64xi32>) outs(%init : tensor<64xi32>) {
  ^bb0(%in: i32, %out: i32):
    %m = arith.muli %in, %in : i32
    linalg.yield %m : i32
  } -> tensor<64xi32>
  %large = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%shared, %w : tensor<64xi32>, tensor<64xi32>) outs(%init : tensor<64xi32>) {
  ^bb0(%in: i32, %other: i32, %out: i32):
    %x0 = arith.addi %in, %other : i32
    %x1 = arith.addi %x0, %other : i32
    %x2 = arith.addi %x1, %other : i32
    %x3 = arith.addi %x2, %other : i32
    %x4 = arith.addi %x3, %other : i32
    %x5 = arith.addi %x4, %other : i32
    %x6 = arith.addi %x5, %other : i32
    %x7 = arith.addi %x6, %other : i32
    %x8 = arith.addi %x7, %other : i32
    %x9 = arith.addi %x8, %other : i32
    %x10 = arith.addi %x9, %other : i32
    %x11 = arith.addi %x10, %other : i32
    %x12 = arith.addi %x11, %other : i32
    %x13 = arith.addi %x12, %other : i32
    %x14 = arith.addi %x13, %other : i32
    %x15 = arith.addi %x14, %other : i32
    %x16 = arith.addi %x15, %other : i32
    %x17 = arith.addi %x16, %other : i32
    %x18 = arith.addi %x17, %other : i32
    %x19 = arith.addi %x18, %other : i32
    %x20 = arith.addi %x19, %other : i32
    %x21 = arith.addi %x20, %other : i32
    %x22 = arith.addi %x21, %other : i32
    %x23 = arith.addi %x22, %other : i32
    %x24 = arith.addi %x23, %other : i32
    %x25 = arith.addi %x24, %other : i32
    %x26 = arith.addi %x25, %other : i32
    %x27 = arith.addi %x26, %other : i32
    %x28 = arith.addi %x27, %other : i32
    %x29 = arith.addi %x28, %other : i32
    %x30 = arith.addi %x29, %other : i32
    %x31 = arith.addi %x30, %other : i32
    %x32 = arith.addi %x31, %other : i32
    %x33 = arith.addi %x32, %other : i32
    %x34 = arith.addi %x33, %other : i32
    %x35 = arith.addi %x34, %other : i32
    %x36 = arith.addi %x35, %other : i32
    %x37 = arith.addi %x36, %other : i32
    %x38 = arith.addi %x37, %other : i32
    %x39 = arith.addi %x38, %other : i32
    %x40 = arith.addi %x39, %other : i32
    %x41 = arith.addi %x40, %other : i32
    %x42 = arith.addi %x41, %other : i32
    %x43 = arith.addi %x42, %other : i32
    %x44 = arith.addi %x43, %other : i32
    %x45 = arith.addi %x44, %other : i32
    %x46 = arith.addi %x45, %other : i32
    %x47 = arith.addi %x46, %other : i32
    %x48 = arith.addi %x47, %other : i32
    %x49 = arith.addi %x48, %other : i32
    %x50 = arith.addi %x49, %other : i32
    %x51 = arith.addi %x50, %other : i32
    %x52 = arith.addi %x51, %other : i32
    %x53 = arith.addi %x52, %other : i32
    %x54 = arith.addi %x53, %other : i32
    %x55 = arith.addi %x54, %other : i32
    %x56 = arith.addi %x55, %other : i32
    %x57 = arith.addi %x56, %other : i32
    %x58 = arith.addi %x57, %other : i32
    %x59 = arith.addi %x58, %other : i32
    %x60 = arith.addi %x59, %other : i32
    %x61 = arith.addi %x60, %other : i32
    %x62 = arith.addi %x61, %other : i32
    %x63 = arith.addi %x62, %other : i32
    %x64 = arith.addi %x63, %other : i32
    %x65 = arith.addi %x64, %other : i32
    %x66 = arith.addi %x65, %other : i32
    %x67 = arith.addi %x66, %other : i32
    %x68 = arith.addi %x67, %other : i32
    %x69 = arith.addi %x68, %other : i32
    linalg.yield %x69 : i32
  } -> tensor<64xi32>
  %other_large = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%shared, %w : tensor<64xi32>, tensor<64xi32>) outs(%init : tensor<64xi32>) {
  ^bb0(%in: i32, %other: i32, %out: i32):
    %x0 = arith.addi %in, %other : i32
    %x1 = arith.addi %x0, %other : i32
    %x2 = arith.addi %x1, %other : i32
    %x3 = arith.addi %x2, %other : i32
    %x4 = arith.addi %x3, %other : i32
    %x5 = arith.addi %x4, %other : i32
    %x6 = arith.addi %x5, %other : i32
    %x7 = arith.addi %x6, %other : i32
    %x8 = arith.addi %x7, %other : i32
    %x9 = arith.addi %x8, %other : i32
    %x10 = arith.addi %x9, %other : i32
    %x11 = arith.addi %x10, %other : i32
    %x12 = arith.addi %x11, %other : i32
    %x13 = arith.addi %x12, %other : i32
    %x14 = arith.addi %x13, %other : i32
    %x15 = arith.addi %x14, %other : i32
    %x16 = arith.addi %x15, %other : i32
    %x17 = arith.addi %x16, %other : i32
    %x18 = arith.addi %x17, %other : i32
    %x19 = arith.addi %x18, %other : i32
    %x20 = arith.addi %x19, %other : i32
    %x21 = arith.addi %x20, %other : i32
    %x22 = arith.addi %x21, %other : i32
    %x23 = arith.addi %x22, %other : i32
    %x24 = arith.addi %x23, %other : i32
    %x25 = arith.addi %x24, %other : i32
    %x26 = arith.addi %x25, %other : i32
    %x27 = arith.addi %x26, %other : i32
    %x28 = arith.addi %x27, %other : i32
    %x29 = arith.addi %x28, %other : i32
    %x30 = arith.addi %x29, %other : i32
    %x31 = arith.addi %x30, %other : i32
    %x32 = arith.addi %x31, %other : i32
    %x33 = arith.addi %x32, %other : i32
    %x34 = arith.addi %x33, %other : i32
    %x35 = arith.addi %x34, %other : i32
    %x36 = arith.addi %x35, %other : i32
    %x37 = arith.addi %x36, %other : i32
    %x38 = arith.addi %x37, %other : i32
    %x39 = arith.addi %x38, %other : i32
    %x40 = arith.addi %x39, %other : i32
    %x41 = arith.addi %x40, %other : i32
    %x42 = arith.addi %x41, %other : i32
    %x43 = arith.addi %x42, %other : i32
    %x44 = arith.addi %x43, %other : i32
    %x45 = arith.addi %x44, %other : i32
    %x46 = arith.addi %x45, %other : i32
    %x47 = arith.addi %x46, %other : i32
    %x48 = arith.addi %x47, %other : i32
    %x49 = arith.addi %x48, %other : i32
    %x50 = arith.addi %x49, %other : i32
    %x51 = arith.addi %x50, %other : i32
    %x52 = arith.addi %x51, %other : i32
    %x53 = arith.addi %x52, %other : i32
    %x54 = arith.addi %x53, %other : i32
    %x55 = arith.addi %x54, %other : i32
    %x56 = arith.addi %x55, %other : i32
    %x57 = arith.addi %x56, %other : i32
    %x58 = arith.addi %x57, %other : i32
    %x59 = arith.addi %x58, %other : i32
    %x60 = arith.addi %x59, %other : i32
    %x61 = arith.addi %x60, %other : i32
    %x62 = arith.addi %x61, %other : i32
    %x63 = arith.addi %x62, %other : i32
    %x64 = arith.addi %x63, %other : i32
    %x65 = arith.addi %x64, %other : i32
    %x66 = arith.addi %x65, %other : i32
    %x67 = arith.addi %x66, %other : i32
    %x68 = arith.addi %x67, %other : i32
    %x69 = arith.addi %x68, %other : i32
    linalg.yield %x69 : i32
  } -> tensor<64xi32>
  %small = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%shared : tensor<64xi32>) outs(%init : tensor<64xi32>) {
  ^bb0(%in: i32, %out: i32):
    %s = arith.subi %in, %out : i32
    linalg.yield %s : i32
  } -> tensor<64xi32>
  return %large, %other_large, %small : tensor<64xi32>, tensor<64xi32>, tensor<64xi32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mirror = affine_map<(d0, d1) -> (d0, -d1 + 1)>

// A sorting network's stage: the swap of a computed block (%stage) is not
// fused with it (that would compute the stage again at the partner's
// position in every later stage); the swap itself, only data movement, fuses
// into both users, and the compare into the select, so the next stage is one
// generic reading %stage in place and mirrored. Data movement (the bitcast
// generic) composes into a swap.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[MIRROR:.*]] = affine_map<(d0, d1) -> (d0, -d1 + 1)>
// CHECK-LABEL: func.func @pair_swap_stages
// CHECK: %[[STAGE:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x2xf32>, tensor<4x2xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK: %[[NEXT:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[MIRROR]], #[[ID]]], {{.*}} ins(%[[STAGE]], %[[STAGE]] : tensor<4x2xf32>, tensor<4x2xf32>)
// CHECK-NEXT: ^bb0(%[[OWN:.*]]: f32, %[[PARTNER:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[OWN]], %[[PARTNER]] : f32
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[GT]], %[[PARTNER]], %[[OWN]] : f32
// CHECK-NEXT: linalg.yield %[[SEL]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[MIRROR]], #[[ID]]], {{.*}} ins(%{{.*}} : tensor<4x2xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %{{.*}}: i32):
// CHECK-NEXT: %[[BITS:.*]] = arith.bitcast %[[V]] : f32 to i32
// CHECK-NEXT: linalg.yield %[[BITS]] : i32
func.func @pair_swap_stages(%x: tensor<4x2xf32>, %s: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %e = tensor.empty() : tensor<4x2xf32>
  %ei = tensor.empty() : tensor<4x2xi32>
  %e1 = tensor.empty() : tensor<4x2xi1>
  %stage = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x2xf32>
  %swap = linalg.generic {indexing_maps = [#mirror, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%stage : tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x2xf32>
  %gt = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%stage, %swap : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e1 : tensor<4x2xi1>) {
  ^bb0(%a: f32, %b: f32, %o: i1):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg.yield %c : i1
  } -> tensor<4x2xi1>
  %next = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%gt, %swap, %stage : tensor<4x2xi1>, tensor<4x2xf32>, tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%c: i1, %a: f32, %b: f32, %o: f32):
    %v = arith.select %c, %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x2xf32>
  %bits = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x2xf32>) outs(%ei : tensor<4x2xi32>) {
  ^bb0(%a: f32, %o: i32):
    %b = arith.bitcast %a : f32 to i32
    linalg.yield %b : i32
  } -> tensor<4x2xi32>
  %flipped = linalg.generic {indexing_maps = [#mirror, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%bits : tensor<4x2xi32>) outs(%ei : tensor<4x2xi32>) {
  ^bb0(%a: i32, %o: i32):
    linalg.yield %a : i32
  } -> tensor<4x2xi32>
  return %next, %flipped : tensor<4x2xf32>, tensor<4x2xi32>
}

// -----

// A bit cast of a block an scf.if yields (a bf16 operand cast to f16 bits
// after the run-time versions of its load) moves into both branches and
// fuses with each branch's load: the block is loaded as f16 bits.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @cast_into_branches
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<4x8xf16>) {
// CHECK:   linalg.generic
// CHECK:     memref.load %{{.*}} : memref<?xbf16>
// CHECK:     arith.bitcast %{{.*}} : bf16 to f16
// CHECK-NOT: linalg.generic
// CHECK:   scf.yield %{{.*}} : tensor<4x8xf16>
// CHECK: } else {
// CHECK:   linalg.generic
// CHECK:     linalg.yield %{{.*}} : f16
// CHECK-NOT: linalg.generic
// CHECK:   scf.yield %{{.*}} : tensor<4x8xf16>
// CHECK: }
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @cast_into_branches(%src: memref<?xbf16>, %whole: i1) -> tensor<4x8xf16> {
  %block = scf.if %whole -> (tensor<4x8xbf16>) {
    %empty = tensor.empty() : tensor<4x8xbf16>
    %loaded = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<4x8xbf16>) {
    ^bb0(%out: bf16):
      %row = linalg.index 0 : index
      %col = linalg.index 1 : index
      %c8 = arith.constant 8 : index
      %base = arith.muli %row, %c8 : index
      %at = arith.addi %base, %col : index
      %v = memref.load %src[%at] : memref<?xbf16>
      linalg.yield %v : bf16
    } -> tensor<4x8xbf16>
    scf.yield %loaded : tensor<4x8xbf16>
  } else {
    %empty = tensor.empty() : tensor<4x8xbf16>
    %zeros = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%empty : tensor<4x8xbf16>) {
    ^bb0(%out: bf16):
      %zero = arith.constant 0.0 : bf16
      linalg.yield %zero : bf16
    } -> tensor<4x8xbf16>
    scf.yield %zeros : tensor<4x8xbf16>
  }
  %empty = tensor.empty() : tensor<4x8xf16>
  %bits = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%block : tensor<4x8xbf16>) outs(%empty : tensor<4x8xf16>) {
  ^bb0(%in: bf16, %out: f16):
    %cast = arith.bitcast %in : bf16 to f16
    linalg.yield %cast : f16
  } -> tensor<4x8xf16>
  return %bits : tensor<4x8xf16>
}

// -----

// Through nested branches the cast moves twice; the branch's other result
// keeps its uses.
#id4 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @nested_branches
// CHECK: %[[R:.*]]:2 = scf.if %{{.*}} -> (tensor<8xf16>, index) {
// CHECK:   %[[IN:.*]] = scf.if %{{.*}} -> (tensor<8xf16>) {
// CHECK:     linalg.generic {{.*}} ins(%{{.*}} : tensor<8xbf16>) outs(%{{.*}} : tensor<8xf16>)
// CHECK:   } else {
// CHECK:     linalg.generic {{.*}} ins(%{{.*}} : tensor<8xbf16>) outs(%{{.*}} : tensor<8xf16>)
// CHECK:   scf.yield %[[IN]], %{{.*}} : tensor<8xf16>, index
// CHECK: } else {
// CHECK:   linalg.generic {{.*}} ins(%{{.*}} : tensor<8xbf16>) outs(%{{.*}} : tensor<8xf16>)
// CHECK: return %[[R]]#0, %[[R]]#1 : tensor<8xf16>, index
func.func @nested_branches(%a: tensor<8xbf16>, %b: tensor<8xbf16>, %c: i1, %d: i1,
                           %i: index, %j: index) -> (tensor<8xf16>, index) {
  %block:2 = scf.if %c -> (tensor<8xbf16>, index) {
    %inner = scf.if %d -> (tensor<8xbf16>) {
      scf.yield %a : tensor<8xbf16>
    } else {
      scf.yield %b : tensor<8xbf16>
    }
    scf.yield %inner, %i : tensor<8xbf16>, index
  } else {
    scf.yield %b, %j : tensor<8xbf16>, index
  }
  %empty = tensor.empty() : tensor<8xf16>
  %bits = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel"]} ins(%block#0 : tensor<8xbf16>) outs(%empty : tensor<8xf16>) {
  ^bb0(%in: bf16, %out: f16):
    %cast = arith.bitcast %in : bf16 to f16
    linalg.yield %cast : f16
  } -> tensor<8xf16>
  return %bits, %block#1 : tensor<8xf16>, index
}

// -----

// What stays after the branch: a block the branch's result has other uses
// of, and computation (not a bit cast).
#id3 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @other_use_stays
// CHECK: %[[B:.*]] = scf.if
// CHECK: linalg.generic {{.*}} ins(%[[B]] : tensor<8xbf16>)
func.func @other_use_stays(%a: tensor<8xbf16>, %b: tensor<8xbf16>, %c: i1) -> (tensor<8xf16>, tensor<8xbf16>) {
  %block = scf.if %c -> (tensor<8xbf16>) {
    scf.yield %a : tensor<8xbf16>
  } else {
    scf.yield %b : tensor<8xbf16>
  }
  %empty = tensor.empty() : tensor<8xf16>
  %bits = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel"]} ins(%block : tensor<8xbf16>) outs(%empty : tensor<8xf16>) {
  ^bb0(%in: bf16, %out: f16):
    %cast = arith.bitcast %in : bf16 to f16
    linalg.yield %cast : f16
  } -> tensor<8xf16>
  return %bits, %block : tensor<8xf16>, tensor<8xbf16>
}

// CHECK-LABEL: func.func @computation_stays
// CHECK: %[[B:.*]] = scf.if
// CHECK: linalg.generic {{.*}} ins(%[[B]] : tensor<8xf32>)
// CHECK:   arith.addf
func.func @computation_stays(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: i1) -> tensor<8xf32> {
  %block = scf.if %c -> (tensor<8xf32>) {
    scf.yield %a : tensor<8xf32>
  } else {
    scf.yield %b : tensor<8xf32>
  }
  %empty = tensor.empty() : tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel"]} ins(%block : tensor<8xf32>) outs(%empty : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %sum : tensor<8xf32>
}
