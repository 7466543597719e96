// RUN: triton-spirv-opt %s --triton-spirv-resolve-target="target=nvidia" %prepare-for-spirv --triton-spirv-fuse-multiply-adds %convert-to-spirv | FileCheck %s

// Vulkan has no 16-bit atomics: a bf16 atomic add is a compare-and-swap loop
// on the 32-bit word holding the element (an i32 view of the same binding),
// with the element at bit (index & 1) * 16 and the other half kept. The
// addition itself is done in f32 (bf16 emulation).
// CHECK: spirv.GlobalVariable @[[WORDS:.*_words]] bind(0, 0) {coherent} : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
// CHECK-LABEL: spirv.func @add_bf16
// CHECK: %[[ADDRESS:.*]] = spirv.mlir.addressof @[[WORDS]]
// CHECK: %[[WORD_INDEX:.*]] = spirv.ShiftRightLogical %[[INDEX:.*]], %{{.*}} : i32, i32
// CHECK: %[[LOW:.*]] = spirv.BitwiseAnd %[[INDEX]], %{{.*}} : i32
// CHECK: %[[SHIFT:.*]] = spirv.IMul %[[LOW]], %{{.*}} : i32
// CHECK: %[[POINTER:.*]] = spirv.AccessChain %[[ADDRESS]][%{{.*}}, %[[WORD_INDEX]]]
// CHECK: %[[MASK:.*]] = spirv.ShiftLeftLogical %{{.*}}, %[[SHIFT]] : i32, i32
// CHECK: %[[INITIAL:.*]] = spirv.Load "StorageBuffer" %[[POINTER]] : i32
// CHECK: spirv.mlir.loop
// CHECK: spirv.ShiftRightLogical %{{.*}}, %[[SHIFT]] : i32, i32
// CHECK: spirv.UConvert %{{.*}} : i32 to i16
// CHECK: spirv.FAdd %{{.*}} : f32
// CHECK: spirv.UConvert %{{.*}} : i16 to i32
// CHECK: %[[NOT:.*]] = spirv.Not %[[MASK]] : i32
// CHECK: spirv.BitwiseAnd %{{.*}}, %[[NOT]] : i32
// CHECK: %[[NEW:.*]] = spirv.BitwiseOr
// CHECK: spirv.AtomicCompareExchange <Device> <AcquireRelease|UniformMemory> <None> %[[POINTER]], %[[NEW]], %{{.*}} : !spirv.ptr<i32, StorageBuffer>
func.func @add_bf16(%buf: memref<?xbf16> {triton_spirv.abi = "buffer", triton_spirv.arg_index = 0 : i64},
                    %off: index {triton_spirv.abi = "offset", triton_spirv.arg_index = 0 : i64})
    attributes {triton_spirv.kernel} {
  %one = arith.constant 1.0 : bf16
  %r = memref.atomic_rmw addf %one, %buf[%off] : (bf16, memref<?xbf16>) -> bf16
  return
}
