//===- Dialect.cpp - The tt dialect, its types and type helpers -----------===//

#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::triton;

#include "triton-spirv/Dialect/Triton/IR/TritonDialect.cpp.inc"
#include "triton-spirv/Dialect/Triton/IR/TritonEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "triton-spirv/Dialect/Triton/IR/TritonTypes.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "triton-spirv/Dialect/Triton/IR/TritonAttrs.cpp.inc"

namespace {
/// Triton inlines every non-`noinline` device function; allow the same here.
struct TritonInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }

  void handleTerminator(Operation *op, Block *newDest) const final {
    auto returnOp = dyn_cast<ReturnOp>(op);
    if (!returnOp)
      return;
    OpBuilder builder(op);
    cf::BranchOp::create(builder, op->getLoc(), newDest,
                         returnOp.getOperands());
    op->erase();
  }

  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto returnOp = cast<ReturnOp>(op);
    for (auto [from, to] : llvm::zip(valuesToRepl, returnOp.getOperands()))
      from.replaceAllUsesWith(to);
  }
};
} // namespace

void TritonDialect::initialize() {
  registerTypes();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "triton-spirv/Dialect/Triton/IR/TritonAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "triton-spirv/Dialect/Triton/IR/TritonOps.cpp.inc"
      >();
  addInterfaces<TritonInlinerInterface>();
}

void TritonDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "triton-spirv/Dialect/Triton/IR/TritonTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// PointerType
//===----------------------------------------------------------------------===//

static constexpr int kGlobalAddressSpace = 1;

/// How Triton 3.9 names the space of a pointer the kernel only reads.
static constexpr llvm::StringLiteral kConstantSpace = "constant";

Type PointerType::parse(AsmParser &parser) {
  Type pointeeType;
  int addressSpace = kGlobalAddressSpace;
  bool constant = false;
  if (parser.parseLess() || parser.parseType(pointeeType))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    std::string space;
    if (succeeded(parser.parseOptionalString(&space))) {
      if (space != kConstantSpace) {
        parser.emitError(parser.getCurrentLocation(),
                         "unknown pointer address space \"")
            << space << "\" (expected \"" << kConstantSpace << "\")";
        return {};
      }
      constant = true;
    } else if (parser.parseInteger(addressSpace)) {
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return PointerType::get(pointeeType, addressSpace, constant);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getConstant())
    printer << ", \"" << kConstantSpace << "\"";
  else if (getAddressSpace() != kGlobalAddressSpace)
    printer << ", " << getAddressSpace();
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Type helpers
//===----------------------------------------------------------------------===//

Type mlir::triton::getPointeeType(Type type) {
  if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
    if (auto ptrType = dyn_cast<PointerType>(tensorType.getElementType()))
      return tensorType.clone(ptrType.getPointeeType());
    return type;
  }
  if (auto ptrType = dyn_cast<PointerType>(type))
    return ptrType.getPointeeType();
  return type;
}

Type mlir::triton::getI1SameShape(Type type) {
  auto i1Type = IntegerType::get(type.getContext(), 1);
  if (auto tensorType = dyn_cast<RankedTensorType>(type))
    return tensorType.clone(i1Type);
  return i1Type;
}

Type mlir::triton::getBlockPointerBaseType(Type type) {
  auto ptrType = dyn_cast<PointerType>(type);
  if (!ptrType)
    return type;
  auto blockType = dyn_cast<RankedTensorType>(ptrType.getPointeeType());
  if (!blockType)
    return type;
  return PointerType::get(blockType.getElementType(),
                          ptrType.getAddressSpace(), ptrType.getConstant());
}

LogicalResult
mlir::triton::OpTrait::verifyTensorsHaveNoEncoding(Operation *op) {
  auto check = [&](Type type) -> LogicalResult {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (tensorType && tensorType.getEncoding())
      return op->emitOpError("expects tensors without an encoding, got ")
             << type;
    return success();
  };
  for (Type type : op->getOperandTypes())
    if (failed(check(type)))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(check(type)))
      return failure();
  return success();
}
