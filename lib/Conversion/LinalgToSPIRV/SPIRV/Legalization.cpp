//===- Legalization.cpp - Steps before and patterns of SPIR-V conversion --===//

#include "Legalization.h"
#include "triton-spirv/Analysis/MatmulPlan.h"
#include "triton-spirv/Conversion/ElementTypes.h"
#include "triton-spirv/Conversion/InlineBlock.h"
#include "triton-spirv/Conversion/KernelABI.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

/// SPIR-V's atomic instructions are integer-only (float add needs an
/// extension), Vulkan has no 8- or 16-bit atomics, and upstream lowers
/// neither exchange nor xor: those become compare-and-swap updates.
void triton_spirv::atomicsToCompareAndSwap(func::FuncOp kernel) {
  IRRewriter rewriter(kernel.getContext());
  kernel.walk([&](memref::AtomicRMWOp atomic) {
    arith::AtomicRMWKind kind = atomic.getKind();
    if (!isa<FloatType>(atomic.getType()) &&
        atomic.getType().getIntOrFloatBitWidth() >= 32 &&
        kind != arith::AtomicRMWKind::assign &&
        kind != arith::AtomicRMWKind::xori)
      return;
    rewriter.setInsertionPoint(atomic);
    auto update = memref::GenericAtomicRMWOp::create(
        rewriter, atomic.getLoc(), atomic.getMemref(), atomic.getIndices());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(update.getBody());
    Value next =
        kind == arith::AtomicRMWKind::assign ? atomic.getValue()
        : kind == arith::AtomicRMWKind::xori
            ? arith::XOrIOp::create(rewriter, atomic.getLoc(),
                                    atomic.getValue(), update.getCurrentValue())
            : arith::getReductionOp(kind, rewriter, atomic.getLoc(),
                                    atomic.getValue(),
                                    update.getCurrentValue());
    memref::AtomicYieldOp::create(rewriter, atomic.getLoc(), next);
    rewriter.replaceOp(atomic, update.getResult());
  });
}

namespace {

/// SPIR-V arrays cannot hold `index`: temporaries of indices hold i32 (the
/// width of `index` on this target).
LogicalResult indexTemporariesToI32(func::FuncOp kernel) {
  IRRewriter rewriter(kernel.getContext());
  SmallVector<Operation *> allocs;
  kernel.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
        isa<IndexType>(
            cast<MemRefType>(op->getResult(0).getType()).getElementType()))
      allocs.push_back(op);
  });
  for (Operation *alloc : allocs) {
    auto type = cast<MemRefType>(alloc->getResult(0).getType());
    rewriter.setInsertionPoint(alloc);
    auto i32Type = MemRefType::get(type.getShape(), rewriter.getI32Type(),
                                   type.getLayout(), type.getMemorySpace());
    Value i32Alloc =
        isa<memref::AllocaOp>(alloc)
            ? memref::AllocaOp::create(rewriter, alloc->getLoc(), i32Type)
                  .getResult()
            : memref::AllocOp::create(rewriter, alloc->getLoc(), i32Type)
                  .getResult();
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers())) {
      rewriter.setInsertionPoint(user);
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        Value narrow = memref::LoadOp::create(rewriter, load.getLoc(), i32Alloc,
                                              load.getIndices());
        rewriter.replaceOpWithNewOp<arith::IndexCastOp>(
            load, rewriter.getIndexType(), narrow);
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(user)) {
        Value narrow = arith::IndexCastOp::create(
            rewriter, store.getLoc(), rewriter.getI32Type(), store.getValue());
        rewriter.replaceOpWithNewOp<memref::StoreOp>(store, narrow, i32Alloc,
                                                     store.getIndices());
        continue;
      }
      return user->emitError("unexpected use of a temporary of indices");
    }
    rewriter.eraseOp(alloc);
  }
  return success();
}

/// The address of an interface variable aliasing `buffer`'s binding with
/// another type (created once per binding and `suffix`); null where `buffer`
/// is not a bound storage buffer.
Value aliasOfBinding(ConversionPatternRewriter &rewriter, Location loc,
                     const SPIRVTypeConverter &typeConverter, Value buffer,
                     MemRefType aliasType, StringRef suffix) {
  while (auto cast = buffer.getDefiningOp<UnrealizedConversionCastOp>())
    buffer = cast.getInputs().front();
  auto address = buffer.getDefiningOp<spirv::AddressOfOp>();
  if (!address)
    return {};
  auto module = address->getParentOfType<spirv::ModuleOp>();
  auto variable =
      module.lookupSymbol<spirv::GlobalVariableOp>(address.getVariable());
  auto binding = variable ? variable.getBindingAttr() : IntegerAttr();
  if (!binding)
    return {};
  std::string name = (variable.getSymName() + suffix).str();
  auto alias = module.lookupSymbol<spirv::GlobalVariableOp>(name);
  if (!alias) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(variable);
    alias = spirv::GlobalVariableOp::create(
        rewriter, loc, typeConverter.convertType(aliasType), name,
        variable.getDescriptorSetAttr().getInt(), binding.getInt());
  }
  return spirv::AddressOfOp::create(rewriter, loc, alias);
}

/// The address of element `indices` of a buffer, viewed as an integer array
/// of the same width (an aliasing interface variable with the same binding).
Value integerElementPointer(ConversionPatternRewriter &rewriter, Location loc,
                            const SPIRVTypeConverter &typeConverter,
                            MemRefType memrefType, Value buffer,
                            ValueRange indices) {
  Type element = memrefType.getElementType();
  if (isa<IntegerType>(element))
    return spirv::getElementPtr(typeConverter, memrefType, buffer, indices, loc,
                                rewriter);
  auto intMemrefType =
      MemRefType::get(memrefType.getShape(),
                      rewriter.getIntegerType(element.getIntOrFloatBitWidth()),
                      memrefType.getLayout(), memrefType.getMemorySpace());
  Value alias = aliasOfBinding(rewriter, loc, typeConverter, buffer,
                               intMemrefType, "_bits");
  if (!alias)
    return nullptr;
  return spirv::getElementPtr(typeConverter, intMemrefType, alias, indices, loc,
                              rewriter);
}

/// The address of the 32-bit word holding element `index` of a 1-D buffer
/// of 8- or 16-bit elements (through an aliasing i32 interface variable with
/// the same binding), and the element's bit offset in it.
std::pair<Value, Value> wordPointer(ConversionPatternRewriter &rewriter,
                                    Location loc,
                                    const SPIRVTypeConverter &typeConverter,
                                    MemRefType memrefType, Value buffer,
                                    Value index) {
  if (memrefType.getRank() != 1 || !memrefType.getLayout().isIdentity())
    return {};
  Type i32 = rewriter.getI32Type();
  auto wordsType = MemRefType::get({ShapedType::kDynamic}, i32, AffineMap(),
                                   memrefType.getMemorySpace());
  Value alias =
      aliasOfBinding(rewriter, loc, typeConverter, buffer, wordsType, "_words");
  if (!alias)
    return {};
  unsigned width = memrefType.getElementTypeBitWidth();
  unsigned perWord = 32 / width;
  auto constant = [&](int32_t v) {
    return spirv::ConstantOp::create(rewriter, loc, i32,
                                     rewriter.getI32IntegerAttr(v));
  };
  Value word = spirv::ShiftRightLogicalOp::create(
      rewriter, loc, index, constant(llvm::Log2_32(perWord)));
  Value shift = spirv::IMulOp::create(
      rewriter, loc,
      spirv::BitwiseAndOp::create(rewriter, loc, index, constant(perWord - 1)),
      constant(width));
  return {spirv::getElementPtr(typeConverter, wordsType, alias, {word}, loc,
                               rewriter),
          shift};
}

/// `memref.generic_atomic_rmw` as a compare-and-swap loop:
///   current = load; do { old = CAS(ptr, f(current), current);
///   retry = old != current; current = old } while (retry)
/// Elements narrower than 32 bits are updated within their 32-bit word (the
/// loop carries the word; its other bits are kept).
struct GenericAtomicRMWLowering
    : OpConversionPattern<memref::GenericAtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(memref::GenericAtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const auto &typeConverter = *getTypeConverter<SPIRVTypeConverter>();
    MemRefType memrefType = op.getMemref().getType();
    Type valueType = typeConverter.convertType(op.getResult().getType());
    if (!valueType)
      return failure();
    unsigned width = valueType.getIntOrFloatBitWidth();
    Type bitsType = rewriter.getIntegerType(width);
    Type i32 = rewriter.getI32Type();
    Value pointer, shift;
    if (width < 32) {
      std::tie(pointer, shift) =
          wordPointer(rewriter, loc, typeConverter, memrefType,
                      adaptor.getMemref(), adaptor.getIndices().front());
    } else {
      pointer =
          integerElementPointer(rewriter, loc, typeConverter, memrefType,
                                adaptor.getMemref(), adaptor.getIndices());
    }
    if (!pointer)
      return rewriter.notifyMatchFailure(op, "no integer view of the buffer");
    auto toBits = [&](OpBuilder &b, Value value) -> Value {
      return value.getType() == bitsType
                 ? value
                 : spirv::BitcastOp::create(b, loc, bitsType, value);
    };
    auto fromBits = [&](OpBuilder &b, Value bits) -> Value {
      return valueType == bitsType
                 ? bits
                 : spirv::BitcastOp::create(b, loc, valueType, bits);
    };
    // The element in a loaded word, and a word with the element replaced.
    Value mask;
    if (width < 32)
      mask = spirv::ShiftLeftLogicalOp::create(
          rewriter, loc,
          spirv::ConstantOp::create(
              rewriter, loc, i32,
              rewriter.getI32IntegerAttr((uint32_t(1) << width) - 1)),
          shift);
    auto elementOf = [&](OpBuilder &b, Value word) -> Value {
      if (width >= 32)
        return fromBits(b, word);
      Value bits = spirv::ShiftRightLogicalOp::create(b, loc, word, shift);
      return fromBits(b, spirv::UConvertOp::create(b, loc, bitsType, bits));
    };
    auto withElement = [&](OpBuilder &b, Value word, Value value) -> Value {
      if (width >= 32)
        return toBits(b, value);
      Value bits = spirv::ShiftLeftLogicalOp::create(
          b, loc, spirv::UConvertOp::create(b, loc, i32, toBits(b, value)),
          shift);
      Value kept = spirv::BitwiseAndOp::create(
          b, loc, word, spirv::NotOp::create(b, loc, mask));
      return spirv::BitwiseOrOp::create(b, loc, kept, bits);
    };
    Value initial = spirv::LoadOp::create(rewriter, loc, pointer);
    // Which memory it orders is set for the whole module, by
    // --triton-spirv-order-atomics.
    auto semantics = spirv::MemorySemantics::AcquireRelease;
    Type wordType = initial.getType();
    auto loop = scf::WhileOp::create(
        rewriter, loc, TypeRange{wordType}, ValueRange{initial},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value word = args[0];
          Value next =
              triton_spirv::inlineBlock(b, *op.getBody(), elementOf(b, word))
                  .front();
          Value old = spirv::AtomicCompareExchangeOp::create(
              b, l, pointer, spirv::Scope::Device, semantics,
              // A failed exchange orders nothing (storage-class bits alone,
              // without an ordering bit, are invalid).
              spirv::MemorySemantics::None, withElement(b, word, next), word);
          Value retry = spirv::INotEqualOp::create(b, l, old, word);
          scf::ConditionOp::create(b, l, retry, old);
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          scf::YieldOp::create(b, l, args);
        });
    rewriter.replaceOp(op, elementOf(rewriter, loop.getResult(0)));
    return success();
  }
};

/// A float op with a one-to-one GLSL extended instruction.
template <typename SourceOp, typename TargetOp>
struct ToGLInstruction : OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!type || (!getElementTypeOrSelf(type).isF32() &&
                  !getElementTypeOrSelf(type).isF16()))
      return failure();
    rewriter.replaceOpWithNewOp<TargetOp>(op, type, adaptor.getOperands());
    return success();
  }
};
/// Vulkan's OpBitCount counts 32-bit integers: narrower ones are widened,
/// 64-bit ones counted as two halves.
struct CtPopTo32Bit : OpRewritePattern<math::CtPopOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::CtPopOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    if (width == 32 || width > 64)
      return failure();
    Location loc = op.getLoc();
    Type i32 = triton_spirv::withElementType(type, rewriter.getI32Type());
    Value x = op.getOperand();
    if (width < 32) {
      Value wide = arith::ExtUIOp::create(rewriter, loc, i32, x);
      Value count = math::CtPopOp::create(rewriter, loc, wide);
      rewriter.replaceOpWithNewOp<arith::TruncIOp>(op, type, count);
      return success();
    }
    Value shift = createScalarOrSplatConstant(rewriter, loc, type, 32);
    Value low = arith::TruncIOp::create(rewriter, loc, i32, x);
    Value high = arith::TruncIOp::create(
        rewriter, loc, i32, arith::ShRUIOp::create(rewriter, loc, x, shift));
    Value count = arith::AddIOp::create(
        rewriter, loc, math::CtPopOp::create(rewriter, loc, low),
        math::CtPopOp::create(rewriter, loc, high));
    rewriter.replaceOpWithNewOp<arith::ExtUIOp>(op, type, count);
    return success();
  }
};

/// SPIR-V's integer arithmetic takes no booleans: an i1 operation becomes
/// what it computes. Modulo 2 a sum or difference is the xor, a product the
/// and (`tl.sum(x, dtype=tl.int1)`); a remainder is 0 (the one nonzero
/// divisor divides everything); a quotient or a shift is its left operand
/// (the one nonzero divisor is 1 unsigned, -1 signed, whose negation
/// overflows unless the dividend is 0; a shift by 0, as any other amount is
/// at least the width).
template <typename SourceOp>
struct BooleanArithmetic : OpRewritePattern<SourceOp> {
  using OpRewritePattern<SourceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isInteger(1))
      return failure();
    Location loc = op.getLoc();
    Value result = op.getLhs();
    if constexpr (llvm::is_one_of<SourceOp, arith::AddIOp,
                                  arith::SubIOp>::value)
      result = arith::XOrIOp::create(rewriter, loc, op.getLhs(), op.getRhs());
    else if constexpr (std::is_same_v<SourceOp, arith::MulIOp>)
      result = arith::AndIOp::create(rewriter, loc, op.getLhs(), op.getRhs());
    else if constexpr (llvm::is_one_of<SourceOp, arith::RemUIOp,
                                       arith::RemSIOp>::value)
      result = createScalarOrSplatConstant(rewriter, loc, op.getType(), 0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `arith.cmpf false` and `true` are constants (SPIR-V has no such compare).
struct ConstantFloatCompare : OpRewritePattern<arith::CmpFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpFOp op,
                                PatternRewriter &rewriter) const override {
    arith::CmpFPredicate predicate = op.getPredicate();
    if (predicate != arith::CmpFPredicate::AlwaysFalse &&
        predicate != arith::CmpFPredicate::AlwaysTrue)
      return failure();
    rewriter.replaceOp(
        op, createScalarOrSplatConstant(
                rewriter, op.getLoc(), op.getType(),
                predicate == arith::CmpFPredicate::AlwaysTrue ? 1 : 0));
    return success();
  }
};

/// `a * b + c` (and `a * b - c`, `c - a * b`) as one FMA, where the product
/// has no other use: Triton's enable_fp_fusion, done here because every
/// float operation is decorated NoContraction (drivers may otherwise also
/// reassociate, which Triton never allows: `(m + 2^23) - 2^23` became `m`).
template <typename SourceOp>
struct FuseMultiplyAdd : OpRewritePattern<SourceOp> {
  using OpRewritePattern<SourceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    constexpr bool subtracts = std::is_same_v<SourceOp, arith::SubFOp>;
    for (unsigned index : {0u, 1u}) {
      auto product =
          op->getOperand(index).template getDefiningOp<arith::MulFOp>();
      if (!product || !product->hasOneUse() ||
          product.getFastmath() != op.getFastmath())
        continue;
      Location loc = op.getLoc();
      Value a = product.getLhs(), b = product.getRhs();
      Value c = op->getOperand(1 - index);
      if (subtracts && index == 0) // a * b - c
        c = arith::NegFOp::create(rewriter, loc, c);
      if (subtracts && index == 1) // c - a * b
        a = arith::NegFOp::create(rewriter, loc, a);
      rewriter.replaceOpWithNewOp<math::FmaOp>(op, a, b, c);
      return success();
    }
    return failure();
  }
};

/// f32/f64 narrowed to f16/f32 toward zero. SPIR-V's FPRoundingMode
/// decoration, which upstream's lowering uses, is valid in Vulkan only on
/// conversions stored to 16-bit storage. Integer operations on the bits
/// instead: normal results drop the low mantissa bits; magnitudes past the
/// largest finite value give it; subnormal results are |x| scaled so that
/// their step is 1, truncated to an integer; NaN converts as before. (A
/// round to nearest corrected by converting back does not do: NVIDIA's
/// compiler takes the round trip for the identity.)
struct TruncFTowardZero : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    auto source = dyn_cast<FloatType>(getElementTypeOrSelf(op.getIn()));
    auto result = dyn_cast<FloatType>(getElementTypeOrSelf(op.getType()));
    if (op.getRoundingmode() != arith::RoundingMode::toward_zero || !source ||
        !result || !(source.isF32() || source.isF64()) ||
        !(result.isF16() || result.isF32()))
      return rewriter.notifyMatchFailure(op, "not toward zero to f16/f32");
    Location loc = op.getLoc();
    unsigned sourceWidth = source.getWidth(), width = result.getWidth();
    int64_t sourceMantissa = source.getFPMantissaWidth() - 1;
    int64_t mantissa = result.getFPMantissaWidth() - 1;
    int64_t sourceBias = (int64_t(1) << (sourceWidth - 2 - sourceMantissa)) - 1;
    int64_t bias = (int64_t(1) << (width - 2 - mantissa)) - 1;
    auto typeOf = [&](Type element) {
      return triton_spirv::withElementType(op.getType(), element);
    };
    Type bitsType = typeOf(rewriter.getIntegerType(sourceWidth));
    auto constant = [&](int64_t value) {
      return createScalarOrSplatConstant(rewriter, loc, bitsType,
                                         APInt(sourceWidth, value));
    };
    Value bits = arith::BitcastOp::create(rewriter, loc, bitsType, op.getIn());
    Value magnitude = arith::AndIOp::create(
        rewriter, loc, bits,
        constant(int64_t((uint64_t(1) << (sourceWidth - 1)) - 1)));
    Value sign = arith::AndIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, bits,
                               constant(sourceWidth - width)),
        constant(int64_t(1) << (width - 1)));
    int64_t infinity = ((int64_t(1) << (width - 1 - mantissa)) - 1)
                       << mantissa;
    int64_t largest = infinity - 1;
    Value normal = arith::SubIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, magnitude,
                               constant(sourceMantissa - mantissa)),
        constant((sourceBias - bias) << mantissa));
    normal = arith::MinUIOp::create(rewriter, loc, normal, constant(largest));
    // The result's subnormal step, 2^(1 - bias - mantissa), scaled to 1
    // (exactly: a power of 2, in the source's range).
    APFloat scale(std::ldexp(1.0, bias - 1 + mantissa));
    bool losesInfo = false;
    scale.convert(source.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    Value scaled = arith::MulFOp::create(
        rewriter, loc, math::AbsFOp::create(rewriter, loc, op.getIn()),
        createScalarOrSplatConstant(rewriter, loc, op.getIn().getType(),
                                    scale));
    Value subnormal = arith::FPToUIOp::create(rewriter, loc, bitsType, scaled);
    auto compare = [&](arith::CmpIPredicate predicate, int64_t value) {
      return arith::CmpIOp::create(rewriter, loc, predicate, magnitude,
                                   constant(value));
    };
    Value isSubnormal = compare(arith::CmpIPredicate::ult,
                                (sourceBias - bias + 1) << sourceMantissa);
    int64_t sourceInfinity =
        ((int64_t(1) << (sourceWidth - 1 - sourceMantissa)) - 1)
        << sourceMantissa;
    Value isInfinite = compare(arith::CmpIPredicate::eq, sourceInfinity);
    Value code = arith::SelectOp::create(
        rewriter, loc, isInfinite, constant(infinity),
        arith::SelectOp::create(rewriter, loc, isSubnormal, subnormal,
                                normal));
    Value narrowBits = arith::OrIOp::create(rewriter, loc, sign, code);
    Type narrowType = typeOf(rewriter.getIntegerType(width));
    // (arith.truncf narrows strictly.)
    narrowBits = arith::TruncIOp::create(rewriter, loc, narrowType, narrowBits);
    Value narrowed =
        arith::BitcastOp::create(rewriter, loc, op.getType(), narrowBits);
    // NaN stays NaN (quiet), as the plain conversion gives it.
    Value nearest = arith::TruncFOp::create(rewriter, loc, op.getType(),
                                            op.getIn());
    Value isNaN = compare(arith::CmpIPredicate::ugt, sourceInfinity);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, isNaN, nearest, narrowed);
    return success();
  }
};

/// An FMA marked `kExactAttrName` becomes GLSL's Fma decorated
/// NoContraction (preferred over upstream's pattern, which drops the mark).
struct ExactFma : OpConversionPattern<math::FmaOp> {
  ExactFma(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(math::FmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!op->hasAttr(triton_spirv::kExactAttrName) || !type)
      return failure();
    auto exact = spirv::GLFmaOp::create(rewriter, op.getLoc(), type,
                                        adaptor.getOperands());
    exact->setAttr("no_contraction", rewriter.getUnitAttr());
    rewriter.replaceOp(op, exact);
    return success();
  }
};

/// A reshape of a contiguous buffer (identity layouts on both sides) is the
/// same array once converted, since SPIR-V's buffers are flat: what a
/// cooperative-matrix load reads through a tensor descriptor's rank-reducing
/// reshape (1x32x32 to 32x32), which fold-memref-alias-ops leaves in place.
template <typename ReshapeOp>
struct ContiguousReshapeToSource : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern<ReshapeOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, typename ReshapeOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto source = cast<MemRefType>(op.getSrc().getType());
    MemRefType result = op.getResultType();
    if (!source.getLayout().isIdentity() || !result.getLayout().isIdentity())
      return rewriter.notifyMatchFailure(op, "not contiguous");
    Type converted = this->getTypeConverter()->convertType(result);
    if (!converted || converted != adaptor.getSrc().getType())
      return rewriter.notifyMatchFailure(op, "converts to another type");
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// A buffer at a device address: the address as a PhysicalStorageBuffer
/// pointer to the runtime array the buffer's memref type converts to.
struct AddressBufferToPointer
    : OpConversionPattern<triton_spirv::AddressBufferOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(triton_spirv::AddressBufferOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "the target has no buffers of "
                                             "this element type");
    rewriter.replaceOpWithNewOp<spirv::ConvertUToPtrOp>(op, type,
                                                        adaptor.getAddress());
    return success();
  }
};

/// Lowers the cooperative multiply-add of a matmul of bf16 values held as
/// f16 bits (marked kBFloat16MatrixAttrName) before upstream's pattern, as
/// it lowers it (f16 matrices), and keeps the mark on the op it becomes, for
/// retypeBFloat16Matrices.
struct MarkedMatrixMulAdd : OpConversionPattern<gpu::SubgroupMmaComputeOp> {
  MarkedMatrixMulAdd(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaComputeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef mark = triton_spirv::kBFloat16MatrixAttrName;
    if (!op->hasAttr(mark))
      return failure();
    auto lowered = spirv::KHRCooperativeMatrixMulAddOp::create(
        rewriter, op.getLoc(), adaptor.getOpC().getType(), adaptor.getOpA(),
        adaptor.getOpB(), adaptor.getOpC(), /*matrix_operands=*/nullptr);
    lowered->setAttr(mark, rewriter.getUnitAttr());
    rewriter.replaceOp(op, lowered);
    return success();
  }
};

struct CtPopToBitCount : OpConversionPattern<math::CtPopOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::CtPopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || !getElementTypeOrSelf(type).isInteger(32))
      return failure();
    rewriter.replaceOpWithNewOp<spirv::BitCountOp>(op, type,
                                                   adaptor.getOperand());
    return success();
  }
};

/// Upstream's scf.for -> SPIR-V lowering writes a loop's results only from
/// its body, so a loop that runs zero times returns undefined values. Loops
/// with results that may run zero times are put under `lb < ub`, with the
/// initial values as the other branch's results.
void guardPossiblyEmptyLoops(func::FuncOp kernel) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) {
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (loop.getNumResults() != 0 && (!trips || trips->isZero()))
      loops.push_back(loop);
  });
  IRRewriter rewriter(kernel.getContext());
  for (scf::ForOp loop : loops) {
    Location loc = loop.getLoc();
    rewriter.setInsertionPoint(loop);
    Value runs =
        arith::CmpIOp::create(rewriter, loc,
                              loop.getUnsignedCmp() ? arith::CmpIPredicate::ult
                                                    : arith::CmpIPredicate::slt,
                              loop.getLowerBound(), loop.getUpperBound());
    auto guard = scf::IfOp::create(rewriter, loc, loop.getResultTypes(), runs,
                                   /*withElseRegion=*/true);
    rewriter.replaceAllUsesWith(loop.getResults(), guard.getResults());
    rewriter.setInsertionPointToStart(guard.thenBlock());
    rewriter.moveOpBefore(loop, guard.thenBlock(), guard.thenBlock()->end());
    rewriter.setInsertionPointAfter(loop);
    scf::YieldOp::create(rewriter, loc, loop.getResults());
    rewriter.setInsertionPointToStart(guard.elseBlock());
    scf::YieldOp::create(rewriter, loc, loop.getInitArgs());
  }
}

/// f16/f32 arith.maxnumf and minnumf as GLSL FMax and FMin, for targets
/// where those return the operand that is not NaN.
void minMaxNumToGLInstructions(func::FuncOp kernel) {
  IRRewriter rewriter(kernel.getContext());
  kernel.walk([&](Operation *op) {
    if (!isa<arith::MaxNumFOp, arith::MinNumFOp>(op))
      return;
    Type type = op->getResult(0).getType();
    Type element = getElementTypeOrSelf(type);
    if (!element.isF32() && !element.isF16())
      return;
    rewriter.setInsertionPoint(op);
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Value result =
        isa<arith::MaxNumFOp>(op)
            ? Value(spirv::GLFMaxOp::create(rewriter, op->getLoc(), type, lhs,
                                            rhs))
            : Value(spirv::GLFMinOp::create(rewriter, op->getLoc(), type, lhs,
                                            rhs));
    rewriter.replaceOp(op, result);
  });
}
} // namespace

LogicalResult triton_spirv::fuseMultiplyAdds(func::FuncOp kernel) {
  RewritePatternSet patterns(kernel.getContext());
  patterns.add<FuseMultiplyAdd<arith::AddFOp>, FuseMultiplyAdd<arith::SubFOp>>(
      kernel.getContext());
  return applyPatternsGreedily(kernel, std::move(patterns));
}

LogicalResult
triton_spirv::forEachKernel(Operation *module,
                            function_ref<LogicalResult(func::FuncOp)> step) {
  SmallVector<func::FuncOp> kernels;
  module->walk([&](func::FuncOp func) {
    if (func->hasAttr(kKernelAttrName))
      kernels.push_back(func);
  });
  for (func::FuncOp kernel : kernels)
    if (failed(step(kernel)))
      return failure();
  return success();
}

LogicalResult triton_spirv::legalizeForSPIRV(func::FuncOp kernel,
                                             bool nativeMinMaxNum) {
  guardPossiblyEmptyLoops(kernel);
  if (failed(indexTemporariesToI32(kernel)))
    return failure();
  if (nativeMinMaxNum)
    minMaxNumToGLInstructions(kernel);
  RewritePatternSet patterns(kernel.getContext());
  arith::populateArithExpandOpsPatterns(patterns);
  // GLSL has no erf, erfc or atan2: polynomial approximations in f32.
  auto withoutGLInstruction = [](StringRef name) {
    return name == math::ErfOp::getOperationName() ||
           name == math::ErfcOp::getOperationName() ||
           name == math::Atan2Op::getOperationName();
  };
  populateMathF32ExpansionPatterns(patterns, withoutGLInstruction);
  populateMathPolynomialApproximationPatterns(patterns, withoutGLInstruction);
  patterns.add<CtPopTo32Bit, TruncFTowardZero,
               BooleanArithmetic<arith::AddIOp>,
               BooleanArithmetic<arith::SubIOp>,
               BooleanArithmetic<arith::MulIOp>,
               BooleanArithmetic<arith::DivUIOp>,
               BooleanArithmetic<arith::DivSIOp>,
               BooleanArithmetic<arith::CeilDivUIOp>,
               BooleanArithmetic<arith::CeilDivSIOp>,
               BooleanArithmetic<arith::FloorDivSIOp>,
               BooleanArithmetic<arith::ShLIOp>,
               BooleanArithmetic<arith::ShRUIOp>,
               BooleanArithmetic<arith::ShRSIOp>,
               BooleanArithmetic<arith::RemUIOp>,
               BooleanArithmetic<arith::RemSIOp>, ConstantFloatCompare>(
      kernel.getContext());
  return applyPatternsGreedily(kernel, std::move(patterns));
}

void triton_spirv::populateConvertToSPIRVPatterns(
    const SPIRVTypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<ToGLInstruction<math::Exp2Op, spirv::GLExp2Op>,
               ToGLInstruction<math::Log2Op, spirv::GLLog2Op>, CtPopToBitCount,
               ExactFma, AddressBufferToPointer, MarkedMatrixMulAdd,
               ContiguousReshapeToSource<memref::CollapseShapeOp>,
               ContiguousReshapeToSource<memref::ExpandShapeOp>>(
      typeConverter, patterns.getContext());
}

void triton_spirv::populateAtomicToSPIRVPatterns(
    const SPIRVTypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<GenericAtomicRMWLowering>(typeConverter, patterns.getContext());
}

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_ATOMICSTOCOMPAREANDSWAP
#define GEN_PASS_DEF_LEGALIZEFORSPIRV
#define GEN_PASS_DEF_FUSEMULTIPLYADDS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

namespace {
struct AtomicsToCompareAndSwapPass
    : triton_spirv::impl::AtomicsToCompareAndSwapBase<
          AtomicsToCompareAndSwapPass> {
  void runOnOperation() override {
    (void)triton_spirv::forEachKernel(getOperation(), [](func::FuncOp kernel) {
      triton_spirv::atomicsToCompareAndSwap(kernel);
      return success();
    });
  }
};

struct LegalizeForSPIRVPass
    : triton_spirv::impl::LegalizeForSPIRVBase<LegalizeForSPIRVPass> {
  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target) ||
        failed(triton_spirv::forEachKernel(
            getOperation(), [&](func::FuncOp kernel) {
              return triton_spirv::legalizeForSPIRV(
                  kernel, target->description.nativeMinMaxNum);
            })))
      return signalPassFailure();
  }
};

struct FuseMultiplyAddsPass
    : triton_spirv::impl::FuseMultiplyAddsBase<FuseMultiplyAddsPass> {
  void runOnOperation() override {
    if (failed(triton_spirv::forEachKernel(getOperation(),
                                           triton_spirv::fuseMultiplyAdds)))
      return signalPassFailure();
  }
};
} // namespace
