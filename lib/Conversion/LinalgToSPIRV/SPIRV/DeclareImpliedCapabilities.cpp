//===- DeclareImpliedCapabilities.cpp - What spirv-update-vce misses ------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_DECLAREIMPLIEDCAPABILITIES
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Whether `op` is a SPIR-V atomic instruction on 64-bit integers (its
/// result, or for stores its value).
bool isInt64Atomic(Operation *op) {
  if (!op->getName().getStringRef().starts_with("spirv.Atomic"))
    return false;
  auto isInt64 = [](Type type) { return type.isInteger(64); };
  return llvm::any_of(op->getResultTypes(), isInt64) ||
         llvm::any_of(op->getOperandTypes(), isInt64);
}

/// Whether `op` makes a cooperative matrix of bf16 components.
bool makesBFloat16Matrix(Operation *op) {
  return llvm::any_of(op->getResultTypes(), [](Type type) {
    auto matrix = dyn_cast<spirv::CooperativeMatrixType>(type);
    return matrix && matrix.getElementType().isBF16();
  });
}

struct DeclareImpliedCapabilitiesPass
    : triton_spirv::impl::DeclareImpliedCapabilitiesBase<
          DeclareImpliedCapabilitiesPass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    std::optional<spirv::VerCapExtAttr> declared = module.getVceTriple();
    if (!declared)
      return;
    SmallVector<spirv::Capability> capabilities(declared->getCapabilities());
    size_t before = capabilities.size();
    // The capabilities not declared yet and what needs them, found in one
    // walk.
    SmallVector<std::pair<spirv::Capability, bool (*)(Operation *)>> pending;
    for (auto implied : {std::make_pair(spirv::Capability::Int64Atomics,
                                        &isInt64Atomic),
                         std::make_pair(
                             spirv::Capability::BFloat16CooperativeMatrixKHR,
                             &makesBFloat16Matrix)})
      if (!llvm::is_contained(capabilities, implied.first))
        pending.push_back(implied);
    module->walk([&](Operation *op) {
      for (auto *it = pending.begin(); it != pending.end();) {
        if (!it->second(op)) {
          ++it;
          continue;
        }
        capabilities.push_back(it->first);
        it = pending.erase(it);
      }
      return pending.empty() ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (capabilities.size() == before)
      return;
    SmallVector<spirv::Extension> extensions(declared->getExtensions());
    module.setVceTripleAttr(spirv::VerCapExtAttr::get(
        declared->getVersion(), capabilities, extensions, module.getContext()));
  }
};
} // namespace
