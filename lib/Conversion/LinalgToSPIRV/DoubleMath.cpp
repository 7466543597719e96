//===- DoubleMath.cpp - Double-precision functions for Vulkan -------------===//
//
// GLSL.std.450's transcendental functions take 16- and 32-bit floats only.
// The double-precision ones kernels use most (exp, exp2, expm1, log, log2,
// tanh, erf) are written here with f64 arithmetic; the others are rejected
// with a diagnostic rather than computed in f32 behind the user's back.
//
//===----------------------------------------------------------------------===//

#include "Legalization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

using namespace mlir;

namespace {
/// ln 2 in two parts: kLn2High has trailing zero bits, so that k * kLn2High
/// is exact for the exponents of doubles.
constexpr double kLn2High = 6.93147180369123816490e-01;
constexpr double kLn2Low = 1.90821492927058770002e-10;

class DoubleBuilder {
public:
  DoubleBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value constant(double value) {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(value));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value integer(int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
  }
  Value equal(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
  }
  Value less(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// x * y + z rounded once, which drivers may not rearrange.
  Value exactFma(Value x, Value y, Value z) {
    auto fma = math::FmaOp::create(b, loc, x, y, z);
    fma->setAttr(triton_spirv::kExactAttrName, b.getUnitAttr());
    return fma;
  }

  /// e^r - 1 for |r| <= ln(2)/2: the Taylor series to r^13, whose remainder
  /// is below 2^-58 relative there. Its coefficients 1/n! are constants:
  /// Vulkan only promises single-precision accuracy for f64 division.
  Value expm1Series(Value r) {
    double coefficients[14];
    coefficients[0] = 1.0;
    for (int n = 1; n <= 13; ++n)
      coefficients[n] = coefficients[n - 1] / n;
    Value sum = constant(coefficients[13]);
    for (int n = 12; n >= 1; --n)
      sum = add(constant(coefficients[n]), mul(r, sum));
    return mul(r, sum);
  }

  /// numerator / denominator to double precision: the driver's quotient,
  /// corrected once by its exact remainder (an FMA), since Vulkan only promises
  /// single-precision accuracy for f64 division.
  Value divide(Value numerator, Value denominator) {
    Value quotient = div(numerator, denominator);
    Value remainder =
        math::FmaOp::create(b, loc, arith::NegFOp::create(b, loc, quotient),
                            denominator, numerator);
    return add(quotient, div(remainder, denominator));
  }

  /// 2^k for an integral f64 k in [-1022, 1023], from its exponent field.
  Value exp2Integral(Value k) {
    Type i64 = b.getI64Type();
    Value biased = arith::FPToSIOp::create(b, loc, i64, add(k, constant(1023)));
    Value bits = arith::ShLIOp::create(b, loc, biased, integer(52));
    return arith::BitcastOp::create(b, loc, b.getF64Type(), bits);
  }

  /// y 2^k for an integral f64 k, 2^k applied in two halves, each within
  /// the exponent range, so that results near the overflow and into the
  /// subnormal range scale correctly.
  Value scaleByPowerOfTwo(Value y, Value k) {
    Value half = math::FloorOp::create(b, loc, mul(k, constant(0.5)));
    return mul(mul(y, exp2Integral(half)), exp2Integral(sub(k, half)));
  }

  /// `value`, which is f(x) for an exponential f, or the infinity or zero
  /// that f(x) is beyond `overflow` and `underflow`, or NaN for NaN.
  Value saturate(Value x, double overflow, double underflow, Value value) {
    return select(less(constant(overflow), x), constant(INFINITY),
                  select(less(x, constant(underflow)), constant(0.0),
                         select(isNaN(x), x, value)));
  }

  Value isNaN(Value x) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  }

  /// 2^x = 2^k e^(r ln 2) for k = round(x): r = x - k is exact and
  /// |r ln 2| <= ln(2)/2, where the series holds.
  Value exp2(Value x) {
    Value k = math::RoundEvenOp::create(b, loc, x);
    Value r = sub(x, k);
    Value scaled = scaleByPowerOfTwo(
        add(constant(1.0), expm1Series(mul(r, constant(M_LN2)))), k);
    // Beyond these 2^x is infinite or zero in double precision.
    return saturate(x, 1024.0, -1075.0, scaled);
  }

  /// (e, log(m)) with x = m 2^e, m in [sqrt(1/2), sqrt(2)), for finite
  /// positive x (subnormals scaled up first). log(m) = 2 atanh(s) with
  /// s = (m - 1) / (m + 1), |s| <= 0.172: the series 2 s sum s^(2n) / (2n+1)
  /// to n = 12 (remainder below 2^-60 relative).
  std::pair<Value, Value> logParts(Value x) {
    Type i64 = b.getI64Type();
    Value subnormal = less(x, constant(0x1p-1022));
    Value normal = select(subnormal, mul(x, constant(0x1p54)), x);
    Value bits = arith::BitcastOp::create(b, loc, i64, normal);
    Value field = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, bits, integer(52)),
        integer(0x7FF));
    Value exponent =
        sub(arith::SIToFPOp::create(b, loc, b.getF64Type(), field),
            select(subnormal, constant(1023.0 + 54.0), constant(1023.0)));
    Value fraction = arith::OrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, bits, integer(0xFFFFFFFFFFFFF)),
        integer(0x3FF0000000000000));
    Value m = arith::BitcastOp::create(b, loc, b.getF64Type(), fraction);
    Value above = less(constant(M_SQRT2), m);
    m = select(above, mul(m, constant(0.5)), m);
    exponent = select(above, add(exponent, constant(1.0)), exponent);
    Value s = divide(sub(m, constant(1.0)), add(m, constant(1.0)));
    Value z = mul(s, s);
    Value sum = constant(1.0 / 25);
    for (int n = 11; n >= 0; --n)
      sum = add(constant(1.0 / (2 * n + 1)), mul(z, sum));
    return {exponent, mul(mul(constant(2.0), s), sum)};
  }

  /// log(x) or log2(x), with IEEE results at 0, negatives, infinity and NaN.
  Value log(Value x, bool base2) {
    auto [exponent, logM] = logParts(x);
    // e ln 2 in two parts: e * kLn2High is exact for the exponents there are.
    Value result = base2 ? add(exponent, mul(logM, constant(M_LOG2E)))
                         : add(mul(exponent, constant(kLn2High)),
                               add(mul(exponent, constant(kLn2Low)), logM));
    Value isZero = equal(x, constant(0.0));
    Value isInfinite = equal(x, constant(INFINITY));
    return select(isZero, constant(-INFINITY),
                  select(less(x, constant(0.0)), constant(NAN),
                         select(isInfinite, x, select(isNaN(x), x, result))));
  }

  /// (e^x, e^x - 1): x = k ln 2 + r with |r| <= ln(2)/2 (ln 2 in two parts,
  /// so r is exact), then e^x = 2^k (1 + expm1(r)). The reduction's FMAs are
  /// exact (NoContraction): drivers otherwise fold k*high + k*low into
  /// k*(high + low) and lose r's low bits.
  std::pair<Value, Value> exp(Value x) {
    Value k = math::RoundEvenOp::create(b, loc, mul(x, constant(M_LOG2E)));
    Value minusK = arith::NegFOp::create(b, loc, k);
    Value r = exactFma(minusK, constant(kLn2Low),
                       exactFma(minusK, constant(kLn2High), x));
    Value series = expm1Series(r);
    Value scaled = scaleByPowerOfTwo(add(constant(1.0), series), k);
    // Beyond these e^x is infinite or zero in double precision.
    Value result = saturate(x, 709.782712893384, -745.1332191019412, scaled);
    // Near 0, e^x - 1 straight from the series keeps its relative accuracy.
    Value small = less(math::AbsFOp::create(b, loc, x), constant(0.3465));
    Value minusOne = select(small, expm1Series(x), sub(result, constant(1.0)));
    return {result, minusOne};
  }

  /// tanh(x) = -expm1(-2|x|) / (2 + expm1(-2|x|)), with the sign of x.
  Value tanh(Value x) {
    Value magnitude = math::AbsFOp::create(b, loc, x);
    Value m = exp(mul(magnitude, constant(-2.0))).second;
    Value t = divide(arith::NegFOp::create(b, loc, m), add(constant(2.0), m));
    Value signed_ =
        select(less(x, constant(0.0)), arith::NegFOp::create(b, loc, t), t);
    // tanh(±0) = ±0.
    Value isZero = equal(magnitude, constant(0.0));
    return select(isZero, x, signed_);
  }

  /// erf(x). Below |x| = 2.5, the series without cancellation
  ///   erf(x) = 2/sqrt(pi) x e^(-x^2) sum_n (2x^2)^n / (1 3 5 ... (2n+1)),
  /// to n = 60 (the remainder is below 2^-60 relative at 2.5). Above, 1 -
  /// erfc(x) from its continued fraction
  ///   erfc(x) = e^(-x^2) / sqrt(pi) / (x + (1/2) / (x + 1 / (x + (3/2) /
  ///   (x + ...)))),
  /// 40 levels deep (converged to double precision from 2.5 on), its
  /// divisions corrected to double precision. Beyond 6, erf(x) rounds to 1.
  Value erf(Value x) {
    Value magnitude = math::AbsFOp::create(b, loc, x);
    Value square = mul(magnitude, magnitude);
    Value gaussian = exp(arith::NegFOp::create(b, loc, square)).first;
    Value twiceSquare = mul(square, constant(2.0));
    double coefficient = 1.0;
    SmallVector<double> coefficients;
    for (int n = 0; n <= 60; ++n) {
      coefficients.push_back(coefficient);
      coefficient /= 2 * n + 3;
    }
    Value sum = constant(coefficients.back());
    for (int n = 59; n >= 0; --n)
      sum = add(constant(coefficients[n]), mul(twiceSquare, sum));
    Value series = mul(mul(constant(2.0 / std::sqrt(M_PI)), magnitude),
                       mul(gaussian, sum));
    Value fraction = magnitude;
    for (int k = 40; k >= 1; --k)
      fraction = add(magnitude, divide(constant(k / 2.0), fraction));
    Value complement =
        divide(gaussian, mul(constant(std::sqrt(M_PI)), fraction));
    Value large = sub(constant(1.0), complement);
    Value result =
        select(less(magnitude, constant(2.5)), series,
               select(less(magnitude, constant(6.0)), large, constant(1.0)));
    // erf is odd; NaN stays NaN.
    return select(isNaN(x), x, math::CopySignOp::create(b, loc, result, x));
  }

private:
  OpBuilder &b;
  Location loc;
};

template <typename MathOp> struct DoubleFunction : OpRewritePattern<MathOp> {
  using OpRewritePattern<MathOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(MathOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF64())
      return failure();
    DoubleBuilder d(rewriter, op.getLoc());
    Value x = op.getOperand();
    Value result;
    if constexpr (std::is_same_v<MathOp, math::ExpOp>)
      result = d.exp(x).first;
    else if constexpr (std::is_same_v<MathOp, math::ExpM1Op>)
      result = d.exp(x).second;
    else if constexpr (std::is_same_v<MathOp, math::ErfOp>)
      result = d.erf(x);
    else if constexpr (std::is_same_v<MathOp, math::Exp2Op>)
      result = d.exp2(x);
    else if constexpr (std::is_same_v<MathOp, math::LogOp>)
      result = d.log(x, /*base2=*/false);
    else if constexpr (std::is_same_v<MathOp, math::Log2Op>)
      result = d.log(x, /*base2=*/true);
    else
      result = d.tanh(x);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// math ops whose GLSL.std.450 instruction (or upstream lowering) accepts
/// 64-bit floats.
bool hasDoublePrecisionLowering(Operation *op) {
  return isa<math::AbsFOp, math::CeilOp, math::FloorOp, math::RoundOp,
             math::RoundEvenOp, math::TruncOp, math::SqrtOp, math::RsqrtOp,
             math::FmaOp, math::CopySignOp, math::IsNaNOp, math::IsInfOp,
             math::IsFiniteOp>(op);
}
} // namespace

LogicalResult triton_spirv::expandDoublePrecisionMath(func::FuncOp kernel) {
  RewritePatternSet patterns(kernel.getContext());
  patterns.add<DoubleFunction<math::ExpOp>, DoubleFunction<math::ExpM1Op>,
               DoubleFunction<math::TanhOp>, DoubleFunction<math::ErfOp>,
               DoubleFunction<math::Exp2Op>, DoubleFunction<math::LogOp>,
               DoubleFunction<math::Log2Op>>(kernel.getContext());
  if (failed(applyPatternsGreedily(kernel, std::move(patterns))))
    return failure();
  WalkResult walk = kernel.walk([](Operation *op) {
    if (!isa<math::MathDialect>(op->getDialect()) ||
        hasDoublePrecisionLowering(op) ||
        llvm::none_of(op->getOperandTypes(), [](Type type) {
          return getElementTypeOrSelf(type).isF64();
        }))
      return WalkResult::advance();
    op->emitError("double-precision '")
        << op->getName()
        << "' is not supported: Vulkan's GLSL.std.450 functions take 16/32-bit "
           "floats, and this backend implements only exp, exp2, expm1, log, "
           "log2, tanh and erf in f64; compute in float32";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}
