//===- ReshapeIndexComputations.cpp - Index blocks in the reshaped shape --===//
//
// A reshape of a computed block keeps no layout (its linear positions move
// between dimensions), so a block reshaped and then reduced along an inner
// dimension needs workgroup memory. A block computed from indices alone
// (`arange(0, M * N).reshape(M, N)`, the masks compared with it, pointers
// offset by it) can be computed in the reshaped shape instead: the reshape
// moves to its leaves, splats take the new shape, and a reshaped make_range
// becomes the sum of one make_range per dimension, each scaled by the
// extent after it.
//
//===----------------------------------------------------------------------===//

#include "ReshapeSinking.h"

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONRESHAPEINDEXCOMPUTATIONS
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// An element-wise arith op on tensors (its operands and result share the
/// shape), without side effects.
bool isElementwiseArith(Operation *op) {
  return op && isa<arith::ArithDialect>(op->getDialect()) &&
         op->hasTrait<mlir::OpTrait::Elementwise>() &&
         op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

bool isIndexComputation(Value value, unsigned depth) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 16)
    return false;
  if (isa<MakeRangeOp, SplatOp>(def))
    return true;
  if (auto addPtr = dyn_cast<AddPtrOp>(def))
    return isIndexComputation(addPtr.getPtr(), depth + 1) &&
           isIndexComputation(addPtr.getOffset(), depth + 1);
  DenseElementsAttr constant;
  if (matchPattern(value, m_Constant(&constant)))
    return constant.isSplat();
  return isElementwiseArith(def) &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return isIndexComputation(operand, depth + 1);
         });
}
} // namespace

bool triton_spirv::isIndexComputation(Value value) {
  return ::isIndexComputation(value, 0);
}

Value triton_spirv::applyToReshapedOperands(PatternRewriter &rewriter,
                                            ReshapeOp reshape, Operation *op) {
  IRMapping operands;
  for (Value operand : op->getOperands()) {
    auto type = reshape.getType().clone(
        cast<RankedTensorType>(operand.getType()).getElementType());
    operands.map(operand, ReshapeOp::create(rewriter, reshape.getLoc(), type,
                                            operand, reshape.getAllowReorder(),
                                            reshape.getEfficientLayout()));
  }
  Operation *reshaped = rewriter.clone(*op, operands);
  reshaped->getResult(0).setType(reshape.getType());
  return reshaped->getResult(0);
}

namespace {
/// reshape(range(start, end)) to D0 x ... x Dk: start + sum over d of
/// range(0, Dd) (along d) * (D(d+1) * ... * Dk).
struct ReshapeOfRange : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp reshape,
                                PatternRewriter &rewriter) const override {
    auto range = reshape.getSrc().getDefiningOp<MakeRangeOp>();
    if (!range)
      return rewriter.notifyMatchFailure(reshape, "not of a make_range");
    Location loc = reshape.getLoc();
    RankedTensorType type = reshape.getType();
    ArrayRef<int64_t> shape = type.getShape();
    auto splatOf = [&](int64_t value) {
      return createScalarOrSplatConstant(rewriter, loc, type, value);
    };
    Value sum = splatOf(range.getStart());
    int64_t after = 1;
    for (unsigned dim = shape.size(); dim-- > 0;) {
      if (shape[dim] != 1) {
        Value along = MakeRangeOp::create(
            rewriter, loc,
            RankedTensorType::get({shape[dim]}, type.getElementType()), 0,
            static_cast<int32_t>(shape[dim]));
        // Unit dimensions around it, then the block's shape.
        for (unsigned axis = 0; axis < shape.size(); ++axis) {
          if (axis == dim)
            continue;
          auto current = cast<RankedTensorType>(along.getType());
          SmallVector<int64_t> expanded(current.getShape());
          expanded.insert(expanded.begin() + axis, 1);
          along = ExpandDimsOp::create(rewriter, loc,
                                       current.clone(expanded), along, axis);
        }
        along = BroadcastOp::create(rewriter, loc, type, along);
        if (after != 1)
          along = arith::MulIOp::create(rewriter, loc, along, splatOf(after));
        sum = arith::AddIOp::create(rewriter, loc, sum, along);
      }
      after *= shape[dim];
    }
    rewriter.replaceOp(reshape, sum);
    return success();
  }
};

/// reshape(splat(x)) as splat(x) in the reshaped shape; reshape of a splat
/// constant as the constant.
struct ReshapeOfUniform : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp reshape,
                                PatternRewriter &rewriter) const override {
    if (auto splat = reshape.getSrc().getDefiningOp<SplatOp>()) {
      rewriter.replaceOpWithNewOp<SplatOp>(reshape, reshape.getType(),
                                           splat.getSrc());
      return success();
    }
    DenseElementsAttr constant;
    if (!matchPattern(reshape.getSrc(), m_Constant(&constant)) ||
        !constant.isSplat())
      return rewriter.notifyMatchFailure(reshape, "not of a uniform block");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        reshape, constant.resizeSplat(reshape.getType()));
    return success();
  }
};

/// reshape(op(a, b, ...)) of an element-wise arith op or addptr of index
/// computations as op(reshape(a), reshape(b), ...).
struct ReshapeOfElementwise : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp reshape,
                                PatternRewriter &rewriter) const override {
    Operation *op = reshape.getSrc().getDefiningOp();
    if (!(isElementwiseArith(op) || isa_and_nonnull<AddPtrOp>(op)) ||
        !triton_spirv::isIndexComputation(reshape.getSrc()))
      return rewriter.notifyMatchFailure(
          reshape, "not of an element-wise index computation");
    rewriter.replaceOp(reshape,
                       triton_spirv::applyToReshapedOperands(rewriter, reshape,
                                                             op));
    return success();
  }
};

struct TritonReshapeIndexComputationsPass
    : public triton_spirv::impl::TritonReshapeIndexComputationsBase<
          TritonReshapeIndexComputationsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ReshapeOfRange, ReshapeOfUniform, ReshapeOfElementwise>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
