//===- OrderAtomics.cpp - Memory semantics of atomics for the target ------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_ORDERATOMICS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Whether `semantics` orders memory (acquire, release or both).
bool isOrdered(spirv::MemorySemantics semantics) {
  return spirv::bitEnumContainsAny(
      semantics, spirv::MemorySemantics::Acquire |
                     spirv::MemorySemantics::Release |
                     spirv::MemorySemantics::AcquireRelease |
                     spirv::MemorySemantics::SequentiallyConsistent);
}

/// Rewrites every memory-semantics operand of the module's atomics with
/// `rewrite`; returns whether any was ordered.
bool rewriteAtomicSemantics(
    spirv::ModuleOp module,
    function_ref<spirv::MemorySemantics(spirv::MemorySemantics)> rewrite) {
  bool ordered = false;
  module.walk([&](Operation *op) {
    for (StringRef name :
         {"semantics", "equal_semantics", "unequal_semantics"}) {
      auto semantics = op->getAttrOfType<spirv::MemorySemanticsAttr>(name);
      if (!semantics)
        continue;
      ordered |= isOrdered(semantics.getValue());
      op->setAttr(
          name, spirv::MemorySemanticsAttr::get(module.getContext(),
                                                rewrite(semantics.getValue())));
    }
  });
  return ordered;
}

/// lavapipe (Mesa 22.3, LLVM 15) drops the effects of atomics that carry
/// acquire/release ordering inside a loop whose trip count differs between
/// invocations, as distributed loops over fewer elements than invocations
/// have: the last such loops of a kernel do nothing, or their results read 0.
/// Relaxed atomics are unaffected.
void dropAtomicOrdering(spirv::ModuleOp module) {
  // Storage-class bits without an ordering bit are invalid: clear them too.
  rewriteAtomicSemantics(module, [](spirv::MemorySemantics) {
    return spirv::MemorySemantics::None;
  });
}

/// Upstream's ordered atomics name no storage class, so they order no
/// memory: a lock taken with an acquiring compare-and-swap would not make
/// the previous holder's writes visible (NVIDIA: a spin-locked critical
/// section over 2000 programs lost most of its updates). Ordered atomics
/// order storage-buffer memory, as Triton's `sem` asks.
void orderStorageBufferMemory(spirv::ModuleOp module) {
  bool ordered =
      rewriteAtomicSemantics(module, [](spirv::MemorySemantics semantics) {
        // A storage-class bit without an ordering bit is invalid.
        return isOrdered(semantics)
                   ? semantics | spirv::MemorySemantics::UniformMemory
                   : semantics;
      });
  // What the atomics order must bypass incoherent caches too: the storage
  // buffers of such a kernel are Coherent.
  if (!ordered)
    return;
  UnitAttr unit = UnitAttr::get(module.getContext());
  for (auto variable : module.getOps<spirv::GlobalVariableOp>()) {
    auto pointer = dyn_cast<spirv::PointerType>(variable.getType());
    if (pointer &&
        pointer.getStorageClass() == spirv::StorageClass::StorageBuffer)
      variable->setAttr("coherent", unit);
  }
}

struct OrderAtomicsPass
    : triton_spirv::impl::OrderAtomicsBase<OrderAtomicsPass> {
  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> resolved =
        triton_spirv::lookupTarget(getOperation());
    if (failed(resolved))
      return signalPassFailure();
    for (auto spirvModule : getOperation().getOps<spirv::ModuleOp>()) {
      if (resolved->description.relaxedAtomicsOnly)
        dropAtomicOrdering(spirvModule);
      else
        orderStorageBufferMemory(spirvModule);
    }
  }
};
} // namespace
