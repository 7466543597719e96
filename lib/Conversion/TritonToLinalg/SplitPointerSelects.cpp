//===- SplitPointerSelects.cpp - Accesses through selected pointers -------===//
//
// A kernel argument is a buffer binding, so a pointer selected between two
// arguments (`tl.where(c, a_ptr, b_ptr)`) has no single buffer to lower
// to. The address arithmetic and shape ops applied to the selected pointer
// move into both sides of the select, and each access through it becomes
// one access of each side, masked by the condition (loads then select the
// result).
//
//===----------------------------------------------------------------------===//

#include "PointerRoots.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONSPLITPOINTERSELECTS
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// The select of pointers `value` is, if any.
arith::SelectOp pointerSelect(Value value) {
  auto select = value.getDefiningOp<arith::SelectOp>();
  if (!select || !isa<PointerType>(getElementTypeOrSelf(select.getType())))
    return {};
  return select;
}

/// Whether the two sides of `select` come from different kernel arguments
/// (with a single one, the pointer lowering takes the select as it is).
bool selectsBetweenBuffers(arith::SelectOp select) {
  // Pointers with no single root are diagnosed where they are lowered.
  std::optional<Value> trueRoot =
      triton_spirv::pointerRoot(select.getTrueValue());
  std::optional<Value> falseRoot =
      triton_spirv::pointerRoot(select.getFalseValue());
  return trueRoot && falseRoot && *trueRoot != *falseRoot;
}

/// `op(select(c, a, b), rest...)` as `select(c', op(a, rest...),
/// op(b, rest...))`, for ops that apply alike to each pointer: address
/// arithmetic and shape ops. A scalar condition selects whole tensors; a
/// tensor condition takes the op's shape change too.
template <typename OpTy> struct SinkIntoSelect : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    arith::SelectOp select = pointerSelect(op->getOperand(0));
    if (!select || !selectsBetweenBuffers(select))
      return rewriter.notifyMatchFailure(op, "not on a select of pointers "
                                             "of two arguments");
    Value condition = select.getCondition();
    if (isa<ShapedType>(condition.getType()) && !isa<AddPtrOp>(op))
      return rewriter.notifyMatchFailure(op, "a shape op on a select by a "
                                             "tensor condition");
    auto sideOf = [&](Value pointer) {
      Operation *side = rewriter.clone(*op);
      side->setOperand(0, pointer);
      return side->getResult(0);
    };
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, condition, sideOf(select.getTrueValue()),
        sideOf(select.getFalseValue()));
    return success();
  }
};

/// The access's condition for each side: the select's condition (splat to
/// the access's shape), and its negation, each with the access's mask.
std::pair<Value, Value> sideMasks(PatternRewriter &rewriter, Location loc,
                                  arith::SelectOp select, Value mask) {
  Value condition = select.getCondition();
  if (auto shaped = dyn_cast<RankedTensorType>(select.getType());
      shaped && !isa<ShapedType>(condition.getType()))
    condition = SplatOp::create(rewriter, loc,
                                shaped.clone(rewriter.getI1Type()), condition);
  Value ones = arith::ConstantOp::create(
      rewriter, loc, rewriter.getOneAttr(condition.getType()));
  Value otherwise = arith::XOrIOp::create(rewriter, loc, condition, ones);
  if (!mask)
    return {condition, otherwise};
  return {arith::AndIOp::create(rewriter, loc, mask, condition),
          arith::AndIOp::create(rewriter, loc, mask, otherwise)};
}

/// Clones `op` for one side: its pointer and mask replaced.
template <typename OpTy>
OpTy cloneForSide(PatternRewriter &rewriter, OpTy op, Value pointer,
                  Value mask) {
  auto side = cast<OpTy>(rewriter.clone(*op));
  side.getPtrMutable().assign(pointer);
  side.getMaskMutable().assign(mask);
  return side;
}

/// A load, store or atomic through the select: one of each side, masked by
/// the condition; the results of loads and atomics selected by it.
template <typename OpTy> struct SplitAccess : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    arith::SelectOp select = pointerSelect(op.getPtr());
    if (!select || !selectsBetweenBuffers(select))
      return rewriter.notifyMatchFailure(op, "not between two buffers");
    auto [whenTrue, whenFalse] =
        sideMasks(rewriter, op.getLoc(), select, op.getMask());
    OpTy first = cloneForSide(rewriter, op, select.getTrueValue(), whenTrue);
    OpTy second =
        cloneForSide(rewriter, op, select.getFalseValue(), whenFalse);
    if (op->getNumResults() == 0) {
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, select.getCondition(), first->getResult(0), second->getResult(0));
    return success();
  }
};

struct TritonSplitPointerSelectsPass
    : public triton_spirv::impl::TritonSplitPointerSelectsBase<
          TritonSplitPointerSelectsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<SinkIntoSelect<AddPtrOp>, SinkIntoSelect<SplatOp>,
                 SinkIntoSelect<BroadcastOp>, SinkIntoSelect<ExpandDimsOp>,
                 SplitAccess<LoadOp>, SplitAccess<StoreOp>,
                 SplitAccess<AtomicRMWOp>>(context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
