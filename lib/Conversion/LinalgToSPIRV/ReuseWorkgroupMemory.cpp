//===- ReuseWorkgroupMemory.cpp - Share workgroup buffers by liveness -----===//
//
// After distribution every workgroup buffer is a kernel-level allocation,
// and each would be its own Workgroup variable: the kernel would take the
// sum of all of them. Buffers of the same type whose live ranges do not
// overlap share one allocation here, so that the kernel takes closer to the
// peak of what is live at once.
//
// A buffer's live range is the span, in program order, of the ops that use
// it (through views too), where a use inside a loop stands for the whole of
// the outermost loop around it: the buffer may carry values from one
// iteration to the next. A buffer that each iteration of the innermost loop
// around all its uses stores to before reading (a chunk of matmul operands)
// carries nothing: it is live only over that loop, so the chunks of the
// several dots of one loop body share memory. A buffer takes over another
// only where a barrier separates the other's accesses from its own, so
// that every invocation is done with the other before any writes it anew.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_REUSEWORKGROUPMEMORY
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
struct LiveRange {
  memref::AllocOp alloc;
  unsigned first, last;
  /// Whether every access (through views too) is a load or a store, so that
  /// the buffer can be a reshaped view of another of as many elements.
  bool reshapable;
  /// The op whose program-order span ends the range, and the accesses
  /// (through views too) of the buffer that last took it over, in program
  /// order: a barrier orders the earlier buffers' before them.
  Operation *lastOp;
  SmallVector<Operation *> accesses;
};

/// Whether a buffer of type `from` can stand for one of type `to`: the same
/// type, or, for buffers only loaded and stored, as many elements of the
/// same type (a reshaped view).
bool canStandFor(LiveRange &from, LiveRange &to) {
  MemRefType fromType = from.alloc.getType(), toType = to.alloc.getType();
  if (fromType == toType)
    return true;
  return from.reshapable && to.reshapable &&
         fromType.getElementType() == toType.getElementType() &&
         fromType.getMemorySpace() == toType.getMemorySpace() &&
         fromType.getNumElements() == toType.getNumElements();
}

/// Program order: each op's position when it starts and after its regions.
using ProgramOrder = DenseMap<Operation *, std::pair<unsigned, unsigned>>;

ProgramOrder programOrder(func::FuncOp kernel) {
  ProgramOrder span;
  unsigned next = 0;
  kernel->walk([&](Operation *op, const WalkStage &stage) {
    if (stage.isBeforeAllRegions())
      span[op].first = next++;
    if (stage.isAfterAllRegions())
      span[op].second = next++;
  });
  return span;
}

/// `user`, or the outermost loop around it.
Operation *widenedToLoops(Operation *user, func::FuncOp kernel) {
  Operation *outermostLoop = nullptr;
  for (Operation *parent = user->getParentOp(); parent != kernel;
       parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      outermostLoop = parent;
  return outermostLoop ? outermostLoop : user;
}

/// Whether a barrier separates every access in `accesses` (one buffer's,
/// in program order) from `other`, an op that comes after them all
/// (`after`) or before them all: a barrier after the last access (before
/// the first), in a block that holds all the accesses, so that each runs
/// before (after) it in the same run of the block, and before (after) the
/// op holding `other` where that block holds it too.
bool barrierSeparates(ArrayRef<Operation *> accesses, Operation *other,
                      bool after) {
  Operation *holder = after ? accesses.back() : accesses.front();
  auto step = [&](Operation *op) {
    return after ? op->getNextNode() : op->getPrevNode();
  };
  while (true) {
    Block *block = holder->getBlock();
    Operation *stop = block->findAncestorOpInBlock(*other);
    if (stop == holder)
      return false;
    bool holdsAll = llvm::all_of(accesses, [&](Operation *access) {
      return block->findAncestorOpInBlock(*access) != nullptr;
    });
    if (holdsAll)
      for (Operation *op = step(holder); op && op != stop; op = step(op))
        if (isa<gpu::BarrierOp>(op))
          return true;
    holder = block->getParentOp();
    if (stop || isa<func::FuncOp>(holder))
      return false;
  }
}

/// The innermost loop around every one of a buffer's `accesses` in which each
/// iteration stores to the buffer before it reads it (the staging of a
/// chunk of matmul operands, written whole, then read): nothing flows from
/// one iteration to the next through it, so the buffer is live only within
/// that loop. Null where there is none. (Block values are never updated in
/// part here: a value carried by a loop is read by the ops that compute its
/// next one, so its buffer is read first.)
Operation *iterationLocalLoop(ArrayRef<Operation *> accesses,
                              func::FuncOp kernel) {
  if (accesses.empty())
    return nullptr;
  Operation *loop = accesses.front()->getParentOp();
  auto containsAll = [&](Operation *candidate) {
    return llvm::all_of(accesses, [&](Operation *access) {
      return candidate->isProperAncestor(access);
    });
  };
  while (loop != kernel &&
         !(isa<LoopLikeOpInterface>(loop) && containsAll(loop)))
    loop = loop->getParentOp();
  if (loop == kernel)
    return nullptr;
  llvm::SmallPtrSet<Operation *, 16> isAccess(accesses.begin(),
                                             accesses.end());
  Operation *firstAccess = nullptr;
  loop->walk<WalkOrder::PreOrder>([&](Operation *op) {
    // Loads whose value nothing uses (a distributed op's output element,
    // which canonicalization drops later) read nothing that matters.
    if (!isAccess.contains(op) ||
        (isa<memref::LoadOp>(op) && op->use_empty()))
      return WalkResult::advance();
    firstAccess = op;
    return WalkResult::interrupt();
  });
  return isa_and_nonnull<memref::StoreOp>(firstAccess) ? loop : nullptr;
}

void reuseBuffers(func::FuncOp kernel) {
  Block &entry = kernel.getBody().front();
  ProgramOrder order = programOrder(kernel);
  SmallVector<LiveRange> ranges;
  for (auto alloc : entry.getOps<memref::AllocOp>()) {
    MemRefType type = alloc.getType();
    if (!triton_spirv::isWorkgroupMemory(type) || !type.hasStaticShape())
      continue;
    // Its users through views; the accesses among them, in program order;
    // whether every access is a load or a store (through reshapes and
    // subviews).
    SmallVector<Operation *> users, accesses;
    bool reshapable = true;
    triton_spirv::forEachUserThroughViews(
        alloc, [&](Operation *user, bool isView) {
          users.push_back(user);
          if (!isView)
            accesses.push_back(user);
          reshapable &= isView ? isa<memref::SubViewOp, memref::ExpandShapeOp,
                                     memref::CollapseShapeOp>(user)
                               : isa<memref::LoadOp, memref::StoreOp>(user);
        });
    if (users.empty())
      continue;
    llvm::sort(accesses, [&](Operation *a, Operation *b) {
      return order.lookup(a).first < order.lookup(b).first;
    });
    SmallVector<Operation *> uses;
    if (Operation *loop = iterationLocalLoop(accesses, kernel))
      uses = {loop};
    else
      for (Operation *user : users)
        uses.push_back(widenedToLoops(user, kernel));
    Operation *firstOp = *llvm::min_element(uses, [&](Operation *a,
                                                      Operation *b) {
      return order.lookup(a).first < order.lookup(b).first;
    });
    Operation *lastOp = *llvm::max_element(uses, [&](Operation *a,
                                                     Operation *b) {
      return order.lookup(a).second < order.lookup(b).second;
    });
    ranges.push_back({alloc, order.lookup(firstOp).first,
                      order.lookup(lastOp).second, reshapable, lastOp,
                      std::move(accesses)});
  }
  llvm::stable_sort(ranges, [](const LiveRange &a, const LiveRange &b) {
    return a.first < b.first;
  });
  // Greedy interval colouring: a buffer takes over the first buffer that can
  // stand for it whose range a barrier has ended.
  SmallVector<LiveRange> kept;
  IRRewriter rewriter(kernel.getContext());
  for (LiveRange &range : ranges) {
    auto reusable = llvm::find_if(kept, [&](LiveRange &other) {
      return canStandFor(other, range) && other.last < range.first &&
             !range.accesses.empty() && !other.accesses.empty() &&
             (barrierSeparates(other.accesses, range.accesses.front(),
                               /*after=*/true) ||
              barrierSeparates(range.accesses, other.lastOp,
                               /*after=*/false));
    });
    if (reusable == kept.end()) {
      kept.push_back(range);
      continue;
    }
    // The kept allocation is defined first (allocations are hoisted to the
    // kernel's start), so it dominates every use. (Positions as they are now:
    // an earlier reuse may have moved it.)
    memref::AllocOp target = reusable->alloc;
    if (range.alloc->isBeforeInBlock(target))
      rewriter.moveOpBefore(target, range.alloc);
    Value replacement = target.getResult();
    MemRefType type = range.alloc.getType();
    if (replacement.getType() != type) {
      // Through one dimension: both reshapes keep the identity layout.
      rewriter.setInsertionPoint(range.alloc);
      Location loc = range.alloc.getLoc();
      auto targetType = cast<MemRefType>(replacement.getType());
      if (targetType.getRank() != 1)
        replacement = memref::CollapseShapeOp::create(
            rewriter, loc, replacement,
            {llvm::to_vector(llvm::seq<int64_t>(0, targetType.getRank()))});
      if (type.getRank() != 1)
        replacement = memref::ExpandShapeOp::create(
            rewriter, loc, type.getShape(), replacement,
            {llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()))});
    }
    rewriter.replaceOp(range.alloc, replacement);
    reusable->last = range.last;
    reusable->lastOp = range.lastOp;
    reusable->accesses = range.accesses;
    reusable->reshapable &= range.reshapable;
  }
}

struct ReuseWorkgroupMemoryPass
    : triton_spirv::impl::ReuseWorkgroupMemoryBase<ReuseWorkgroupMemoryPass> {
  void runOnOperation() override {
    for (auto kernel : getOperation().getOps<func::FuncOp>())
      if (!kernel.isExternal())
        reuseBuffers(kernel);
  }
};
} // namespace
