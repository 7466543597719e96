//===- ElementwiseOpsToArith.cpp - tt elementwise ops to arith/math -------===//
//
// The results are arith/math ops on tensors (or scalars); the pipeline turns
// tensor ones into linalg.generic with convert-elementwise-to-linalg.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::triton;

namespace {
struct ClampFLowering : OpConversionPattern<ClampFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ClampFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value result;
    if (op.getPropagateNan() == PropagateNan::ALL) {
      result = arith::MaximumFOp::create(rewriter, loc, adaptor.getX(),
                                         adaptor.getMin());
      result =
          arith::MinimumFOp::create(rewriter, loc, result, adaptor.getMax());
    } else {
      result = arith::MaxNumFOp::create(rewriter, loc, adaptor.getX(),
                                        adaptor.getMin());
      result =
          arith::MinNumFOp::create(rewriter, loc, result, adaptor.getMax());
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PreciseSqrtLowering : OpConversionPattern<PreciseSqrtOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PreciseSqrtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<math::SqrtOp>(op, adaptor.getX());
    return success();
  }
};

struct PreciseDivFLowering : OpConversionPattern<PreciseDivFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PreciseDivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, adaptor.getX(),
                                               adaptor.getY());
    return success();
  }
};

struct MulhiUILowering : OpConversionPattern<MulhiUIOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MulhiUIOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto product = arith::MulUIExtendedOp::create(
        rewriter, op.getLoc(), adaptor.getX(), adaptor.getY());
    rewriter.replaceOp(op, product.getHigh());
    return success();
  }
};

struct FpToFpLowering : OpConversionPattern<FpToFpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FpToFpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<FloatType>(getElementTypeOrSelf(op.getSrc().getType()));
    auto dstType = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    if (dstType.getWidth() > srcType.getWidth() ||
        (dstType.getWidth() == srcType.getWidth() &&
         dstType.getFPMantissaWidth() > srcType.getFPMantissaWidth())) {
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(),
                                                 adaptor.getSrc());
      return success();
    }
    arith::RoundingModeAttr rounding;
    if (std::optional<RoundingMode> mode = op.getRounding())
      rounding = arith::RoundingModeAttr::get(
          getContext(), *mode == RoundingMode::RTZ
                            ? arith::RoundingMode::toward_zero
                            : arith::RoundingMode::to_nearest_even);
    rewriter.replaceOp(op, arith::TruncFOp::create(rewriter, op.getLoc(),
                                                   op.getType(),
                                                   adaptor.getSrc(), rounding,
                                                   /*fastmath=*/nullptr));
    return success();
  }
};

/// Bitcasts of values (pointer bitcasts are lowered with pointers).
struct ValueBitcastLowering : OpConversionPattern<BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<PointerType>(getElementTypeOrSelf(op.getType())))
      return failure();
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(),
                                                  adaptor.getSrc());
    return success();
  }
};

template <typename OpT>
Value create(OpBuilder &b, Location loc, ValueRange args) {
  return OpT::create(b, loc, args);
}

/// Builds the math op; every one returns its first operand's type.
using Builder = Value (*)(OpBuilder &, Location, ValueRange);

/// Device-library functions (CUDA libdevice names, as Triton's front end emits
/// them) that have an equivalent arith/math op, by their double-precision
/// name; the single-precision variants add an `f`.
Builder lookupMathFunction(StringRef name) {
  return llvm::StringSwitch<Builder>(name)
      .Case("exp", create<math::ExpOp>)
      .Case("exp2", create<math::Exp2Op>)
      .Case("expm1", create<math::ExpM1Op>)
      .Case("log", create<math::LogOp>)
      .Case("log2", create<math::Log2Op>)
      .Case("log10", create<math::Log10Op>)
      .Case("log1p", create<math::Log1pOp>)
      .Case("sin", create<math::SinOp>)
      .Case("cos", create<math::CosOp>)
      .Case("tan", create<math::TanOp>)
      .Case("asin", create<math::AsinOp>)
      .Case("acos", create<math::AcosOp>)
      .Case("atan", create<math::AtanOp>)
      .Case("atan2", create<math::Atan2Op>)
      .Case("sinh", create<math::SinhOp>)
      .Case("cosh", create<math::CoshOp>)
      .Case("tanh", create<math::TanhOp>)
      .Case("asinh", create<math::AsinhOp>)
      .Case("acosh", create<math::AcoshOp>)
      .Case("atanh", create<math::AtanhOp>)
      .Case("erf", create<math::ErfOp>)
      .Case("sqrt", create<math::SqrtOp>)
      .Case("rsqrt", create<math::RsqrtOp>)
      .Case("cbrt", create<math::CbrtOp>)
      .Case("pow", create<math::PowFOp>)
      .Case("fabs", create<math::AbsFOp>)
      .Case("floor", create<math::FloorOp>)
      .Case("ceil", create<math::CeilOp>)
      .Case("trunc", create<math::TruncOp>)
      .Case("round", create<math::RoundOp>)
      .Case("rint", create<math::RoundEvenOp>)
      .Case("nearbyint", create<math::RoundEvenOp>)
      .Case("fma", create<math::FmaOp>)
      .Case("fmax", create<arith::MaxNumFOp>)
      .Case("fmin", create<arith::MinNumFOp>)
      .Case("fmod", create<arith::RemFOp>)
      .Case("popc", create<math::CtPopOp>)
      .Case("popcll", create<math::CtPopOp>)
      .Case("clz", create<math::CountLeadingZerosOp>)
      .Case("clzll", create<math::CountLeadingZerosOp>)
      .Default(nullptr);
}

Builder lookupLibraryFunction(StringRef symbol) {
  StringRef name = symbol;
  if (!name.consume_front("__nv_"))
    return nullptr;
  if (Builder build = lookupMathFunction(name))
    return build;
  if (name.ends_with("f"))
    return lookupMathFunction(name.drop_back());
  return nullptr;
}

struct ExternElementwiseLowering : OpConversionPattern<ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Builder build = lookupLibraryFunction(op.getSymbol());
    if (!build)
      return rewriter.notifyMatchFailure(op, "no math equivalent");
    // Checked before building: the conversion runs without rollback.
    Type mathType = adaptor.getSrcs().front().getType();
    if (mathType != op.getType())
      return op.emitError("device-library function '")
             << op.getSymbol() << "' returns " << op.getType()
             << ", its math equivalent " << mathType;
    rewriter.replaceOp(op, build(rewriter, op.getLoc(), adaptor.getSrcs()));
    return success();
  }
};
} // namespace

bool mlir::triton_spirv::isSupportedLibraryFunction(StringRef symbol) {
  return lookupLibraryFunction(symbol) != nullptr;
}

void mlir::triton_spirv::populateElementwiseOpsToArithPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ClampFLowering, PreciseSqrtLowering, PreciseDivFLowering,
               MulhiUILowering, FpToFpLowering, ValueBitcastLowering,
               ExternElementwiseLowering>(patterns.getContext());
}
