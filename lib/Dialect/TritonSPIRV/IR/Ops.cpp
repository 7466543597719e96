//===- Ops.cpp - The triton_spirv dialect's ops ---------------------------===//

#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::triton_spirv;

#define GET_OP_CLASSES
#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVOps.cpp.inc"

/// i1, or a tensor of i1 shaped like `pointer`'s type.
static Type inBoundsTypeOf(Type pointer) {
  Type i1 = IntegerType::get(pointer.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(pointer))
    return tensor.clone(i1);
  return i1;
}

void PointerInBoundsOp::build(OpBuilder &builder, OperationState &state,
                              Value pointer) {
  build(builder, state, inBoundsTypeOf(pointer.getType()), pointer);
}

LogicalResult PointerInBoundsOp::verify() {
  auto pointer = dyn_cast<triton::PointerType>(
      getElementTypeOrSelf(getPointer().getType()));
  if (!pointer || isa<ShapedType>(pointer.getPointeeType()) ||
      (isa<ShapedType>(getPointer().getType()) &&
       !isa<RankedTensorType>(getPointer().getType())))
    return emitOpError("takes a pointer to scalars or a ranked tensor of "
                       "them, not ")
           << getPointer().getType();
  if (getInBounds().getType() != inBoundsTypeOf(getPointer().getType()))
    return emitOpError("result must be ")
           << inBoundsTypeOf(getPointer().getType()) << ", not "
           << getInBounds().getType();
  return success();
}

LogicalResult AddressBufferOp::verify() {
  auto type = cast<MemRefType>(getBuffer().getType());
  auto space =
      dyn_cast_or_null<spirv::StorageClassAttr>(type.getMemorySpace());
  if (type.getRank() != 1 || !type.isDynamicDim(0) ||
      !type.getLayout().isIdentity() || !space ||
      space.getValue() != spirv::StorageClass::PhysicalStorageBuffer)
    return emitOpError("result must be a memref<?xT, "
                       "#spirv.storage_class<PhysicalStorageBuffer>>, not ")
           << type;
  if (getRootAttr() && getRootAttr().getInt() < 0)
    return emitOpError("root must be at least 0");
  return success();
}

/// The scalar arguments `body` must take, in order, and the element type it
/// yields: a body computes one element of `fragmentType`.
static LogicalResult verifyFragmentBody(Operation *op, Region &body,
                                        TypeRange arguments,
                                        gpu::MMAMatrixType fragmentType) {
  Block &block = body.front();
  if (block.getArgumentTypes() != arguments)
    return op->emitOpError("body must take (")
           << arguments << "), not (" << block.getArgumentTypes() << ")";
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield || yield.getValue().getType() != fragmentType.getElementType())
    return op->emitOpError("body must yield one ")
           << fragmentType.getElementType();
  return success();
}

LogicalResult ReduceFragmentRowsOp::verify() {
  auto type = cast<gpu::MMAMatrixType>(getFragment().getType());
  if (type.getOperand() != "COp")
    return emitOpError("reduces accumulator (COp) fragments, not ")
           << type.getOperand() << " ones";
  Type element = type.getElementType();
  return verifyFragmentBody(*this, getCombiner(), {element, element}, type);
}

LogicalResult MapFragmentsOp::verify() {
  auto type = cast<gpu::MMAMatrixType>(getResult().getType());
  if (getFragments().empty())
    return emitOpError("maps at least one fragment");
  SmallVector<Type> arguments(2, IntegerType::get(getContext(), 32));
  for (Value fragment : getFragments()) {
    if (fragment.getType() != type)
      return emitOpError("fragments must all be of the result's type ")
             << type << ", not " << fragment.getType();
    arguments.push_back(type.getElementType());
  }
  llvm::append_range(arguments, getExtras().getTypes());
  return verifyFragmentBody(*this, getBody(), arguments, type);
}

LogicalResult ConvertFragmentOp::verify() {
  auto from = cast<gpu::MMAMatrixType>(getFragment().getType());
  auto to = cast<gpu::MMAMatrixType>(getResult().getType());
  if (from.getOperand() != "COp")
    return emitOpError("converts an accumulator (COp) fragment");
  if (to.getOperand() == "COp" &&
      from.getElementType() == to.getElementType())
    return emitOpError("converts an accumulator to an operand (AOp or BOp) "
                       "or to an accumulator of another element type");
  if (from.getShape() != to.getShape())
    return emitOpError("keeps the fragment's shape");
  if (!isa<FloatType>(from.getElementType()) ||
      !isa<FloatType>(to.getElementType()))
    return emitOpError("converts float fragments");
  return success();
}

/// A variable read or written whole: its fragment type is the value's.
static LogicalResult verifyFragmentAccess(Operation *op, StringRef verb,
                                          FragmentVariableType variable,
                                          Type fragment) {
  if (variable.getFragment() != fragment)
    return op->emitOpError(verb)
           << " a " << variable.getFragment() << ", not a " << fragment;
  return success();
}

LogicalResult ReadFragmentOp::verify() {
  return verifyFragmentAccess(*this, "reads", getVariable().getType(),
                              getFragment().getType());
}

LogicalResult WriteFragmentOp::verify() {
  return verifyFragmentAccess(*this, "writes", getVariable().getType(),
                              getFragment().getType());
}
