//===- DoubleMath.cpp - Double-precision functions for Vulkan -------------===//
//
// GLSL.std.450's transcendental functions take 16- and 32-bit floats only.
// The double-precision ones kernels use most (exp, exp2, expm1, log, log2,
// tanh, erf, sin, cos) are written here with f64 arithmetic; the others are
// rejected with a diagnostic rather than computed in f32 behind the user's
// back.
//
//===----------------------------------------------------------------------===//

#include "Legalization.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

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

/// 2/pi in 64-bit words: kTwoOverPi[0] is its integer part (0), word i
/// holds bits 64(i-1)+1 .. 64i of its fraction. Generated with mpmath:
///   v = 2/mpmath.pi (prec 1500); word = floor(v); v = (v - word) 2^64.
constexpr uint64_t kTwoOverPi[] = {
    0x0000000000000000ULL, 0xA2F9836E4E441529ULL, 0xFC2757D1F534DDC0ULL,
    0xDB6295993C439041ULL, 0xFE5163ABDEBBC561ULL, 0xB7246E3A424DD2E0ULL,
    0x06492EEA09D1921CULL, 0xFE1DEB1CB129A73EULL, 0xE88235F52EBB4484ULL,
    0xE99C7026B45F7E41ULL, 0x3991D639835339F4ULL, 0x9C845F8BBDF9283BULL,
    0x1FF897FFDE05980FULL, 0xEF2F118B5A0A6D1FULL, 0x6D367ECF27CB09B7ULL,
    0x4F463F669E5FEA2DULL, 0x7527BAC7EBE5F17BULL, 0x3D0739F78A5292EAULL,
    0x6BFB5FB11F8D5D08ULL, 0x56033046FC7B6BABULL};
/// pi/2 as a double-double.
constexpr double kPiOver2High = 1.5707963267948966;
constexpr double kPiOver2Low = 6.123233995736766e-17;

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
  /// c[0] + x (c[1] + x (c[2] + ...)), in Horner's order.
  Value polynomial(Value x, ArrayRef<double> c) {
    Value sum = constant(c.back());
    for (double coefficient : llvm::reverse(c.drop_back()))
      sum = add(constant(coefficient), mul(x, sum));
    return sum;
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
    return mul(r, polynomial(r, ArrayRef(coefficients).drop_front()));
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
    double coefficients[13]; // 1 / (2n + 1)
    for (int n = 0; n < 13; ++n)
      coefficients[n] = 1.0 / (2 * n + 1);
    Value sum = polynomial(z, coefficients);
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
    Value sum = polynomial(twiceSquare, coefficients);
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

  /// The quadrant n (mod 4, an i64) and r = x - n pi/2 as rHigh + rLow,
  /// |r| <= pi/4 (about), for finite |x| >= pi/4 (exponent e >= -53):
  /// Payne and Hanek's reduction, exact at any magnitude. With x = m 2^e
  /// (m of 53 bits), x 2/pi mod 4 is the product of m with the 4 words of
  /// 2/pi from word i0 = floor((e - 2) / 64) + 1 on (earlier words only add
  /// multiples of 4), in 128-bit integer products summed into 64-bit limbs,
  /// shifted so that the quadrant is the top 2 bits and 126 fraction bits
  /// follow; the fraction times pi/2 in double-double.
  std::tuple<Value, Value, Value> reduceByPiOver2(Value magnitude) {
    Type i64 = b.getI64Type();
    Value bits = arith::BitcastOp::create(b, loc, i64, magnitude);
    Value biased = arith::ShRUIOp::create(b, loc, bits, integer(52));
    Value exponent = arith::SubIOp::create(b, loc, biased, integer(1075));
    Value mantissa = arith::OrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, bits, integer((1LL << 52) - 1)),
        integer(1LL << 52));
    // i0 = floor((e - 2) / 64) + 1 = (e + 62) >> 6 (arithmetic), e >= -53.
    Value first = arith::ShRSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, exponent, integer(62)),
        integer(6));
    // q = e - 64 i0, in [-62, 1].
    Value q = arith::SubIOp::create(
        b, loc, exponent,
        arith::ShLIOp::create(b, loc, first, integer(6)));
    // Word i0 + offset of 2/pi (i0 <= 16 for finite doubles).
    auto word = [&](int64_t offset) {
      int64_t last = std::size(kTwoOverPi) - 1;
      Value result = integer(int64_t(kTwoOverPi[last]));
      for (int64_t index = last - 1; index >= offset; --index) {
        Value at = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         first, integer(index - offset));
        result = select(at, integer(int64_t(kTwoOverPi[index])), result);
      }
      return result;
    };
    // The product's limbs below the first (which only adds multiples of
    // 4), most significant first: limb k sums the low half of product
    // k - 1 and the high half of product k, with carries from below.
    SmallVector<Value> high, low;
    for (int64_t t = 0; t < 4; ++t) {
      auto product =
          arith::MulUIExtendedOp::create(b, loc, mantissa, word(t));
      low.push_back(product.getLow());
      high.push_back(product.getHigh());
    }
    Value zero = integer(0);
    Value limbs[4];
    Value carry = zero;
    limbs[3] = low[3];
    for (int64_t k = 2; k >= 0; --k) {
      auto sum = arith::AddUIExtendedOp::create(b, loc, low[k], high[k + 1]);
      auto withCarry =
          arith::AddUIExtendedOp::create(b, loc, sum.getSum(), carry);
      limbs[k] = withCarry.getSum();
      carry = arith::ExtUIOp::create(
          b, loc, i64,
          arith::OrIOp::create(b, loc, sum.getOverflow(),
                               withCarry.getOverflow()));
    }
    // Shift left by c = 62 + q in [0, 63]: the quadrant then is the top 2
    // bits of the first limb.
    Value c = arith::AddIOp::create(b, loc, q, integer(62));
    Value back = arith::SubIOp::create(b, loc, integer(64), c);
    Value noShift =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, c, zero);
    auto shifted = [&](Value upper, Value lower) {
      Value joined = arith::OrIOp::create(
          b, loc, arith::ShLIOp::create(b, loc, upper, c),
          arith::ShRUIOp::create(b, loc, lower, back));
      return select(noShift, upper, joined);
    };
    Value top = shifted(limbs[0], limbs[1]);
    Value next = shifted(limbs[1], limbs[2]);
    Value quadrant = arith::ShRUIOp::create(b, loc, top, integer(62));
    Value fractionTop =
        arith::AndIOp::create(b, loc, top, integer((1LL << 62) - 1));
    // The fraction: 53 bits, then the next 64 (exact in the high part).
    Type f64 = b.getF64Type();
    Value fractionHigh = mul(
        arith::UIToFPOp::create(
            b, loc, f64, arith::ShRUIOp::create(b, loc, fractionTop,
                                                integer(9))),
        constant(0x1p-53));
    Value rest = arith::OrIOp::create(
        b, loc,
        arith::ShLIOp::create(
            b, loc, arith::AndIOp::create(b, loc, fractionTop, integer(511)),
            integer(55)),
        arith::ShRUIOp::create(b, loc, next, integer(9)));
    Value fractionLow =
        mul(arith::UIToFPOp::create(b, loc, f64, rest), constant(0x1p-117));
    // Past a half, the next quadrant and a negative fraction.
    Value upper = less(constant(0.5), fractionHigh);
    fractionHigh =
        select(upper, sub(fractionHigh, constant(1.0)), fractionHigh);
    quadrant = arith::AddIOp::create(
        b, loc, quadrant, arith::ExtUIOp::create(b, loc, i64, upper));
    // r = fraction pi/2: the exact product of the high parts, plus the rest.
    Value rHigh = mul(fractionHigh, constant(kPiOver2High));
    Value error = exactFma(fractionHigh, constant(kPiOver2High),
                           arith::NegFOp::create(b, loc, rHigh));
    Value rLow = add(error, add(mul(fractionHigh, constant(kPiOver2Low)),
                                mul(fractionLow, constant(kPiOver2High))));
    Value sum = add(rHigh, rLow);
    rLow = sub(rLow, sub(sum, rHigh));
    return {quadrant, sum, rLow};
  }

  /// sin(r) and cos(r) for |r| <= pi/4 + a little: Taylor series to r^25
  /// and r^26 (remainders below 2^-60 relative there), corrected for the
  /// low part of r to first order.
  std::pair<Value, Value> sinCosKernel(Value rHigh, Value rLow) {
    Value z = mul(rHigh, rHigh);
    double sinCoefficients[12], cosCoefficients[12];
    double factorial = 1.0;
    for (int n = 1; n <= 26; ++n) {
      factorial *= n;
      if (n % 2 == 1 && n >= 3)
        sinCoefficients[(n - 3) / 2] = ((n / 2) % 2 ? -1.0 : 1.0) / factorial;
      if (n % 2 == 0 && n >= 4)
        cosCoefficients[(n - 4) / 2] = ((n / 2) % 2 ? -1.0 : 1.0) / factorial;
    }
    // sin: r + r^3 (s3 + z (s5 + ...)); cos: 1 - z/2 + z^2 (c4 + ...).
    Value sinSum = polynomial(z, sinCoefficients);
    Value cosSum = polynomial(z, cosCoefficients);
    Value sinHigh = add(rHigh, mul(mul(rHigh, z), sinSum));
    Value halfZ = mul(z, constant(0.5));
    Value cosHigh = sub(constant(1.0), sub(halfZ, mul(mul(z, z), cosSum)));
    Value sinR = add(sinHigh, mul(rLow, sub(constant(1.0), halfZ)));
    Value cosR = sub(cosHigh, mul(rLow, rHigh));
    return {sinR, cosR};
  }

  /// sin(x) or cos(x): no reduction below pi/4, else Payne and Hanek's;
  /// NaN for infinity and NaN.
  Value sinOrCos(Value x, bool cosine) {
    Value magnitude = math::AbsFOp::create(b, loc, x);
    Value small = less(magnitude, constant(M_PI_4));
    // Below pi/4 the reduction is not needed (and its exponents not
    // covered): it runs on pi/4 instead, and its result is not taken.
    Value reduced = select(small, constant(M_PI_4), magnitude);
    auto [quadrant, rHigh, rLow] = reduceByPiOver2(reduced);
    rHigh = select(small, magnitude, rHigh);
    rLow = select(small, constant(0.0), rLow);
    quadrant = select(small, integer(0), quadrant);
    auto [sinR, cosR] = sinCosKernel(rHigh, rLow);
    // sin(|x|) and cos(|x|) by quadrant; sin is odd, cos even.
    Value n = arith::AndIOp::create(
        b, loc, cosine ? arith::AddIOp::create(b, loc, quadrant, integer(1))
                       : quadrant,
        integer(3));
    auto isQuadrant = [&](int64_t value) {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, n,
                                   integer(value));
    };
    Value minusSin = arith::NegFOp::create(b, loc, sinR);
    Value minusCos = arith::NegFOp::create(b, loc, cosR);
    Value result =
        select(isQuadrant(0), sinR,
               select(isQuadrant(1), cosR,
                      select(isQuadrant(2), minusSin, minusCos)));
    if (!cosine) {
      // sin(-x) = -sin(x), also for x = -0.
      result = select(less(x, constant(0.0)),
                      arith::NegFOp::create(b, loc, result), result);
      result = select(equal(x, constant(0.0)), x, result);
    }
    Value finite = less(magnitude, constant(INFINITY));
    return select(finite, result, constant(NAN));
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
    else if constexpr (std::is_same_v<MathOp, math::SinOp>)
      result = d.sinOrCos(x, /*cosine=*/false);
    else if constexpr (std::is_same_v<MathOp, math::CosOp>)
      result = d.sinOrCos(x, /*cosine=*/true);
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
               DoubleFunction<math::Log2Op>, DoubleFunction<math::SinOp>,
               DoubleFunction<math::CosOp>>(kernel.getContext());
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
           "log2, tanh, erf, sin and cos in f64; compute in float32";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_EXPANDDOUBLEMATH
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

namespace {
struct ExpandDoubleMathPass
    : triton_spirv::impl::ExpandDoubleMathBase<ExpandDoubleMathPass> {
  void runOnOperation() override {
    if (failed(triton_spirv::forEachKernel(
            getOperation(), triton_spirv::expandDoublePrecisionMath)))
      return signalPassFailure();
  }
};
} // namespace
