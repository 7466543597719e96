//===- UnrollForLoopLimit.cpp - Distribution loops within the limit -------===//
//
// A driver that ends every loop after a fixed count of iterations per
// invocation (lavapipe) counts a distribution loop's iterations over all of
// its entries: inside a long loop of the program, a block's loop of a few
// hundred runs passes the limit. Unrolling it by a divisor of its trip count
// divides its iterations by that much.
//
//===----------------------------------------------------------------------===//

#include "LoopIterations.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_UNROLLFORLOOPLIMIT
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// The smallest factor dividing `trips` that brings `around * trips` within
/// `limit`, if any (`around` is positive).
std::optional<uint64_t> fittingFactor(uint64_t trips, uint64_t around,
                                      uint64_t limit) {
  for (uint64_t factor = 2; factor <= trips; ++factor)
    if (trips % factor == 0 && trips / factor <= limit / around)
      return factor;
  return std::nullopt;
}

struct UnrollForLoopLimitPass
    : triton_spirv::impl::UnrollForLoopLimitBase<UnrollForLoopLimitPass> {
  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    uint64_t limit = target->description.maxLoopIterations;
    if (limit == 0)
      return;
    SmallVector<std::pair<scf::ForOp, uint64_t>> toUnroll;
    getOperation().walk([&](scf::ForOp loop) {
      if (!loop->hasAttr(triton_spirv::kSpreadAttrName))
        return;
      std::optional<uint64_t> trips = triton_spirv::staticTripCount(loop);
      std::optional<uint64_t> around = triton_spirv::iterationsAround(loop);
      if (!trips || !around || *around == 0 || *around > limit ||
          *trips <= limit / *around)
        return;
      if (std::optional<uint64_t> factor =
              fittingFactor(*trips, *around, limit))
        toUnroll.push_back({loop, *factor});
    });
    for (auto [loop, factor] : toUnroll)
      if (failed(loopUnrollByFactor(loop, factor)))
        loop.emitRemark() << "this loop of the distribution could not be "
                             "unrolled by "
                          << factor << " to fit the target's loop limit";
  }
};
} // namespace
