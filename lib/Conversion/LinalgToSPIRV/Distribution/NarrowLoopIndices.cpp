//===- NarrowLoopIndices.cpp - 32-bit induction variables where they fit --===//
//
// Triton's loops over int64 bounds (`range(tl.cast(pid, tl.int64), M, s)`)
// become scf.for loops with an i64 induction variable. arith's range
// narrowing shortens the integer math inside them, but not the loop's own
// compare and increment, which stay 64-bit: GPUs emulate them, and Mesa
// 22.3's lavapipe miscompiles such a loop over sign-extended bounds (a loop
// from a program id to 1 that ran no iteration). Where integer range
// analysis proves every value the induction variable takes, and the
// increment past the last one, fit 32 bits, the loop runs on an i32
// induction variable, sign-extended for the body.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_NARROWLOOPINDICES
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// The signed range the analysis proved for `value`, if it did.
std::optional<ConstantIntRanges> rangeOf(DataFlowSolver &solver, Value value) {
  auto *lattice =
      solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return std::nullopt;
  return lattice->getValue().getValue();
}

/// Whether `loop` (signed, over integers wider than 32 bits) takes only
/// 32-bit values, its increment past the last one included: its bounds
/// fit, and the largest value below the upper bound plus the largest step
/// does too (scf.for steps are positive).
bool fitsInt32(DataFlowSolver &solver, scf::ForOp loop) {
  auto type = dyn_cast<IntegerType>(loop.getInductionVar().getType());
  if (!type || type.getWidth() <= 32 || loop.getUnsignedCmp())
    return false;
  std::optional<ConstantIntRanges> lower =
      rangeOf(solver, loop.getLowerBound());
  std::optional<ConstantIntRanges> upper =
      rangeOf(solver, loop.getUpperBound());
  std::optional<ConstantIntRanges> step = rangeOf(solver, loop.getStep());
  if (!lower || !upper || !step)
    return false;
  unsigned width = type.getWidth();
  APInt min32 = APInt::getSignedMinValue(32).sext(width);
  APInt max32 = APInt::getSignedMaxValue(32).sext(width);
  auto fits = [&](const ConstantIntRanges &range) {
    return range.smin().sge(min32) && range.smax().sle(max32);
  };
  if (!fits(*lower) || !fits(*upper) || !fits(*step))
    return false;
  // The last value is below the upper bound; the increment after it is at
  // most (upper - 1) + step.
  bool overflow = false;
  APInt largestNext = (upper->smax() - 1).sadd_ov(step->smax(), overflow);
  return !overflow && largestNext.sle(max32);
}

void narrow(RewriterBase &rewriter, scf::ForOp loop) {
  Location loc = loop.getLoc();
  Type wide = loop.getInductionVar().getType();
  Type i32 = rewriter.getI32Type();
  rewriter.setInsertionPoint(loop);
  auto truncate = [&](Value value) {
    return arith::TruncIOp::create(rewriter, loc, i32, value).getResult();
  };
  // In order: C++ leaves the order of a call's arguments open.
  Value lower = truncate(loop.getLowerBound());
  Value upper = truncate(loop.getUpperBound());
  Value step = truncate(loop.getStep());
  auto narrowed =
      scf::ForOp::create(rewriter, loc, lower, upper, step, loop.getInitArgs());
  Block *body = narrowed.getBody();
  rewriter.setInsertionPointToStart(body);
  Value induction = arith::ExtSIOp::create(rewriter, loc, wide,
                                           narrowed.getInductionVar());
  // The new body was made with a terminator only where there are no
  // iteration arguments; the old body brings its own.
  if (!body->empty() && isa<scf::YieldOp>(body->back()))
    rewriter.eraseOp(&body->back());
  SmallVector<Value> arguments{induction};
  llvm::append_range(arguments, narrowed.getRegionIterArgs());
  rewriter.mergeBlocks(loop.getBody(), body, arguments);
  rewriter.replaceOp(loop, narrowed.getResults());
}

struct NarrowLoopIndicesPass
    : triton_spirv::impl::NarrowLoopIndicesBase<NarrowLoopIndicesPass> {
  void runOnOperation() override {
    DataFlowSolver solver;
    solver.load<dataflow::DeadCodeAnalysis>();
    solver.load<dataflow::SparseConstantPropagation>();
    solver.load<dataflow::IntegerRangeAnalysis>();
    if (failed(solver.initializeAndRun(getOperation())))
      return signalPassFailure();
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (fitsInt32(solver, loop))
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops)
      narrow(rewriter, loop);
  }
};
} // namespace
