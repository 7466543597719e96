//===- PreserveDenormals.cpp - f32 denormals kept, as on CUDA -------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_PRESERVEDENORMALS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
struct PreserveDenormalsPass
    : triton_spirv::impl::PreserveDenormalsBase<PreserveDenormalsPass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    FailureOr<triton_spirv::ModuleTarget> resolved =
        triton_spirv::lookupTarget(module);
    if (failed(resolved))
      return signalPassFailure();
    if (!resolved->description.features.denormPreserveFloat32)
      return;
    OpBuilder builder(module.getBody(), module.getBody()->end());
    for (auto entry :
         llvm::to_vector(module.getBody()->getOps<spirv::EntryPointOp>())) {
      auto function = module.lookupSymbol<spirv::FuncOp>(entry.getFn());
      if (!function) {
        entry.emitError("entry point without its function");
        return signalPassFailure();
      }
      builder.setInsertionPointAfter(entry);
      spirv::ExecutionModeOp::create(builder, entry.getLoc(), function,
                                     spirv::ExecutionMode::DenormPreserve,
                                     ArrayRef<int32_t>{32});
    }
  }
};
} // namespace
