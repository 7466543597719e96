//===- PointersToMemRef.cpp - pointers, loads, stores, atomics ------------===//
//
// A pointer becomes its element offset into the buffer of the kernel argument
// it derives from (recorded as `triton_spirv.root_arg` by the ABI pass). Loads
// gather, stores scatter, atomics update element by element, each under its
// mask. Any pointer arithmetic is accepted.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "triton-spirv/Conversion/ParallelGeneric.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONPOINTERSTOMEMREF
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;
using triton_spirv::kArgIndexAttrName;
using triton_spirv::kRootArgAttrName;

namespace {
class PointerOffsetTypeConverter : public TypeConverter {
public:
  explicit PointerOffsetTypeConverter(MLIRContext *ctx) {
    addConversion([](Type type) { return type; });
    addConversion([ctx](PointerType) -> Type { return IndexType::get(ctx); });
    addConversion([ctx](RankedTensorType type) -> Type {
      if (isa<PointerType>(type.getElementType()))
        return type.clone(IndexType::get(ctx));
      return type;
    });
    auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                   Location loc) -> Value {
      return UnrealizedConversionCastOp::create(b, loc, type, inputs)
          .getResult(0);
    };
    addSourceMaterialization(cast);
    addTargetMaterialization(cast);
  }
};

/// Storage size of an element; booleans are stored as bytes.
unsigned storageBits(Type type) {
  return std::max(8u, type.getIntOrFloatBitWidth());
}

struct RootCastLowering : OpConversionPattern<UnrealizedConversionCastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UnrealizedConversionCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!triton_spirv::isPointerRootCast(op))
      return failure();
    // (buffers..., offset): the accesses find their buffers by element type.
    rewriter.replaceOp(op, adaptor.getOperands().back());
    return success();
  }
};

struct AddPtrLowering : OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type offsetType = adaptor.getPtr().getType();
    Value offset = arith::IndexCastOp::create(rewriter, op.getLoc(), offsetType,
                                              adaptor.getOffset());
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, adaptor.getPtr(), offset);
    return success();
  }
};

/// An index constant shaped like `like` (a scalar or a tensor of offsets).
Value indexConstantLike(OpBuilder &b, Location loc, Value like, int64_t value) {
  if (auto tensorType = dyn_cast<RankedTensorType>(like.getType()))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tensorType, b.getIndexAttr(value)));
  return arith::ConstantIndexOp::create(b, loc, value);
}

unsigned pointeeStorageBytes(Type pointerOrTensor) {
  return storageBits(cast<PointerType>(getElementTypeOrSelf(pointerOrTensor))
                         .getPointeeType()) /
         8;
}

/// Reinterpreting a pointer's element type rescales its element offset.
struct PointerBitcastLowering : OpConversionPattern<BitcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<PointerType>(getElementTypeOrSelf(op.getSrc().getType())) ||
        !isa<PointerType>(getElementTypeOrSelf(op.getType())))
      return failure();
    unsigned srcBytes = pointeeStorageBytes(op.getSrc().getType());
    unsigned dstBytes = pointeeStorageBytes(op.getType());
    Value offset = adaptor.getSrc();
    Location loc = op.getLoc();
    if (srcBytes > dstBytes)
      offset = arith::MulIOp::create(
          rewriter, loc, offset,
          indexConstantLike(rewriter, loc, offset, srcBytes / dstBytes));
    else if (srcBytes < dstBytes)
      offset = arith::DivUIOp::create(
          rewriter, loc, offset,
          indexConstantLike(rewriter, loc, offset, dstBytes / srcBytes));
    rewriter.replaceOp(op, offset);
    return success();
  }
};

/// A pointer's address is its byte offset in its buffer. Buffers are bound
/// at addresses aligned to at least 16 bytes (host imports: the page), so
/// alignment arithmetic on addresses gives the device's answers.
struct PtrToIntLowering : OpConversionPattern<PtrToIntOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PtrToIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value offset = adaptor.getSrc();
    Value bytes = arith::MulIOp::create(
        rewriter, loc, offset,
        indexConstantLike(rewriter, loc, offset,
                          pointeeStorageBytes(op.getSrc().getType())));
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, op.getType(), bytes);
    return success();
  }
};

/// An address made by tt.ptr_to_int (the pointer root analysis proved that
/// it is) back to an element offset in the same buffer.
struct IntToPtrLowering : OpConversionPattern<IntToPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IntToPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type offsetType = getTypeConverter()->convertType(op.getType());
    Value bytes =
        arith::IndexCastOp::create(rewriter, loc, offsetType, adaptor.getSrc());
    rewriter.replaceOpWithNewOp<arith::DivSIOp>(
        op, bytes,
        indexConstantLike(rewriter, loc, bytes,
                          pointeeStorageBytes(op.getType())));
    return success();
  }
};

/// Builds `scf.if %mask { then } else { otherwise }` yielding one value, or
/// just `then` when there is no mask.
Value buildMasked(OpBuilder &b, Location loc, Value mask,
                  function_ref<Value(OpBuilder &, Location)> then,
                  function_ref<Value(OpBuilder &, Location)> otherwise) {
  if (!mask)
    return then(b, loc);
  auto ifOp = scf::IfOp::create(
      b, loc, mask,
      [&](OpBuilder &nested, Location l) {
        scf::YieldOp::create(nested, l, then(nested, l));
      },
      [&](OpBuilder &nested, Location l) {
        scf::YieldOp::create(nested, l, otherwise(nested, l));
      });
  return ifOp.getResult(0);
}

/// Applies `body` to every element: scalars directly; tensors through a
/// linalg.generic over (offsets, operands...) producing one result tensor.
Value mapElements(
    OpBuilder &b, Location loc, Value offsets, ValueRange operands,
    Type resultType,
    function_ref<Value(OpBuilder &, Location, Value, ValueRange)> body) {
  auto tensorType = dyn_cast<RankedTensorType>(resultType);
  if (!tensorType)
    return body(b, loc, offsets, operands);
  SmallVector<Value> inputs{offsets};
  inputs.append(operands.begin(), operands.end());
  auto generic = triton_spirv::createParallelGeneric(
      b, loc, TypeRange{tensorType}, inputs,
      [&](OpBuilder &nested, Location l, ValueRange args) {
        Value value = body(nested, l, args[0], args.slice(1, operands.size()));
        linalg::YieldOp::create(nested, l, value);
      });
  return generic.getResult(0);
}

struct LoadLowering : OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getType());
    FailureOr<Value> buffer = triton_spirv::lookupBuffer(op, elementType);
    if (failed(buffer))
      return failure();
    SmallVector<Value> operands;
    if (adaptor.getMask())
      operands.push_back(adaptor.getMask());
    if (adaptor.getOther())
      operands.push_back(adaptor.getOther());
    bool hasMask = static_cast<bool>(adaptor.getMask());
    bool hasOther = static_cast<bool>(adaptor.getOther());
    Value result = mapElements(
        rewriter, op.getLoc(), adaptor.getPtr(), operands, op.getType(),
        [&](OpBuilder &b, Location loc, Value offset, ValueRange args) {
          Value mask = hasMask ? args[0] : Value();
          return buildMasked(
              b, loc, mask,
              [&](OpBuilder &nested, Location l) -> Value {
                return memref::LoadOp::create(nested, l, *buffer, offset);
              },
              [&](OpBuilder &nested, Location l) -> Value {
                // Triton leaves masked-off lanes without `other` undefined.
                return hasOther
                           ? args.back()
                           : arith::getZeroConstant(nested, l, elementType);
              });
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Stores are scatters: a `linalg.generic` without results whose body does
/// the masked `memref.store`, so that element-wise producers fuse into it and
/// a later stage distributes it like any other parallel loop.
struct StoreLowering : OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getValue().getType());
    FailureOr<Value> buffer = triton_spirv::lookupBuffer(op, elementType);
    if (failed(buffer))
      return failure();
    Value mask = adaptor.getMask();
    auto storeElement = [&](OpBuilder &b, Location loc, Value offset,
                            Value value, Value elementMask) {
      if (!elementMask) {
        memref::StoreOp::create(b, loc, value, *buffer, offset);
        return;
      }
      auto ifOp = scf::IfOp::create(b, loc, elementMask,
                                    /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      memref::StoreOp::create(b, loc, value, *buffer, offset);
    };
    auto tensorType = dyn_cast<RankedTensorType>(op.getValue().getType());
    if (!tensorType) {
      storeElement(rewriter, op.getLoc(), adaptor.getPtr(), adaptor.getValue(),
                   mask);
      rewriter.eraseOp(op);
      return success();
    }
    SmallVector<Value> inputs{adaptor.getPtr(), adaptor.getValue()};
    if (mask)
      inputs.push_back(mask);
    triton_spirv::createParallelGeneric(
        rewriter, op.getLoc(), TypeRange{}, inputs,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          storeElement(b, loc, args[0], args[1], mask ? args[2] : Value());
          linalg::YieldOp::create(b, loc);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

arith::AtomicRMWKind atomicKind(RMWOp op, Type type) {
  bool isFloat = isa<FloatType>(type);
  switch (op) {
  case RMWOp::AND:
    return arith::AtomicRMWKind::andi;
  case RMWOp::OR:
    return arith::AtomicRMWKind::ori;
  case RMWOp::XOR:
    return arith::AtomicRMWKind::xori;
  case RMWOp::ADD:
    return isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
  case RMWOp::FADD:
    return arith::AtomicRMWKind::addf;
  case RMWOp::MAX:
    return isFloat ? arith::AtomicRMWKind::maxnumf : arith::AtomicRMWKind::maxs;
  case RMWOp::MIN:
    return isFloat ? arith::AtomicRMWKind::minnumf : arith::AtomicRMWKind::mins;
  case RMWOp::UMAX:
    return arith::AtomicRMWKind::maxu;
  case RMWOp::UMIN:
    return arith::AtomicRMWKind::minu;
  case RMWOp::XCHG:
    return arith::AtomicRMWKind::assign;
  }
  llvm_unreachable("every RMWOp is handled");
}

struct AtomicRMWLowering : OpConversionPattern<AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getType());
    arith::AtomicRMWKind kind = atomicKind(op.getAtomicRmwOp(), elementType);
    FailureOr<Value> buffer = triton_spirv::lookupBuffer(op, elementType);
    if (failed(buffer))
      return failure();
    SmallVector<Value> operands{adaptor.getVal()};
    if (adaptor.getMask())
      operands.push_back(adaptor.getMask());
    Value result = mapElements(
        rewriter, op.getLoc(), adaptor.getPtr(), operands, op.getType(),
        [&](OpBuilder &b, Location loc, Value offset, ValueRange args) {
          Value mask = args.size() > 1 ? args[1] : Value();
          return buildMasked(
              b, loc, mask,
              [&](OpBuilder &nested, Location l) -> Value {
                return memref::AtomicRMWOp::create(nested, l, kind, args[0],
                                                   *buffer, offset);
              },
              [&](OpBuilder &nested, Location l) {
                return arith::getZeroConstant(nested, l, elementType);
              });
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Compare-and-swap as a generic atomic update that keeps the current value
/// unless it equals `cmp` (compared bitwise, as the hardware does).
struct AtomicCASLowering : OpConversionPattern<AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elementType = getElementTypeOrSelf(op.getType());
    FailureOr<Value> buffer = triton_spirv::lookupBuffer(op, elementType);
    if (failed(buffer))
      return failure();
    Value result = mapElements(
        rewriter, op.getLoc(), adaptor.getPtr(),
        ValueRange{adaptor.getCmp(), adaptor.getVal()}, op.getType(),
        [&](OpBuilder &b, Location loc, Value offset, ValueRange args) {
          auto update =
              memref::GenericAtomicRMWOp::create(b, loc, *buffer, offset);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(update.getBody());
          Value current = update.getCurrentValue();
          auto bits = [&](Value value) -> Value {
            if (isa<IntegerType>(value.getType()))
              return value;
            return arith::BitcastOp::create(
                b, loc, b.getIntegerType(elementType.getIntOrFloatBitWidth()),
                value);
          };
          Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              bits(current), bits(args[0]));
          Value next = arith::SelectOp::create(b, loc, equal, args[1], current);
          memref::AtomicYieldOp::create(b, loc, next);
          return update.getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A bounds check compares each element offset with the whole elements of
/// the storage of the argument behind the pointer: from its byte bounds
/// (launch constants), the first element rounded up, the end rounded down.
struct PointerInBoundsLowering
    : OpConversionPattern<triton_spirv::PointerInBoundsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(triton_spirv::PointerInBoundsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> begin = triton_spirv::lookupRootArg(
        op, triton_spirv::KernelArgRole::BoundsBegin);
    FailureOr<Value> end = triton_spirv::lookupRootArg(
        op, triton_spirv::KernelArgRole::BoundsEnd);
    if (failed(begin) || failed(end))
      return failure();
    Location loc = op.getLoc();
    int64_t bytes = pointeeStorageBytes(op.getPointer().getType());
    Value elementBytes = arith::ConstantIndexOp::create(rewriter, loc, bytes);
    Value first = arith::DivUIOp::create(
        rewriter, loc,
        arith::AddIOp::create(
            rewriter, loc, *begin,
            arith::ConstantIndexOp::create(rewriter, loc, bytes - 1)),
        elementBytes);
    Value last = arith::DivUIOp::create(rewriter, loc, *end, elementBytes);
    Value result = mapElements(
        rewriter, loc, adaptor.getPointer(), {}, op.getType(),
        [&](OpBuilder &b, Location l, Value offset, ValueRange) -> Value {
          Value fromFirst = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::sge, offset, first);
          Value beforeLast = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::slt, offset, last);
          return arith::AndIOp::create(b, l, fromFirst, beforeLast);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Ops this lowering cannot express, with the message shown to the user.
std::optional<std::string> unsupportedMessage(Operation *op) {
  if (isa<MakeTensorDescOp, DescriptorLoadOp, DescriptorStoreOp,
          DescriptorReduceOp, DescriptorGatherOp, DescriptorScatterOp,
          MakeTensorPtrOp, AdvanceOp>(op))
    return (op->getName().getStringRef() +
            " must be rewritten to plain pointers first (Triton's "
            "rewrite_tensor_descriptor_to_pointer and rewrite_tensor_pointer "
            "passes, which the backend runs)")
        .str();
  if (isa<LoadOp, StoreOp>(op)) {
    auto ptrType = dyn_cast<PointerType>(op->getOperand(0).getType());
    if (ptrType && isa<RankedTensorType>(ptrType.getPointeeType()))
      return (Twine("block-pointer ") + (isa<LoadOp>(op) ? "loads" : "stores") +
              " must be rewritten to plain pointers first (Triton's "
              "rewrite_tensor_pointer)")
          .str();
  }
  return std::nullopt;
}

/// Any other op whose operand, result or region argument types mention
/// pointers is re-created with the converted types.
struct ConvertPointerTypesOfAnyOp : ConversionPattern {
  ConvertPointerTypesOfAnyOp(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, ctx) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    // tt ops have their own patterns; scf ops the structural ones.
    if (isa<TritonDialect, scf::SCFDialect>(op->getDialect()))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                         op->getAttrs(), op->getSuccessors());
    for (Region &region : op->getRegions()) {
      Region *newRegion = state.addRegion();
      rewriter.inlineRegionBefore(region, *newRegion, newRegion->begin());
      if (failed(rewriter.convertRegionTypes(newRegion, *getTypeConverter())))
        return failure();
    }
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct TritonPointersToMemRefPass
    : public triton_spirv::impl::TritonPointersToMemRefBase<
          TritonPointersToMemRefPass> {
  void runOnOperation() override {
    if (failed(triton_spirv::reportUnsupportedOps(getOperation(),
                                                  unsupportedMessage)))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    PointerOffsetTypeConverter converter(ctx);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<TritonDialect>();
    target.addIllegalOp<triton_spirv::PointerInBoundsOp>();
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op))
        if (triton_spirv::isPointerRootCast(cast))
          return false;
      return converter.isLegal(op) &&
             llvm::all_of(op->getRegions(), [&](Region &region) {
               return converter.isLegal(&region);
             });
    });

    RewritePatternSet patterns(ctx);
    patterns.add<RootCastLowering, AddPtrLowering, PointerBitcastLowering,
                 PtrToIntLowering, IntToPtrLowering, LoadLowering,
                 StoreLowering, AtomicRMWLowering, AtomicCASLowering,
                 PointerInBoundsLowering>(converter, ctx);
    triton_spirv::populateDebugOpsToMemRefPatterns(converter, patterns);
    patterns.add<ConvertPointerTypesOfAnyOp>(converter, ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(triton_spirv::applyConversionWithoutRollback(
            getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
