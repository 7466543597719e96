//===- PassUtils.cpp - Shared steps of the conversion passes --------------===//

#include "Patterns.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

LogicalResult mlir::triton_spirv::reportUnsupportedOps(
    Operation *root,
    function_ref<std::optional<std::string>(Operation *)> unsupported) {
  bool found = false;
  root->walk([&](Operation *op) {
    if (std::optional<std::string> message = unsupported(op)) {
      op->emitError(*message);
      found = true;
    }
  });
  return failure(found);
}

LogicalResult mlir::triton_spirv::applyConversionWithoutRollback(
    Operation *root, const ConversionTarget &target,
    RewritePatternSet &&patterns) {
  ConversionConfig config;
  config.allowPatternRollback = false;
  return applyPartialConversion(root, target, std::move(patterns), config);
}

FailureOr<Value> mlir::triton_spirv::lookupRootArg(Operation *op,
                                                   KernelArgRole role,
                                                   Type elementType) {
  auto func = op->getParentOfType<func::FuncOp>();
  if (auto address = op->getAttrOfType<IntegerAttr>(kRootAddressAttrName)) {
    if (role != KernelArgRole::Buffer)
      return op->emitError("pointers with an address root have no ")
             << stringifyKernelArgRole(role) << " argument";
    AddressBufferOp found;
    if (func)
      func.walk([&](AddressBufferOp buffer) {
        if (buffer.getRoot() != std::optional<uint64_t>(address.getInt()) ||
            (elementType &&
             getElementTypeOrSelf(buffer.getType()) != elementType))
          return WalkResult::advance();
        found = buffer;
        return WalkResult::interrupt();
      });
    if (!found)
      return op->emitError("no address buffer of element type ")
             << elementType << " for address root " << address.getInt();
    return found.getBuffer();
  }
  auto root = op->getAttrOfType<IntegerAttr>(kRootArgAttrName);
  if (!root || !func)
    return op->emitError("pointer root unknown: run "
                         "--triton-func-to-kernel-abi first");
  for (BlockArgument arg : func.getArguments()) {
    unsigned index = arg.getArgNumber();
    FailureOr<std::optional<KernelArgRole>> argRole = getArgRole(func, index);
    if (failed(argRole))
      return failure();
    auto argIndex =
        func.getArgAttrOfType<IntegerAttr>(index, kArgIndexAttrName);
    if (*argRole != role || !argIndex || argIndex.getInt() != root.getInt())
      continue;
    if (!elementType || getElementTypeOrSelf(arg.getType()) == elementType)
      return Value(arg);
  }
  // A pointer argument passed by address: its address buffer of the type.
  if (role == KernelArgRole::Buffer) {
    AddressBufferOp found;
    func.walk([&](AddressBufferOp buffer) {
      auto address = dyn_cast<BlockArgument>(buffer.getAddress());
      if (buffer.getRoot() || !address ||
          address.getOwner()->getParentOp() != func.getOperation() ||
          (elementType &&
           getElementTypeOrSelf(buffer.getType()) != elementType))
        return WalkResult::advance();
      unsigned index = address.getArgNumber();
      auto argIndex =
          func.getArgAttrOfType<IntegerAttr>(index, kArgIndexAttrName);
      FailureOr<std::optional<KernelArgRole>> argRole =
          getArgRole(func, index);
      if (failed(argRole) || *argRole != KernelArgRole::Address ||
          !argIndex || argIndex.getInt() != root.getInt())
        return WalkResult::advance();
      found = buffer;
      return WalkResult::interrupt();
    });
    if (found)
      return found.getBuffer();
  }
  InFlightDiagnostic error = op->emitError("no ")
                             << stringifyKernelArgRole(role) << " argument";
  if (elementType)
    error << " of element type " << elementType;
  return error << " for kernel argument " << root.getInt();
}

FailureOr<Value> mlir::triton_spirv::lookupBuffer(Operation *op,
                                                  Type elementType) {
  return lookupRootArg(op, KernelArgRole::Buffer, elementType);
}

bool mlir::triton_spirv::isPointerRootCast(UnrealizedConversionCastOp op) {
  return op.getNumOperands() >= 2 && op.getNumResults() == 1 &&
         op.getOperands().back().getType().isIndex() &&
         isa<triton::PointerType>(op.getResult(0).getType());
}
