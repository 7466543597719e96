//===- ReshapeSinking.h - Reshapes moved onto their operands ---*- C++ -*-===//
//
// A reshape of a computed block keeps no layout, so the two reshape passes
// (--triton-reshape-pointers-before-loads, --triton-reshape-index-
// computations) move reshapes onto the blocks an element-wise op computes
// from, where that costs nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_RESHAPESINKING_H
#define TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_RESHAPESINKING_H

#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_spirv {
/// Whether the block `value` is computed from element indices and uniform
/// values alone: make_range, splats, splat constants, and element-wise
/// arith ops and addptr of those (offsets, masks, pointers). Such a block
/// can be computed in any shape, so a reshape of it costs nothing
/// (--triton-reshape-index-computations).
bool isIndexComputation(Value value);

/// `op`, an element-wise op (a load, an arith op, addptr) whose result
/// `reshape` reshapes, applied instead to its operands each reshaped alike,
/// at the rewriter's insertion point: the result in `reshape`'s shape.
Value applyToReshapedOperands(PatternRewriter &rewriter,
                              triton::ReshapeOp reshape, Operation *op);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_RESHAPESINKING_H
