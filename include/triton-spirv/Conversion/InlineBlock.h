//===- InlineBlock.h - Cloning a block's body in place ----------*- C++ -*-===//

#ifndef TRITON_SPIRV_CONVERSION_INLINEBLOCK_H
#define TRITON_SPIRV_CONVERSION_INLINEBLOCK_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::triton_spirv {
/// Clones the operations of `body` but its terminator at the builder's
/// insertion point, with the block's arguments bound to `args`; returns what
/// the terminator yields (combiner regions, linalg payloads, atomic update
/// bodies).
SmallVector<Value> inlineBlock(OpBuilder &b, Block &body, ValueRange args);
/// The same, adding to `mapping` (whose values the cloned operations use in
/// place of the ones they map).
SmallVector<Value> inlineBlock(OpBuilder &b, Block &body, ValueRange args,
                               IRMapping &mapping);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_CONVERSION_INLINEBLOCK_H
