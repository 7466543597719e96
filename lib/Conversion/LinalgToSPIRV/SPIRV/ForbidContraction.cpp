//===- ForbidContraction.cpp - Float arithmetic rounds on its own ---------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_FORBIDCONTRACTION
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
struct ForbidContractionPass
    : triton_spirv::impl::ForbidContractionBase<ForbidContractionPass> {
  void runOnOperation() override {
    // Fusion, where allowed, is done before the conversion: drivers may
    // neither contract nor reassociate.
    UnitAttr unit = UnitAttr::get(&getContext());
    for (auto spirvModule : getOperation().getOps<spirv::ModuleOp>())
      spirvModule.walk([&](Operation *op) {
        if (isa<spirv::FAddOp, spirv::FSubOp, spirv::FMulOp>(op))
          op->setAttr("no_contraction", unit);
      });
  }
};
} // namespace
