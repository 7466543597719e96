//===- RecognizePairSwaps.cpp - x ^ xor_sum(x) over a size-2 axis ---------===//
//
// Triton's standard library has no permutation op, so its sorting network
// (tl.sort, tl.topk) and tl.flip reshape a block into a hypercube of size-2
// axes and reach an element's partner along one of them arithmetically:
// `x ^ broadcast(expand_dims(xor_sum(x, axis)))`. Lowered literally, every
// step materializes a reduction result and keeps it alive for the fused
// element-wise chain that reads it, which for a 4096-element sort took up to
// 96 KiB of workgroup memory. The value computed is simply x with the two
// halves of `axis` exchanged: a read of x at index 1 - d along it.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONRECOGNIZEPAIRSWAPS
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// Whether `reduce` folds its one operand with a lone xor of its arguments.
bool isXorReduction(ReduceOp reduce) {
  if (reduce.getSrcs().size() != 1)
    return false;
  Block &body = reduce.getCombineOp().front();
  if (body.getOperations().size() != 2)
    return false;
  auto xorOp = dyn_cast<arith::XOrIOp>(body.front());
  return xorOp && body.getTerminator()->getOperand(0) == xorOp.getResult() &&
         ((xorOp.getLhs() == body.getArgument(0) &&
           xorOp.getRhs() == body.getArgument(1)) ||
          (xorOp.getLhs() == body.getArgument(1) &&
           xorOp.getRhs() == body.getArgument(0)));
}

/// The axis along which `partner` is xor_sum(source, axis) brought back to
/// the source's shape (expand_dims then broadcast, or a splat of the scalar
/// sum of a 1-D block), where that axis has two elements.
std::optional<unsigned> pairSwapAxis(Value source, Value partner) {
  auto type = cast<RankedTensorType>(source.getType());
  Value reduced;
  std::optional<unsigned> axis;
  if (auto splat = partner.getDefiningOp<SplatOp>()) {
    reduced = splat.getSrc();
    if (type.getRank() != 1)
      return std::nullopt;
    axis = 0;
  } else if (auto broadcast = partner.getDefiningOp<BroadcastOp>()) {
    Value expanded = broadcast.getSrc();
    if (auto splat = expanded.getDefiningOp<SplatOp>()) {
      // The scalar sum of a 1-D block kept as tensor<1>.
      if (type.getRank() != 1)
        return std::nullopt;
      reduced = splat.getSrc();
      axis = 0;
    } else if (auto expand = expanded.getDefiningOp<ExpandDimsOp>()) {
      reduced = expand.getSrc();
      axis = expand.getAxis();
    }
  }
  auto reduce = reduced ? reduced.getDefiningOp<ReduceOp>() : ReduceOp();
  if (!reduce || !axis || reduce.getAxis() != *axis ||
      reduce.getSrcs().front() != source || !isXorReduction(reduce) ||
      type.getDimSize(*axis) != 2)
    return std::nullopt;
  return axis;
}

/// x ^ xor_sum(x, axis, keep_dims=True) -> x read at 1 - d along `axis`.
struct PairSwapPattern : OpRewritePattern<arith::XOrIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::XOrIOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "not a block");
    Value source = op.getLhs();
    std::optional<unsigned> axis = pairSwapAxis(source, op.getRhs());
    if (!axis) {
      source = op.getRhs();
      axis = pairSwapAxis(source, op.getLhs());
    }
    if (!axis)
      return rewriter.notifyMatchFailure(op, "not x ^ xor_sum(x) of a pair");

    MLIRContext *context = rewriter.getContext();
    unsigned rank = type.getRank();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
    SmallVector<AffineExpr> mirrored(identity.getResults());
    mirrored[*axis] = 1 - mirrored[*axis];
    AffineMap read = AffineMap::get(rank, 0, mirrored, context);
    Location loc = op.getLoc();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto swap = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{source}, ValueRange{init},
        ArrayRef<AffineMap>{read, identity}, iterators,
        [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, args.front());
        });
    rewriter.replaceOp(op, swap.getResult(0));
    return success();
  }
};

struct TritonRecognizePairSwapsPass
    : public triton_spirv::impl::TritonRecognizePairSwapsBase<
          TritonRecognizePairSwapsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PairSwapPattern>(&getContext());
    // The reductions left without users go with the greedy driver's DCE.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
