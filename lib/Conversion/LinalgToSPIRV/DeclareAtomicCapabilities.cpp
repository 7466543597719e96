//===- DeclareAtomicCapabilities.cpp - Int64Atomics where needed ----------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_DECLAREATOMICCAPABILITIES
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

struct DeclareAtomicCapabilitiesPass
    : triton_spirv::impl::DeclareAtomicCapabilitiesBase<
          DeclareAtomicCapabilitiesPass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    std::optional<spirv::VerCapExtAttr> declared = module.getVceTriple();
    if (!declared || llvm::is_contained(declared->getCapabilities(),
                                        spirv::Capability::Int64Atomics))
      return;
    if (!module
             ->walk([](Operation *op) {
               return isInt64Atomic(op) ? WalkResult::interrupt()
                                        : WalkResult::advance();
             })
             .wasInterrupted())
      return;
    SmallVector<spirv::Capability> capabilities(declared->getCapabilities());
    capabilities.push_back(spirv::Capability::Int64Atomics);
    SmallVector<spirv::Extension> extensions(declared->getExtensions());
    module.setVceTripleAttr(spirv::VerCapExtAttr::get(
        declared->getVersion(), capabilities, extensions, module.getContext()));
  }
};
} // namespace
