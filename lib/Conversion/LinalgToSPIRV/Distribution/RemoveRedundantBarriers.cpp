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
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_REMOVEREDUNDANTBARRIERS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using triton_spirv::bufferUnderViews;

namespace {
/// The spread of the distributed loop, or of the scalar code's guard, around
/// `access` (null outside any).
Attribute spreadAround(Operation *access) {
  for (Operation *parent = access->getParentOp();
       parent && !isa<func::FuncOp>(parent); parent = parent->getParentOp())
    if (Attribute spread = parent->getAttr(triton_spirv::kSpreadAttrName))
      return spread;
  return {};
}

/// What ops do that another invocation could see: which workgroup buffers
/// they read and write, whether they read or write global memory (any
/// buffer: arguments may alias) and in which distributed loops, and
/// whether they do anything else.
struct SharedEffects {
  bool unknown = false;
  llvm::SmallDenseSet<Value, 4> readsWorkgroup, writesWorkgroup;
  /// The spreads around the global reads and writes (null outside any).
  llvm::SmallDenseSet<Attribute, 2> readsGlobal, writesGlobal;

  /// Adds what `op` does, with what it nests: the memory effects each
  /// nested op declares on a memref (loads, stores, cooperative-matrix
  /// loads and stores, copies), by the memref's address space.
  void add(Operation *op) {
    op->walk([&](Operation *nested) {
      // Loops and branches are walked into; nested barriers are judged as
      // if absent (conservatively).
      if (isa<scf::ForOp, scf::IfOp, gpu::BarrierOp>(nested))
        return;
      // Fragment variables are registers of their subgroup.
      if (isa<triton_spirv::FragmentVariableOp, triton_spirv::ReadFragmentOp,
              triton_spirv::WriteFragmentOp>(nested))
        return;
      // The cooperative-matrix loads and stores declare their effects on
      // no value.
      if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(nested))
        return access(load.getSrcMemref(), /*isRead=*/true, nested);
      if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(nested))
        return access(store.getDstMemref(), /*isRead=*/false, nested);
      auto interface = dyn_cast<MemoryEffectOpInterface>(nested);
      if (!interface) {
        unknown = true;
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> instances;
      interface.getEffects(instances);
      for (const MemoryEffects::EffectInstance &effect : instances) {
        // Workgroup allocations become module-level variables.
        if (isa<MemoryEffects::Allocate, MemoryEffects::Free>(
                effect.getEffect()))
          continue;
        access(effect.getValue(),
               isa<MemoryEffects::Read>(effect.getEffect()), nested);
      }
    });
  }

  /// Adds a read or write of `memref` (null: of unknown memory) by `op`.
  void access(Value memref, bool isRead, Operation *op) {
    auto type = memref ? dyn_cast<MemRefType>(memref.getType()) : MemRefType();
    if (!type) {
      unknown = true;
      return;
    }
    if (triton_spirv::isWorkgroupMemory(type))
      (isRead ? readsWorkgroup : writesWorkgroup)
          .insert(bufferUnderViews(memref));
    else if (triton_spirv::isGlobalMemory(type))
      (isRead ? readsGlobal : writesGlobal).insert(spreadAround(op));
  }

  bool touches(Value workgroupBuffer) const {
    return unknown || readsWorkgroup.contains(workgroupBuffer) ||
           writesWorkgroup.contains(workgroupBuffer);
  }
  bool touchesWorkgroup() const {
    return unknown || !readsWorkgroup.empty() || !writesWorkgroup.empty();
  }

  bool touchesGlobal() const {
    return unknown || !readsGlobal.empty() || !writesGlobal.empty();
  }

  /// Whether a global write under spread `write` needs ordering with a
  /// read or write under `access` (null: outside any spread, such as reads
  /// of the scalar code, which every invocation makes). Triton orders a
  /// program's global accesses only within each thread: its GPU backends
  /// put no barrier between them. Here, loops of one spread give each
  /// invocation the same iterations on both sides (unless a slice runs each
  /// on several), and the scalar code's writes (a 0-d spread: invocation
  /// 0) are ordered with loops' accesses no more than on Triton's backends
  /// (nor with each other: one invocation makes them).
  static bool globalOrderNeeded(Attribute write, Attribute access) {
    if (!write || !access)
      return true;
    auto written = cast<triton_spirv::SpreadAttr>(write);
    auto accessed = cast<triton_spirv::SpreadAttr>(access);
    if (written.getShape().empty() || accessed.getShape().empty())
      return false;
    return write != access ||
           isa_and_nonnull<triton_spirv::SliceLayoutAttr>(written.getLayout());
  }

  /// Whether writes among these effects meet accesses to the same memory
  /// among `other`'s.
  bool writesWhatIsAccessedBy(const SharedEffects &other) const {
    if (unknown)
      return other.touchesGlobal() || other.touchesWorkgroup();
    auto globalConflict = [&](const llvm::SmallDenseSet<Attribute, 2> &in) {
      return llvm::any_of(writesGlobal, [&](Attribute write) {
        return llvm::any_of(in, [&](Attribute access) {
          return globalOrderNeeded(write, access);
        });
      });
    };
    return (!writesGlobal.empty() && other.unknown) ||
           globalConflict(other.readsGlobal) ||
           globalConflict(other.writesGlobal) ||
           llvm::any_of(writesWorkgroup,
                        [&](Value buffer) { return other.touches(buffer); });
  }

  /// Whether these effects, on one side of a barrier, conflict with
  /// `other`, on the other side: a write and an access to the same memory.
  bool conflictsWith(const SharedEffects &other) const {
    return writesWhatIsAccessedBy(other) || other.writesWhatIsAccessedBy(*this);
  }
};

/// What the ops between `barrier` and the barriers next to it in one
/// direction do, over every control-flow path. A path ends at another
/// barrier or at the kernel's entry or exit. `scf.for` bodies are entered
/// from before the loop and from their own other end (the back edge);
/// `scf.if` branches continue before (after) the `scf.if`, and a path that
/// meets an `scf.if` goes through each branch, up to a barrier there. Other
/// regions count as doing anything.
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
  /// barrier ends every path.
  bool addUntilBarrier(Operation *first, Operation *end) {
    for (Operation *op = first; op != end; op = step(op)) {
      if (isa<gpu::BarrierOp>(op))
        return true;
      if (auto branch = dyn_cast<scf::IfOp>(op)) {
        if (throughBranches(branch))
          return true;
        continue;
      }
      effects.add(op);
    }
    return false;
  }

  /// Adds what each branch of `branch` does up to a barrier (its condition
  /// is uniform, as every barrier's is); true when a barrier ends every
  /// branch (an absent else branch ends none).
  bool throughBranches(scf::IfOp branch) {
    bool ended = true;
    for (Region &region : branch->getRegions()) {
      if (region.empty()) {
        ended = false;
        continue;
      }
      Block &block = region.front();
      ended &= addUntilBarrier(forward ? &block.front() : block.getTerminator(),
                               nullptr);
    }
    return ended;
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
/// barriers next to it) writes memory that the other side accesses in a way
/// that needs ordering: the same workgroup buffer, or global memory (see
/// globalOrderNeeded). Private memory and computation need no ordering,
/// nor do reads on both sides.
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
      if (!barrier->hasAttr(triton_spirv::kRequestedBarrierAttrName) &&
          barrier->getParentOfType<func::FuncOp>() && isRedundant(barrier))
        barrier.erase();
  }
};
} // namespace
