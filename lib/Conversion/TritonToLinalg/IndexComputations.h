//===- IndexComputations.h - Blocks computed from indices alone -*- C++ -*-===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_INDEXCOMPUTATIONS_H
#define TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_INDEXCOMPUTATIONS_H

#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::triton_spirv {
/// Whether the block `value` is computed from element indices and uniform
/// values alone: make_range, splats, splat constants, and element-wise
/// arith ops and addptr of those (offsets, masks, pointers). Such a block can be computed in any
/// shape, so a reshape of it costs nothing
/// (--triton-reshape-index-computations).
bool isIndexComputation(Value value);

/// `block` reshaped to the shape `reshape` gives (with `reshape`'s
/// attributes), keeping its element type.
Value reshapeLike(OpBuilder &b, triton::ReshapeOp reshape, Value block);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_INDEXCOMPUTATIONS_H
