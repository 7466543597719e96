//===- CheckLoopIterations.cpp - Loops within the driver's limit ----------===//
//
// Mesa's llvmpipe ends a loop after a fixed count of iterations per
// invocation, counted over all of the loop's entries: a kernel whose loops
// run longer silently stops early there. Loops of known trip counts are
// checked against the target's limit, the counts of the loops around them
// multiplied in.
//
//===----------------------------------------------------------------------===//

#include "Legalization.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_CHECKLOOPITERATIONS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// The iterations `loop` runs each time it is entered, where its bounds
/// are constants.
std::optional<uint64_t> staticTripCount(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *step <= 0)
    return std::nullopt;
  if (*upper <= *lower)
    return 0;
  return llvm::divideCeil(static_cast<uint64_t>(*upper - *lower),
                          static_cast<uint64_t>(*step));
}

/// The iterations `loop` runs per invocation over all its entries, where
/// it and every loop around it have constant bounds.
std::optional<uint64_t> totalIterations(scf::ForOp loop) {
  uint64_t total = 1;
  for (Operation *op = loop; op; op = op->getParentOp()) {
    if (isa<func::FuncOp>(op))
      break;
    if (isa<scf::WhileOp>(op))
      return std::nullopt;
    auto around = dyn_cast<scf::ForOp>(op);
    if (!around)
      continue;
    std::optional<uint64_t> trips = staticTripCount(around);
    if (!trips)
      return std::nullopt;
    if (*trips == 0)
      return 0;
    // Saturating: only the comparison with the limit matters.
    total = *trips > UINT64_MAX / total ? UINT64_MAX : total * *trips;
  }
  return total;
}

struct CheckLoopIterationsPass
    : triton_spirv::impl::CheckLoopIterationsBase<CheckLoopIterationsPass> {
  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    uint64_t limit = target->description.maxLoopIterations;
    if (limit == 0)
      return;
    if (failed(triton_spirv::forEachKernel(
            getOperation(), [&](func::FuncOp kernel) -> LogicalResult {
              WalkResult result = kernel.walk([&](scf::ForOp loop) {
                std::optional<uint64_t> total = totalIterations(loop);
                if (!total || *total <= limit)
                  return WalkResult::advance();
                loop.emitError()
                    << "this loop runs " << *total
                    << " iterations per program (with the loops around it); "
                    << target->description.name << " ends every loop after "
                    << limit
                    << " (its driver's loop limiter), so the kernel would "
                       "stop early and compute a wrong answer";
                return WalkResult::interrupt();
              });
              return failure(result.wasInterrupted());
            })))
      return signalPassFailure();
  }
};
} // namespace
