//===- Slices.h - Tensor slices the patterns share -------------*- C++ -*-===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_SLICES_H
#define TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_SLICES_H

#include "triton-spirv/Conversion/ParallelGeneric.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::triton_spirv {

/// `size` positions of `src` from `offset` along `dim` (all of every other
/// dimension). With `dropDim`, `size` must be 1 and the result lacks `dim`.
Value extractAlong(OpBuilder &b, Location loc, Value src, unsigned dim,
                   OpFoldResult offset, int64_t size, bool dropDim);
/// `dest` with `part` written at `offset` along `dim`. A `part` of lower rank
/// than `dest` lacks `dim` and covers one position.
Value insertAlong(OpBuilder &b, Location loc, Value part, Value dest,
                  unsigned dim, OpFoldResult offset);
/// `src` as `dstType`, keeping the row-major element order: expand_shape,
/// collapse_shape, or a collapse to 1-D followed by an expand (none where
/// the shape is the same).
Value reshapeInOrder(OpBuilder &b, Location loc, Value src,
                     RankedTensorType dstType);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_SLICES_H
