//===- Ops.cpp - Operations of the tt dialect -----------------------------===//
//
// Verifiers report user-facing errors: TTIR comes from files and front ends,
// so every malformed op gets a diagnostic, never an assertion.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::triton;

#define GET_OP_CLASSES
#include "triton-spirv/Dialect/Triton/IR/TritonOps.cpp.inc"

namespace {
/// Shape of `type`, empty for scalars.
ArrayRef<int64_t> getShapeOrEmpty(Type type) {
  if (auto tensorType = dyn_cast<RankedTensorType>(type))
    return tensorType.getShape();
  return {};
}

LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank) {
  if (axis < 0 || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << rank;
  return success();
}

void addGlobalMemoryEffects(
    bool pure,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (pure)
    return;
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}
} // namespace

//===----------------------------------------------------------------------===//
// Casts and pointers
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  Type srcType = getElementTypeOrSelf(getSrc().getType());
  Type dstType = getElementTypeOrSelf(getResult().getType());
  bool srcIsPtr = isa<PointerType>(srcType);
  bool dstIsPtr = isa<PointerType>(dstType);
  if (srcIsPtr && dstIsPtr)
    return success();
  if (srcIsPtr != dstIsPtr)
    return emitOpError("cannot bitcast between a pointer and a non-pointer; "
                       "use tt.ptr_to_int/tt.int_to_ptr");
  if (srcType.getIntOrFloatBitWidth() != dstType.getIntOrFloatBitWidth())
    return emitOpError("source and result element types must have the same "
                       "bit width, got ")
           << srcType << " and " << dstType;
  return success();
}

LogicalResult FpToFpOp::verify() {
  auto srcType = cast<FloatType>(getElementTypeOrSelf(getSrc().getType()));
  auto dstType = cast<FloatType>(getElementTypeOrSelf(getResult().getType()));
  if (dstType.getWidth() < srcType.getWidth() && !getRounding())
    return emitOpError("a narrowing conversion from ")
           << srcType << " to " << dstType << " needs a rounding mode";
  return success();
}

LogicalResult AdvanceOp::verify() {
  auto blockType = cast<RankedTensorType>(
      cast<PointerType>(getPtr().getType()).getPointeeType());
  if (static_cast<int64_t>(getOffsets().size()) != blockType.getRank())
    return emitOpError("expects one offset per block dimension (")
           << blockType.getRank() << "), got " << getOffsets().size();
  return success();
}

LogicalResult MakeTensorPtrOp::verify() {
  auto blockType = cast<RankedTensorType>(
      cast<PointerType>(getResult().getType()).getPointeeType());
  int64_t rank = blockType.getRank();
  if (static_cast<int64_t>(getShape().size()) != rank ||
      static_cast<int64_t>(getStrides().size()) != rank ||
      static_cast<int64_t>(getOffsets().size()) != rank ||
      static_cast<int64_t>(getOrder().size()) != rank)
    return emitOpError("shape, strides, offsets and order must each have ")
           << rank << " entries, one per block dimension";
  return success();
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

static LogicalResult verifyAtomicPointer(Operation *op, Type ptrType,
                                         Type valueType) {
  if (getPointeeType(ptrType) != valueType)
    return op->emitOpError("pointer type ")
           << ptrType << " does not point to the value type " << valueType;
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  if (getResult().getType() != getVal().getType())
    return emitOpError("result type must match the value type");
  if (getMask() && getMask().getType() != getI1SameShape(getVal().getType()))
    return emitOpError("mask must be i1 with the shape of the value");
  return verifyAtomicPointer(*this, getPtr().getType(), getVal().getType());
}

LogicalResult AtomicCASOp::verify() {
  if (getCmp().getType() != getVal().getType() ||
      getResult().getType() != getVal().getType())
    return emitOpError("compare value, new value and result must have one "
                       "type");
  return verifyAtomicPointer(*this, getPtr().getType(), getVal().getType());
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult UnsplatOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferredReturnTypes) {
  inferredReturnTypes.push_back(getElementTypeOrSelf(operands[0].getType()));
  return success();
}

LogicalResult UnsplatOp::verify() {
  if (cast<RankedTensorType>(getSrc().getType()).getNumElements() != 1)
    return emitOpError("expects a tensor with exactly one element");
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto srcType = cast<RankedTensorType>(getSrc().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis > srcType.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << srcType.getRank();
  SmallVector<int64_t> expected(srcType.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (cast<RankedTensorType>(getType()).getShape() != ArrayRef(expected))
    return emitOpError("result shape must be the source shape with a 1 "
                       "inserted at axis ")
           << axis;
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto srcType = cast<RankedTensorType>(getSrc().getType());
  auto dstType = cast<RankedTensorType>(getType());
  if (srcType.getNumElements() != dstType.getNumElements())
    return emitOpError("source has ")
           << srcType.getNumElements() << " elements but the result has "
           << dstType.getNumElements();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto srcShape = cast<RankedTensorType>(getSrc().getType()).getShape();
  auto dstShape = cast<RankedTensorType>(getType()).getShape();
  if (srcShape.size() != dstShape.size())
    return emitOpError("source and result must have the same rank");
  for (auto [index, dims] : llvm::enumerate(llvm::zip(srcShape, dstShape))) {
    auto [srcDim, dstDim] = dims;
    if (srcDim != dstDim && srcDim != 1)
      return emitOpError("dimension ") << index << " of size " << srcDim
                                       << " cannot broadcast to " << dstDim;
  }
  return success();
}

LogicalResult CatOp::verify() {
  auto srcType = cast<RankedTensorType>(getLhs().getType());
  auto dstType = cast<RankedTensorType>(getType());
  if (srcType.getRank() != dstType.getRank() ||
      dstType.getNumElements() != 2 * srcType.getNumElements())
    return emitOpError("result must have the operands' rank and twice their "
                       "number of elements");
  return success();
}

LogicalResult JoinOp::verify() {
  SmallVector<int64_t> expected(
      cast<RankedTensorType>(getLhs().getType()).getShape());
  expected.push_back(2);
  if (cast<RankedTensorType>(getType()).getShape() != ArrayRef(expected))
    return emitOpError("result shape must be the operand shape followed by 2");
  return success();
}

LogicalResult SplitOp::verify() {
  auto srcShape = cast<RankedTensorType>(getSrc().getType()).getShape();
  if (srcShape.empty() || srcShape.back() != 2)
    return emitOpError("source's last dimension must have size 2");
  auto resultType = cast<RankedTensorType>(getOutLHS().getType());
  if (resultType.getShape() != srcShape.drop_back())
    return emitOpError("result shape must be the source shape without its "
                       "last dimension");
  if (resultType.getElementType() !=
      cast<RankedTensorType>(getSrc().getType()).getElementType())
    return emitOpError("result element type must match the source");
  return success();
}

LogicalResult TransOp::verify() {
  auto srcShape = cast<RankedTensorType>(getSrc().getType()).getShape();
  auto dstShape = cast<RankedTensorType>(getType()).getShape();
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != srcShape.size() || dstShape.size() != srcShape.size())
    return emitOpError("order must be a permutation of the source's ")
           << srcShape.size() << " dimensions";
  SmallVector<bool> seen(order.size(), false);
  for (auto [index, dim] : llvm::enumerate(order)) {
    if (dim < 0 || dim >= static_cast<int32_t>(order.size()) || seen[dim])
      return emitOpError("order must be a permutation of [0, ")
             << order.size() << ")";
    seen[dim] = true;
    if (dstShape[index] != srcShape[dim])
      return emitOpError("result dimension ")
             << index << " must equal source dimension " << dim;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto aShape = cast<RankedTensorType>(getA().getType()).getShape();
  auto bShape = cast<RankedTensorType>(getB().getType()).getShape();
  auto cShape = cast<RankedTensorType>(getC().getType()).getShape();
  size_t rank = aShape.size();
  if (rank != 2 && rank != 3)
    return emitOpError("operands must be 2-D, or 3-D for a batched product");
  if (bShape.size() != rank || cShape.size() != rank)
    return emitOpError("operands and accumulator must have the same rank");
  if (aShape[rank - 1] != bShape[rank - 2])
    return emitOpError("reduction dimensions differ: ")
           << aShape[rank - 1] << " vs " << bShape[rank - 2];
  if (cShape[rank - 2] != aShape[rank - 2] ||
      cShape[rank - 1] != bShape[rank - 1])
    return emitOpError("accumulator shape must be M x N of the operands");
  if (rank == 3 && (aShape[0] != bShape[0] || aShape[0] != cShape[0]))
    return emitOpError("batch dimensions differ");
  return success();
}

//===----------------------------------------------------------------------===//
// Reduce, scan and map_elementwise
//===----------------------------------------------------------------------===//

/// Checks a combiner region: 2N scalar arguments of the inputs' element types
/// and a terminator yielding N values of those types.
template <typename ReturnOpT>
static LogicalResult verifyCombiner(Operation *op, Region &region,
                                    ValueRange srcs) {
  SmallVector<Type> elementTypes;
  for (Value src : srcs)
    elementTypes.push_back(getElementTypeOrSelf(src.getType()));
  Block &block = region.front();
  if (block.getNumArguments() != 2 * elementTypes.size())
    return op->emitOpError("combiner must take ")
           << 2 * elementTypes.size() << " arguments, got "
           << block.getNumArguments();
  for (auto [index, arg] : llvm::enumerate(block.getArguments()))
    if (arg.getType() != elementTypes[index % elementTypes.size()])
      return op->emitOpError("combiner argument ")
             << index << " must have type "
             << elementTypes[index % elementTypes.size()];
  auto terminator = dyn_cast<ReturnOpT>(block.getTerminator());
  if (!terminator)
    return op->emitOpError("combiner must end with ")
           << ReturnOpT::getOperationName();
  if (TypeRange(terminator.getOperands()) != TypeRange(elementTypes))
    return terminator.emitOpError("must return one value of each input's "
                                  "element type");
  return success();
}

static LogicalResult verifySameShapes(Operation *op, ValueRange srcs) {
  if (srcs.empty())
    return op->emitOpError("needs at least one input");
  auto shape = getShapeOrEmpty(srcs.front().getType());
  for (Value src : srcs)
    if (getShapeOrEmpty(src.getType()) != shape)
      return op->emitOpError("inputs must have the same shape");
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifySameShapes(*this, getSrcs())))
    return failure();
  auto srcShape = getShapeOrEmpty(getSrcs().front().getType());
  int64_t axis = getAxis();
  if (failed(verifyAxis(*this, axis, srcShape.size())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("needs one result per input");
  SmallVector<int64_t> resultShape(srcShape);
  resultShape.erase(resultShape.begin() + axis);
  for (auto [src, result] : llvm::zip(getSrcs(), getResults())) {
    Type elementType = getElementTypeOrSelf(src.getType());
    Type expected = resultShape.empty()
                        ? elementType
                        : RankedTensorType::get(resultShape, elementType);
    if (result.getType() != expected)
      return emitOpError("result type must be ") << expected;
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombiner<ReduceReturnOp>(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifySameShapes(*this, getSrcs())))
    return failure();
  auto srcShape = getShapeOrEmpty(getSrcs().front().getType());
  if (failed(verifyAxis(*this, getAxis(), srcShape.size())))
    return failure();
  if (TypeRange(getResults()) != TypeRange(getSrcs()))
    return emitOpError("results must have the inputs' types");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombiner<ScanReturnOp>(*this, getCombineOp(), getSrcs());
}

LogicalResult MapElementwiseOp::verifyRegions() {
  if (getPack() < 1)
    return emitOpError("pack must be at least 1");
  Region &region = getScalarOp();
  if (region.empty())
    return emitOpError("needs a scalar region");
  size_t expectedArgs = getSrcs().size() * getPack();
  if (region.front().getNumArguments() != expectedArgs)
    return emitOpError("scalar region must take ")
           << expectedArgs << " arguments (inputs x pack)";
  for (auto [index, arg] : llvm::enumerate(region.front().getArguments())) {
    Type expected =
        getElementTypeOrSelf(getSrcs()[index % getSrcs().size()].getType());
    if (arg.getType() != expected)
      return emitOpError("scalar region argument ")
             << index << " must have type " << expected;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Side effects of calls into external code
//===----------------------------------------------------------------------===//

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addGlobalMemoryEffects(getPure(), effects);
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addGlobalMemoryEffects(getPure(), effects);
}

//===----------------------------------------------------------------------===//
// make_range, gather
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStartAttr().getInt();
  int64_t end = getEndAttr().getInt();
  if (end <= start)
    return emitOpError("end (")
           << end << ") must be greater than start (" << start << ")";
  auto resultType = cast<RankedTensorType>(getType());
  if (resultType.getRank() != 1 || !resultType.getElementType().isInteger(32))
    return emitOpError("result must be a 1-D tensor of i32");
  if (resultType.getDimSize(0) != end - start)
    return emitOpError("result must have end - start = ")
           << end - start << " elements";
  return success();
}

LogicalResult GatherOp::verify() {
  auto srcType = cast<RankedTensorType>(getSrc().getType());
  auto indicesType = cast<RankedTensorType>(getIndices().getType());
  auto resultType = cast<RankedTensorType>(getType());
  if (indicesType.getRank() != srcType.getRank())
    return emitOpError("indices and source must have the same rank");
  if (failed(verifyAxis(*this, getAxis(), srcType.getRank())))
    return failure();
  if (resultType.getShape() != indicesType.getShape())
    return emitOpError("result must have the shape of the indices");
  if (resultType.getElementType() != srcType.getElementType())
    return emitOpError("result element type must match the source");
  return success();
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult ReturnOp::verify() {
  auto func = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> expected = func.getResultTypes();
  if (getNumOperands() != expected.size())
    return emitOpError("returns ")
           << getNumOperands() << " values but the function '" << func.getName()
           << "' has " << expected.size() << " results";
  for (auto [index, types] :
       llvm::enumerate(llvm::zip(getOperandTypes(), expected))) {
    auto [actual, declared] = types;
    if (actual != declared)
      return emitOpError("type of returned value ")
             << index << " (" << actual
             << ") does not match the function result type (" << declared
             << ")";
  }
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto calleeAttr = (*this)->getAttrOfType<FlatSymbolRefAttr>("callee");
  auto callee = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, calleeAttr);
  if (!callee)
    return emitOpError("'") << calleeAttr.getValue()
                            << "' does not name a tt.func in this module";
  FunctionType calleeType = callee.getFunctionType();
  if (TypeRange(calleeType.getInputs()) != TypeRange(getOperandTypes()))
    return emitOpError("operand types do not match the signature of '")
           << calleeAttr.getValue() << "'";
  if (TypeRange(calleeType.getResults()) != TypeRange(getResultTypes()))
    return emitOpError("result types do not match the signature of '")
           << calleeAttr.getValue() << "'";
  return success();
}
