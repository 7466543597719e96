//===- ReshapePointersBeforeLoads.cpp - Reshaped loads as loads -----------===//
//
// A reshape of a loaded block holds the same elements as a load through the
// reshaped pointers: a load is element-wise, and a reshape keeps linear
// positions (so the reads stay as contiguous as they were). Reshaping the
// pointers instead lets the pointer analysis describe the block in the
// shape it is used in, where the layouts can keep it in registers.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/IRMapping.h"
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
    auto pointerType = dyn_cast<RankedTensorType>(load.getPtr().getType());
    if (!pointerType)
      return rewriter.notifyMatchFailure(reshape, "a load of a block pointer");
    // A reshaped mask would be a reshape of a computed block, which needs
    // workgroup memory where the flat load did not.
    if (load.getMask())
      return rewriter.notifyMatchFailure(reshape, "a masked load");
    // The pointers reshaped where the load was: they are defined there.
    rewriter.setInsertionPoint(load);
    Value pointers = ReshapeOp::create(
        rewriter, reshape.getLoc(),
        reshape.getType().clone(pointerType.getElementType()),
        load.getPtr(), reshape.getAllowReorder(),
        reshape.getEfficientLayout());
    IRMapping operands;
    operands.map(load.getPtr(), pointers);
    Operation *reshaped = rewriter.clone(*load, operands);
    reshaped->getResult(0).setType(reshape.getType());
    rewriter.replaceOp(reshape, reshaped->getResult(0));
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
