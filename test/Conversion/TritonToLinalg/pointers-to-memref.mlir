// RUN: triton-spirv-opt %s --triton-func-to-kernel-abi --triton-tensors-to-linalg --triton-pointers-to-memref -split-input-file | FileCheck %s

// A masked block load gathers through element offsets; masked-off lanes take
// `other`. A masked block store scatters element by element: a
// linalg.generic without results.
// CHECK-LABEL: func.func @copy
// CHECK-SAME: (%[[IN:.*]]: memref<?xf32> {{.*}}, %[[IN_OFF:.*]]: index {{.*}}, %[[OUT:.*]]: memref<?xf32> {{.*}}, %[[OUT_OFF:.*]]: index
// CHECK: %[[BASE:.*]] = linalg.fill ins(%[[IN_OFF]] : index) outs(%{{.*}} : tensor<16xindex>)
// CHECK: %[[OFFS:.*]] = arith.addi %[[BASE]], %{{.*}} : tensor<16xindex>
// CHECK: linalg.generic {{.*}} ins(%[[OFFS]], %{{.*}}, %{{.*}} : tensor<16xindex>, tensor<16xi1>, tensor<16xf32>)
// CHECK-NEXT: ^bb0(%[[O:.*]]: index, %[[M:.*]]: i1, %[[OTHER:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: scf.if %[[M]] -> (f32) {
// CHECK-NEXT: memref.load %[[IN]][%[[O]]] : memref<?xf32>
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[OTHER]] : f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<16xindex>, tensor<16xf32>, tensor<16xi1>) {
// CHECK-NEXT: ^bb0(%[[SO:.*]]: index, %[[SV:.*]]: f32, %[[SM:.*]]: i1):
// CHECK-NEXT: scf.if %[[SM]] {
// CHECK-NEXT: memref.store %[[SV]], %[[OUT]][%[[SO]]] : memref<?xf32>
tt.func public @copy(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %bound = tt.splat %n : i32 -> tensor<16xi32>
  %mask = arith.cmpi slt, %r, %bound : tensor<16xi32>
  %other = arith.constant dense<-1.0> : tensor<16xf32>
  %in_base = tt.splat %in : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %in_ptrs = tt.addptr %in_base, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %in_ptrs, %mask, %other : tensor<16x!tt.ptr<f32>>
  %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %out_ptrs = tt.addptr %out_base, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  tt.store %out_ptrs, %v, %mask : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// Bool pointers are read as bytes through an aliasing i8 buffer; offsets are
// counted in elements of the accessed type.
// CHECK-LABEL: func.func @bytes
// CHECK-SAME: (%{{.*}}: memref<?xf32> {{.*}}, %[[BYTES:.*]]: memref<?xi8> {{.*}}, %[[OFF:.*]]: index
// CHECK: %[[SCALED:.*]] = arith.muli %[[OFF]], %c4 : index
// CHECK: memref.load %[[BYTES]][%[[SCALED]]] : memref<?xi8>
tt.func public @bytes(%p: !tt.ptr<f32>) -> () {
  %q = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i8>
  %v = tt.load %q : !tt.ptr<i8>
  tt.store %q, %v : !tt.ptr<i8>
  tt.return
}

// -----

// CHECK-LABEL: func.func @atomics
// CHECK: memref.atomic_rmw addf %{{.*}}, %{{.*}}[%{{.*}}] : (f32, memref<?xf32>) -> f32
// CHECK: memref.generic_atomic_rmw %{{.*}}[%{{.*}}] : memref<?xi32>
// CHECK: arith.cmpi eq
// CHECK: memref.atomic_yield
tt.func public @atomics(%p: !tt.ptr<f32>, %lock: !tt.ptr<i32>, %v: f32) {
  %old = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %prev = tt.atomic_cas acq_rel, gpu, %lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
  tt.return
}

// -----

// An address is the byte offset in the buffer; an address computed from a
// pointer argument (here one f32 further on, read as i32) turns back into an
// element offset of the same buffer, through its i32 alias.
// CHECK-LABEL: func.func @address_round_trip
// CHECK-SAME: (%{{[^:]*}}: memref<?xf32> {{[^%]*}}, %[[ALIAS:[^:]*]]: memref<?xi32> {{[^%]*}}, %[[OFF:[^:]*]]: index
// CHECK: %[[BYTES:.*]] = arith.muli %[[OFF]], %{{.*}} : index
// CHECK: %[[ADDR:.*]] = arith.index_cast %[[BYTES]] : index to i64
// CHECK: %[[NEXT:.*]] = arith.addi %[[ADDR]], %{{.*}} : i64
// CHECK: %[[NEXT_BYTES:.*]] = arith.index_cast %[[NEXT]] : i64 to index
// CHECK: %[[ELEMENT:.*]] = arith.divsi %[[NEXT_BYTES]], %{{.*}} : index
// CHECK: memref.load %[[ALIAS]][%[[ELEMENT]]] : memref<?xi32>
tt.func public @address_round_trip(%p: !tt.ptr<f32>, %out: !tt.ptr<i32>) {
  %c4 = arith.constant 4 : i64
  %address = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  %next = arith.addi %address, %c4 : i64
  %q = tt.int_to_ptr %next : i64 -> !tt.ptr<i32>
  %v = tt.load %q : !tt.ptr<i32>
  tt.store %out, %v : !tt.ptr<i32>
  tt.return
}

// -----

// Accesses through a pointer with an address root index its buffer at a
// device address, as those through arguments index their buffers.
// CHECK-LABEL: func.func @through_address
// CHECK: %[[A:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xi64>
// CHECK: %[[BUF:.*]] = triton_spirv.address_buffer %[[A]] root 0 : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
// CHECK: linalg.generic
// CHECK: scf.if
// CHECK-NEXT: memref.load %[[BUF]][%{{.*}}] : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
// CHECK: memref.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
tt.func public @through_address(%table: !tt.ptr<i64>, %n: i32) {
  %a = tt.load %table : !tt.ptr<i64>
  %p = tt.int_to_ptr %a : i64 -> !tt.ptr<f32>
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %bound = tt.splat %n : i32 -> tensor<16xi32>
  %mask = arith.cmpi slt, %r, %bound : tensor<16xi32>
  %base = tt.splat %p : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %ptrs, %mask : tensor<16x!tt.ptr<f32>>
  %s = tt.load %p : !tt.ptr<f32>
  %t = arith.addf %s, %s : f32
  tt.store %p, %t : !tt.ptr<f32>
  tt.return
}
