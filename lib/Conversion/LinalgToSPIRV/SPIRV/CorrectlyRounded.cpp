//===- CorrectlyRounded.cpp - Correctly rounded f32 roots and quotients ---===//
//
// Vulkan lets drivers compute OpFDiv to 2.5 ulp and Sqrt as the inverse of
// InverseSqrt, and NVIDIA's are not correctly rounded, so Triton's sqrt_rn
// and div_rn differed from their exact results there. A marked f32 op is
// computed in f64 instead: an estimate refined by two Newton steps, whose
// residuals FMAs give exactly (x - q y for a quotient, x - s s for a root),
// then rounded once to f32. The refined value is within about 2^-70 of the
// exact result, which for f32 operands is either an f32 midpoint exactly
// (quotients only, held exactly in f64 and rounded to even by the
// conversion) or at least 2^-50 away from one, so the rounding is correct.
// Where the estimate is zero or a step is not finite (zeros, infinities,
// NaNs), the estimate is the answer. Subnormal operands are widened from
// their bits: NVIDIA's conversion to f64 flushes them to zero.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/CorrectlyRounded.h"
#include "Legalization.h"
#include "triton-spirv/Conversion/ElementTypes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace {
/// Newton steps after the driver's estimate.
constexpr int kNewtonSteps = 2;

/// `value` as a constant of `type`, f64 or a shape of f64 (the only kind
/// this file computes in).
Value f64Constant(OpBuilder &b, Location loc, Type type, double value) {
  return createScalarOrSplatConstant(b, loc, type, APFloat(value));
}

/// f32 `x` as f64 exactly, subnormals included: those are their mantissa
/// bits times 2^-149, with the sign of `x`.
Value widen(OpBuilder &b, Location loc, Value x) {
  Type wide = triton_spirv::withElementType(x.getType(), b.getF64Type());
  Type i32 = triton_spirv::withElementType(x.getType(), b.getI32Type());
  auto intConstant = [&](int64_t value) {
    return createScalarOrSplatConstant(b, loc, i32, value);
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value magnitude = arith::AndIOp::create(
      b, loc, bits, intConstant(0x7fffffff));
  Value subnormal = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, magnitude,
                            intConstant(0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, magnitude,
                            intConstant(0x00800000)));
  Value scaled = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, wide, magnitude),
      f64Constant(b, loc, wide, std::ldexp(1.0, -149)));
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bits,
                            intConstant(0));
  Value signedScaled = arith::SelectOp::create(
      b, loc, negative, arith::NegFOp::create(b, loc, scaled), scaled);
  return arith::SelectOp::create(b, loc, subnormal, signedScaled,
                                 arith::ExtFOp::create(b, loc, wide, x));
}

/// The refined value if it is finite and the estimate is not zero (whose
/// sign a step would lose), else the estimate, rounded to f32.
Value roundOnce(OpBuilder &b, Location loc, Value estimate, Value refined,
                Type resultType) {
  // |refined| < inf (SPIR-V's IsFinite is for kernels only).
  Type type = refined.getType();
  Value finite = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OLT, math::AbsFOp::create(b, loc, refined),
      f64Constant(b, loc, type, std::numeric_limits<double>::infinity()));
  Value nonzero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, estimate,
                            f64Constant(b, loc, type, 0.0));
  Value refine = arith::AndIOp::create(b, loc, finite, nonzero);
  Value chosen = arith::SelectOp::create(b, loc, refine, refined, estimate);
  return arith::TruncFOp::create(b, loc, resultType, chosen);
}

Value correctlyRoundedQuotient(OpBuilder &b, Location loc, Value x, Value y) {
  Value xd = widen(b, loc, x);
  Value yd = widen(b, loc, y);
  Value estimate = arith::DivFOp::create(b, loc, xd, yd);
  Value q = estimate;
  for (int step = 0; step < kNewtonSteps; ++step) {
    Value negated = arith::NegFOp::create(b, loc, q);
    Value residual = math::FmaOp::create(b, loc, negated, yd, xd);
    Value correction = arith::DivFOp::create(b, loc, residual, yd);
    q = arith::AddFOp::create(b, loc, q, correction);
  }
  return roundOnce(b, loc, estimate, q, x.getType());
}

Value correctlyRoundedRoot(OpBuilder &b, Location loc, Value x) {
  Value xd = widen(b, loc, x);
  Value estimate = math::SqrtOp::create(b, loc, xd);
  Value s = estimate;
  for (int step = 0; step < kNewtonSteps; ++step) {
    Value negated = arith::NegFOp::create(b, loc, s);
    Value residual = math::FmaOp::create(b, loc, negated, s, xd);
    Value twice = arith::AddFOp::create(b, loc, s, s);
    Value correction = arith::DivFOp::create(b, loc, residual, twice);
    s = arith::AddFOp::create(b, loc, s, correction);
  }
  return roundOnce(b, loc, estimate, s, x.getType());
}
} // namespace

void triton_spirv::roundCorrectly(func::FuncOp kernel, bool float64) {
  SmallVector<Operation *> marked;
  kernel.walk([&](Operation *op) {
    if (op->hasAttr(kCorrectlyRoundedAttrName))
      marked.push_back(op);
  });
  for (Operation *op : marked) {
    op->removeAttr(kCorrectlyRoundedAttrName);
    if (!getElementTypeOrSelf(op->getResult(0).getType()).isF32())
      continue;
    if (!float64) {
      op->emitRemark("not correctly rounded: the target has no 64-bit "
                     "floats to compute it with; the driver's precision "
                     "applies");
      continue;
    }
    OpBuilder b(op);
    Value result;
    if (auto divide = dyn_cast<arith::DivFOp>(op))
      result = correctlyRoundedQuotient(b, op->getLoc(), divide.getLhs(),
                                        divide.getRhs());
    else if (auto sqrt = dyn_cast<math::SqrtOp>(op))
      result = correctlyRoundedRoot(b, op->getLoc(), sqrt.getOperand());
    else
      continue;
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_ROUNDCORRECTLY
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

namespace {
struct RoundCorrectlyPass
    : triton_spirv::impl::RoundCorrectlyBase<RoundCorrectlyPass> {
  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    bool float64 = target->description.features.float64;
    (void)triton_spirv::forEachKernel(getOperation(), [&](func::FuncOp kernel) {
      triton_spirv::roundCorrectly(kernel, float64);
      return success();
    });
  }
};
} // namespace
