//===- ComputeElementAddresses.cpp - 64-bit element addresses -------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_COMPUTEELEMENTADDRESSES
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Replaces an access chain through a PhysicalStorageBuffer pointer by the
/// pointer's address plus the byte offset its struct and array indices
/// select, computed in i64; indices past those (vector components) index
/// the resulting pointer.
void computeAddress(spirv::AccessChainOp chain) {
  auto base = cast<spirv::PointerType>(chain.getBasePtr().getType());
  OpBuilder builder(chain);
  Location loc = chain.getLoc();
  Type i64 = builder.getI64Type();
  auto constant = [&](int64_t value) -> Value {
    return spirv::ConstantOp::create(builder, loc, i64,
                                     builder.getI64IntegerAttr(value));
  };
  Value offset;
  auto add = [&](Value term) {
    offset = offset ? spirv::IAddOp::create(builder, loc, offset, term) : term;
  };
  Type indexed = base.getPointeeType();
  ValueRange indices = chain.getIndices();
  unsigned folded = 0;
  for (Value index : indices) {
    if (auto structure = dyn_cast<spirv::StructType>(indexed)) {
      auto member = index.getDefiningOp<spirv::ConstantOp>();
      if (!member || !structure.hasOffset())
        break;
      auto position = cast<IntegerAttr>(member.getValue()).getInt();
      if (uint64_t bytes = structure.getMemberOffset(position))
        add(constant(bytes));
      indexed = structure.getElementType(position);
    } else {
      unsigned stride = 0;
      Type element;
      if (auto array = dyn_cast<spirv::RuntimeArrayType>(indexed)) {
        stride = array.getArrayStride();
        element = array.getElementType();
      } else if (auto array = dyn_cast<spirv::ArrayType>(indexed)) {
        stride = array.getArrayStride();
        element = array.getElementType();
      }
      if (!stride)
        break;
      Value wide = index;
      if (cast<IntegerType>(index.getType()).getWidth() < 64)
        wide = spirv::SConvertOp::create(builder, loc, i64, index);
      add(spirv::IMulOp::create(builder, loc, wide, constant(stride)));
      indexed = element;
    }
    ++folded;
  }
  if (folded == 0)
    return;
  Value address =
      spirv::ConvertPtrToUOp::create(builder, loc, i64, chain.getBasePtr());
  if (offset)
    address = spirv::IAddOp::create(builder, loc, address, offset);
  auto pointerType = spirv::PointerType::get(
      indexed, spirv::StorageClass::PhysicalStorageBuffer);
  Value pointer =
      spirv::ConvertUToPtrOp::create(builder, loc, pointerType, address);
  if (folded < indices.size())
    pointer = spirv::AccessChainOp::create(builder, loc, pointer,
                                           indices.drop_front(folded));
  chain.replaceAllUsesWith(pointer);
  chain.erase();
}

struct ComputeElementAddressesPass
    : triton_spirv::impl::ComputeElementAddressesBase<
          ComputeElementAddressesPass> {
  void runOnOperation() override {
    SmallVector<spirv::AccessChainOp> chains;
    getOperation().walk([&](spirv::AccessChainOp chain) {
      auto base = cast<spirv::PointerType>(chain.getBasePtr().getType());
      if (base.getStorageClass() == spirv::StorageClass::PhysicalStorageBuffer)
        chains.push_back(chain);
    });
    for (spirv::AccessChainOp chain : chains)
      computeAddress(chain);
  }
};
} // namespace
