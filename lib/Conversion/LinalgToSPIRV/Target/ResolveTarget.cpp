//===- ResolveTarget.cpp - Attach the target's facts to the module --------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_RESOLVETARGET
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton_spirv;

namespace {
struct ResolveTargetPass
    : triton_spirv::impl::ResolveTargetBase<ResolveTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    // (MLIR 22's ListOption cannot be read as an ArrayRef.)
    SmallVector<std::string> featureNames = llvm::to_vector(features);
    std::string error;
    FailureOr<TargetDescription> description = resolveTarget(
        target, {featureNames, maxWorkgroupMemory, maxWorkgroupSize,
                 subgroupSize},
        error);
    if (failed(description)) {
      module.emitError(error);
      return signalPassFailure();
    }
    if (workgroupSize == 0 ||
        workgroupSize > description->maxWorkgroupInvocations) {
      module.emitError("workgroup size ")
          << static_cast<unsigned>(workgroupSize) << " is outside 1.."
          << description->maxWorkgroupInvocations << " for target '" << target
          << "'";
      return signalPassFailure();
    }
    spirv::TargetEnvAttr env = getTargetEnv(context, *description);
    if (!env)
      return signalPassFailure();
    const TargetFeatures &has = description->features;
    // Cooperative matrices are used with NVIDIA's 32-wide subgroups.
    bool matrices = cooperativeMatrix && has.cooperativeMatrix &&
                    description->subgroupSize == 32;
    SmallVector<Attribute> featureAttrs =
        llvm::map_to_vector(featureNames, [&](const std::string &name) {
          return Attribute(StringAttr::get(context, name));
        });
    ArrayAttr featureList = featureAttrs.empty()
                                ? ArrayAttr()
                                : ArrayAttr::get(context, featureAttrs);
    module->setAttr(kTargetAttrName,
                    TargetAttr::get(context, description->name,
                                    description->subgroupSize,
                                    description->maxWorkgroupMemoryBytes,
                                    description->maxWorkgroupInvocations,
                                    featureList));
    module->setAttr(
        kWorkgroupAttrName,
        WorkgroupAttr::get(context, workgroupSize, description->subgroupSize,
                           description->maxWorkgroupMemoryBytes, matrices,
                           matrices && has.bfloat16CooperativeMatrix,
                           matrices && has.cooperativeMatrix2));
    module->setAttr(spirv::getTargetEnvAttrName(), env);
  }
};
} // namespace
