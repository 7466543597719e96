//===- ReshapePointersBeforeLoads.cpp - Reshaped loads as loads -----------===//
//
// A reshape of a loaded block holds the same elements as a load through the
// reshaped pointers: a load is element-wise, and a reshape keeps linear
// positions (so the reads stay as contiguous as they were). Reshaping the
// pointers instead lets the pointer analysis describe the block in the
// shape it is used in, where the layouts can keep it in registers.
//
//===----------------------------------------------------------------------===//

#include "ReshapeSinking.h"

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONRESHAPEPOINTERSBEFORELOADS
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
struct ReshapePointersBeforeLoad : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp reshape,
                                PatternRewriter &rewriter) const override {
    auto load = reshape.getSrc().getDefiningOp<LoadOp>();
    if (!load || !load->hasOneUse())
      return rewriter.notifyMatchFailure(reshape,
                                         "not the only use of a load");
    if (!isa<RankedTensorType>(load.getPtr().getType()))
      return rewriter.notifyMatchFailure(reshape, "a load of a block pointer");
    // A reshaped mask (or `other`) computed from more than indices would be
    // a reshape of a computed block, which needs workgroup memory where the
    // flat load did not; --triton-reshape-index-computations computes the
    // others in the reshaped shape.
    Value mask = load.getMask(), other = load.getOther();
    if ((mask && !triton_spirv::isIndexComputation(mask)) ||
        (other && !triton_spirv::isIndexComputation(other)))
      return rewriter.notifyMatchFailure(
          reshape, "a mask or `other` computed from more than indices");
    // Where the load was: its operands are defined there, and the load
    // stays in order with the memory ops around it.
    rewriter.setInsertionPoint(load);
    rewriter.replaceOp(reshape, triton_spirv::applyToReshapedOperands(
                                    rewriter, reshape, load));
    rewriter.eraseOp(load);
    return success();
  }
};

struct TritonReshapePointersBeforeLoadsPass
    : public triton_spirv::impl::TritonReshapePointersBeforeLoadsBase<
          TritonReshapePointersBeforeLoadsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ReshapePointersBeforeLoad>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
