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
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_SLICES_H
