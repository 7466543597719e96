//===- ElementwiseOpsToArith.cpp - tt elementwise ops to arith/math -------===//
//
// The results are arith/math ops on tensors (or scalars); the pipeline turns
// tensor ones into linalg.generic with convert-elementwise-to-linalg.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "triton-spirv/Conversion/CorrectlyRounded.h"
#include "triton-spirv/Conversion/ElementTypes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

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
    auto sqrt = rewriter.replaceOpWithNewOp<math::SqrtOp>(op, adaptor.getX());
    sqrt->setAttr(triton_spirv::kCorrectlyRoundedAttrName,
                  rewriter.getUnitAttr());
    return success();
  }
};

struct PreciseDivFLowering : OpConversionPattern<PreciseDivFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PreciseDivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto divide = rewriter.replaceOpWithNewOp<arith::DivFOp>(
        op, adaptor.getX(), adaptor.getY());
    divide->setAttr(triton_spirv::kCorrectlyRoundedAttrName,
                    rewriter.getUnitAttr());
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
    Value src = adaptor.getSrc();
    // arith's casts change the width. Between two formats of one width (f16
    // and bf16, which Triton 3.9 converts directly; two fp8 formats) the
    // value goes through f32, which holds either exactly: one rounding.
    if (dstType.getWidth() == srcType.getWidth()) {
      srcType = rewriter.getF32Type();
      src = arith::ExtFOp::create(
          rewriter, op.getLoc(),
          triton_spirv::withElementType(src.getType(), srcType), src);
    }
    if (dstType.getWidth() > srcType.getWidth()) {
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(), src);
      return success();
    }
    arith::RoundingModeAttr rounding;
    std::optional<RoundingMode> mode = op.getRounding();
    // A bf16 truncation rounds to nearest even without the attribute, which
    // the bf16 expansion (--triton-spirv-emulate-small-floats) requires.
    if (mode == RoundingMode::RTNE && dstType.isBF16())
      mode.reset();
    if (mode)
      rounding = arith::RoundingModeAttr::get(
          getContext(), *mode == RoundingMode::RTZ
                            ? arith::RoundingMode::toward_zero
                            : arith::RoundingMode::to_nearest_even);
    rewriter.replaceOp(op, arith::TruncFOp::create(rewriter, op.getLoc(),
                                                   op.getType(), src, rounding,
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

/// erfinv in single precision: M. Giles' approximation ("Approximating the
/// erfinv function", GPU Computing Gems, 2011), polynomials in
/// w = -log(1 - x^2) on two intervals, a few ulp from the exact value.
Value buildErfInvF32(OpBuilder &b, Location loc, ValueRange args) {
  Value x = args[0];
  Type type = x.getType();
  auto constant = [&](double value) {
    return createScalarOrSplatConstant(b, loc, type, APFloat(float(value)));
  };
  auto horner = [&](Value w, ArrayRef<double> coefficients) {
    Value p = constant(coefficients.front());
    for (double c : coefficients.drop_front())
      p = arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, p, w),
                                constant(c));
    return p;
  };
  Value one = constant(1.0);
  Value w = arith::NegFOp::create(
      b, loc,
      math::LogOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, arith::SubFOp::create(b, loc, one, x),
                                arith::AddFOp::create(b, loc, one, x))));
  Value central = horner(arith::SubFOp::create(b, loc, w, constant(2.5)),
                         {2.81022636e-08, 3.43273939e-07, -3.5233877e-06,
                          -4.39150654e-06, 0.00021858087, -0.00125372503,
                          -0.00417768164, 0.246640727, 1.50140941});
  Value tail = horner(
      arith::SubFOp::create(b, loc, math::SqrtOp::create(b, loc, w),
                            constant(3.0)),
      {-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
       0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682});
  Value isCentral = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, w,
                                          constant(5.0));
  Value p = arith::SelectOp::create(b, loc, isCentral, central, tail);
  // At |x| = 1 the tail polynomial overflows with the wrong sign.
  Value isOne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                      math::AbsFOp::create(b, loc, x), one);
  return arith::MulFOp::create(
      b, loc, arith::SelectOp::create(b, loc, isOne, constant(INFINITY), p), x);
}

/// `value` as a constant of the f32 or f64 (scalar or splat) `type`.
Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (getElementTypeOrSelf(type).isF64())
    return createScalarOrSplatConstant(b, loc, type, APFloat(value));
  return createScalarOrSplatConstant(b, loc, type, APFloat(float(value)));
}

/// The modified Bessel function I_n (n = 0 or 1; libdevice's
/// cyl_bessel_i0/i1) in the argument's precision, by its symmetry from |x|:
/// below a threshold (15 for f32, 30 for f64) the power series
/// sum_k (|x|/2)^(2k+n) / (k! (k+n)!), whose terms are all positive, so
/// summing them loses nothing to cancellation; above it, Hankel's
/// asymptotic series e^|x| / sqrt(2 pi |x|) * sum_k t_k with
/// t_k = -t_(k-1) (4n^2 - (2k-1)^2) / (8k|x|), t_0 = 1. The term counts
/// take both below the precision's rounding over their ranges.
template <int Order>
Value buildBesselI(OpBuilder &b, Location loc, ValueRange args) {
  Value x = args[0];
  bool wide = getElementTypeOrSelf(x.getType()).isF64();
  auto constant = [&](double value) {
    return floatConstant(b, loc, x.getType(), value);
  };
  Value ax = math::AbsFOp::create(b, loc, x);
  Value half = arith::MulFOp::create(b, loc, ax, constant(0.5));
  Value q = arith::MulFOp::create(b, loc, half, half);
  Value term = Order == 0 ? constant(1.0) : half;
  Value series = term;
  for (int k = 1, terms = wide ? 45 : 30; k <= terms; ++k) {
    term =
        arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, term, q),
                              constant(1.0 / (double(k) * double(k + Order))));
    series = arith::AddFOp::create(b, loc, series, term);
  }
  Value eightX = arith::MulFOp::create(b, loc, ax, constant(8.0));
  Value step = constant(1.0), sum = constant(1.0);
  const double mu = 4.0 * Order * Order;
  for (int k = 1; k <= 14; ++k) {
    double odd = 2.0 * k - 1.0;
    step = arith::DivFOp::create(
        b, loc, arith::MulFOp::create(b, loc, step, constant(odd * odd - mu)),
        arith::MulFOp::create(b, loc, eightX, constant(double(k))));
    sum = arith::AddFOp::create(b, loc, sum, step);
  }
  // e^|x| as e^(|x|/2) twice, so that I_n overflows only where it must.
  Value root = math::ExpOp::create(b, loc, half);
  Value scale = math::SqrtOp::create(
      b, loc, arith::MulFOp::create(b, loc, ax, constant(2.0 * M_PI)));
  Value asymptotic = arith::MulFOp::create(
      b, loc, root,
      arith::DivFOp::create(b, loc, arith::MulFOp::create(b, loc, root, sum),
                            scale));
  Value small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, ax,
                                      constant(wide ? 30.0 : 15.0));
  Value result = arith::SelectOp::create(b, loc, small, series, asymptotic);
  return Order == 0 ? result : math::CopySignOp::create(b, loc, result, x);
}

/// The Bessel functions J_n and Y_n (n = 0 or 1; libdevice's j0, j1, y0,
/// y1) in the argument's precision. Below a threshold (8 for f32, 12 for
/// f64) their power series: J_n = sum_k (-1)^k (x/2)^(2k+n) / (k! (k+n)!)
/// and, with the harmonic numbers H_k,
///   Y_0 = (2/pi) ((ln(x/2) + gamma) J_0 + sum_k (-1)^(k+1) H_k (x/2)^2k
///         / (k!)^2),
///   Y_1 = -2/(pi x) + (2/pi) ln(x/2) J_1 - (1/pi) sum_k (-1)^k
///         (H_k + H_(k+1) - 2 gamma) (x/2)^(2k+1) / (k! (k+1)!).
/// Above it Hankel's asymptotic series: with c_k = prod_(j<=k)
/// (4n^2 - (2j-1)^2) / (k! (8x)^k), P = c_0 - c_2 + ..., Q = c_1 - c_3 + ...
/// and chi = x - (2n+1) pi/4, J_n = sqrt(2/(pi x)) (P cos chi - Q sin chi)
/// and Y_n = sqrt(2/(pi x)) (P sin chi + Q cos chi). The series of f32 lose
/// up to 2e-5 to cancellation between 4 and 8. J_0 is even, J_1 odd; Y_n is
/// NaN below 0 and -inf at 0.
template <int Order, bool Second>
Value buildBesselJY(OpBuilder &b, Location loc, ValueRange args) {
  Value x = args[0];
  bool wide = getElementTypeOrSelf(x.getType()).isF64();
  auto constant = [&](double value) {
    return floatConstant(b, loc, x.getType(), value);
  };
  auto mul = [&](Value l, Value r) {
    return arith::MulFOp::create(b, loc, l, r).getResult();
  };
  auto add = [&](Value l, Value r) {
    return arith::AddFOp::create(b, loc, l, r).getResult();
  };
  const double gamma = 0.57721566490153286061;
  Value ax = math::AbsFOp::create(b, loc, x);
  Value half = mul(ax, constant(0.5));
  Value q = mul(half, half);
  // The series: J_n's, and Y_n's sum of harmonic-number terms.
  Value term = Order == 0 ? constant(1.0) : half;
  Value j = term, harmonicSum = constant(0.0);
  if (Second && Order == 1)
    harmonicSum = mul(term, constant(1.0 - 2.0 * gamma)); // H_0 + H_1
  double harmonic = 0.0;
  for (int k = 1, terms = wide ? 30 : 20; k <= terms; ++k) {
    term = mul(mul(term, q), constant(-1.0 / (double(k) * double(k + Order))));
    j = add(j, term);
    harmonic += 1.0 / k;
    if (Second)
      harmonicSum = add(
          harmonicSum,
          mul(term, constant(Order == 0 ? -harmonic
                                        : harmonic + harmonic + 1.0 / (k + 1) -
                                              2.0 * gamma)));
  }
  Value series = j;
  if (Second) {
    Value log = math::LogOp::create(b, loc, half);
    if (Order == 0) {
      series = mul(constant(2.0 / M_PI),
                   add(mul(add(log, constant(gamma)), j), harmonicSum));
    } else {
      series = arith::SubFOp::create(
          b, loc,
          add(arith::DivFOp::create(b, loc, constant(-2.0 / M_PI), ax),
              mul(mul(constant(2.0 / M_PI), log), j)),
          mul(constant(1.0 / M_PI), harmonicSum));
    }
  }
  // Hankel's series.
  Value eightX = mul(ax, constant(8.0));
  Value c = constant(1.0), p = constant(1.0), qSum = constant(0.0);
  const double mu = 4.0 * Order * Order;
  for (int k = 1, terms = wide ? 22 : 14; k <= terms; ++k) {
    double odd = 2.0 * k - 1.0;
    c = arith::DivFOp::create(b, loc, mul(c, constant(mu - odd * odd)),
                              mul(eightX, constant(double(k))));
    Value signed_ = (k / 2) % 2 ? arith::NegFOp::create(b, loc, c) : c;
    if (k % 2)
      qSum = add(qSum, signed_);
    else
      p = add(p, signed_);
  }
  Value chi =
      arith::SubFOp::create(b, loc, ax, constant((2 * Order + 1) * M_PI / 4.0));
  Value cos = math::CosOp::create(b, loc, chi);
  Value sin = math::SinOp::create(b, loc, chi);
  Value amplitude = math::SqrtOp::create(
      b, loc, arith::DivFOp::create(b, loc, constant(2.0 / M_PI), ax));
  Value wave = Second
                   ? add(mul(p, sin), mul(qSum, cos))
                   : arith::SubFOp::create(b, loc, mul(p, cos), mul(qSum, sin))
                         .getResult();
  Value asymptotic = mul(amplitude, wave);
  Value small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, ax,
                                      constant(wide ? 12.0 : 8.0));
  Value result = arith::SelectOp::create(b, loc, small, series, asymptotic);
  if (!Second)
    return Order == 0 ? result
                      : mul(result,
                            math::CopySignOp::create(b, loc, constant(1.0), x));
  // Y_n: NaN below zero, -inf at zero.
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                         constant(0.0));
  Value zero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                     constant(0.0));
  result = arith::SelectOp::create(b, loc, zero, constant(-INFINITY), result);
  return arith::SelectOp::create(b, loc, negative, constant(NAN), result);
}

/// pow with an integer exponent (`powi`): the float power, whose lowering
/// keeps the sign of a negative base raised to an odd exponent.
Value buildPowI(OpBuilder &b, Location loc, ValueRange args) {
  Value exponent =
      arith::SIToFPOp::create(b, loc, args[0].getType(), args[1]);
  return math::PowFOp::create(b, loc, args[0], exponent);
}

/// Device-library functions (CUDA libdevice names, as Triton's front end emits
/// them) that have an equivalent arith/math op, by their double-precision
/// name; the single-precision variants add an `f` (functions with a
/// single-precision lowering only are listed by that name).
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
      .Case("erfinvf", buildErfInvF32) // no double-precision version yet
      .Case("cyl_bessel_i0", buildBesselI<0>)
      .Case("cyl_bessel_i1", buildBesselI<1>)
      .Case("j0", buildBesselJY<0, false>)
      .Case("j1", buildBesselJY<1, false>)
      .Case("y0", buildBesselJY<0, true>)
      .Case("y1", buildBesselJY<1, true>)
      .Case("sqrt", create<math::SqrtOp>)
      .Case("rsqrt", create<math::RsqrtOp>)
      .Case("cbrt", create<math::CbrtOp>)
      .Case("pow", create<math::PowFOp>)
      .Case("powi", buildPowI)
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

/// Classification functions of libdevice: an i1 per element, returned as
/// the function's integer type.
using Predicate = Value (*)(OpBuilder &, Location, Value);

/// |x| compared with infinity.
Value compareMagnitudeWithInfinity(OpBuilder &b, Location loc, Value x,
                                   arith::CmpFPredicate predicate) {
  auto type = cast<FloatType>(getElementTypeOrSelf(x));
  Value infinity = createScalarOrSplatConstant(
      b, loc, x.getType(), APFloat::getInf(type.getFloatSemantics()));
  return arith::CmpFOp::create(b, loc, predicate,
                               math::AbsFOp::create(b, loc, x), infinity);
}

Value isInfinite(OpBuilder &b, Location loc, Value x) {
  return compareMagnitudeWithInfinity(b, loc, x, arith::CmpFPredicate::OEQ);
}

Value isNaN(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
}

Value isFinite(OpBuilder &b, Location loc, Value x) {
  // Ordered: false for NaN.
  return compareMagnitudeWithInfinity(b, loc, x, arith::CmpFPredicate::OLT);
}

/// By libdevice name without `__nv_` (single and double precision).
Predicate lookupPredicate(StringRef name) {
  return llvm::StringSwitch<Predicate>(name)
      .Cases({"isinff", "isinfd"}, isInfinite)
      .Cases({"isnanf", "isnand"}, isNaN)
      .Cases({"finitef", "isfinited"}, isFinite)
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
    StringRef name = op.getSymbol();
    if (name.consume_front("__nv_"))
      if (Predicate predicate = lookupPredicate(name)) {
        if (!isa<FloatType>(getElementTypeOrSelf(adaptor.getSrcs().front())) ||
            !isa<IntegerType>(getElementTypeOrSelf(op.getType())))
          return op.emitError("device-library function '")
                 << op.getSymbol() << "' classifies a float into an integer";
        Value holds = predicate(rewriter, op.getLoc(), adaptor.getSrcs()[0]);
        rewriter.replaceOpWithNewOp<arith::ExtUIOp>(op, op.getType(), holds);
        return success();
      }
    Builder build = lookupLibraryFunction(op.getSymbol());
    if (!build)
      return rewriter.notifyMatchFailure(op, "no math equivalent");
    // Checked before building: the conversion runs without rollback. Counts
    // of 64-bit integers (popcll, clzll) are returned as i32: narrowed.
    Type mathType = adaptor.getSrcs().front().getType();
    auto mathInt = dyn_cast<IntegerType>(getElementTypeOrSelf(mathType));
    auto resultInt = dyn_cast<IntegerType>(getElementTypeOrSelf(op.getType()));
    bool narrowed = false;
    if (mathInt && resultInt && resultInt.getWidth() < mathInt.getWidth()) {
      narrowed =
          mathType == triton_spirv::withElementType(op.getType(), mathInt);
    }
    if (mathType != op.getType() && !narrowed)
      return op.emitError("device-library function '")
             << op.getSymbol() << "' returns " << op.getType()
             << ", its math equivalent " << mathType;
    Value result = build(rewriter, op.getLoc(), adaptor.getSrcs());
    if (narrowed)
      result =
          arith::TruncIOp::create(rewriter, op.getLoc(), op.getType(), result);
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

bool mlir::triton_spirv::isSupportedLibraryFunction(StringRef symbol) {
  StringRef name = symbol;
  if (name.consume_front("__nv_") && lookupPredicate(name))
    return true;
  return lookupLibraryFunction(symbol) != nullptr;
}

void mlir::triton_spirv::populateElementwiseOpsToArithPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ClampFLowering, PreciseSqrtLowering, PreciseDivFLowering,
               MulhiUILowering, FpToFpLowering, ValueBitcastLowering,
               ExternElementwiseLowering>(patterns.getContext());
}
