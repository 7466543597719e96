//===- PassUtils.cpp - Shared steps of the TTIR -> linalg passes ----------===//

#include "Patterns.h"

using namespace mlir;

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
