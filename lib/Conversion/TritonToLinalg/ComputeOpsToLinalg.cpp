//===- ComputeOpsToLinalg.cpp - reduce/scan/dot/histogram/gather ----------===//

#include "Patterns.h"
#include "Slices.h"
#include "triton-spirv/Conversion/InlineBlock.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"


using namespace mlir;
using namespace mlir::triton;

namespace {
/// The slice of `src` at `index` along `axis`, without that dimension.
Value sliceAt(OpBuilder &b, Location loc, Value src, unsigned axis,
              OpFoldResult index) {
  return triton_spirv::extractAlong(b, loc, src, axis, index, /*size=*/1,
                                    /*dropDim=*/true);
}

/// The identity element of a combiner that is one arith op of its two
/// arguments (sum, product, min, max, and, or, xor), or null.
TypedAttr combinerIdentity(Region &combiner) {
  Block &body = combiner.front();
  if (body.getNumArguments() != 2 || body.getOperations().size() != 2)
    return nullptr;
  Operation &op = body.front();
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      !llvm::is_contained(op.getOperands(), body.getArgument(0)) ||
      !llvm::is_contained(op.getOperands(), body.getArgument(1)) ||
      body.getTerminator()->getOperand(0) != op.getResult(0))
    return nullptr;
  Type type = op.getResult(0).getType();
  Builder b(combiner.getContext());
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    auto value = [&](const APFloat &v) { return b.getFloatAttr(type, v); };
    if (isa<arith::AddFOp>(op)) // -0 + x is x for every x, -0 included.
      return value(APFloat::getZero(semantics, /*Negative=*/true));
    if (isa<arith::MulFOp>(op))
      return value(APFloat::getOne(semantics));
    if (isa<arith::MaxNumFOp, arith::MaximumFOp>(op))
      return value(APFloat::getInf(semantics, /*Negative=*/true));
    if (isa<arith::MinNumFOp, arith::MinimumFOp>(op))
      return value(APFloat::getInf(semantics));
    return nullptr;
  }
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return nullptr;
  unsigned width = intType.getWidth();
  auto value = [&](const APInt &v) { return b.getIntegerAttr(type, v); };
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(op))
    return value(APInt::getZero(width));
  if (isa<arith::MulIOp>(op))
    return value(APInt(width, 1));
  if (isa<arith::AndIOp, arith::MinUIOp>(op))
    return value(APInt::getAllOnes(width));
  if (isa<arith::MaxSIOp>(op))
    return value(APInt::getSignedMinValue(width));
  if (isa<arith::MinSIOp>(op))
    return value(APInt::getSignedMaxValue(width));
  return nullptr;
}

/// Triton reductions have no identity element. Where the combiner is a
/// known op, its identity seeds the accumulator and linalg.reduce folds in
/// the whole input, which keeps the input one block for the distribution.
/// Otherwise the first slice along the axis seeds it and linalg.reduce
/// folds in the rest, in order.
struct ReduceLowering : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    auto srcType = cast<RankedTensorType>(adaptor.getSrcs()[0].getType());
    int64_t extent = srcType.getDimSize(axis);
    TypedAttr identity = adaptor.getSrcs().size() == 1
                             ? combinerIdentity(op.getCombineOp())
                             : nullptr;
    SmallVector<Value> accumulators, rests;
    if (identity && extent > 1) {
      SmallVector<int64_t> shape(srcType.getShape());
      shape.erase(shape.begin() + axis);
      Value empty = tensor::EmptyOp::create(rewriter, loc, shape,
                                            srcType.getElementType());
      Value seed = arith::ConstantOp::create(rewriter, loc, identity);
      accumulators.push_back(
          linalg::FillOp::create(rewriter, loc, seed, empty).getResult(0));
      rests.assign(adaptor.getSrcs().begin(), adaptor.getSrcs().end());
    } else {
      for (Value src : adaptor.getSrcs()) {
        accumulators.push_back(
            sliceAt(rewriter, loc, src, axis, rewriter.getIndexAttr(0)));
        if (extent > 1)
          rests.push_back(triton_spirv::extractAlong(
              rewriter, loc, src, axis, rewriter.getIndexAttr(1), extent - 1,
              /*dropDim=*/false));
      }
    }
    SmallVector<Value> results = accumulators;
    if (extent > 1) {
      size_t count = accumulators.size();
      auto reduce = linalg::ReduceOp::create(
          rewriter, loc, rests, accumulators, ArrayRef<int64_t>{axis},
          [&](OpBuilder &b, Location nested, ValueRange args) {
            // linalg.reduce passes (inputs..., accumulators...); the Triton
            // combiner takes (accumulated..., next...).
            SmallVector<Value> combinerArgs(args.drop_front(count));
            combinerArgs.append(args.begin(), args.begin() + count);
            linalg::YieldOp::create(
                b, nested,
                triton_spirv::inlineBlock(b, op.getCombineOp().front(),
                                          combinerArgs));
          });
      results.assign(reduce.getResults().begin(), reduce.getResults().end());
    }
    for (Value &result : results)
      if (cast<RankedTensorType>(result.getType()).getRank() == 0)
        result = tensor::ExtractOp::create(rewriter, loc, result, ValueRange{});
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// An element-wise linalg.generic over same-shaped `inputs` whose body is a
/// copy of the single-block `region`; one result per type in `resultTypes`.
SmallVector<Value> applyRegionElementwise(OpBuilder &b, Location loc,
                                          Region &region, ValueRange inputs,
                                          TypeRange resultTypes) {
  auto generic = triton_spirv::createParallelGeneric(
      b, loc, resultTypes, inputs,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(
            nested, nestedLoc,
            triton_spirv::inlineBlock(nested, region.front(),
                                      args.take_front(inputs.size())));
      });
  return SmallVector<Value>(generic.getResults());
}

/// `value` flattened and split into `pack` interleaved parts: part j holds
/// elements j, j + pack, ... (row-major).
SmallVector<Value> packedParts(OpBuilder &b, Location loc, Value value,
                               int64_t pack) {
  auto type = cast<RankedTensorType>(value.getType());
  auto groupedType = RankedTensorType::get({type.getNumElements() / pack, pack},
                                           type.getElementType());
  Value grouped = triton_spirv::reshapeInOrder(b, loc, value, groupedType);
  SmallVector<Value> parts;
  for (int64_t j = 0; j < pack; ++j)
    parts.push_back(triton_spirv::extractAlong(b, loc, grouped, 1,
                                               b.getIndexAttr(j), 1,
                                               /*dropDim=*/true));
  return parts;
}

/// The inverse of packedParts: `parts` interleaved into a tensor of `type`.
Value unpackParts(OpBuilder &b, Location loc, ValueRange parts,
                  RankedTensorType type) {
  int64_t pack = parts.size();
  auto groupedType = RankedTensorType::get({type.getNumElements() / pack, pack},
                                           type.getElementType());
  Value grouped = triton_spirv::emptyLike(b, loc, groupedType);
  for (auto [j, part] : llvm::enumerate(parts))
    grouped = triton_spirv::insertAlong(b, loc, part, grouped, 1,
                                        b.getIndexAttr(j));
  return triton_spirv::reshapeInOrder(b, loc, grouped, type);
}

/// tl.map_elementwise: the scalar region becomes the body of an
/// element-wise linalg.generic. With pack = P it takes P elements of each
/// input and gives P of each output per call; which elements go together
/// is the backend's choice (on Triton's GPU backends, those a thread holds):
/// here P consecutive ones, as P interleaved parts of each block.
struct MapElementwiseLowering : OpConversionPattern<MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MapElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getScalarOp().hasOneBlock())
      return rewriter.notifyMatchFailure(op, "multi-block region");
    Location loc = op.getLoc();
    int64_t pack = op.getPack();
    if (pack == 1) {
      rewriter.replaceOp(op, applyRegionElementwise(
                                 rewriter, loc, op.getScalarOp(),
                                 adaptor.getSrcs(), op.getResultTypes()));
      return success();
    }
    auto shape = cast<RankedTensorType>(op.getResultTypes()[0]);
    if (shape.getNumElements() % pack)
      return rewriter.notifyMatchFailure(op, "blocks not made of whole packs");
    SmallVector<Value> inputs;
    for (Value src : adaptor.getSrcs())
      llvm::append_range(inputs, packedParts(rewriter, loc, src, pack));
    SmallVector<Type> partTypes;
    for (Type type : op.getResultTypes()) {
      Type element = cast<RankedTensorType>(type).getElementType();
      partTypes.append(pack, RankedTensorType::get(
                                 {shape.getNumElements() / pack}, element));
    }
    SmallVector<Value> parts = applyRegionElementwise(
        rewriter, loc, op.getScalarOp(), inputs, partTypes);
    SmallVector<Value> results;
    for (auto [index, type] : llvm::enumerate(op.getResultTypes()))
      results.push_back(unpackParts(
          rewriter, loc, ArrayRef<Value>(parts).slice(index * pack, pack),
          cast<RankedTensorType>(type)));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Sequential inclusive scan along the axis, in place: slice by slice, each
/// slice combined element-wise with the running accumulator.
struct ScanLowering : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned axis = op.getAxis();
    auto srcType = cast<RankedTensorType>(adaptor.getSrcs()[0].getType());
    int64_t extent = srcType.getDimSize(axis);
    bool reverse = op.getReverse();
    int64_t first = reverse ? extent - 1 : 0;

    // The scan overwrites its input slice by slice, each slice read just
    // before it is written: bufferization reuses the input's buffer when
    // nothing reads the input afterwards, halving the workgroup memory.
    SmallVector<Value> accumulators, outputs(adaptor.getSrcs());
    for (Value src : adaptor.getSrcs())
      accumulators.push_back(
          sliceAt(rewriter, loc, src, axis, rewriter.getIndexAttr(first)));
    if (extent > 1) {
      Value lower = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value upper = arith::ConstantIndexOp::create(rewriter, loc, extent);
      Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
      SmallVector<Value> iterArgs(accumulators);
      iterArgs.append(outputs);
      size_t count = accumulators.size();
      auto loop = scf::ForOp::create(
          rewriter, loc, lower, upper, step, iterArgs,
          [&](OpBuilder &b, Location nested, Value iv, ValueRange carried) {
            Value position = iv;
            if (reverse)
              position = arith::SubIOp::create(
                  b, nested,
                  arith::ConstantIndexOp::create(b, nested, extent - 1), iv);
            SmallVector<Value> next;
            for (Value output : carried.drop_front(count))
              next.push_back(sliceAt(b, nested, output, axis, position));
            SmallVector<Value> inputs(carried.take_front(count));
            inputs.append(next);
            SmallVector<Value> combined =
                applyRegionElementwise(b, nested, op.getCombineOp(), inputs,
                                       TypeRange(ValueRange(next)));
            SmallVector<Value> yielded(combined);
            for (auto [value, output] :
                 llvm::zip(combined, carried.drop_front(count)))
              yielded.push_back(triton_spirv::insertAlong(
                  b, nested, value, output, axis, position));
            scf::YieldOp::create(b, nested, yielded);
          });
      outputs.assign(loop.getResults().begin() + count,
                     loop.getResults().end());
    }
    rewriter.replaceOp(op, outputs);
    return success();
  }
};

/// d = a * b + c; inputs narrower than the accumulator are extended (linalg's
/// default signed cast matches Triton's signed int8 dot).
/// A 16-bit float accumulator (`out_dtype=tl.float16`) is accumulated in
/// f32 and rounded once at the end: rounding after every multiply-add loses
/// more than tensor cores do (they round once per MMA instruction), which
/// put Triton's 3-D fp16 dot test outside its tolerance.
struct DotLowering : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> inputs{adaptor.getA(), adaptor.getB()};
    auto type = cast<RankedTensorType>(op.getType());
    Value acc = adaptor.getC();
    auto element = dyn_cast<FloatType>(type.getElementType());
    bool widen = element && element.getWidth() < 32;
    RankedTensorType accType =
        widen ? type.clone(rewriter.getF32Type()) : type;
    if (widen)
      acc = arith::ExtFOp::create(rewriter, loc, accType, acc);
    Value product =
        type.getRank() == 3
            ? linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{accType},
                                            inputs, ValueRange{acc})
                  .getResult(0)
            : linalg::MatmulOp::create(rewriter, loc, TypeRange{accType},
                                       inputs, ValueRange{acc})
                  .getResult(0);
    if (widen)
      product = arith::TruncFOp::create(rewriter, loc, type, product);
    rewriter.replaceOp(op, product);
    return success();
  }
};

/// bins[b] = #{i : src[i] == b (and mask[i])}: parallel over bins, reduction
/// over the input.
struct HistogramLowering : OpConversionPattern<HistogramOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    if (srcType.getRank() != 1 || type.getRank() != 1)
      return rewriter.notifyMatchFailure(op, "histogram of a 1-D tensor");
    Value zero = arith::getZeroConstant(rewriter, loc, type.getElementType());
    Value empty = triton_spirv::emptyLike(rewriter, loc, type);
    Value init = linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                                        ValueRange{empty})
                     .getResult(0);
    MLIRContext *ctx = rewriter.getContext();
    AffineMap input = AffineMap::get(2, 0, rewriter.getAffineDimExpr(1), ctx);
    AffineMap output = AffineMap::get(2, 0, rewriter.getAffineDimExpr(0), ctx);
    SmallVector<Value> inputs{adaptor.getSrc()};
    if (adaptor.getMask())
      inputs.push_back(adaptor.getMask());
    SmallVector<AffineMap> maps(inputs.size(), input);
    maps.push_back(output);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, inputs, ValueRange{init}, maps,
        {utils::IteratorType::parallel, utils::IteratorType::reduction},
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value bin =
              arith::IndexCastOp::create(b, nested, srcType.getElementType(),
                                         linalg::IndexOp::create(b, nested, 0));
          Value hit = arith::CmpIOp::create(b, nested, arith::CmpIPredicate::eq,
                                            args[0], bin);
          if (inputs.size() == 2)
            hit = arith::AndIOp::create(b, nested, hit, args[1]);
          Value increment =
              arith::ExtUIOp::create(b, nested, type.getElementType(), hit);
          linalg::YieldOp::create(b, nested,
                                  ValueRange{arith::AddIOp::create(
                                      b, nested, args.back(), increment)});
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// result[i...] = src[i... with indices[i...] at axis].
struct GatherLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    unsigned rank = type.getRank();
    unsigned axis = op.getAxis();
    auto generic = triton_spirv::createParallelGeneric(
        rewriter, loc, TypeRange{type}, ValueRange{adaptor.getIndices()},
        [&](OpBuilder &b, Location nested, ValueRange args) {
          SmallVector<Value> coords;
          for (unsigned dim = 0; dim < rank; ++dim)
            coords.push_back(
                dim == axis
                    ? arith::IndexCastOp::create(b, nested, b.getIndexType(),
                                                 args[0])
                          .getResult()
                    : linalg::IndexOp::create(b, nested, dim).getResult());
          linalg::YieldOp::create(b, nested,
                                  ValueRange{tensor::ExtractOp::create(
                                      b, nested, adaptor.getSrc(), coords)});
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};
} // namespace

void mlir::triton_spirv::populateComputeOpsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, ScanLowering, MapElementwiseLowering,
               DotLowering, HistogramLowering, GatherLowering>(
      patterns.getContext());
}
