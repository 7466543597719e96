// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=64 subgroup-size=8 max-workgroup-memory=1048576 max-workgroup-size=1024" --triton-spirv-plan-matmuls --triton-spirv-assign-layouts --triton-spirv-distribute --canonicalize -split-input-file | FileCheck %s

#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// Element q reads q ^ 128, q ^ 32 and q ^ 1 (W = 64).
#far = affine_map<(d0, d1, d2, d3, d4) -> (-d0 + 1, d1, d2, d3, d4)>
#across = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, -d2 + 1, d3, d4)>
#near = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, -d4 + 1)>

// Pair swaps of a block held in registers (cyclic: element q is register
// q / 64 of invocation q mod 64), iteration r of invocation t reading the
// partner of q = t + 64 r:
// - q ^ 128 is the invocation's own register r ^ 2;
// - q ^ 1, invocation t ^ 1's register r, comes by an xor shuffle within
//   the subgroup of 8;
// - q ^ 32 lies in another subgroup: the invocations first copy their
//   registers to workgroup memory (element q at q), then read (t ^ 32) + 64 r.
// CHECK-LABEL: func.func @pair_swaps
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[EIGHT:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[EXCHANGE:.*]] = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[REGS:.*]] = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
// CHECK: scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[V:.*]] = memref.load %[[REGS]][%[[W]]]
// CHECK: %[[WR:.*]] = arith.muli %[[W]], %[[C64]]
// CHECK: %[[AT:.*]] = arith.addi %[[T]], %[[WR]]
// CHECK: memref.store %[[V]], %[[EXCHANGE]][%[[AT]]]
// CHECK: } {triton_spirv.spread = #triton_spirv.spread<[256], run = 1>}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK: %[[OWN:.*]] = memref.load %[[REGS]][%[[R]]]
// CHECK: %[[FAR:.*]] = arith.xori %[[R]], %[[C2]]
// CHECK: %[[FARV:.*]] = memref.load %[[REGS]][%[[FAR]]]
// CHECK: %[[RX:.*]] = arith.muli %[[R]], %[[C64]]
// CHECK: %[[TX:.*]] = arith.xori %[[T]], %[[C32]]
// CHECK: %[[P:.*]] = arith.addi %[[TX]], %[[RX]]
// CHECK: %[[ACROSS:.*]] = memref.load %[[EXCHANGE]][%[[P]]]
// CHECK: %[[MINE:.*]] = memref.load %[[REGS]][%[[R]]]
// CHECK: %[[NEAR:.*]], %{{.*}} = gpu.shuffle  xor %[[MINE]], %[[ONE]], %[[EIGHT]] : f32
// CHECK: arith.addf %[[OWN]], %[[FARV]]
// CHECK: arith.addf %{{.*}}, %[[ACROSS]]
// CHECK: arith.addf %{{.*}}, %[[NEAR]]
func.func @pair_swaps(%src: memref<2x2x2x16x2xf32>, %dst: memref<2x2x2x16x2xf32>) {
  %x = memref.alloc() : memref<2x2x2x16x2xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<2x2x2x16x2xf32>) outs(%x : memref<2x2x2x16x2xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [#id, #far, #across, #near, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %x, %x, %x : memref<2x2x2x16x2xf32, #gpu.address_space<workgroup>>, memref<2x2x2x16x2xf32, #gpu.address_space<workgroup>>, memref<2x2x2x16x2xf32, #gpu.address_space<workgroup>>, memref<2x2x2x16x2xf32, #gpu.address_space<workgroup>>)
      outs(%dst : memref<2x2x2x16x2xf32>) {
  ^bb0(%own: f32, %f: f32, %a: f32, %n: f32, %out: f32):
    %s0 = arith.addf %own, %f : f32
    %s1 = arith.addf %s0, %a : f32
    %s2 = arith.addf %s1, %n : f32
    linalg.yield %s2 : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#mirror = affine_map<(d0, d1) -> (d0, -d1 + 1)>

// Pair swaps stay in workgroup memory where the workgroup does not divide
// the block (16 elements on 64 invocations), and where the op writes the
// block it swaps (other invocations would read what it overwrote;
// bufferization never writes a swap in place, the analysis checks anyway).
// CHECK-LABEL: func.func @swaps_in_memory
// CHECK-DAG: memref.alloc() : memref<8x2xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.alloc() : memref<64x2xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloca
// CHECK-NOT: gpu.shuffle
func.func @swaps_in_memory(%src: memref<8x2xf32>, %dst: memref<8x2xf32>, %big: memref<64x2xf32>) {
  %x = memref.alloc() : memref<8x2xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%src : memref<8x2xf32>) outs(%x : memref<8x2xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [#mirror, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x2xf32, #gpu.address_space<workgroup>>) outs(%dst : memref<8x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }
  %y = memref.alloc() : memref<64x2xf32, #gpu.address_space<workgroup>>
  linalg.copy ins(%big : memref<64x2xf32>) outs(%y : memref<64x2xf32, #gpu.address_space<workgroup>>)
  linalg.generic {indexing_maps = [#mirror, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<64x2xf32, #gpu.address_space<workgroup>>) outs(%y : memref<64x2xf32, #gpu.address_space<workgroup>>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }
  linalg.copy ins(%y : memref<64x2xf32, #gpu.address_space<workgroup>>) outs(%big : memref<64x2xf32>)
  return
}
