//===- Slices.h - Tensor slices and builders the patterns share -*- C++ -*-===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_SLICES_H
#define TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_SLICES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

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

/// `size` positions of `src` from `offset` along `dim` (all of every other
/// dimension). With `dropDim`, `size` must be 1 and the result lacks `dim`.
Value extractAlong(OpBuilder &b, Location loc, Value src, unsigned dim,
                   OpFoldResult offset, int64_t size, bool dropDim);
/// `dest` with `part` written at `offset` along `dim`. A `part` of lower rank
/// than `dest` lacks `dim` and covers one position.
Value insertAlong(OpBuilder &b, Location loc, Value part, Value dest,
                  unsigned dim, OpFoldResult offset);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_SLICES_H
