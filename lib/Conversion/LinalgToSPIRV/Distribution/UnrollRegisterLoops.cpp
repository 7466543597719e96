//===- UnrollRegisterLoops.cpp - Constant indices into private arrays -----===//
//
// A private array stays in registers only when the driver sees a constant
// index at every access. The distribution indexes them by the iteration of
// loops of a constant trip count; unrolling those loops here makes the
// indices constants for every driver, instead of leaving it to each one's
// unrolling heuristics.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_UNROLLREGISTERLOOPS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Whether `loop` loads or stores a private array at an index computed from
/// its induction variable.
bool indexesPrivateArray(scf::ForOp loop) {
  // The values computed from the induction variable (data dependence only:
  // an op under an `scf.if` on it is not computed from it).
  DenseSet<Value> dependent;
  SmallVector<Value> pending = {loop.getInductionVar()};
  while (!pending.empty()) {
    Value value = pending.pop_back_val();
    if (!dependent.insert(value).second)
      continue;
    for (Operation *user : value.getUsers())
      llvm::append_range(pending, user->getResults());
  }
  auto variesInLoop = [&](Value index) { return dependent.contains(index); };
  return loop.getBody()
      ->walk([&](Operation *op) {
        auto load = dyn_cast<memref::LoadOp>(op);
        auto store = dyn_cast<memref::StoreOp>(op);
        if (!load && !store)
          return WalkResult::advance();
        Value memref = load ? load.getMemRef() : store.getMemRef();
        ValueRange indices = load ? load.getIndices() : store.getIndices();
        return triton_spirv::isPrivateMemory(
                   cast<MemRefType>(memref.getType())) &&
                       llvm::any_of(indices, variesInLoop)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

int64_t countOps(scf::ForOp loop) {
  int64_t count = 0;
  loop.getBody()->walk([&](Operation *) { ++count; });
  return count;
}

struct UnrollRegisterLoopsPass
    : triton_spirv::impl::UnrollRegisterLoopsBase<UnrollRegisterLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Innermost first: an outer loop's size is measured with its inner
    // loops already unrolled.
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      if (!indexesPrivateArray(loop))
        continue;
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips) {
        loop.emitRemark("indexes a private array with a trip count that is "
                        "not constant: the array may not stay in registers");
        continue;
      }
      if (static_cast<int64_t>(trips->getZExtValue() * countOps(loop)) >
          maxUnrolledOps) {
        loop.emitRemark() << "not unrolled: " << trips->getZExtValue()
                          << " iterations of " << countOps(loop)
                          << " ops exceed max-unrolled-ops="
                          << maxUnrolledOps.getValue()
                          << "; the private arrays it indexes may not stay "
                             "in registers";
        continue;
      }
      if (failed(loopUnrollFull(loop))) {
        loop.emitError("cannot unroll this loop");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
