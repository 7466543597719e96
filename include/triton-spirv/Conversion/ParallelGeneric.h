//===- ParallelGeneric.h - Element-wise linalg.generic builders -*- C++ -*-===//

#ifndef TRITON_SPIRV_CONVERSION_PARALLELGENERIC_H
#define TRITON_SPIRV_CONVERSION_PARALLELGENERIC_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir::triton_spirv {
/// An uninitialized tensor of `type` (a destination for linalg ops).
Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type);

/// An element-wise linalg.generic with one result per tensor type of
/// `resultTypes` (written into fresh empty tensors) or none: every operand is
/// indexed by the identity map over the rank of the results (or, without
/// results, of the first input).
linalg::GenericOp createParallelGeneric(
    OpBuilder &b, Location loc, TypeRange resultTypes, ValueRange inputs,
    function_ref<void(OpBuilder &, Location, ValueRange)> body);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_CONVERSION_PARALLELGENERIC_H
