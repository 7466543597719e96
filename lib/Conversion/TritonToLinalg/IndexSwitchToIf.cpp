//===- IndexSwitchToIf.cpp - scf.index_switch as nested scf.if ------------===//
//
// A Triton kernel with returns inside nested ifs reaches the lifting of
// control flow to SCF as a region with several exits, which comes out as an
// scf.index_switch on the exit taken. Nothing lowers that op to SPIR-V, so
// it becomes `if (arg == case0) {...} else { switch on the other cases }`,
// one case at a time, the default region last.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONINDEXSWITCHTOIF
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Peels the first case off a switch; a switch left with its default only
/// is that region's code.
struct PeelFirstCase : OpRewritePattern<scf::IndexSwitchOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::IndexSwitchOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (op.getNumCases() == 0) {
      Block &body = op.getDefaultRegion().front();
      Operation *yield = body.getTerminator();
      SmallVector<Value> results(yield->getOperands());
      rewriter.eraseOp(yield);
      rewriter.inlineBlockBefore(&body, op);
      rewriter.replaceOp(op, results);
      return success();
    }
    Value first = arith::ConstantIndexOp::create(rewriter, loc,
                                                 op.getCases().front());
    Value isFirst = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, op.getArg(), first);
    auto branch = scf::IfOp::create(rewriter, loc, op.getResultTypes(),
                                    isFirst, /*withElseRegion=*/true);
    rewriter.eraseBlock(&branch.getThenRegion().front());
    rewriter.inlineRegionBefore(op.getCaseRegions().front(),
                                branch.getThenRegion(),
                                branch.getThenRegion().end());
    rewriter.eraseBlock(&branch.getElseRegion().front());
    Block *otherwise = rewriter.createBlock(&branch.getElseRegion());
    auto rest = scf::IndexSwitchOp::create(
        rewriter, loc, op.getResultTypes(), op.getArg(),
        op.getCases().drop_front(), op.getNumCases() - 1);
    for (auto [from, to] : llvm::zip(op.getCaseRegions().drop_front(),
                                     rest.getCaseRegions()))
      rewriter.inlineRegionBefore(from, to, to.end());
    rewriter.inlineRegionBefore(op.getDefaultRegion(), rest.getDefaultRegion(),
                                rest.getDefaultRegion().end());
    rewriter.setInsertionPointToEnd(otherwise);
    scf::YieldOp::create(rewriter, loc, rest.getResults());
    rewriter.replaceOp(op, branch.getResults());
    return success();
  }
};

struct TritonIndexSwitchToIfPass
    : public triton_spirv::impl::TritonIndexSwitchToIfBase<
          TritonIndexSwitchToIfPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PeelFirstCase>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
