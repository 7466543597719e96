// Pipeline options change the target preset: features, workgroup memory,
// workgroup size.
// RUN: not triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe features=-float64 workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv 2>&1 | FileCheck %s --check-prefix=NO-F64
// RUN: not triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=32 max-workgroup-memory=1024" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv 2>&1 | FileCheck %s --check-prefix=SMALL-MEMORY
// RUN: not triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe workgroup-size=128 max-workgroup-size=64" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv 2>&1 | FileCheck %s --check-prefix=SMALL-WORKGROUP
// RUN: not triton-spirv-opt %s --triton-spirv-resolve-target="target=lavapipe features=+quantum" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// The whole pipeline fails (and the tool with it) on an unknown target or feature.
// RUN: not triton-spirv-opt %s --triton-to-spirv="target=foo" 2>&1 | FileCheck %s --check-prefix=PIPELINE-TARGET
// RUN: not triton-spirv-opt %s --triton-to-spirv="target=lavapipe features=0" 2>&1 | FileCheck %s --check-prefix=PIPELINE-FEATURE
// PIPELINE-TARGET: unknown target 'foo'; expected one of lavapipe, nvidia, generic
// PIPELINE-FEATURE: unknown target feature '0'
// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=generic features=+float64,+cooperative-matrix workgroup-size=32" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s --check-prefix=MORE

// NO-F64: error: the target cannot hold buffers of 'f64'
// SMALL-MEMORY: error: out of resources: the kernel needs 4096 bytes of workgroup memory, the target has 1024
// SMALL-WORKGROUP: error: workgroup size 128 is outside 1..64 for target 'lavapipe'
// UNKNOWN: error: unknown target feature 'quantum'; expected int8, int16, int64, float16, float64, atomic-float-add, cooperative-matrix, bfloat16-cooperative-matrix, cooperative-matrix2, buffer-device-address or denorm-preserve-float32
// MORE: spirv.target_env = #spirv.target_env<#spirv.vce<v1.6, [{{.*}}Float64, CooperativeMatrixKHR], [{{.*}}SPV_KHR_cooperative_matrix]>
func.func @kernel(%d: memref<?xf64> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %c0 = arith.constant 0 : index
  %scratch = memref.alloc() : memref<512xf64, #gpu.address_space<workgroup>>
  %x = memref.load %d[%c0] : memref<?xf64>
  memref.store %x, %scratch[%c0] : memref<512xf64, #gpu.address_space<workgroup>>
  %y = memref.load %scratch[%c0] : memref<512xf64, #gpu.address_space<workgroup>>
  memref.store %y, %d[%c0] : memref<?xf64>
  return
}
