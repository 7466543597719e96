// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s
// RUN: not triton-spirv-opt %s --triton-spirv-resolve-target="target=generic workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv 2>&1 | FileCheck %s --check-prefix=NO-ADDRESSES

// A buffer at a device address is the address converted to a pointer in
// the PhysicalStorageBuffer class; the module addresses memory physically
// and the metadata lists the address table for the launcher. Its accesses
// are aligned to their elements, as the class requires.
// CHECK: spirv.module PhysicalStorageBuffer64 GLSL450 attributes {triton_spirv.abi = {address_tables = [0]
// CHECK: spirv.func @gather
// CHECK: %[[A:.*]] = spirv.Load "StorageBuffer" %{{.*}} : i64
// CHECK: %[[P:.*]] = spirv.ConvertUToPtr %[[A]] : i64 to !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, PhysicalStorageBuffer>
// CHECK: %[[E:.*]] = spirv.AccessChain %[[P]][%{{.*}}, %{{.*}}]
// CHECK: spirv.Load "PhysicalStorageBuffer" %[[E]] ["Aligned", 4] : f32
// CHECK: spirv.Store "PhysicalStorageBuffer" %{{.*}}, %{{.*}} ["Aligned", 4] : f32
// NO-ADDRESSES: error: the kernel reaches memory through device addresses (pointers read from memory, or arguments passed by address), which needs buffer device addresses; target 'generic' has none
func.func @gather(%table: memref<?xi64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                  %off: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64},
                  %pid: i32 {triton_spirv.abi = "program_id_x"}, %pidy: i32 {triton_spirv.abi = "program_id_y"},
                  %pidz: i32 {triton_spirv.abi = "program_id_z"}, %nx: i32 {triton_spirv.abi = "num_programs_x"},
                  %ny: i32 {triton_spirv.abi = "num_programs_y"}, %nz: i32 {triton_spirv.abi = "num_programs_z"})
    attributes {triton_spirv.kernel, triton_spirv.address_tables = array<i64: 0>} {
  %p = arith.index_cast %pid : i32 to index
  %i = arith.addi %off, %p : index
  %a = memref.load %table[%i] : memref<?xi64>
  %b = triton_spirv.address_buffer %a root 0 : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
  %x = memref.load %b[%p] : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
  %y = arith.addf %x, %x : f32
  memref.store %y, %b[%p] : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
  return
}
