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
#include "LoopIterations.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_CHECKLOOPITERATIONS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
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
                std::optional<uint64_t> total =
                    triton_spirv::totalIterations(loop);
                if (!total || *total <= limit)
                  return WalkResult::advance();
                // The counts saturate: a product past 64 bits is that.
                loop.emitError()
                    << "this loop runs "
                    << (*total == UINT64_MAX ? std::string("over 2^64")
                                             : std::to_string(*total))
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
