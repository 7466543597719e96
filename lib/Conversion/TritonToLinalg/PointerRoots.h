//===- PointerRoots.h - Where a Triton pointer comes from -------*- C++ -*-===//
//
// Every pointer in a kernel is derived from a pointer argument, or from an
// address the kernel read, by address arithmetic, shape ops, selects and
// control flow. The root of a pointer is that argument or address: the
// buffer all its addresses fall into.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_POINTERROOTS_H
#define TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_POINTERROOTS_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir::triton_spirv {

/// The root of `pointer`: a pointer-typed argument of the enclosing function's
/// entry block, or an address root: the scalar tt.int_to_ptr of an integer
/// not computed by tt.ptr_to_int (an address read from memory or passed as
/// an integer), whose memory is reached by its device address. Fails with a
/// diagnostic at `user` when the pointer has no single static root (it was
/// loaded from memory as a pointer, made by tt.int_to_ptr of a block of
/// integers, or merges pointers of different roots). Addresses
/// (tt.ptr_to_int ... tt.int_to_ptr) are followed.
FailureOr<Value> findPointerRoot(Value pointer, Operation *user);

/// The argument root, or none, without a diagnostic (for rewrites that only
/// ask). Address roots give none too (they may alias any buffer), unless
/// `allowAddress`.
std::optional<Value> pointerRoot(Value pointer, bool allowAddress = false);

/// Whether a root found by findPointerRoot is an address root.
bool isAddressRoot(Value root);

/// The pointer operand of a memory access through pointers (tt.load,
/// tt.store, tt.atomic_rmw, tt.atomic_cas); null for other ops.
Value accessedPointer(Operation *op);

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_POINTERROOTS_H
