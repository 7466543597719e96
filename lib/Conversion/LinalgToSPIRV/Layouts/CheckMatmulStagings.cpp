//===- CheckMatmulStagings.cpp - Refuse oversized matmuls early -----------===//
//
// A lower bound on a kernel's workgroup memory, known before the
// distribution: the buffers one matmul reads and writes in workgroup memory.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "triton-spirv/Analysis/MatmulPlan.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_CHECKMATMULSTAGINGS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton_spirv;

/// Bytes of the distinct workgroup allocations without a layout under the
/// operands of `op`.
static int64_t stagedBytes(linalg::LinalgOp op) {
  llvm::SmallDenseSet<Value> buffers;
  int64_t bytes = 0;
  for (Value operand : op->getOperands()) {
    Value buffer = bufferUnderViews(operand);
    auto alloc = buffer.getDefiningOp<memref::AllocOp>();
    if (!alloc || alloc->hasAttr(kLayoutAttrName) ||
        !isWorkgroupMemory(alloc.getType()) ||
        !alloc.getType().hasStaticShape() || !buffers.insert(buffer).second)
      continue;
    bytes += bufferBytes(alloc.getType());
  }
  return bytes;
}

namespace {
struct CheckMatmulStagingsPass
    : triton_spirv::impl::CheckMatmulStagingsBase<CheckMatmulStagingsPass> {
  void runOnOperation() override {
    FailureOr<ModuleTarget> target = lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    int64_t limit = target->description.maxWorkgroupMemoryBytes;
    WalkResult result = getOperation().walk([&](linalg::LinalgOp op) {
      if (!needsMatmulPlan(op))
        return WalkResult::advance();
      int64_t bytes = stagedBytes(op);
      if (bytes <= limit)
        return WalkResult::advance();
      emitWorkgroupMemoryOverrun(op, bytes, limit,
                                 "this matmul's operands staged together");
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
