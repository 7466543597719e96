//===- InsertBoundsChecks.cpp - debug=True: accesses stay in their tensor -===//
//
// Vulkan's robust buffer access keeps an out-of-bounds access from reaching
// other memory (reads give zeros, writes are dropped) but says nothing. With
// debug=True each access asserts that its pointers address the storage of
// the tensor argument they derive from, and a failure is reported by the
// launcher like a failed tl.device_assert.
//
//===----------------------------------------------------------------------===//

#include "PointerRoots.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONINSERTBOUNDSCHECKS
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// "load", "store" or "atomic" for an access; empty for other ops.
StringRef accessKind(Operation *op) {
  if (isa<LoadOp>(op))
    return "load";
  if (isa<StoreOp>(op))
    return "store";
  if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return "atomic";
  return {};
}

Value accessMask(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getMask();
  if (auto store = dyn_cast<StoreOp>(op))
    return store.getMask();
  if (auto atomic = dyn_cast<AtomicRMWOp>(op))
    return atomic.getMask();
  return {};
}

/// How a message names a kernel argument: its Python name where the
/// front end recorded it, else its position.
std::string argumentName(BlockArgument arg) {
  if (auto name = dyn_cast<NameLoc>(arg.getLoc()))
    return ("'" + name.getName().getValue() + "'").str();
  return ("argument " + Twine(arg.getArgNumber())).str();
}

/// `inBounds || !mask`: lanes that the mask turns off access nothing.
Value unlessMaskedOff(OpBuilder &b, Location loc, Value inBounds, Value mask) {
  if (!mask)
    return inBounds;
  Type type = mask.getType();
  Value ones;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    ones = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(tensor, b.getBoolAttr(true)));
  else
    ones = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value maskedOff = arith::XOrIOp::create(b, loc, mask, ones);
  return arith::OrIOp::create(b, loc, inBounds, maskedOff);
}

struct TritonInsertBoundsChecksPass
    : public triton_spirv::impl::TritonInsertBoundsChecksBase<
          TritonInsertBoundsChecksPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (isa<DescriptorLoadOp, DescriptorStoreOp, DescriptorReduceOp,
              DescriptorGatherOp, DescriptorScatterOp>(op)) {
        op->emitRemark("bounds of accesses through tensor descriptors are "
                       "not checked");
        return;
      }
      StringRef kind = accessKind(op);
      if (kind.empty())
        return;
      Value pointer = triton_spirv::accessedPointer(op);
      auto pointerType =
          cast<PointerType>(getElementTypeOrSelf(pointer.getType()));
      if (isa<ShapedType>(pointerType.getPointeeType())) {
        op->emitRemark("bounds of this ")
            << kind << " through a block pointer are not checked";
        return;
      }
      // Pointers without one root behind them are the kernel ABI's to
      // report.
      std::optional<Value> root =
          triton_spirv::pointerRoot(pointer, /*allowAddress=*/true);
      if (!root)
        return;
      if (triton_spirv::isAddressRoot(*root)) {
        op->emitRemark("bounds of this ")
            << kind << " through an address read from memory are not checked";
        return;
      }
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value inBounds =
          triton_spirv::PointerInBoundsOp::create(b, loc, pointer);
      Value holds = unlessMaskedOff(b, loc, inBounds, accessMask(op));
      std::string message =
          ("out-of-bounds " + kind + " through " +
           argumentName(cast<BlockArgument>(*root)) +
           ": a pointer outside the tensor's storage")
              .str();
      AssertOp::create(b, loc, holds, b.getStringAttr(message));
    });
  }
};
} // namespace
