//===- InlineBlock.cpp - Clone a region's block in place ------------------===//

#include "triton-spirv/Conversion/InlineBlock.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

SmallVector<Value> mlir::triton_spirv::inlineBlock(OpBuilder &b, Block &body,
                                                   ValueRange args) {
  IRMapping mapping;
  return inlineBlock(b, body, args, mapping);
}

SmallVector<Value> mlir::triton_spirv::inlineBlock(OpBuilder &b, Block &body,
                                                   ValueRange args,
                                                   IRMapping &mapping) {
  mapping.map(body.getArguments(), args);
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  return llvm::map_to_vector(
      body.getTerminator()->getOperands(),
      [&](Value value) { return mapping.lookupOrDefault(value); });
}
