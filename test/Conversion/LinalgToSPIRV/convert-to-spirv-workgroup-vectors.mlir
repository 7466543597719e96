// RUN: triton-spirv-opt %s --split-input-file --verify-diagnostics --triton-spirv-resolve-target="target=nvidia workgroup-size=64" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s

// A workgroup buffer read as vectors is an array of vectors: its vector
// loads take one element, its scalar stores one component of an element
// (Vulkan's logical addressing has no pointer casts).
// CHECK-LABEL: spirv.module
// CHECK: spirv.GlobalVariable @[[TILES:__workgroup_vectors__[0-9]+]] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x vector<4xf32>>)>, Workgroup>
// CHECK: spirv.func @tiles
// CHECK: %[[ADDR:.*]] = spirv.mlir.addressof @[[TILES]]
// CHECK: %[[ROW:.*]] = spirv.IMul %{{.*}}, %{{.*}} : i32
// CHECK: %[[LINEAR:.*]] = spirv.IAdd %{{.*}}, %[[ROW]] : i32
// CHECK: %[[ELEMENT:.*]] = spirv.ShiftRightLogical %[[LINEAR]], %{{.*}} : i32, i32
// CHECK: %[[COMPONENT:.*]] = spirv.BitwiseAnd %[[LINEAR]], %{{.*}} : i32
// CHECK: %[[LANE:.*]] = spirv.AccessChain %[[ADDR]][%{{.*}}, %[[ELEMENT]], %[[COMPONENT]]] : {{.*}} -> !spirv.ptr<f32, Workgroup>
// CHECK: spirv.Store "Workgroup" %[[LANE]]
// CHECK: %[[VECTOR:.*]] = spirv.AccessChain %[[ADDR]][%{{.*}}, %{{.*}}] : {{.*}} -> !spirv.ptr<vector<4xf32>, Workgroup>
// CHECK: spirv.Load "Workgroup" %[[VECTOR]] : vector<4xf32>
// CHECK-NOT: spirv.Bitcast
func.func @tiles(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                 %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                 %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                 %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %tid = gpu.thread_id x
  %tiles = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %x = memref.load %buf[%tid] : memref<?xf32>
  %row = arith.divui %tid, %c4 : index
  %col = arith.remui %tid, %c16 : index
  memref.store %x, %tiles[%row, %col] : memref<16x16xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %start = arith.muli %col, %c4 : index
  %group = arith.remui %start, %c16 : index
  %v = vector.load %tiles[%row, %group] : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  %e = vector.extract %v[1] : f32 from vector<4xf32>
  memref.store %e, %buf[%tid] : memref<?xf32>
  return
}

// -----

// Vector accesses of two widths cannot share one array.
func.func @mixed(%buf: memref<?xf32> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                 %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                 %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                 %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  // expected-error @below {{a workgroup buffer with vector accesses must have only direct loads and stores, its vector accesses of one width}}
  %tiles = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
  %v = vector.load %tiles[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
  %w = vector.load %tiles[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
  %e = vector.extract %v[1] : f32 from vector<4xf32>
  %f = vector.extract %w[1] : f32 from vector<2xf32>
  %s = arith.addf %e, %f : f32
  memref.store %s, %buf[%c0] : memref<?xf32>
  return
}
