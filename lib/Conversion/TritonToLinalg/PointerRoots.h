//===- PointerRoots.h - Where a Triton pointer comes from -------*- C++ -*-===//
//
// Every pointer in a kernel is derived from a pointer argument by address
// arithmetic, shape ops, selects and control flow. The root of a pointer is
// that argument: the buffer all its addresses fall into.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_POINTERROOTS_H
#define TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_POINTERROOTS_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir::triton_spirv {

/// The root of `pointer`: a pointer-typed argument of the enclosing function's
/// entry block. Fails with a diagnostic at `user` when the pointer has no
/// single static root (it was loaded from memory, made by tt.int_to_ptr from
/// an integer not computed by tt.ptr_to_int, or merges pointers of different
/// arguments). Addresses (tt.ptr_to_int ... tt.int_to_ptr) are followed.
FailureOr<Value> findPointerRoot(Value pointer, Operation *user);

/// The same root, or none, without a diagnostic (for rewrites that only ask).
std::optional<Value> pointerRoot(Value pointer);

/// The pointer operand of a memory access through pointers (tt.load,
/// tt.store, tt.atomic_rmw, tt.atomic_cas); null for other ops.
Value accessedPointer(Operation *op);

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_POINTERROOTS_H
