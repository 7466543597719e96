//===- WorkgroupMemory.h - Workgroup memory a kernel uses -------*- C++ -*-===//

#ifndef TRITON_SPIRV_ANALYSIS_WORKGROUPMEMORY_H
#define TRITON_SPIRV_ANALYSIS_WORKGROUPMEMORY_H

#include "mlir/IR/Value.h"

#include <cstdint>

namespace mlir {
class MemRefType;
class Type;
namespace func {
class FuncOp;
}

namespace triton_spirv {
/// Whether `type` is in workgroup memory, named by the GPU address space
/// (after bufferization) or the SPIR-V storage class (once mapped).
bool isWorkgroupMemory(MemRefType type);

/// Whether `type` is in an invocation's private memory (registers once
/// indexed by constants), named by the GPU address space.
bool isPrivateMemory(MemRefType type);

/// The buffer under `memref`'s views (subviews, reshapes, casts).
Value bufferUnderViews(Value memref);

/// Bytes one element of `type` takes in memory (booleans are stored as
/// bytes, `index` as 32 bits).
int64_t elementBytes(Type type);

/// Bytes of workgroup memory the kernel's allocations take (booleans are
/// stored as bytes, `index` as 32 bits).
int64_t workgroupMemoryBytes(func::FuncOp kernel);
} // namespace triton_spirv
} // namespace mlir

#endif // TRITON_SPIRV_ANALYSIS_WORKGROUPMEMORY_H
