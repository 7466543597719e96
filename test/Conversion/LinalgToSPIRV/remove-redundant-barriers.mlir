// RUN: triton-spirv-opt %s --triton-spirv-remove-redundant-barriers -split-input-file | FileCheck %s

// Nothing runs before the kernel's first barrier, and nothing after its
// last: neither orders anything. The one between a write of workgroup
// memory and a read of it stays.
// CHECK-LABEL: func.func @entry_and_exit
// CHECK-NEXT: gpu.thread_id
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store
// CHECK-NEXT: return
func.func @entry_and_exit(%shared: memref<64xf32, #gpu.address_space<workgroup>>,
                          %out: memref<64xf32>, %x: f32) {
  gpu.barrier
  %t = gpu.thread_id x
  memref.store %x, %shared[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %y = memref.load %shared[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %y, %out[%t] : memref<64xf32>
  gpu.barrier
  return
}

// -----

// Reads on both sides need no ordering, of workgroup and of global memory.
// CHECK-LABEL: func.func @reads_on_both_sides
// CHECK-NOT: gpu.barrier
// CHECK: return
func.func @reads_on_both_sides(%shared: memref<64xf32, #gpu.address_space<workgroup>>,
                               %in: memref<64xf32>, %regs: memref<2xf32, #gpu.address_space<private>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = gpu.thread_id x
  %a = memref.load %shared[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  %b = memref.load %in[%t] : memref<64xf32>
  gpu.barrier
  %c = memref.load %shared[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
  %d = memref.load %in[%c0] : memref<64xf32>
  %e = arith.addf %a, %c : f32
  %f = arith.addf %b, %d : f32
  memref.store %e, %regs[%c0] : memref<2xf32, #gpu.address_space<private>>
  memref.store %f, %regs[%c1] : memref<2xf32, #gpu.address_space<private>>
  return
}

// -----

// Global memory is ordered as workgroup memory is: a read before and a
// write after (another invocation may write what one has yet to read) keep
// their barrier.
// CHECK-LABEL: func.func @global_read_then_write
// CHECK: memref.load %arg0
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
func.func @global_read_then_write(%in: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %t = gpu.thread_id x
  %a = memref.load %in[%c0] : memref<64xf32>
  gpu.barrier
  memref.store %a, %out[%t] : memref<64xf32>
  return
}

// -----

// A barrier at the top of a loop body is reached from before the loop and
// from the body's end. Where both only read global memory and use
// registers, it goes; so does the one after the loop.
// CHECK-LABEL: func.func @loop_of_reads
// CHECK-NOT: gpu.barrier
// CHECK: return
func.func @loop_of_reads(%in: memref<?xf32>, %regs: memref<4xf32, #gpu.address_space<private>>,
                         %n: index, %shared: memref<64xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = gpu.thread_id x
  scf.for %i = %c0 to %n step %c1 {
    gpu.barrier
    %x = memref.load %in[%i] : memref<?xf32>
    %acc = memref.load %regs[%c0] : memref<4xf32, #gpu.address_space<private>>
    %sum = arith.addf %x, %acc : f32
    memref.store %sum, %regs[%c0] : memref<4xf32, #gpu.address_space<private>>
  }
  gpu.barrier
  %r = memref.load %regs[%c0] : memref<4xf32, #gpu.address_space<private>>
  memref.store %r, %shared[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// The back edge counts: the body writes workgroup memory after its barrier
// and reads it before, so the next iteration's read must wait for this
// iteration's writes. Before the loop there is nothing to order.
// CHECK-LABEL: func.func @loop_back_edge
// CHECK: scf.for
// CHECK-NEXT: memref.load
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
func.func @loop_back_edge(%shared: memref<64xf32, #gpu.address_space<workgroup>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = gpu.thread_id x
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %shared[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    memref.store %x, %shared[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A barrier in a branch is judged on what precedes and follows the branch;
// ops whose effects are unknown (a call) count as accessing everything.
// CHECK-LABEL: func.func @branch_and_unknown
// CHECK: scf.if
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: }
// CHECK-NEXT: call @opaque
func.func private @opaque()
func.func @branch_and_unknown(%shared: memref<64xf32, #gpu.address_space<workgroup>>, %flag: i1, %x: f32) {
  %t = gpu.thread_id x
  memref.store %x, %shared[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  scf.if %flag {
    gpu.barrier
  }
  func.call @opaque() : () -> ()
  return
}

// -----

// Global reads and writes made by distributed loops of one spread need no
// barrier between them: each invocation writes at the iterations where it
// read. Loops of another spread (or none) keep it.
// CHECK-LABEL: func.func @spreads
// CHECK: memref.load %arg0
// CHECK-NOT: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %arg1
func.func @spreads(%in: memref<64xf32>, %out: memref<64xf32>, %regs: memref<1xf32, #gpu.address_space<private>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = gpu.thread_id x
  scf.for %i = %c0 to %c1 step %c1 {
    %x = memref.load %in[%t] : memref<64xf32>
    memref.store %x, %regs[%c0] : memref<1xf32, #gpu.address_space<private>>
  } {triton_spirv.spread = #triton_spirv.spread<[64], run = 1>}
  gpu.barrier
  scf.for %i = %c0 to %c1 step %c1 {
    %x = memref.load %regs[%c0] : memref<1xf32, #gpu.address_space<private>>
    memref.store %x, %out[%t] : memref<64xf32>
  } {triton_spirv.spread = #triton_spirv.spread<[64], run = 1>}
  gpu.barrier
  scf.for %i = %c0 to %c1 step %c1 {
    %x = memref.load %regs[%c0] : memref<1xf32, #gpu.address_space<private>>
    memref.store %x, %out[%t] : memref<64xf32>
  } {triton_spirv.spread = #triton_spirv.spread<[16], run = 4>}
  return
}

// -----

// The scalar code's writes (invocation 0's, under a 0-d spread) need no
// barrier before a distributed loop's accesses; before the scalar code's
// own reads, which every invocation makes outside any spread, they do.
// CHECK-LABEL: func.func @scalar_writes
// CHECK: scf.if
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: memref.load %arg0[%c0]
func.func @scalar_writes(%buf: memref<64xf32>, %flag: i1, %x: f32,
                         %regs: memref<1xf32, #gpu.address_space<private>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = gpu.thread_id x
  scf.if %flag {
    memref.store %x, %buf[%c0] : memref<64xf32>
  } {triton_spirv.spread = #triton_spirv.spread<run = 1>}
  gpu.barrier
  scf.for %i = %c0 to %c1 step %c1 {
    %y = memref.load %buf[%t] : memref<64xf32>
    memref.store %y, %regs[%c0] : memref<1xf32, #gpu.address_space<private>>
  } {triton_spirv.spread = #triton_spirv.spread<[64], run = 1>}
  scf.if %flag {
    memref.store %x, %buf[%c1] : memref<64xf32>
  } {triton_spirv.spread = #triton_spirv.spread<run = 1>}
  gpu.barrier
  %z = memref.load %buf[%c0] : memref<64xf32>
  memref.store %z, %regs[%c0] : memref<1xf32, #gpu.address_space<private>>
  return
}

// -----

// Vector loads and stores count as the accesses they are: a barrier between
// vector reads of one buffer goes, one between a scalar write and a vector
// read of it stays.
// CHECK-LABEL: func.func @vector_accesses
// CHECK: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: vector.load
// CHECK-NEXT: vector.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: vector.store
// CHECK-NEXT: return
func.func @vector_accesses(%tiles: memref<64xf32, #gpu.address_space<workgroup>>,
                           %out: memref<64xf32>, %x: f32) {
  %t = gpu.thread_id x
  memref.store %x, %tiles[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %v = vector.load %tiles[%t] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  gpu.barrier
  %w = vector.load %tiles[%t] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  %s = arith.addf %v, %w : vector<4xf32>
  vector.store %s, %out[%t] : memref<64xf32>, vector<4xf32>
  return
}

// -----

// A matmul loop after triton-spirv-hoist-operand-loads: each step loads
// the next operand tiles from global memory into registers (under a
// uniform scf.if), then stores them to workgroup memory, which the
// cooperative-matrix loads read. A path from the loads' barrier meets an
// scf.if whose branches both begin with a barrier, so it ends there: the
// loads' barrier orders nothing and goes (as the remainder in the address
// arithmetic, which has no memory effect, does not make them unknown).
// The barriers before the stores and before the matrix loads stay.
// CHECK-LABEL: func.func @staged_matmul_steps
// CHECK: scf.for
// CHECK-NEXT: scf.if
// CHECK-NOT: gpu.barrier
// CHECK: arith.remui
// CHECK-NEXT: memref.load %{{.*}} : memref<?xf16>
// CHECK: scf.if
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store
// CHECK: } else {
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: memref.store
// CHECK: gpu.barrier
// CHECK-NEXT: gpu.subgroup_mma_load_matrix
func.func @staged_matmul_steps(%a: memref<?xf16>, %n: index, %whole: i1, %k: index,
                               %tile: memref<16x16xf16, #gpu.address_space<workgroup>>,
                               %regs: memref<1xf16, #gpu.address_space<private>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f16
  %t = gpu.thread_id x
  %row = arith.divui %t, %c16 : index
  %col = arith.remui %t, %c16 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.if %whole {
      gpu.barrier
      %at = arith.remui %i, %k : index
      %x = memref.load %a[%at] : memref<?xf16>
      memref.store %x, %regs[%c0] : memref<1xf16, #gpu.address_space<private>>
    }
    scf.if %whole {
      gpu.barrier
      %x = memref.load %regs[%c0] : memref<1xf16, #gpu.address_space<private>>
      memref.store %x, %tile[%row, %col] : memref<16x16xf16, #gpu.address_space<workgroup>>
    } else {
      gpu.barrier
      memref.store %zero, %tile[%row, %col] : memref<16x16xf16, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %m = gpu.subgroup_mma_load_matrix %tile[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  }
  return
}

// -----

// A spin lock's release after the guarded stores (Triton's test_atomic_cas):
// the scalar code's atomic is not ordered with a loop's global stores by
// the rules above, so the distribution's barrier between them goes; the
// program's own barrier (tl.debug_barrier(), marked by the distribution)
// stays.
// CHECK-LABEL: func.func @requested_barrier
// CHECK: scf.for
// CHECK: gpu.barrier {triton_spirv.requested_barrier}
// CHECK-NEXT: scf.if
// CHECK-NEXT: memref.atomic_rmw
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: memref.atomic_rmw
func.func @requested_barrier(%data: memref<?xf32>, %lock: memref<?xi32>, %first: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %t = gpu.thread_id x
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %one, %data[%i] : memref<?xf32>
  } {triton_spirv.spread = #triton_spirv.spread<[128], run = 1>}
  gpu.barrier {triton_spirv.requested_barrier}
  scf.if %first {
    %old = memref.atomic_rmw assign %zero, %lock[%c0] : (i32, memref<?xi32>) -> i32
  } {triton_spirv.spread = #triton_spirv.spread<run = 1>}
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %one, %data[%i] : memref<?xf32>
  } {triton_spirv.spread = #triton_spirv.spread<[128], run = 1>}
  gpu.barrier
  scf.if %first {
    %old = memref.atomic_rmw assign %zero, %lock[%c0] : (i32, memref<?xi32>) -> i32
  } {triton_spirv.spread = #triton_spirv.spread<run = 1>}
  return
}
