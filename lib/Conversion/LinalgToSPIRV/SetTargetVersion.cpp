//===- SetTargetVersion.cpp - Declare the target's SPIR-V version ---------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_SETTARGETVERSION
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
struct SetTargetVersionPass
    : triton_spirv::impl::SetTargetVersionBase<SetTargetVersionPass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    std::optional<spirv::VerCapExtAttr> declared = module.getVceTriple();
    if (!declared)
      return;
    spirv::TargetEnvAttr target = spirv::lookupTargetEnvOrDefault(module);
    if (declared->getVersion() >= target.getVersion())
      return;
    SmallVector<spirv::Capability> capabilities(declared->getCapabilities());
    SmallVector<spirv::Extension> extensions(declared->getExtensions());
    module.setVceTripleAttr(spirv::VerCapExtAttr::get(
        target.getVersion(), capabilities, extensions, module.getContext()));
  }
};
} // namespace
