//===- RemoveRedundantBarriers.cpp - Barriers that order nothing ----------===//
//
// The distribution brackets every step with barriers and leaves it to this
// pass to drop those with nothing to order. Control flow is followed: a
// loop's body is reached both from before the loop and from the body's own
// end (the back edge), so a barrier in a loop that only reads global memory
// and computes goes too.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_REMOVEREDUNDANTBARRIERS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// What ops do that another invocation could see.
struct SharedEffects {
  bool readsGlobal = false, writesGlobal = false, readsWorkgroup = false,
       writesWorkgroup = false, unknown = false;

  /// Adds what `op` does, with what it nests.
  void add(Operation *op) {
    op->walk([&](Operation *nested) {
      auto load = dyn_cast<memref::LoadOp>(nested);
      auto store = dyn_cast<memref::StoreOp>(nested);
      if (load || store) {
        auto type = load ? load.getMemRefType() : store.getMemRefType();
        if (triton_spirv::isWorkgroupMemory(type))
          (load ? readsWorkgroup : writesWorkgroup) = true;
        else if (!triton_spirv::isPrivateMemory(type))
          (load ? readsGlobal : writesGlobal) = true;
        return;
      }
      // Workgroup allocations become module-level variables; nested
      // barriers are judged as if absent (conservatively).
      if (!isa<scf::ForOp, scf::IfOp, scf::YieldOp, gpu::ShuffleOp,
               gpu::BarrierOp, memref::AllocaOp, memref::AllocOp>(nested) &&
          !isPure(nested))
        unknown = true;
    });
  }

  bool touchesGlobal() const { return readsGlobal || writesGlobal || unknown; }
  bool touchesWorkgroup() const {
    return readsWorkgroup || writesWorkgroup || unknown;
  }

  /// Whether these effects, on one side of a barrier, conflict with
  /// `other`, on the other side: a write and an access to the same kind of
  /// memory.
  bool conflictsWith(const SharedEffects &other) const {
    return ((writesGlobal || unknown) && other.touchesGlobal()) ||
           ((writesWorkgroup || unknown) && other.touchesWorkgroup()) ||
           ((other.writesGlobal || other.unknown) && touchesGlobal()) ||
           ((other.writesWorkgroup || other.unknown) && touchesWorkgroup());
  }
};

/// What the ops between `barrier` and the barriers next to it in one
/// direction do, over every control-flow path. A path ends at another
/// barrier or at the kernel's entry or exit. `scf.for` bodies are entered
/// from before the loop and from their own other end (the back edge);
/// `scf.if` branches continue before (after) the `scf.if`. Other regions
/// count as doing anything.
class PathEffects {
public:
  PathEffects(Operation *barrier, bool forward)
      : barrier(barrier), forward(forward) {
    fromOp(barrier);
  }

  SharedEffects effects;

private:
  Operation *step(Operation *op) const {
    return forward ? op->getNextNode() : op->getPrevNode();
  }

  /// Adds the ops from `first` on, up to a barrier or `end`; true when a
  /// barrier ends the path.
  bool addUntilBarrier(Operation *first, Operation *end) {
    for (Operation *op = first; op != end; op = step(op)) {
      if (isa<gpu::BarrierOp>(op))
        return true;
      effects.add(op);
    }
    return false;
  }

  /// The ops after (before) `op` in its block, then what follows (precedes)
  /// the block.
  void fromOp(Operation *op) {
    if (addUntilBarrier(step(op), nullptr))
      return;
    Operation *parent = op->getParentOp();
    if (isa<func::FuncOp>(parent))
      return;
    if (isa<scf::IfOp>(parent))
      return fromOp(parent);
    auto loop = dyn_cast<scf::ForOp>(parent);
    if (!loop) {
      effects.unknown = true;
      return;
    }
    fromOp(loop);
    // Around the back edge: from the body's other end up to the op that
    // holds the barrier (all of it, unless it is the barrier).
    Block *body = loop.getBody();
    Operation *holder = body->findAncestorOpInBlock(*barrier);
    if (addUntilBarrier(forward ? &body->front() : body->getTerminator(),
                        holder))
      return;
    if (holder != barrier)
      effects.add(holder);
  }

  Operation *barrier;
  bool forward;
};

/// A barrier is redundant when nothing on one side of it (up to the
/// barriers next to it) writes memory of a kind that the other side
/// accesses: private memory and computation need no ordering, nor do reads
/// on both sides.
bool isRedundant(gpu::BarrierOp barrier) {
  return !PathEffects(barrier, /*forward=*/false)
              .effects.conflictsWith(
                  PathEffects(barrier, /*forward=*/true).effects);
}

struct RemoveRedundantBarriersPass
    : triton_spirv::impl::RemoveRedundantBarriersBase<
          RemoveRedundantBarriersPass> {
  void runOnOperation() override {
    // In program order, each judged on what remains of the earlier ones.
    SmallVector<gpu::BarrierOp> barriers;
    getOperation().walk(
        [&](gpu::BarrierOp barrier) { barriers.push_back(barrier); });
    for (gpu::BarrierOp barrier : barriers)
      if (barrier->getParentOfType<func::FuncOp>() && isRedundant(barrier))
        barrier.erase();
  }
};
} // namespace
