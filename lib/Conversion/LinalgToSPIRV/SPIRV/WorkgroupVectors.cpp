//===- WorkgroupVectors.cpp - Workgroup buffers read as vectors ----------===//
//
// A vector access of a workgroup buffer (vector.load, vector.store) cannot be
// lowered the way upstream does it, through a pointer cast: Vulkan's logical
// addressing has no pointer casts. A workgroup buffer with vector accesses
// therefore becomes an array of vectors; a vector access is one element of
// it, a scalar access one component of an element (an access chain may index
// into a vector).
//
//===----------------------------------------------------------------------===//

#include "Legalization.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

using triton_spirv::isWorkgroupMemory;

namespace {
/// The vector width of every vector access of `alloc`, when it has any;
/// 0 when it has none; failure when its users are not all direct loads
/// and stores of one width.
FailureOr<int64_t> vectorWidthOf(memref::AllocOp alloc) {
  int64_t width = 0;
  bool onlyAccesses = true;
  for (Operation *user : alloc->getUsers()) {
    VectorType vector;
    if (auto load = dyn_cast<vector::LoadOp>(user))
      vector = load.getVectorType();
    else if (auto store = dyn_cast<vector::StoreOp>(user))
      vector = store.getVectorType();
    else
      onlyAccesses &= isa<memref::LoadOp, memref::StoreOp>(user);
    if (!vector)
      continue;
    if (vector.getRank() != 1 || (width && width != vector.getNumElements()))
      return failure();
    width = vector.getNumElements();
  }
  if (width && !onlyAccesses)
    return failure();
  return width;
}

/// The position of `indices` in `type` (static, identity layout), scaled
/// down to vectors of `width`: (element, component).
std::pair<Value, Value> vectorPosition(OpBuilder &builder, Location loc,
                                       MemRefType type, ValueRange indices,
                                       int64_t width) {
  Type i32 = builder.getI32Type();
  auto constant = [&](int64_t value) {
    return spirv::ConstantOp::create(builder, loc, i32,
                                     builder.getI32IntegerAttr(value));
  };
  Value linear;
  int64_t stride = 1;
  for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
    Value term = indices[dim];
    if (stride != 1)
      term = spirv::IMulOp::create(builder, loc, term, constant(stride));
    linear =
        linear ? spirv::IAddOp::create(builder, loc, linear, term) : term;
    stride *= type.getDimSize(dim);
  }
  if (!linear)
    linear = constant(0);
  int64_t shift = llvm::Log2_64(width);
  Value element = spirv::ShiftRightLogicalOp::create(builder, loc, linear,
                                                     constant(shift));
  Value component =
      spirv::BitwiseAndOp::create(builder, loc, linear, constant(width - 1));
  return {element, component};
}

/// What the lowering of an access needs: the buffer's vector width and its
/// variable (the operand of the cast that stands for the buffer).
struct VectorBuffer {
  int64_t width = 0;
  Value variable;
  MemRefType type;
};

std::optional<VectorBuffer>
vectorBufferOf(Value original, Value converted,
               const triton_spirv::WorkgroupVectorWidths &widths) {
  auto alloc = original.getDefiningOp<memref::AllocOp>();
  auto cast = converted.getDefiningOp<UnrealizedConversionCastOp>();
  int64_t width = alloc ? widths.lookup(alloc) : 0;
  if (!width || !cast)
    return std::nullopt;
  return VectorBuffer{width, cast.getInputs()[0], alloc.getType()};
}

/// The workgroup buffer as a variable holding an array of vectors. Stands
/// for the buffer through a cast to the type the type converter gives it,
/// which only this file's patterns look through.
struct VectorAllocLowering : OpConversionPattern<memref::AllocOp> {
  VectorAllocLowering(const TypeConverter &converter, MLIRContext *context,
                      const triton_spirv::WorkgroupVectorWidths &widths)
      : OpConversionPattern(converter, context, /*benefit=*/2),
        widths(widths) {}

  LogicalResult
  matchAndRewrite(memref::AllocOp alloc, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = alloc.getType();
    int64_t width = widths.lookup(alloc);
    if (!width)
      return rewriter.notifyMatchFailure(alloc, "no vector accesses");
    Type element = getTypeConverter()->convertType(type.getElementType());
    Type converted = getTypeConverter()->convertType(type);
    if (!element || !converted)
      return rewriter.notifyMatchFailure(alloc, "unconvertible type");
    auto array = spirv::ArrayType::get(VectorType::get({width}, element),
                                       type.getNumElements() / width);
    auto pointer = spirv::PointerType::get(spirv::StructType::get({array}),
                                           spirv::StorageClass::Workgroup);
    Operation *symbolTable = SymbolTable::getNearestSymbolTable(alloc);
    Block &body = symbolTable->getRegion(0).front();
    spirv::GlobalVariableOp variable;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&body);
      variable = spirv::GlobalVariableOp::create(
          rewriter, alloc.getLoc(), pointer,
          "__workgroup_vectors__" +
              std::to_string(body.getOperations().size()),
          /*initializer=*/nullptr);
    }
    Value address =
        spirv::AddressOfOp::create(rewriter, alloc.getLoc(), variable);
    rewriter.replaceOpWithNewOp<UnrealizedConversionCastOp>(alloc, converted,
                                                            address);
    return success();
  }

private:
  const triton_spirv::WorkgroupVectorWidths &widths;
};

Value baseOf(memref::LoadOp op) { return op.getMemRef(); }
Value baseOf(memref::StoreOp op) { return op.getMemRef(); }
Value baseOf(vector::LoadOp op) { return op.getBase(); }
Value baseOf(vector::StoreOp op) { return op.getBase(); }
Value baseOf(memref::LoadOp::Adaptor adaptor) { return adaptor.getMemref(); }
Value baseOf(memref::StoreOp::Adaptor adaptor) { return adaptor.getMemref(); }
Value baseOf(vector::LoadOp::Adaptor adaptor) { return adaptor.getBase(); }
Value baseOf(vector::StoreOp::Adaptor adaptor) { return adaptor.getBase(); }
Value storedValue(memref::StoreOp::Adaptor adaptor) {
  return adaptor.getValue();
}
Value storedValue(vector::StoreOp::Adaptor adaptor) {
  return adaptor.getValueToStore();
}

/// memref.load / memref.store of one component, vector.load / vector.store
/// of one element.
template <typename Op>
struct VectorBufferAccessLowering : OpConversionPattern<Op> {
  using Adaptor = typename OpConversionPattern<Op>::OpAdaptor;
  VectorBufferAccessLowering(const TypeConverter &converter,
                             MLIRContext *context,
                             const triton_spirv::WorkgroupVectorWidths &widths)
      : OpConversionPattern<Op>(converter, context, /*benefit=*/2),
        widths(widths) {}

  LogicalResult
  matchAndRewrite(Op op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<VectorBuffer> buffer =
        vectorBufferOf(baseOf(op), baseOf(adaptor), widths);
    if (!buffer)
      return rewriter.notifyMatchFailure(op, "not a vector buffer");
    constexpr bool isVector = std::is_same_v<Op, vector::LoadOp> ||
                              std::is_same_v<Op, vector::StoreOp>;
    Location loc = op.getLoc();
    auto [element, component] = vectorPosition(
        rewriter, loc, buffer->type, adaptor.getIndices(), buffer->width);
    Type i32 = rewriter.getI32Type();
    Value zero = spirv::ConstantOp::create(rewriter, loc, i32,
                                           rewriter.getI32IntegerAttr(0));
    SmallVector<Value> chain{zero, element};
    if (!isVector)
      chain.push_back(component);
    Value pointer =
        spirv::AccessChainOp::create(rewriter, loc, buffer->variable, chain);
    if constexpr (std::is_same_v<Op, memref::LoadOp> ||
                  std::is_same_v<Op, vector::LoadOp>)
      rewriter.replaceOpWithNewOp<spirv::LoadOp>(op, pointer);
    else
      rewriter.replaceOpWithNewOp<spirv::StoreOp>(op, pointer,
                                                  storedValue(adaptor));
    return success();
  }

private:
  const triton_spirv::WorkgroupVectorWidths &widths;
};
} // namespace

FailureOr<triton_spirv::WorkgroupVectorWidths>
triton_spirv::findWorkgroupVectorBuffers(func::FuncOp kernel) {
  WorkgroupVectorWidths widths;
  WalkResult result = kernel.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (!isWorkgroupMemory(type))
      return WalkResult::advance();
    FailureOr<int64_t> width = vectorWidthOf(alloc);
    if (failed(width)) {
      alloc.emitError("a workgroup buffer with vector accesses must have "
                      "only direct loads and stores, its vector accesses of "
                      "one width");
      return WalkResult::interrupt();
    }
    if (!*width)
      return WalkResult::advance();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !llvm::isPowerOf2_64(*width) || type.getNumElements() % *width) {
      alloc.emitError("a workgroup buffer with vector accesses must be "
                      "static, of identity layout and a whole number of "
                      "vectors");
      return WalkResult::interrupt();
    }
    widths[alloc] = *width;
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return widths;
}

void triton_spirv::populateWorkgroupVectorPatterns(
    const SPIRVTypeConverter &typeConverter,
    const WorkgroupVectorWidths &widths, RewritePatternSet &patterns) {
  patterns.add<VectorAllocLowering, VectorBufferAccessLowering<memref::LoadOp>,
               VectorBufferAccessLowering<memref::StoreOp>,
               VectorBufferAccessLowering<vector::LoadOp>,
               VectorBufferAccessLowering<vector::StoreOp>>(
      typeConverter, patterns.getContext(), widths);
}
