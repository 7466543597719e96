// RUN: triton-spirv-opt %s --pass-pipeline="builtin.module(spirv.module(triton-spirv-compute-element-addresses))" | FileCheck %s

// An element reached through a PhysicalStorageBuffer pointer (a tensor taken
// by device address) is the pointer's address plus its byte offset in i64,
// so that offsets past 4 GiB do not wrap on NVIDIA; storage buffers keep
// their access chains.
!block = !spirv.struct<(i32 [0], !spirv.rtarray<vector<4xf32>, stride=16> [16])>
spirv.module PhysicalStorageBuffer64 GLSL450 {
  // CHECK-LABEL: spirv.func @by_address
  // CHECK-SAME: (%[[ADDRESS:.*]]: i64, %[[INDEX:.*]]: i32, %[[LANE:.*]]: i32)
  // CHECK: %[[POINTER:.*]] = spirv.ConvertUToPtr %[[ADDRESS]]
  // CHECK-DAG: %[[MEMBER:.*]] = spirv.Constant 16 : i64
  // CHECK-DAG: %[[STRIDE:.*]] = spirv.Constant 16 : i64
  // CHECK-DAG: %[[WIDE:.*]] = spirv.SConvert %[[INDEX]] : i32 to i64
  // CHECK: %[[BYTES:.*]] = spirv.IMul %[[WIDE]], %[[STRIDE]] : i64
  // CHECK: %[[OFFSET:.*]] = spirv.IAdd %[[MEMBER]], %[[BYTES]] : i64
  // CHECK: %[[BASE:.*]] = spirv.ConvertPtrToU %[[POINTER]] : {{.*}} to i64
  // CHECK: %[[SUM:.*]] = spirv.IAdd %[[BASE]], %[[OFFSET]] : i64
  // CHECK: %[[VECTOR:.*]] = spirv.ConvertUToPtr %[[SUM]] : i64 to !spirv.ptr<vector<4xf32>, PhysicalStorageBuffer>
  // CHECK: %[[ELEMENT:.*]] = spirv.AccessChain %[[VECTOR]][%[[LANE]]]
  // CHECK: spirv.Load "PhysicalStorageBuffer" %[[ELEMENT]]
  spirv.func @by_address(%address: i64, %index: i32, %lane: i32) -> f32 "None" {
    %one = spirv.Constant 1 : i32
    %pointer = spirv.ConvertUToPtr %address : i64 to !spirv.ptr<!block, PhysicalStorageBuffer>
    %element = spirv.AccessChain %pointer[%one, %index, %lane] : !spirv.ptr<!block, PhysicalStorageBuffer>, i32, i32, i32 -> !spirv.ptr<f32, PhysicalStorageBuffer>
    %value = spirv.Load "PhysicalStorageBuffer" %element ["Aligned", 4] : f32
    spirv.ReturnValue %value : f32
  }

  // CHECK-LABEL: spirv.func @bound
  // CHECK-NOT: spirv.ConvertPtrToU
  // CHECK: spirv.AccessChain %{{.*}} : {{.*}}, i32, i32
  spirv.GlobalVariable @buffer bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @bound(%index: i32) -> f32 "None" {
    %zero = spirv.Constant 0 : i32
    %pointer = spirv.mlir.addressof @buffer : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %element = spirv.AccessChain %pointer[%zero, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %value = spirv.Load "StorageBuffer" %element : f32
    spirv.ReturnValue %value : f32
  }
}
