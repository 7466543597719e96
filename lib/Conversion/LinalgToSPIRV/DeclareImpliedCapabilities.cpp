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
    auto implied = [&](spirv::Capability capability,
                       function_ref<bool(Operation *)> needs) {
      if (llvm::is_contained(capabilities, capability))
        return;
      if (module
              ->walk([&](Operation *op) {
                return needs(op) ? WalkResult::interrupt()
                                 : WalkResult::advance();
              })
              .wasInterrupted())
        capabilities.push_back(capability);
    };
    implied(spirv::Capability::Int64Atomics, isInt64Atomic);
    implied(spirv::Capability::BFloat16CooperativeMatrixKHR,
            makesBFloat16Matrix);
    if (capabilities.size() == before)
      return;
    SmallVector<spirv::Extension> extensions(declared->getExtensions());
    module.setVceTripleAttr(spirv::VerCapExtAttr::get(
        declared->getVersion(), capabilities, extensions, module.getContext()));
  }
};
} // namespace
