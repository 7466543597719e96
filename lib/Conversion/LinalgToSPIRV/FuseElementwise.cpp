//===- FuseElementwise.cpp - Element-wise fusion with cheap recompute -----===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Whether recomputing `producer` in each consumer costs less than keeping
/// its result in workgroup memory: only integer/index arithmetic, compares,
/// casts and selects, no memory access and no floating-point math.
bool isCheapToRecompute(linalg::GenericOp producer) {
  for (Operation &op : producer.getBody()->without_terminator()) {
    if (isa<linalg::IndexOp, arith::ConstantOp, arith::IndexCastOp,
            arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp, arith::CmpIOp, arith::SelectOp, arith::AndIOp,
            arith::OrIOp, arith::XOrIOp>(op))
      continue;
    if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op) &&
        isa<IndexType, IntegerType>(op.getResult(0).getType()))
      continue;
    return false;
  }
  return true;
}

struct FuseElementwisePass
    : triton_spirv::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // Fills, broadcasts and transposes fuse once they are generics.
    IRRewriter rewriter(context);
    getOperation()->walk([&](Operation *op) {
      if (!isa<linalg::FillOp, linalg::BroadcastOp, linalg::TransposeOp,
               linalg::MapOp, linalg::CopyOp>(op))
        return;
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, cast<linalg::LinalgOp>(op));
    });
    RewritePatternSet patterns(context);
    linalg::ControlFusionFn control = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (!producer)
        return false;
      if (producer->hasOneUse())
        return true;
      auto generic = dyn_cast<linalg::GenericOp>(producer);
      return generic && isCheapToRecompute(generic);
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::EmptyOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
