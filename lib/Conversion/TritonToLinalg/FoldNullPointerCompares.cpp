//===- FoldNullPointerCompares.cpp - `if ptr:` on kernel arguments --------===//
//
// Triton passes a `None` pointer as a constexpr, so a pointer argument at
// run time is never null and `if ptr:` (`ptr_to_int(ptr) != 0`) holds.
// Lowered, a pointer's address is its byte offset in its binding, zero for
// a tensor at the binding's start: the compare is answered here, before any
// pointer is lowered.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONFOLDNULLPOINTERCOMPARES
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// Whether `pointer` is made from a kernel's pointer arguments by pointer
/// arithmetic and shape ops (a pointer cast from an integer may be null).
bool isMadeFromArguments(Value pointer) {
  if (auto argument = dyn_cast<BlockArgument>(pointer))
    return isa<FuncOp>(argument.getOwner()->getParentOp()) &&
           argument.getOwner()->isEntryBlock();
  Operation *def = pointer.getDefiningOp();
  if (!def)
    return false;
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return isMadeFromArguments(select.getTrueValue()) &&
           isMadeFromArguments(select.getFalseValue());
  if (isa<AddPtrOp, SplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp>(def))
    return isMadeFromArguments(def->getOperand(0));
  return false;
}

struct NullPointerCompare : OpRewritePattern<arith::CmpIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpIOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getPredicate() != arith::CmpIPredicate::eq &&
        op.getPredicate() != arith::CmpIPredicate::ne)
      return rewriter.notifyMatchFailure(op, "not an (in)equality");
    Value address = op.getLhs(), zero = op.getRhs();
    if (!matchPattern(zero, m_Zero()))
      std::swap(address, zero);
    auto toInt = address.getDefiningOp<PtrToIntOp>();
    if (!toInt || !matchPattern(zero, m_Zero()))
      return rewriter.notifyMatchFailure(op, "not an address compared with 0");
    if (!isMadeFromArguments(toInt.getSrc()))
      return rewriter.notifyMatchFailure(
          op, "the pointer may be null (not made from kernel arguments)");
    bool notNull = op.getPredicate() == arith::CmpIPredicate::ne;
    TypedAttr answer = rewriter.getBoolAttr(notNull);
    if (auto shaped = dyn_cast<ShapedType>(op.getType()))
      answer = DenseElementsAttr::get(shaped, ArrayRef<Attribute>{answer});
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, answer);
    return success();
  }
};

struct TritonFoldNullPointerComparesPass
    : public triton_spirv::impl::TritonFoldNullPointerComparesBase<
          TritonFoldNullPointerComparesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<NullPointerCompare>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
