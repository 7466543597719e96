//===- ReuseLoads.cpp - a block read twice is read once -------------------===//
//
// A tt.load identical to an earlier one of the same block (same pointers,
// mask, `other` and attributes) gives the earlier result when nothing in
// between may have written what it reads. Writes through other kernel
// arguments do not count: kernel arguments are separate storage buffer
// bindings, which Vulkan lets the driver assume do not alias, so the same
// assumption is already in every kernel this backend emits.
//
//===----------------------------------------------------------------------===//

#include "PointerRoots.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONREUSELOADS
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// What an op may write: nothing, the storage of some kernel arguments, or
/// anything (`all`).
struct Writes {
  llvm::SmallPtrSet<Value, 4> roots;
  bool all = false;
};

/// Adds what `op` (and the ops nested in it) may write to `writes`.
void addWrites(Operation *op, Writes &writes) {
  op->walk([&](Operation *nested) {
    if (writes.all)
      return WalkResult::interrupt();
    // Debug output has a buffer of its own.
    if (isa<AssertOp, PrintOp>(nested))
      return WalkResult::advance();
    if (Value pointer = isa<LoadOp>(nested)
                            ? Value()
                            : triton_spirv::accessedPointer(nested)) {
      if (std::optional<Value> root = triton_spirv::pointerRoot(pointer))
        writes.roots.insert(*root);
      else
        writes.all = true;
      return WalkResult::advance();
    }
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (effects ? effects.hasEffect<MemoryEffects::Write>()
                : !nested->hasTrait<mlir::OpTrait::HasRecursiveMemoryEffects>())
      writes.all = true;
    return WalkResult::advance();
  });
}

bool sameLoad(LoadOp a, LoadOp b) {
  return a->getOperands() == b->getOperands() &&
         a->getAttrDictionary() == b->getAttrDictionary() &&
         a.getType() == b.getType();
}

/// Reuses loads within each block of `region` and the regions nested in it.
void reuseLoads(Region &region) {
  for (Block &block : region) {
    // Loads whose results may stand for later identical ones, with the
    // argument they read (null when unknown).
    SmallVector<std::pair<LoadOp, Value>> available;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      for (Region &nested : op.getRegions())
        reuseLoads(nested);
      if (auto load = dyn_cast<LoadOp>(op)) {
        if (load.getIsVolatile())
          continue;
        auto earlier = llvm::find_if(available, [&](auto &entry) {
          return sameLoad(entry.first, load);
        });
        if (earlier != available.end()) {
          load.replaceAllUsesWith(earlier->first.getResult());
          load.erase();
          continue;
        }
        available.push_back(
            {load, triton_spirv::pointerRoot(load.getPtr()).value_or(Value())});
        continue;
      }
      Writes writes;
      addWrites(&op, writes);
      if (writes.all) {
        available.clear();
        continue;
      }
      if (!writes.roots.empty())
        llvm::erase_if(available, [&](auto &entry) {
          return !entry.second || writes.roots.contains(entry.second);
        });
    }
  }
}

struct TritonReuseLoadsPass
    : public triton_spirv::impl::TritonReuseLoadsBase<TritonReuseLoadsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<FuncOp>())
      reuseLoads(func.getBody());
  }
};
} // namespace
