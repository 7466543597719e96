//===- PassUtils.cpp - Shared steps of the conversion passes --------------===//

#include "Patterns.h"
#include "triton-spirv/Conversion/InlineBlock.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;

SmallVector<Value> mlir::triton_spirv::inlineBlock(OpBuilder &b, Block &body,
                                                   ValueRange args) {
  IRMapping mapping;
  mapping.map(body.getArguments(), args);
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  return llvm::map_to_vector(
      body.getTerminator()->getOperands(),
      [&](Value value) { return mapping.lookupOrDefault(value); });
}

LogicalResult mlir::triton_spirv::reportUnsupportedOps(
    Operation *root,
    function_ref<std::optional<std::string>(Operation *)> unsupported) {
  bool found = false;
  root->walk([&](Operation *op) {
    if (std::optional<std::string> message = unsupported(op)) {
      op->emitError(*message);
      found = true;
    }
  });
  return failure(found);
}

LogicalResult mlir::triton_spirv::applyConversionWithoutRollback(
    Operation *root, const ConversionTarget &target,
    RewritePatternSet &&patterns) {
  ConversionConfig config;
  config.allowPatternRollback = false;
  return applyPartialConversion(root, target, std::move(patterns), config);
}
