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
// Buffers of one element type but other shapes share memory too where each
// is accessed only element by element or by cooperative-matrix loads and
// stores, on the buffer or a static view of it: the shared allocation
// becomes one flat array of the largest one's size, and each access takes
// the row-major position of its indices (as the SPIR-V conversion computes
// it anyway). So a block staged once before a loop (attention's queries,
// loaded into fragments) gives its memory to the loop's stagings (with a
// barrier before the loop where none separates them): on NVIDIA, the
// workgroup memory of a workgroup decides how many run on a
// multiprocessor.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
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
  /// Whether every use is an access of the buffer itself, element by element
  /// or by a cooperative-matrix load or store, so that it can be a part of
  /// a flat array (of another shape).
  bool flattenable;
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
  if (fromType.getElementType() != toType.getElementType() ||
      fromType.getMemorySpace() != toType.getMemorySpace())
    return false;
  return (from.reshapable && to.reshapable &&
          fromType.getNumElements() == toType.getNumElements()) ||
         (from.flattenable && to.flattenable);
}

/// The buffer `op` accesses, where it is an access a flat array can serve
/// (element-wise or by cooperative-matrix rows), or null.
Value flattenableAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRef();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  if (auto load = dyn_cast<gpu::SubgroupMmaLoadMatrixOp>(op))
    return load.getSrcMemref();
  if (auto store = dyn_cast<gpu::SubgroupMmaStoreMatrixOp>(op))
    return store.getDstMemref();
  return {};
}

/// Whether `view` is a box of static offsets and sizes and unit strides
/// (a padded operand's unpadded part) whose every use is an access a flat
/// array can serve.
bool isFlattenableView(Operation *op) {
  auto view = dyn_cast<memref::SubViewOp>(op);
  return view && !view->use_empty() &&
         view.getSourceType().getLayout().isIdentity() &&
         llvm::all_of(view.getStaticOffsets(),
                      [](int64_t o) { return !ShapedType::isDynamic(o); }) &&
         llvm::all_of(view.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; }) &&
         view.getSourceType().getRank() == view.getType().getRank() &&
         llvm::all_of(view->getUsers(), [&](Operation *user) {
           return flattenableAccess(user) == view.getResult();
         });
}

/// Makes every access of `buffer` (flattenable), directly, through a static
/// view or through a reshape of identity layouts (one this pass made to
/// share the buffer), one of `flat`, a 1-D array of its element type, at the
/// row-major position of its indices (plus the view's offsets); a reshape
/// keeps the row-major order of the elements.
void accessFlat(RewriterBase &rewriter, Value buffer, Value flat) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> strides = computeStrides(type.getShape());
  auto rewrite = [&](Operation *user, ArrayRef<int64_t> offsets) {
    // Operands: [stored value,] memref, indices.
    unsigned memrefIndex =
        isa<memref::StoreOp, gpu::SubgroupMmaStoreMatrixOp>(user) ? 1 : 0;
    rewriter.setInsertionPoint(user);
    Location loc = user->getLoc();
    auto constant = [&](int64_t value) {
      return arith::ConstantIndexOp::create(rewriter, loc, value).getResult();
    };
    int64_t start = 0;
    for (auto [offset, stride] : llvm::zip(offsets, strides))
      start += offset * stride;
    Value position = start ? constant(start) : Value();
    for (auto [index, stride] : llvm::zip(
             user->getOperands().drop_front(memrefIndex + 1), strides)) {
      Value term = index;
      if (stride != 1)
        term = arith::MulIOp::create(rewriter, loc, index, constant(stride));
      position = position ? arith::AddIOp::create(rewriter, loc, position,
                                                  term)
                                .getResult()
                          : term;
    }
    if (!position)
      position = constant(0);
    SmallVector<Value> operands(user->getOperands().take_front(memrefIndex));
    operands.append({flat, position});
    rewriter.modifyOpInPlace(user, [&] { user->setOperands(operands); });
  };
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
    if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user)) {
      accessFlat(rewriter, user->getResult(0), flat);
      rewriter.eraseOp(user);
      continue;
    }
    auto view = dyn_cast<memref::SubViewOp>(user);
    if (!view) {
      rewrite(user, SmallVector<int64_t>(type.getRank(), 0));
      continue;
    }
    for (Operation *access : llvm::make_early_inc_range(view->getUsers()))
      rewrite(access, view.getStaticOffsets());
    rewriter.eraseOp(view);
  }
}

/// Makes `range`'s allocation a flat array of at least `elements`, its
/// accesses flat ones.
void flatten(RewriterBase &rewriter, LiveRange &range, int64_t elements) {
  MemRefType type = range.alloc.getType();
  if (type.getRank() == 1 && type.getNumElements() >= elements)
    return;
  rewriter.setInsertionPoint(range.alloc);
  auto flatType = MemRefType::get(
      {std::max(elements, type.getNumElements())}, type.getElementType(),
      MemRefLayoutAttrInterface(), type.getMemorySpace());
  auto flat = memref::AllocOp::create(rewriter, range.alloc.getLoc(),
                                      flatType);
  flat->setAttrs(range.alloc->getAttrs());
  accessFlat(rewriter, range.alloc, flat);
  rewriter.eraseOp(range.alloc);
  range.alloc = flat;
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
    bool flattenable = type.getLayout().isIdentity();
    triton_spirv::forEachUserThroughViews(
        alloc, [&](Operation *user, bool isView) {
          users.push_back(user);
          if (!isView)
            accesses.push_back(user);
          reshapable &= isView ? isa<memref::SubViewOp, memref::ExpandShapeOp,
                                     memref::CollapseShapeOp>(user)
                               : isa<memref::LoadOp, memref::StoreOp>(user);
          Value accessed = isView ? Value() : flattenableAccess(user);
          auto view = accessed ? accessed.getDefiningOp<memref::SubViewOp>()
                               : memref::SubViewOp();
          flattenable &=
              isView ? user->getOperand(0) == alloc && isFlattenableView(user)
                     : accessed == alloc ||
                           (view && view.getSource() == alloc);
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
                      order.lookup(lastOp).second, reshapable, flattenable,
                      lastOp, std::move(accesses)});
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
    if (reusable == kept.end() && !range.accesses.empty()) {
      // A buffer of another shape used only before the op that holds this
      // one's first access (a block staged once before a loop, for the loop's
      // stagings): a barrier between the two top-level ops lets it share.
      Block &entry = kernel.getBody().front();
      Operation *start = entry.findAncestorOpInBlock(*range.accesses.front());
      reusable = llvm::find_if(kept, [&](LiveRange &other) {
        if (other.alloc.getType() == range.alloc.getType() ||
            !other.flattenable || !range.flattenable ||
            !canStandFor(other, range) || other.last >= range.first)
          return false;
        Operation *end = entry.findAncestorOpInBlock(*other.lastOp);
        return start && end && end != start && end->isBeforeInBlock(start);
      });
      if (reusable != kept.end()) {
        rewriter.setInsertionPoint(start);
        gpu::BarrierOp::create(rewriter, start->getLoc());
      }
    }
    if (reusable == kept.end()) {
      kept.push_back(range);
      continue;
    }
    // The kept allocation is defined first (allocations are hoisted to the
    // kernel's start), so it dominates every use. (Positions as they are now:
    // an earlier reuse may have moved it.)
    if (range.alloc->isBeforeInBlock(reusable->alloc))
      rewriter.moveOpBefore(reusable->alloc, range.alloc);
    MemRefType type = range.alloc.getType();
    MemRefType targetType = reusable->alloc.getType();
    if (type != targetType &&
        !(reusable->reshapable && range.reshapable &&
          type.getNumElements() == targetType.getNumElements())) {
      // Other shapes: both parts of one flat array.
      flatten(rewriter, *reusable, type.getNumElements());
      accessFlat(rewriter, range.alloc, reusable->alloc);
      rewriter.eraseOp(range.alloc);
    } else {
      Value replacement = reusable->alloc.getResult();
      if (type != targetType) {
        // Through one dimension: both reshapes keep the identity layout.
        rewriter.setInsertionPoint(range.alloc);
        Location loc = range.alloc.getLoc();
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
    }
    reusable->last = range.last;
    reusable->lastOp = range.lastOp;
    reusable->accesses = range.accesses;
    reusable->reshapable &= range.reshapable;
    reusable->flattenable &= range.flattenable;
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
