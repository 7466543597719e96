//===- DeclareReadOnlyBuffers.cpp - NonWritable storage buffers -----------===//
//
// A storage buffer the shader never writes may be read through a driver's
// read-only data path (on NVIDIA, the one CUDA takes for `const` data);
// drivers only know it is read-only when the variable says so.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_DECLAREREADONLYBUFFERS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Whether every use of `pointer` (through access chains) only loads.
bool onlyLoaded(Value pointer) {
  return llvm::all_of(pointer.getUsers(), [](Operation *user) {
    if (isa<spirv::LoadOp>(user))
      return true;
    if (isa<spirv::AccessChainOp>(user))
      return onlyLoaded(user->getResult(0));
    return false;
  });
}

struct DeclareReadOnlyBuffersPass
    : triton_spirv::impl::DeclareReadOnlyBuffersBase<
          DeclareReadOnlyBuffersPass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    // Variables of one binding alias (a buffer and its vector view): one is
    // read-only only when none is written.
    DenseMap<std::pair<uint32_t, uint32_t>, bool> written;
    SmallVector<spirv::GlobalVariableOp> buffers;
    module.walk([&](spirv::GlobalVariableOp variable) {
      auto pointer = dyn_cast<spirv::PointerType>(variable.getType());
      std::optional<uint32_t> set = variable.getDescriptorSet(),
                              binding = variable.getBinding();
      if (!pointer ||
          pointer.getStorageClass() != spirv::StorageClass::StorageBuffer ||
          !set || !binding)
        return;
      buffers.push_back(variable);
      written.try_emplace({*set, *binding}, false);
    });
    module.walk([&](spirv::AddressOfOp address) {
      auto variable = dyn_cast_or_null<spirv::GlobalVariableOp>(
          SymbolTable::lookupNearestSymbolFrom(address,
                                               address.getVariableAttr()));
      if (!variable || !variable.getBinding() || onlyLoaded(address))
        return;
      auto found = written.find(
          {*variable.getDescriptorSet(), *variable.getBinding()});
      if (found != written.end())
        found->second = true;
    });
    UnitAttr unit = UnitAttr::get(module.getContext());
    for (spirv::GlobalVariableOp variable : buffers)
      if (!written.lookup(
              {*variable.getDescriptorSet(), *variable.getBinding()}))
        variable->setAttr("non_writable", unit);
  }
};
} // namespace
