//===- WorkgroupMemory.h - Memory spaces, buffers, views --------*- C++ -*-===//

#ifndef TRITON_SPIRV_ANALYSIS_WORKGROUPMEMORY_H
#define TRITON_SPIRV_ANALYSIS_WORKGROUPMEMORY_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir {
class MemRefType;
class Operation;
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

/// Whether `type` is global memory (a kernel argument or a view of one):
/// neither workgroup nor private memory.
bool isGlobalMemory(MemRefType type);

/// The buffer under `memref`'s views (subviews, reshapes, casts).
Value bufferUnderViews(Value memref);

/// The buffer under `memref`'s reshapes (expand_shape, collapse_shape), which
/// keep every element's linear position; other views stop it.
Value bufferUnderReshapes(Value memref);

/// Calls `visit` on each user of `buffer` and of its views (recursively),
/// the views included, saying whether the user is such a view.
void forEachUserThroughViews(Value buffer,
                             function_ref<void(Operation *, bool)> visit);

/// Whether `op`, or an op it nests, uses `buffer` or a view of it.
bool usesBuffer(Operation *op, Value buffer);

/// Bytes one element of `type` takes in memory (booleans are stored as
/// bytes, `index` as 32 bits).
int64_t elementBytes(Type type);

/// Bytes a buffer of the static `type` takes (as elementBytes counts).
int64_t bufferBytes(MemRefType type);

/// Bytes of workgroup memory the kernel's allocations take (booleans are
/// stored as bytes, `index` as 32 bits); without the buffers given a layout
/// (which the distribution turns into registers) unless `withLayoutBuffers`.
int64_t workgroupMemoryBytes(func::FuncOp kernel,
                             bool withLayoutBuffers = true);

/// Whether the workgroup buffers of the kernel around `op` (those that stay
/// in workgroup memory) and `extraBytes` more fit in `maxBytes` (0: no
/// limit): the check before padding a buffer.
bool fitsWorkgroupMemory(Operation *op, int64_t extraBytes, int64_t maxBytes);

/// The error, at `at`, that its kernel needs `needed` bytes of workgroup memory
/// where the target has `limit` (`what` says which part, or is empty for the
/// whole kernel), with the same as data in a note ("overrun: {resource,
/// needed, limit}") for callers (--diagnostics-file).
InFlightDiagnostic emitWorkgroupMemoryOverrun(Operation *at, int64_t needed,
                                              int64_t limit, StringRef what);
} // namespace triton_spirv
} // namespace mlir

#endif // TRITON_SPIRV_ANALYSIS_WORKGROUPMEMORY_H
