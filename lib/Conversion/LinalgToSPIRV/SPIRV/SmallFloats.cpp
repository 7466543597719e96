//===- SmallFloats.cpp - bf16 and fp8 as integers for Vulkan --------------===//
//
// Vulkan has no bf16 and no fp8 arithmetic. Values of these types are stored
// as their bits (i16, i8); arithmetic runs in f32; conversions to and from
// f32 are integer bit operations.
//
//===----------------------------------------------------------------------===//

#include "Legalization.h"
#include "triton-spirv/Conversion/ElementTypes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

using namespace mlir;

namespace {
/// The 8-bit formats of Triton's fp8e5 and fp8e4nv (those of NVIDIA GPUs and
/// PyTorch's float8_e5m2 / float8_e4m3fn) and fp8e5b16 and fp8e4b8 (AMD's
/// float8_e5m2fnuz / float8_e4m3fnuz).
struct Float8Format {
  unsigned mantissaBits;
  int bias;
  bool hasInfinity;       // E5M2: exponent all ones is inf/NaN; E4M3FN: only
                          // 0x7F is NaN and there is no infinity
  uint32_t maxFiniteCode; // the largest finite magnitude's bits
  bool negativeZeroIsNaN; // FNUZ: 0x80 is the one NaN, there is no -0 and
                          // every other code is finite
};

std::optional<Float8Format> float8Format(Type type) {
  if (isa<Float8E5M2Type>(type))
    return Float8Format{2, 15, true, 0x7B, false};
  if (isa<Float8E4M3FNType>(type))
    return Float8Format{3, 7, false, 0x7E, false};
  if (isa<Float8E5M2FNUZType>(type))
    return Float8Format{2, 16, false, 0x7F, true};
  if (isa<Float8E4M3FNUZType>(type))
    return Float8Format{3, 8, false, 0x7F, true};
  return std::nullopt;
}

bool isEmulated(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isBF16() || float8Format(element).has_value();
}

/// Scalar i32 arithmetic for the bit manipulations below.
class BitBuilder {
public:
  BitBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}
  Value i32(int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
  }
  Value f32(double value) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  }
  Value bitsOf(Value x) {
    return arith::BitcastOp::create(b, loc, b.getI32Type(), x);
  }
  Value floatOf(Value bits) {
    return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
  }
  Value andI(Value x, int64_t mask) {
    return arith::AndIOp::create(b, loc, x, i32(mask));
  }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shl(Value x, int64_t n) {
    return arith::ShLIOp::create(b, loc, x, i32(n));
  }
  Value shr(Value x, int64_t n) {
    return arith::ShRUIOp::create(b, loc, x, i32(n));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate predicate, Value x, int64_t value) {
    return arith::CmpIOp::create(b, loc, predicate, x, i32(value));
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }

private:
  OpBuilder &b;
  Location loc;
};

/// fp8 -> f32, exact: normal numbers move their exponent and mantissa fields
/// into f32's, subnormals are mantissa * 2^(1 - bias - m), infinities and
/// NaNs stay what they are.
struct Float8ToF32 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Float8Format> format = float8Format(op.getIn().getType());
    if (!format || !op.getType().isF32())
      return failure();
    BitBuilder bits(rewriter, op.getLoc());
    Location loc = op.getLoc();
    unsigned m = format->mantissaBits;
    Value byte = arith::BitcastOp::create(rewriter, loc, rewriter.getI8Type(),
                                          op.getIn());
    Value u =
        arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), byte);
    Value sign = bits.shl(bits.andI(u, 0x80), 24);
    Value magnitude = bits.andI(u, 0x7F);
    Value mantissa = bits.andI(magnitude, (1 << m) - 1);
    Value normal =
        bits.orI(sign, bits.add(bits.shl(magnitude, 23 - m),
                                bits.i32((127 - format->bias) << 23)));
    Value subnormalValue = arith::MulFOp::create(
        rewriter, loc,
        arith::UIToFPOp::create(rewriter, loc, rewriter.getF32Type(), mantissa),
        bits.f32(std::ldexp(1.0, 1 - format->bias - static_cast<int>(m))));
    Value subnormal = bits.orI(sign, bits.bitsOf(subnormalValue));
    Value isSubnormal = bits.cmp(arith::CmpIPredicate::ult, magnitude, 1 << m);
    Value isSpecial, special;
    if (format->negativeZeroIsNaN) {
      isSpecial = bits.cmp(arith::CmpIPredicate::eq, u, 0x80);
      special = bits.i32(0x7FC00000);
    } else if (format->hasInfinity) {
      // Exponent all ones: infinity with a zero mantissa, else NaN.
      isSpecial = bits.cmp(arith::CmpIPredicate::uge, magnitude,
                           0x7F & ~((1 << m) - 1));
      special = bits.orI(bits.orI(sign, bits.i32(0x7F800000)),
                         bits.shl(mantissa, 23 - m));
    } else {
      isSpecial = bits.cmp(arith::CmpIPredicate::eq, magnitude, 0x7F);
      special = bits.orI(sign, bits.i32(0x7FC00000));
    }
    Value result = bits.select(isSubnormal, subnormal,
                               bits.select(isSpecial, special, normal));
    if (format->negativeZeroIsNaN) // 0x80's magnitude reads as a zero
      result = bits.select(isSpecial, special, result);
    rewriter.replaceOp(op, bits.floatOf(result));
    return success();
  }
};

/// f32 -> fp8, to nearest even (or toward zero), saturating to the largest
/// finite value as NVIDIA's conversions (`.satfinite`) do; NaN stays NaN.
/// Numbers in fp8's normal range round in f32's bits; smaller ones are scaled
/// so that fp8's subnormal step is 1 and rounded to an integer.
struct TruncFToFloat8 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Float8Format> format = float8Format(op.getType());
    Type source = op.getIn().getType();
    // From f16 or bf16 too, through f32 (exactly): truncf(extf(x)) folds back
    // into a truncation from the narrow type, so conversionsThroughF32 alone
    // does not do.
    bool narrow = source.isF16() || source.isBF16();
    if (!format || !(source.isF32() || narrow))
      return failure();
    std::optional<arith::RoundingMode> mode = op.getRoundingmode();
    bool towardZero = mode == arith::RoundingMode::toward_zero;
    if (mode && !towardZero && *mode != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "rounding mode not emulated");
    Value in = op.getIn();
    if (narrow)
      in = arith::ExtFOp::create(rewriter, op.getLoc(), rewriter.getF32Type(),
                                 in);
    BitBuilder bits(rewriter, op.getLoc());
    Location loc = op.getLoc();
    unsigned m = format->mantissaBits;
    unsigned shift = 23 - m;
    Value x = bits.bitsOf(in);
    Value sign = bits.andI(bits.shr(x, 24), 0x80);
    Value magnitude = bits.andI(x, 0x7FFFFFFF);
    Value rounded = magnitude;
    if (!towardZero) // add half an fp8 ulp, less one unless the kept bit is odd
      rounded = bits.add(magnitude,
                         bits.add(bits.i32((1 << (shift - 1)) - 1),
                                  bits.andI(bits.shr(magnitude, shift), 1)));
    Value normal =
        arith::SubIOp::create(rewriter, loc, bits.shr(rounded, shift),
                              bits.i32((127 - format->bias) << m));
    normal = arith::MinUIOp::create(rewriter, loc, normal,
                                    bits.i32(format->maxFiniteCode));
    Value scaled = arith::MulFOp::create(
        rewriter, loc, bits.floatOf(magnitude),
        bits.f32(std::ldexp(1.0, format->bias - 1 + static_cast<int>(m))));
    if (!towardZero)
      scaled = math::RoundEvenOp::create(rewriter, loc, scaled);
    Value subnormal =
        arith::FPToUIOp::create(rewriter, loc, rewriter.getI32Type(), scaled);
    Value isSubnormal = bits.cmp(arith::CmpIPredicate::ult, magnitude,
                                 (127 + 1 - format->bias) << 23);
    Value isNaN = bits.cmp(arith::CmpIPredicate::ugt, magnitude, 0x7F800000);
    Value code = bits.select(isSubnormal, subnormal, normal);
    Value withSign;
    if (format->negativeZeroIsNaN) {
      // NaN is 0x80; a zero drops its sign (0x80 would read as NaN).
      Value isZero = bits.cmp(arith::CmpIPredicate::eq, code, 0);
      withSign = bits.select(isNaN, bits.i32(0x80),
                            bits.select(isZero, code, bits.orI(sign, code)));
    } else {
      withSign = bits.orI(sign, bits.select(isNaN, bits.i32(0x7F), code));
    }
    Value byte = arith::TruncIOp::create(rewriter, loc, rewriter.getI8Type(),
                                         withSign);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), byte);
    return success();
  }
};

/// |x| of bf16 and fp8 (scalars: the distribution leaves no vectors of
/// them) clears the sign bit of its bits: all three formats keep the sign
/// apart from the magnitude.
struct AbsFAsBits : OpRewritePattern<math::AbsFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::AbsFOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!isEmulated(type) || isa<ShapedType>(type))
      return rewriter.notifyMatchFailure(op, "not a scalar small float");
    Location loc = op.getLoc();
    unsigned width = type.getIntOrFloatBitWidth();
    Type bits = rewriter.getIntegerType(width);
    Value magnitude = arith::AndIOp::create(
        rewriter, loc,
        arith::BitcastOp::create(rewriter, loc, bits, op.getOperand()),
        arith::ConstantOp::create(
            rewriter, loc,
            rewriter.getIntegerAttr(bits, APInt::getSignedMaxValue(width))));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, magnitude);
    return success();
  }
};

/// f32 -> bf16 toward zero: the high half of the bits (NaNs kept quiet).
/// Upstream's bf16 expansion rounds to nearest even only.
struct F32ToBFloat16TowardZero : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isBF16() || !op.getIn().getType().isF32() ||
        op.getRoundingmode() != arith::RoundingMode::toward_zero)
      return failure();
    BitBuilder bits(rewriter, op.getLoc());
    Value x = bits.bitsOf(op.getIn());
    Value isNaN = bits.cmp(arith::CmpIPredicate::ugt, bits.andI(x, 0x7FFFFFFF),
                           0x7F800000);
    Value high = bits.shr(x, 16);
    high = bits.select(isNaN, bits.orI(high, bits.i32(0x40)), high);
    Value half = arith::TruncIOp::create(rewriter, op.getLoc(),
                                         rewriter.getI16Type(), high);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), half);
    return success();
  }
};

/// Conversions between an emulated type and a type other than f32 go
/// through f32, the one pair the expansions handle.
void conversionsThroughF32(func::FuncOp kernel) {
  IRRewriter rewriter(kernel.getContext());
  auto convert = [&](Location loc, Value value, Type type,
                     arith::RoundingModeAttr mode) -> Value {
    if (cast<FloatType>(type).getWidth() <
        cast<FloatType>(value.getType()).getWidth())
      return arith::TruncFOp::create(rewriter, loc, type, value, mode,
                                     /*fastmath=*/nullptr);
    return arith::ExtFOp::create(rewriter, loc, type, value);
  };
  kernel.walk([&](Operation *op) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(op))
      return;
    Type source = op->getOperand(0).getType(), result = op->getResultTypes()[0];
    if (!(isEmulated(source) || isEmulated(result)) || source.isF32() ||
        result.isF32() || isa<ShapedType>(source))
      return;
    auto truncate = dyn_cast<arith::TruncFOp>(op);
    arith::RoundingModeAttr mode =
        truncate ? truncate.getRoundingmodeAttr() : nullptr;
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    Value wide = convert(loc, op->getOperand(0), rewriter.getF32Type(), mode);
    rewriter.replaceOp(op, convert(loc, wide, result, mode));
  });
}

/// The integer type holding an emulated float's bits.
Type storageType(Type type) {
  if (!isEmulated(type))
    return type;
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref.clone(storageType(memref.getElementType()));
  return IntegerType::get(type.getContext(), type.getIntOrFloatBitWidth());
}

/// Other 8-bit (and narrower) float formats have no emulation yet.
LogicalResult rejectOtherSmallFloats(func::FuncOp kernel) {
  WalkResult result = kernel.walk([](Operation *op) {
    for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                              op->getResultTypes())) {
      auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
      if (floatType && floatType.getWidth() <= 8 && !float8Format(floatType)) {
        op->emitError("element type ")
            << floatType
            << " is not supported by the SPIR-V backend (of the fp8 formats, "
               "f8E5M2, f8E4M3FN, f8E5M2FNUZ and f8E4M3FNUZ are)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
} // namespace

/// Scalar arguments of an emulated type arrive as f32, as f16 ones do: the
/// launcher holds them as Python floats and writes f32 slots, so the kernel
/// rounds them (to nearest even) itself.
static void widenScalarArguments(func::FuncOp kernel) {
  Block &entry = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  for (BlockArgument argument : entry.getArguments()) {
    Type type = argument.getType();
    if (!isa<FloatType>(type) || !isEmulated(type))
      continue;
    argument.setType(b.getF32Type());
    auto narrowed =
        arith::TruncFOp::create(b, kernel.getLoc(), type, argument);
    argument.replaceAllUsesExcept(narrowed, narrowed);
  }
  kernel.setFunctionType(FunctionType::get(kernel.getContext(),
                                           entry.getArgumentTypes(),
                                           kernel.getResultTypes()));
}

/// The emulation computes in f32 and rounds only where a value leaves the
/// computation (a store, a conversion): a chain of bf16 operations would be
/// rounded once. Each inexact operation's result is rounded to its type
/// here, as hardware computing in that type does (Triton 3.9 keeps bf16
/// arithmetic in bf16).
static void roundEveryResult(func::FuncOp kernel) {
  OpBuilder b(kernel.getContext());
  kernel.walk([&](Operation *op) {
    if (op->getNumResults() != 1 || !isEmulated(op->getResult(0).getType()) ||
        !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ExtFOp, arith::TruncFOp, arith::BitcastOp, arith::ConstantOp,
            arith::SelectOp, arith::NegFOp, math::AbsFOp, math::CopySignOp,
            arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
            arith::MinNumFOp>(op))
      return;
    Value result = op->getResult(0);
    Type wide = triton_spirv::withElementType(result.getType(), b.getF32Type());
    b.setInsertionPointAfter(op);
    auto widened = arith::ExtFOp::create(b, op->getLoc(), wide, result);
    auto rounded =
        arith::TruncFOp::create(b, op->getLoc(), result.getType(), widened);
    result.replaceAllUsesExcept(rounded, widened);
  });
}

LogicalResult triton_spirv::emulateSmallFloats(func::FuncOp kernel) {
  if (failed(rejectOtherSmallFloats(kernel)))
    return failure();
  widenScalarArguments(kernel);
  roundEveryResult(kernel);
  MLIRContext *context = kernel.getContext();
  SetVector<Type> used;
  auto collect = [&](Type type) {
    if (isEmulated(type))
      used.insert(getElementTypeOrSelf(type));
  };
  llvm::for_each(kernel.getArgumentTypes(), collect);
  kernel.walk([&](Operation *op) {
    llvm::for_each(op->getOperandTypes(), collect);
    llvm::for_each(op->getResultTypes(), collect);
  });
  if (used.empty())
    return success();

  TypeConverter computeInF32;
  arith::populateEmulateUnsupportedFloatsConversions(
      computeInF32, used.getArrayRef(), Float32Type::get(context));
  ConversionTarget target(*context);
  arith::populateEmulateUnsupportedFloatsLegality(target, computeInF32);
  RewritePatternSet emulation(context);
  arith::populateEmulateUnsupportedFloatsPatterns(emulation, computeInF32);
  if (failed(applyPartialConversion(kernel, target, std::move(emulation))))
    return failure();
  conversionsThroughF32(kernel);
  RewritePatternSet expansion(context);
  arith::populateExpandBFloat16Patterns(expansion);
  expansion.add<Float8ToF32, TruncFToFloat8, F32ToBFloat16TowardZero,
                AbsFAsBits>(context);
  if (failed(applyPatternsGreedily(kernel, std::move(expansion))))
    return failure();

  // Constants become their bit patterns.
  IRRewriter rewriter(context);
  kernel.walk([&](arith::ConstantOp constant) {
    auto value = dyn_cast<FloatAttr>(constant.getValue());
    if (!value || !isEmulated(value.getType()))
      return;
    rewriter.setInsertionPoint(constant);
    Value bits = arith::ConstantOp::create(
        rewriter, constant.getLoc(),
        rewriter.getIntegerAttr(storageType(value.getType()),
                                value.getValue().bitcastToAPInt()));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(constant, value.getType(),
                                                  bits);
  });
  // What is left only moves bits around, and can hold integers instead.
  WalkResult unsupported = kernel.walk([&](Operation *op) {
    if (isa<arith::BitcastOp, arith::SelectOp, memref::LoadOp, memref::StoreOp,
            memref::AllocOp, memref::AllocaOp, memref::SubViewOp,
            memref::ReinterpretCastOp, memref::ExpandShapeOp,
            memref::CollapseShapeOp, memref::CastOp, memref::GenericAtomicRMWOp,
            memref::AtomicYieldOp>(op) ||
        op->hasTrait<OpTrait::IsTerminator>() ||
        isa<scf::SCFDialect>(op->getDialect()))
      return WalkResult::advance();
    for (Type type : op->getResultTypes())
      if (isEmulated(type)) {
        op->emitError("cannot emulate ")
            << getElementTypeOrSelf(type) << " through " << op->getName();
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (unsupported.wasInterrupted())
    return failure();
  kernel.walk([&](Operation *op) {
    for (Value result : op->getResults())
      result.setType(storageType(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          argument.setType(storageType(argument.getType()));
  });
  kernel.setFunctionType(FunctionType::get(
      context, kernel.getBody().front().getArgumentTypes(),
      llvm::map_to_vector(kernel.getResultTypes(), storageType)));
  // Bit casts between the two views are now no-ops.
  kernel.walk([&](arith::BitcastOp cast) {
    if (cast.getIn().getType() == cast.getType()) {
      cast.replaceAllUsesWith(cast.getIn());
      cast.erase();
    }
  });
  return success();
}

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_EMULATESMALLFLOATS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

namespace {
struct EmulateSmallFloatsPass
    : triton_spirv::impl::EmulateSmallFloatsBase<EmulateSmallFloatsPass> {
  void runOnOperation() override {
    if (failed(triton_spirv::forEachKernel(getOperation(),
                                           triton_spirv::emulateSmallFloats)))
      return signalPassFailure();
  }
};
} // namespace
