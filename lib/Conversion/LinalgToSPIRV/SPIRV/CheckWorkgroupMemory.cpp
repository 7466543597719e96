//===- CheckWorkgroupMemory.cpp - Kernels within the target's memory ------===//

#include "Legalization.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_CHECKWORKGROUPMEMORY
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
struct CheckWorkgroupMemoryPass
    : triton_spirv::impl::CheckWorkgroupMemoryBase<CheckWorkgroupMemoryPass> {
  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    int64_t limit = target->description.maxWorkgroupMemoryBytes;
    if (failed(triton_spirv::forEachKernel(
            getOperation(), [&](func::FuncOp kernel) -> LogicalResult {
              int64_t bytes = triton_spirv::workgroupMemoryBytes(kernel);
              if (bytes <= limit)
                return success();
              triton_spirv::emitWorkgroupMemoryOverrun(kernel, bytes, limit,
                                                       "");
              return failure();
            })))
      return signalPassFailure();
  }
};
} // namespace
