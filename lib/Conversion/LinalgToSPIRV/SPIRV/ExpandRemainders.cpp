//===- ExpandRemainders.cpp - Remainders computed exactly -----------------===//
//
// Triton's `%` on floats is C's fmod, whose result is always exact. SPIR-V's
// OpFRem is specified with the precision of x - y * trunc(x / y), which
// drivers compute that way: for large quotients trunc(x / y) is off and the
// remainder wrong (on lavapipe, 38,600 of 65,536 random uint16 % fp16
// pairs). The remainder is computed here by long division instead: while
// r >= |y|, subtract from r the largest |y| * 2^k not above it, a
// subtraction Sterbenz's lemma makes exact. Each step lowers r's exponent,
// so the loop runs at most (exponent of x - exponent of y + 1) times.
//
// Signed integer `%` (arith.remsi) is rewritten too: upstream's SPIR-V
// lowering takes the remainder of the magnitudes and negates it unless
// x == |x|, which also holds for the smallest integer (|INT_MIN| wraps to
// INT_MIN), so INT_MIN % y came out positive. Here x is negative where
// x != |x| or x == INT_MIN.
//
//===----------------------------------------------------------------------===//

#include "Legalization.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
/// Builds the integer and float arithmetic of one float format.
struct FloatBits {
  OpBuilder &b;
  Location loc;
  FloatType type;
  IntegerType bits;
  unsigned mantissa; // Stored fraction bits.
  int64_t bias;

  FloatBits(OpBuilder &b, Location loc, FloatType type)
      : b(b), loc(loc), type(type), bits(b.getIntegerType(type.getWidth())),
        mantissa(type.getFPMantissaWidth() - 1),
        bias(llvm::APFloat::semanticsMaxExponent(type.getFloatSemantics())) {}

  Value integer(int64_t v) const {
    return arith::ConstantOp::create(b, loc, bits, b.getIntegerAttr(bits, v));
  }
  Value real(double v) const {
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, v));
  }
  /// 2^e for 0 <= e <= bias - 1, from its bits.
  Value powerOfTwo(Value e) const {
    Value biased = arith::AddIOp::create(b, loc, e, integer(bias));
    return arith::BitcastOp::create(
        b, loc, type, arith::ShLIOp::create(b, loc, biased, integer(mantissa)));
  }
  /// The exponent (biased, lowered by mantissa + 1 for subnormals) and the
  /// fraction bits of positive finite `v`, normalized: v = 1.fraction * 2^e.
  std::pair<Value, Value> decompose(Value v) const {
    Value smallest = real(std::ldexp(1.0, 1 - bias)); // Smallest normal.
    Value subnormal =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, v, smallest);
    Value scaled = arith::SelectOp::create(
        b, loc, subnormal,
        arith::MulFOp::create(b, loc, v, real(std::ldexp(1.0, mantissa + 1))),
        v);
    Value word = arith::BitcastOp::create(b, loc, bits, scaled);
    Value exponent = arith::SubIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, word, integer(mantissa)),
        arith::SelectOp::create(b, loc, subnormal, integer(mantissa + 1),
                                integer(0)));
    Value fraction = arith::AndIOp::create(
        b, loc, word, integer((int64_t(1) << mantissa) - 1));
    return {exponent, fraction};
  }
  /// v * 2^k for 0 <= k < 3 (bias - 1), in three exact steps.
  Value scale(Value v, Value k) const {
    Value step = integer(bias - 1);
    for (int i = 0; i < 3; ++i) {
      // min(k, step) as a compare and select, which SPIR-V has (arith.minsi
      // would need --triton-spirv-legalize-for-spirv, which runs before).
      Value part = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, k, step), k,
          step);
      v = arith::MulFOp::create(b, loc, v, powerOfTwo(part));
      k = arith::SubIOp::create(b, loc, k, part);
    }
    return v;
  }
};

struct ExactFloatRemainder : OpRewritePattern<arith::RemFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::RemFOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<FloatType>(op.getType());
    if (!type || !(type.isF16() || type.isF32() || type.isF64()))
      return rewriter.notifyMatchFailure(op, "not an f16/f32/f64 scalar");
    Location loc = op.getLoc();
    Value x = op.getLhs(), y = op.getRhs();
    // The remainder of two f16 values is an f16 value: computed in f32.
    FloatType work = type.isF16() ? rewriter.getF32Type() : type;
    if (work != type) {
      x = arith::ExtFOp::create(rewriter, loc, work, x);
      y = arith::ExtFOp::create(rewriter, loc, work, y);
    }
    FloatBits f(rewriter, loc, work);
    Value ax = math::AbsFOp::create(rewriter, loc, x);
    Value ay = math::AbsFOp::create(rewriter, loc, y);
    // fmod(x, y) is NaN for an infinite or NaN x and a zero or NaN y; a
    // finite x with an infinite y is x (the loop does not run).
    Value valid = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, ax,
                              f.real(INFINITY)),
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT, ay,
                              f.real(0)));
    auto loop = scf::WhileOp::create(
        rewriter, loc, TypeRange{work}, ValueRange{ax},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value more = arith::AndIOp::create(
              b, loc, valid,
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, args[0],
                                    ay));
          scf::ConditionOp::create(b, loc, more, args);
        },
        [&](OpBuilder &b, Location loc, ValueRange args) {
          FloatBits g(b, loc, work);
          Value r = args[0];
          auto [er, fr] = g.decompose(r);
          auto [ey, fy] = g.decompose(ay);
          // The largest k with |y| * 2^k <= r.
          Value k = arith::SubIOp::create(b, loc, er, ey);
          Value larger =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, fy, fr);
          k = arith::SubIOp::create(
              b, loc, k, arith::ExtUIOp::create(b, loc, g.bits, larger));
          Value t = g.scale(ay, k);
          scf::YieldOp::create(b, loc,
                               ValueRange{arith::SubFOp::create(b, loc, r, t)});
        });
    Value remainder =
        math::CopySignOp::create(rewriter, loc, loop.getResult(0), x);
    remainder =
        arith::SelectOp::create(rewriter, loc, valid, remainder, f.real(NAN));
    if (work != type)
      remainder = arith::TruncFOp::create(rewriter, loc, type, remainder);
    rewriter.replaceOp(op, remainder);
    return success();
  }
};
/// x % y (C's truncating remainder) as the unsigned remainder of the
/// magnitudes (math.absi, GLSL's SAbs), negated where x < 0. The magnitude
/// of INT_MIN wraps to INT_MIN, whose bits read unsigned are its true
/// magnitude 2^(n-1).
struct SignedRemainderOfMagnitudes : OpRewritePattern<arith::RemSIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::RemSIOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getType();
    // Triton's values are integers of fixed width; index remainders are
    // this project's own address arithmetic (wrapped offsets), whose width
    // the SPIR-V type converter chooses.
    auto element = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
    if (!element || element.getWidth() == 1)
      return rewriter.notifyMatchFailure(op, "not an integer with a sign");
    unsigned width = element.getWidth();
    auto constant = [&](const APInt &value) {
      return createScalarOrSplatConstant(rewriter, loc, type, value);
    };
    Value zero = constant(APInt::getZero(width));
    Value lhsMagnitude = math::AbsIOp::create(rewriter, loc, op.getLhs());
    Value remainder = arith::RemUIOp::create(
        rewriter, loc, lhsMagnitude,
        math::AbsIOp::create(rewriter, loc, op.getRhs()));
    // x < 0 as x != |x| or x == INT_MIN: Mesa 22.3's lavapipe got `x < 0`
    // wrong for an i64 sign-extended from i32 (it took it as non-negative).
    Value negative = arith::OrIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                              op.getLhs(), lhsMagnitude),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                              op.getLhs(),
                              constant(APInt::getSignedMinValue(width))));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, negative, arith::SubIOp::create(rewriter, loc, zero, remainder),
        remainder);
    return success();
  }
};
} // namespace

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_EXPANDREMAINDERS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

namespace {
struct ExpandRemaindersPass
    : triton_spirv::impl::ExpandRemaindersBase<ExpandRemaindersPass> {
  void runOnOperation() override {
    if (failed(triton_spirv::forEachKernel(
            getOperation(), [&](func::FuncOp kernel) {
              RewritePatternSet patterns(&getContext());
              patterns.add<ExactFloatRemainder, SignedRemainderOfMagnitudes>(
                  &getContext());
              return applyPatternsGreedily(kernel, std::move(patterns));
            })))
      return signalPassFailure();
  }
};
} // namespace
