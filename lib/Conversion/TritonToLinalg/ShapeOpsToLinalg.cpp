//===- ShapeOpsToLinalg.cpp - tt shape ops to linalg/tensor ---------------===//

#include "Patterns.h"
#include "Slices.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::triton;

namespace {
using triton_spirv::createParallelGeneric;
using triton_spirv::emptyLike;

struct MakeRangeLowering : OpConversionPattern<MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MakeRangeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    int64_t start = op.getStartAttr().getInt();
    auto generic = createParallelGeneric(
        rewriter, loc, TypeRange{type}, ValueRange{},
        [&](OpBuilder &b, Location nested, ValueRange) {
          Value index = linalg::IndexOp::create(b, nested, 0);
          if (start != 0)
            index = arith::AddIOp::create(
                b, nested, index,
                arith::ConstantIndexOp::create(b, nested, start));
          Value value = arith::IndexCastOp::create(
              b, nested, type.getElementType(), index);
          linalg::YieldOp::create(b, nested, value);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct SplatLowering : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Value init = emptyLike(rewriter, op.getLoc(), type);
    rewriter.replaceOp(op, linalg::FillOp::create(rewriter, op.getLoc(),
                                                  adaptor.getSrc(), init)
                               .getResults());
    return success();
  }
};

struct UnsplatLowering : OpConversionPattern<UnsplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UnsplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    SmallVector<Value> zeros(type.getRank(), arith::ConstantIndexOp::create(
                                                 rewriter, op.getLoc(), 0));
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, adaptor.getSrc(), zeros);
    return success();
  }
};

/// Size-1 dimensions of the source read index 0 for every output index.
struct BroadcastLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    unsigned rank = dstType.getRank();
    SmallVector<AffineExpr> srcExprs;
    for (unsigned dim = 0; dim < rank; ++dim)
      srcExprs.push_back(srcType.getDimSize(dim) == dstType.getDimSize(dim)
                             ? rewriter.getAffineDimExpr(dim)
                             : rewriter.getAffineConstantExpr(0));
    SmallVector<AffineMap> maps{
        AffineMap::get(rank, 0, srcExprs, rewriter.getContext()),
        rewriter.getMultiDimIdentityMap(rank)};
    auto generic = linalg::GenericOp::create(
        rewriter, op.getLoc(), TypeRange{dstType}, adaptor.getSrc(),
        ValueRange{emptyLike(rewriter, op.getLoc(), dstType)}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, args[0]);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// expand_dims and reshape keep the row-major element order (reshape's
/// allow_reorder permits any order, so this one is valid too).
template <typename OpT> struct ReshapeLikeLowering : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, triton_spirv::reshapeInOrder(rewriter, op.getLoc(),
                                         adaptor.getSrc(),
                                         cast<RankedTensorType>(op.getType())));
    return success();
  }
};

struct TransLowering : OpConversionPattern<TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> permutation(op.getOrder().begin(),
                                     op.getOrder().end());
    auto transpose = linalg::TransposeOp::create(
        rewriter, op.getLoc(), adaptor.getSrc(),
        emptyLike(rewriter, op.getLoc(), type), permutation);
    rewriter.replaceOp(op, transpose.getResults());
    return success();
  }
};

struct CatLowering : OpConversionPattern<CatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getLhs().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    if (dstType.getDimSize(0) != 2 * srcType.getDimSize(0) ||
        dstType.getShape().drop_front() != srcType.getShape().drop_front())
      return rewriter.notifyMatchFailure(op, "tt.cat must join along dim 0");
    Location loc = op.getLoc();
    Value result = emptyLike(rewriter, loc, dstType);
    result = triton_spirv::insertAlong(rewriter, loc, adaptor.getLhs(), result,
                                       0, rewriter.getIndexAttr(0));
    result =
        triton_spirv::insertAlong(rewriter, loc, adaptor.getRhs(), result, 0,
                                  rewriter.getIndexAttr(srcType.getDimSize(0)));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct JoinLowering : OpConversionPattern<JoinOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dstType = cast<RankedTensorType>(op.getType());
    unsigned last = dstType.getRank() - 1;
    Location loc = op.getLoc();
    Value result = emptyLike(rewriter, loc, dstType);
    // A named array: a ValueRange over a braced list would point at the
    // initializer_list's array, which dies before the loop body runs (C++17).
    Value parts[] = {adaptor.getLhs(), adaptor.getRhs()};
    for (auto [position, part] : llvm::enumerate(parts))
      result = triton_spirv::insertAlong(rewriter, loc, part, result, last,
                                         rewriter.getIndexAttr(position));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SplitLowering : OpConversionPattern<SplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(adaptor.getSrc().getType());
    SmallVector<Value> halves;
    for (int64_t half : {0, 1})
      halves.push_back(triton_spirv::extractAlong(
          rewriter, op.getLoc(), adaptor.getSrc(), srcType.getRank() - 1,
          rewriter.getIndexAttr(half), /*size=*/1, /*dropDim=*/true));
    rewriter.replaceOp(op, halves);
    return success();
  }
};
} // namespace

void mlir::triton_spirv::populateShapeOpsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<MakeRangeLowering, SplatLowering, UnsplatLowering, BroadcastLowering,
           ReshapeLikeLowering<ExpandDimsOp>, ReshapeLikeLowering<ReshapeOp>,
           TransLowering, CatLowering, JoinLowering, SplitLowering>(
          patterns.getContext());
}
