//===- FoldPointerRoundTrips.cpp - Integers through pointers and back -----===//
//
// Pointers are lowered to a buffer and an element offset, so an integer
// cast to a pointer and back (Triton's test_where selects among int64
// values cast to pointers and stores the result as int64) would come back
// truncated to the offset's width and rounded to whole elements. The casts
// cancel here, before any pointer is lowered.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONFOLDPOINTERROUNDTRIPS
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// Whether `pointer` was cast from integers of `type`, directly or through
/// selects of such pointers (Triton casts to and from int64 only).
bool isCastFromIntegers(Value pointer, Type type) {
  if (auto cast = pointer.getDefiningOp<IntToPtrOp>())
    return cast.getSrc().getType() == type;
  auto select = pointer.getDefiningOp<arith::SelectOp>();
  return select && isCastFromIntegers(select.getTrueValue(), type) &&
         isCastFromIntegers(select.getFalseValue(), type);
}

/// The integer behind `pointer` (isCastFromIntegers), selected alike.
Value integerBehind(PatternRewriter &rewriter, Location loc, Value pointer) {
  if (auto cast = pointer.getDefiningOp<IntToPtrOp>())
    return cast.getSrc();
  auto select = pointer.getDefiningOp<arith::SelectOp>();
  return arith::SelectOp::create(
      rewriter, loc, select.getCondition(),
      integerBehind(rewriter, loc, select.getTrueValue()),
      integerBehind(rewriter, loc, select.getFalseValue()));
}

struct PointerRoundTrip : OpRewritePattern<PtrToIntOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PtrToIntOp op,
                                PatternRewriter &rewriter) const override {
    if (!isCastFromIntegers(op.getSrc(), op.getType()))
      return rewriter.notifyMatchFailure(op, "not a pointer cast from an "
                                             "integer of this type");
    rewriter.replaceOp(op, integerBehind(rewriter, op.getLoc(), op.getSrc()));
    return success();
  }
};

struct TritonFoldPointerRoundTripsPass
    : public triton_spirv::impl::TritonFoldPointerRoundTripsBase<
          TritonFoldPointerRoundTripsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PointerRoundTrip>(&getContext());
    // The casts left without users go with the greedy driver's DCE.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
