// RUN: triton-spirv-opt %s --triton-func-to-kernel-abi -split-input-file | FileCheck %s

// Pointer arguments become (buffer, offset); scalars stay; six i32 grid
// arguments are appended and replace program ids and grid sizes.
// CHECK-LABEL: func.func @abi
// CHECK-SAME: (%[[BUF:.*]]: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64, tt.divisibility = 16 : i32},
// CHECK-SAME: %[[OFF:.*]]: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
// CHECK-SAME: %[[N:.*]]: i32 {triton_spirv.abi = "scalar", triton_spirv.arg_index = 1 : i64},
// CHECK-SAME: %[[PIDX:.*]]: i32 {triton_spirv.abi = "program_id_x"}, %{{.*}}: i32 {triton_spirv.abi = "program_id_y"}, %[[PIDZ:.*]]: i32 {triton_spirv.abi = "program_id_z"},
// CHECK-SAME: %{{.*}}: i32 {triton_spirv.abi = "num_programs_x"}, %[[NUMY:.*]]: i32 {triton_spirv.abi = "num_programs_y"}, %{{.*}}: i32 {triton_spirv.abi = "num_programs_z"})
// CHECK-SAME: attributes {triton_spirv.kernel}
// CHECK: %[[PTR:.*]] = builtin.unrealized_conversion_cast %[[BUF]], %[[OFF]] : memref<?xf32>, index to !tt.ptr<f32>
// CHECK: arith.addi %[[PIDX]], %[[PIDZ]]
// CHECK: arith.addi %{{.*}}, %[[NUMY]]
// CHECK: %[[P:.*]] = tt.addptr %[[PTR]]
// CHECK: tt.load %[[P]] {triton_spirv.root_arg = 0 : i64}
// CHECK-NOT: llvm.intr.assume
// CHECK: return
tt.func public @abi(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %x = tt.get_program_id x : i32
  %z = tt.get_program_id z : i32
  %ny = tt.get_num_programs y : i32
  %a = arith.addi %x, %z : i32
  %b = arith.addi %a, %ny : i32
  %c = arith.cmpi sge, %b, %n : i32
  llvm.intr.assume %c : i1
  %q = tt.addptr %p, %b : !tt.ptr<f32>, i32
  %v = tt.load %q : !tt.ptr<f32>
  tt.return
}

// -----

// A pointer accessed as another element type (here through tt.bitcast) gets
// an aliasing buffer of that type; the pointer's root is recorded on the
// store.
// CHECK-LABEL: func.func @aliases
// CHECK-SAME: %{{.*}}: memref<?xi1> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64}
// CHECK-SAME: %{{.*}}: memref<?xi8> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64}
// CHECK-SAME: %{{.*}}: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64}
// CHECK: tt.bitcast %{{.*}} : !tt.ptr<i1> -> !tt.ptr<i8>
// CHECK: tt.store %{{.*}}, %{{.*}} {triton_spirv.root_arg = 0 : i64}
tt.func public @aliases(%p: !tt.ptr<i1>) {
  %q = tt.bitcast %p : !tt.ptr<i1> -> !tt.ptr<i8>
  %c = arith.constant 1 : i8
  tt.store %q, %c : !tt.ptr<i8>
  tt.return
}

// -----

// Pointers carried by loops and merged by selects keep their root.
// CHECK-LABEL: func.func @loop_carried
// CHECK: scf.for
// CHECK: tt.load %{{.*}} {triton_spirv.root_arg = 1 : i64}
tt.func public @loop_carried(%n: i32, %p: !tt.ptr<f32>, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%ptr = %p) -> (!tt.ptr<f32>) : i32 {
    %next = tt.addptr %ptr, %c1 : !tt.ptr<f32>, i32
    %pick = arith.select %c, %next, %ptr : !tt.ptr<f32>
    scf.yield %pick : !tt.ptr<f32>
  }
  %v = tt.load %r : !tt.ptr<f32>
  tt.return
}

// -----

// An address read from a table (as the grouped-GEMM tutorial reads its
// matrices' addresses) is a root of its own: a buffer at a device address
// per element type accessed through it, rebuilt as (buffers..., 0), which
// keeps every buffer used. The kernel lists the table for the launcher,
// which binds it with device addresses.
// CHECK-LABEL: func.func @address_table
// CHECK-SAME: attributes {triton_spirv.address_tables = array<i64: 0>, triton_spirv.kernel}
// CHECK: %[[A:.*]] = tt.load %{{.*}} {triton_spirv.root_arg = 0 : i64} : !tt.ptr<i64>
// CHECK: %[[OFFSET:.*]] = arith.addi %[[A]], %{{.*}} : i64
// CHECK: %[[F32:.*]] = triton_spirv.address_buffer %[[OFFSET]] root 0 : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
// CHECK: %[[I32:.*]] = triton_spirv.address_buffer %[[OFFSET]] root 0 : memref<?xi32, #spirv.storage_class<PhysicalStorageBuffer>>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[P:.*]] = builtin.unrealized_conversion_cast %[[F32]], %[[I32]], %[[ZERO]] : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>, memref<?xi32, #spirv.storage_class<PhysicalStorageBuffer>>, index to !tt.ptr<f32>
// CHECK-NOT: tt.int_to_ptr
// CHECK: tt.load %[[P]] {triton_spirv.root_address = 0 : i64}
// CHECK: tt.store %{{.*}}, %{{.*}} {triton_spirv.root_address = 0 : i64} : !tt.ptr<i32>
tt.func public @address_table(%table: !tt.ptr<i64>) {
  %a = tt.load %table : !tt.ptr<i64>
  %c16 = arith.constant 16 : i64
  %b = arith.addi %a, %c16 : i64
  %p = tt.int_to_ptr %b : i64 -> !tt.ptr<f32>
  %v = tt.load %p : !tt.ptr<f32>
  %q = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
  %w = tt.bitcast %v : f32 -> i32
  tt.store %q, %w : !tt.ptr<i32>
  tt.return
}
