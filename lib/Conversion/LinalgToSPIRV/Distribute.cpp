//===- Distribute.cpp - One Triton program per workgroup ------------------===//
//
// After bufferization a kernel is scalar code around linalg ops on buffers.
// Every invocation of the workgroup runs the scalar code; the linalg ops are
// the block-level work and get spread over the invocations here.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "DistributeFragments.h"
#include "DistributeMatmul.h"
#include "triton-spirv/Analysis/BufferLayouts.h"
#include "triton-spirv/Analysis/FragmentFamilies.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Conversion/InlineBlock.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_DISTRIBUTETOWORKGROUP
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using triton_spirv::bufferUnderViews;

namespace {
/// A buffer kept in registers in a grid or slice layout: invocation
/// (t_0, ..., t_n) of the grid holds the elements x with x_d mod G_d = t_d
/// (over the slice's dimensions), at the row-major position of (x_d / G_d)
/// in its private buffer.
struct LayoutBuffer {
  Attribute layout;
  Value registers;
};

/// A matmul accumulator kept as cooperative-matrix fragments: the scalar it
/// is filled with and where (until its matmul takes them), then the
/// fragments its matmul computed.
struct FragmentBuffer {
  triton_spirv::FragmentsLayoutAttr layout;
  Value fill;
  Block *fillBlock = nullptr;
  SmallVector<Value> fragments;
};

class KernelDistributor {
public:
  KernelDistributor(func::FuncOp kernel,
                    const triton_spirv::WorkgroupShape &shape)
      : kernel(kernel), shape(shape), workgroupSize(shape.workgroupSize),
        subgroupSize(shape.subgroupSize), rewriter(kernel.getContext()) {}

  LogicalResult run();

private:
  Value indexConstant(Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  void barrier(Location loc) { gpu::BarrierOp::create(rewriter, loc); }
  LogicalResult distributeLinalgOp(linalg::LinalgOp op);
  bool distributeReduction(linalg::ReduceOp op,
                           MutableArrayRef<linalg::FillOp> seeds);
  bool forwardResults(linalg::ReduceOp op, ValueRange results);
  SmallVector<Value> combine(linalg::ReduceOp op, ValueRange elements,
                             ValueRange accumulators);
  SmallVector<Value> xorButterfly(linalg::ReduceOp op,
                                  SmallVector<Value> partial, int64_t first,
                                  int64_t end);
  SmallVector<Value> delinearize(Location loc, Value linear,
                                 ArrayRef<OpFoldResult> extents);
  Value partialsBuffer(Location loc, Type type, unsigned position);
  /// A new workgroup buffer of the whole kernel (allocated at its start).
  Value kernelWorkgroupBuffer(Location loc, ArrayRef<int64_t> shape,
                              Type element);
  LogicalResult findPrivateBuffers();
  LogicalResult rewritePrivateAccesses();
  LogicalResult distributeParallelLoop(scf::ParallelOp loop,
                                       int64_t vectorWidth);
  bool accessesRegistersThroughViews(Operation *op);
  Operation *needsSingleElements(Value privateBuffer);
  int64_t vectorWidthOf(linalg::LinalgOp op, bool privateInRuns);
  LogicalResult distributeOnLayout(scf::ParallelOp loop, Attribute layout);
  void leaderOnly(Operation *atomic, Value leader, Value leaderLane);
  scf::IfOp runAloneAndShare(Operation *op, Value condition,
                             ArrayRef<Value> slots, Value position,
                             bool barrierAfter);
  Value shuffleFrom(Value value, Value lane);
  LogicalResult distributeOnFragments(linalg::LinalgOp op, Value buffer,
                                      const FragmentBuffer &fragments);
  Value fragmentScratch(Location loc, Type element);
  /// The distributor of the kernel's fragment families, made at its first
  /// member.
  void createFragmentFamilyDistributor();
  bool distributeGridReduction(linalg::ReduceOp op);
  /// The grid or slice layout an element-wise op iterates in, if any.
  Attribute iterationLayout(linalg::LinalgOp op);
  LogicalResult readPairPartners(scf::ForOp loop, ValueRange ivs,
                                 Value iteration, bool guarded);
  void usePrivateRegisters(Operation *root, ValueRange ivs,
                           function_ref<Value(Value memref)> registersOf,
                           function_ref<Value(Value memref)> slotOf);
  void runOnInvocationZero(Operation *op);

  func::FuncOp kernel;
  triton_spirv::WorkgroupShape shape;
  // Shorthands for the shape's fields.
  const unsigned workgroupSize, subgroupSize;
  IRRewriter rewriter;
  Value invocationId;
  Value isInvocationZero;
  /// Workgroup buffers of one slot per invocation for reduction partials,
  /// keyed by element type, operand position and parity: consecutive
  /// reductions alternate between two, so that one's publishing need not
  /// wait for the previous one's reads (triton-spirv-remove-redundant-
  /// barriers then drops the barrier between them).
  DenseMap<std::tuple<Type, unsigned, unsigned>, Value> partials;
  unsigned oddReduction = 0;
  /// Workgroup buffers whose element q is only ever touched by invocation
  /// q mod W, mapped to the private buffer of ceil(N / W) elements that
  /// replaces them (element q is private element q / W of its owner).
  DenseMap<Value, Value> privateBuffers;
  /// Workgroup copies of private buffers, by element type, size and how
  /// many other such copies one loop reads, through which pair swaps reach
  /// elements of invocations outside their subgroup.
  DenseMap<std::tuple<Type, int64_t, unsigned>, Value> exchangeBuffers;
  /// Workgroup buffers in a grid or slice layout, and their registers.
  DenseMap<Value, LayoutBuffer> layoutBuffers;
  /// Workgroup buffers in a fragments layout.
  DenseMap<Value, FragmentBuffer> fragmentBuffers;
  /// One 16x16 tile per subgroup, by element type, through which epilogues
  /// read fragments.
  DenseMap<Type, Value> fragmentScratches;
  /// The subgroup's index, for the fragment families' tiles.
  Value fragmentSubgroupId;
  /// The buffers of fragment families, in variables (DistributeFragments);
  /// none in a kernel without them.
  std::optional<triton_spirv::FragmentFamilyDistributor> fragmentFamily;
  /// The families' epilogue scratch tiles, by element type and slot.
  DenseMap<std::pair<Type, unsigned>, Value> familyScratches;
  /// Whether the private (cyclic) buffers are held kVectorWidth elements at
  /// a time: element q by invocation (q / V) mod W, as register
  /// (q / VW) V + q mod V, so that each invocation's elements come in
  /// contiguous runs that one vector access can move.
  bool vectorPrivate = false;
};

/// Elements an invocation takes at a time in element-wise loops that allow
/// it.
static constexpr int64_t kVectorWidth = triton_spirv::kVectorAccessElements;

/// Block-level work that the distribution spreads over the invocations (or
/// runs on invocation 0, for the scalar code's writes).
static bool isDistributedWork(Operation *op) {
  return isa<linalg::LinalgOp, memref::CopyOp, memref::StoreOp,
             memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op);
}

/// Whether the distribution of `op` starts with a barrier: all work but a
/// plain store to a global buffer, whose value is the invocation's own
/// (Triton orders global memory between a program's threads no more than
/// that: its GPU backends store scalars from one thread without a barrier
/// either).
static bool startsWithBarrier(Operation *op) {
  auto store = dyn_cast<memref::StoreOp>(op);
  return isDistributedWork(op) &&
         !(store && triton_spirv::isGlobalMemory(store.getMemRefType()));
}

/// Marks `op` (a distributed loop, or the guard of what invocation 0 runs)
/// with how it spreads an iteration space of static `tripCounts` (none
/// where one is dynamic) over the invocations.
static void markSpread(Operation *op, ArrayRef<OpFoldResult> tripCounts,
                       int64_t run, Attribute layout = {}) {
  std::optional<SmallVector<int64_t>> shape =
      getConstantIntValues(tripCounts);
  if (shape)
    op->setAttr(triton_spirv::kSpreadAttrName,
                triton_spirv::SpreadAttr::get(op->getContext(), *shape, run,
                                              layout));
}

/// The fills of a reduction's outputs right before it (where
/// triton-spirv-seed-reductions puts them), one per output (null where
/// none): the reduction can start from their scalars.
static SmallVector<linalg::FillOp> seedFills(linalg::ReduceOp op) {
  SmallVector<linalg::FillOp> fills(op.getNumDpsInits());
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    auto fill = dyn_cast<linalg::FillOp>(prev);
    if (!fill)
      break;
    Value output = fill.getOutputs()[0];
    auto found = llvm::find(op.getInits(), output);
    if (found == op.getInits().end() ||
        fill.getInputs()[0].getType() != getElementTypeOrSelf(output))
      break;
    linalg::FillOp &slot = fills[found - op.getInits().begin()];
    if (!slot)
      slot = fill;
  }
  return fills;
}

/// Whether `op` is a fill that seeds the reduction after it.
static bool seedsReduction(Operation *op) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  if (!fill)
    return false;
  Operation *next = fill->getNextNode();
  while (isa_and_nonnull<linalg::FillOp>(next))
    next = next->getNextNode();
  auto reduce = dyn_cast_or_null<linalg::ReduceOp>(next);
  return reduce && llvm::is_contained(seedFills(reduce), fill);
}

LogicalResult KernelDistributor::run() {
  // The barriers already here are the program's own; the ones placed below
  // are the distribution's, which triton-spirv-remove-redundant-barriers
  // may drop.
  kernel.walk([&](gpu::BarrierOp barrier) {
    barrier->setAttr(triton_spirv::kRequestedBarrierAttrName,
                     rewriter.getUnitAttr());
  });
  Block &entry = kernel.getBody().front();
  Location loc = kernel.getLoc();
  rewriter.setInsertionPointToStart(&entry);
  invocationId = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  isInvocationZero =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                            invocationId, indexConstant(loc, 0));

  // Block-level work (linalg ops, with their bodies) and memory writes made
  // by the scalar code, in program order.
  SmallVector<Operation *> work;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isDistributedWork(op))
      return WalkResult::advance();
    work.push_back(op);
    return WalkResult::skip();
  });

  // Scalar code alone runs on invocation 0: its workgroups shrink to one
  // subgroup, the hardware's unit (a launch of 65,536 programs of 32 warps
  // took 16 times as long on lavapipe; one invocation took 3 times as long
  // as one subgroup).
  unsigned oneSubgroup = std::max(subgroupSize, 1u);
  if (oneSubgroup < workgroupSize &&
      llvm::none_of(work, [](Operation *op) {
        return isa<linalg::LinalgOp, memref::CopyOp>(op);
      }))
    kernel->setAttr(triton_spirv::kWorkgroupSizeAttrName,
                    rewriter.getI64IntegerAttr(oneSubgroup));

  if (failed(findPrivateBuffers()))
    return failure();
  vectorPrivate = !privateBuffers.empty();
  for (auto &[buffer, registers] : privateBuffers) {
    if (cast<MemRefType>(buffer.getType()).getNumElements() %
        (kVectorWidth * workgroupSize)) {
      vectorPrivate = false;
      continue;
    }
    if (Operation *use = needsSingleElements(buffer)) {
      vectorPrivate = false;
      use->emitRemark() << "this use of a block held in registers keeps the "
                           "kernel's blocks one element per invocation at a "
                           "time (no runs of "
                        << kVectorWidth << ", no 16-byte accesses)";
    }
  }
  for (Operation *op : work) {
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      rewriter.setInsertionPoint(copy);
      op = linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                                  copy.getTarget());
      rewriter.eraseOp(copy);
    }
    if (fragmentFamily && fragmentFamily->touches(op)) {
      if (failed(fragmentFamily->distribute(cast<linalg::LinalgOp>(op))))
        return failure();
      continue;
    }
    if (seedsReduction(op))
      continue; // with its reduction
    if (auto reduce = dyn_cast<linalg::ReduceOp>(op)) {
      SmallVector<linalg::FillOp> seeds = seedFills(reduce);
      bool distributed = distributeGridReduction(reduce) ||
                         distributeReduction(reduce, seeds);
      // The fills that the reduction did not take as its initial values.
      for (linalg::FillOp fill : seeds)
        if (fill && failed(distributeLinalgOp(fill)))
          return failure();
      if (distributed)
        continue;
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (failed(distributeLinalgOp(linalgOp)))
        return failure();
      continue;
    }
    runOnInvocationZero(op);
  }
  if (failed(rewritePrivateAccesses()))
    return failure();
  for (auto &[buffer, layoutBuffer] : layoutBuffers) {
    // Views (and chunks of them) whose accesses were all rewritten to
    // registers.
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
      if (!isa<memref::ExpandShapeOp, memref::SubViewOp>(user))
        continue;
      for (Operation *chunk : llvm::make_early_inc_range(user->getUsers()))
        if (isa<memref::SubViewOp>(chunk) && chunk->use_empty())
          rewriter.eraseOp(chunk);
      if (user->use_empty())
        rewriter.eraseOp(user);
    }
    // The layout analysis admits only uses that the distribution rewrites.
    if (failed(triton_spirv::eraseDistributedBuffer(
            rewriter, buffer, layoutBuffer.layout,
            "at elements that other invocations hold")))
      return failure();
  }
  if (fragmentFamily && failed(fragmentFamily->eraseMembers()))
    return failure();
  for (auto &[buffer, fragments] : fragmentBuffers)
    if (failed(triton_spirv::eraseDistributedBuffer(
            rewriter, buffer, fragments.layout,
            "other than by its fill, its matmul and element-wise reads")))
      return failure();
  return success();
}

/// `v`, or the dimension `affine.apply` returns unchanged (linalg's loop
/// lowering writes indices with identity maps that way).
static Value lookThroughDimApply(Value v) {
  auto apply = v.getDefiningOp<affine::AffineApplyOp>();
  if (!apply)
    return v;
  auto dim = dyn_cast<AffineDimExpr>(apply.getAffineMap().getResult(0));
  return dim ? apply.getMapOperands()[dim.getPosition()] : v;
}

/// The loop index that `index` mirrors on a size-2 dimension: an
/// `affine.apply` of `1 - d` (linalg's loop lowering of a pair swap's map).
static Value mirroredIndex(Value index) {
  auto apply = index.getDefiningOp<affine::AffineApplyOp>();
  if (!apply || apply.getMapOperands().size() != 1)
    return {};
  AffineExpr d = getAffineDimExpr(0, apply.getContext());
  return apply.getAffineMap().getResult(0) == 1 - d ? apply.getMapOperands()[0]
                                                     : Value();
}

/// `access` (a memref.load or memref.store) made on `memref` at `index`.
static void replaceAccess(RewriterBase &rewriter, Operation *access,
                          Value memref, Value index) {
  if (auto load = dyn_cast<memref::LoadOp>(access))
    rewriter.replaceOpWithNewOp<memref::LoadOp>(load, memref, index);
  else
    rewriter.replaceOpWithNewOp<memref::StoreOp>(
        access, cast<memref::StoreOp>(access).getValueToStore(), memref, index);
}

/// The row-major position of `steps` in a tile of `extents`, leaving out
/// dimension `skip`.
static Value linearize(RewriterBase &rewriter, Location loc, ValueRange steps,
                       ArrayRef<int64_t> extents,
                       std::optional<unsigned> skip = std::nullopt) {
  Value position = arith::ConstantIndexOp::create(rewriter, loc, 0);
  for (auto [dim, step, extent] : llvm::enumerate(steps, extents)) {
    if (skip == dim)
      continue;
    position = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(
            rewriter, loc, position,
            arith::ConstantIndexOp::create(rewriter, loc, extent)),
        step);
  }
  return position;
}

/// The constant `v` is, also as an `affine.apply` of a constant map (linalg's
/// loop lowering writes constant indices that way).
static std::optional<int64_t> constantIndex(Value v) {
  if (auto apply = v.getDefiningOp<affine::AffineApplyOp>())
    if (auto constant =
            dyn_cast<AffineConstantExpr>(apply.getAffineMap().getResult(0)))
      return constant.getValue();
  return getConstantIntValue(v);
}

/// The invocations along each dimension of a buffer in a grid or slice
/// layout.
static SmallVector<int64_t> heldBy(Attribute layout) {
  if (auto grid = dyn_cast<triton_spirv::GridLayoutAttr>(layout))
    return SmallVector<int64_t>(grid.getInvocations());
  return cast<triton_spirv::SliceLayoutAttr>(layout).getInvocations();
}

/// Buffers with a layout (triton-spirv-assign-layouts) become private
/// buffers of the elements each invocation holds.
LogicalResult KernelDistributor::findPrivateBuffers() {
  auto privateSpace = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                                 gpu::AddressSpace::Private);
  WalkResult result = kernel.walk([&](memref::AllocOp alloc) {
    Attribute layout = alloc->getAttr(triton_spirv::kLayoutAttrName);
    if (!layout)
      return WalkResult::advance();
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
      alloc.emitError("only static buffers of identity layout can be given a "
                      "layout");
      return WalkResult::interrupt();
    }
    if (alloc->hasAttr(triton_spirv::kFragmentFamilyAttrName)) {
      if (!shape.cooperativeMatrix || subgroupSize <= 1) {
        alloc.emitError("a fragment family needs cooperative matrices");
        return WalkResult::interrupt();
      }
      OpBuilder::InsertionGuard guard(rewriter);
      if (!fragmentFamily)
        createFragmentFamilyDistributor();
      rewriter.setInsertionPointAfter(fragmentSubgroupId.getDefiningOp());
      return failed(fragmentFamily->addMember(alloc)) ? WalkResult::interrupt()
                                                      : WalkResult::advance();
    }
    if (auto fragments = dyn_cast<triton_spirv::FragmentsLayoutAttr>(layout)) {
      if (!shape.cooperativeMatrix || subgroupSize <= 1 ||
          fragments.getNumSubgroups() * subgroupSize != workgroupSize ||
          !fragments.tiles(type.getShape())) {
        alloc.emitError() << "layout " << layout << " does not tile " << type
                          << " with the cooperative matrices of "
                          << workgroupSize / std::max(subgroupSize, 1u)
                          << " subgroups";
        return WalkResult::interrupt();
      }
      fragmentBuffers[alloc] = {fragments};
      return WalkResult::advance();
    }
    int64_t perInvocation;
    auto grid = dyn_cast<triton_spirv::GridLayoutAttr>(layout);
    auto slice = dyn_cast<triton_spirv::SliceLayoutAttr>(layout);
    if (grid || slice) {
      int64_t invocations = grid ? grid.getNumInvocations()
                                 : slice.getParent().getNumInvocations();
      if (invocations != workgroupSize ||
          !(grid ? grid.tiles(type.getShape())
                 : slice.tiles(type.getShape()))) {
        alloc.emitError() << "layout " << layout << " does not tile " << type
                          << " with " << workgroupSize << " invocations";
        return WalkResult::interrupt();
      }
      // A slice's element is held by the invocations along its reduced
      // dimension alike.
      perInvocation = type.getNumElements() / computeProduct(heldBy(layout));
    } else if (isa<triton_spirv::CyclicLayoutAttr>(layout)) {
      perInvocation = llvm::divideCeil(type.getNumElements(), workgroupSize);
    } else {
      alloc.emitError() << "unknown layout " << layout;
      return WalkResult::interrupt();
    }
    rewriter.setInsertionPoint(alloc);
    Value replacement = memref::AllocaOp::create(
        rewriter, alloc.getLoc(),
        MemRefType::get({perInvocation}, type.getElementType(), nullptr,
                        privateSpace));
    if (grid || slice)
      layoutBuffers[alloc] = {layout, replacement};
    else
      privateBuffers[alloc] = replacement;
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

Attribute KernelDistributor::iterationLayout(linalg::LinalgOp op) {
  Attribute layout;
  for (OpOperand &operand : op->getOpOperands()) {
    // Views of grid buffers are in the grid (the layout analysis admits
    // only views that keep it).
    Value buffer = operand.get();
    if (auto view = buffer.getDefiningOp<memref::SubViewOp>())
      buffer = view.getSource();
    auto found = layoutBuffers.find(buffer);
    if (found == layoutBuffers.end() ||
        !op.getMatchingIndexingMap(&operand).isIdentity())
      continue;
    if (!layout || isa<triton_spirv::GridLayoutAttr>(found->second.layout))
      layout = found->second.layout;
  }
  return layout;
}

/// Accesses left to private buffers (reductions, single elements) are
/// rewritten from their element's linear position q to q / W. Accesses
/// through views (subviews, reshapes) find q from the view's strides and
/// offset.
LogicalResult KernelDistributor::rewritePrivateAccesses() {
  for (auto [buffer, replacement] : privateBuffers) {
    SmallVector<Operation *> accesses, views; // Views outermost first.
    triton_spirv::forEachUserThroughViews(
        buffer, [&](Operation *user, bool isView) {
          (isView ? views : accesses).push_back(user);
        });
    for (Operation *access : accesses) {
      auto load = dyn_cast<memref::LoadOp>(access);
      auto store = dyn_cast<memref::StoreOp>(access);
      if (!load && !store)
        continue;
      Value accessed = load ? load.getMemRef() : store.getMemRef();
      // needsSingleElements admits no access that would need this.
      if (vectorPrivate)
        return access->emitError("a private buffer held in runs of ")
               << kVectorWidth << " is accessed element by element";
      // Static: the layout analysis admits only such views.
      auto [strides, offset] =
          cast<MemRefType>(accessed.getType()).getStridesAndOffset();
      Location loc = access->getLoc();
      rewriter.setInsertionPoint(access);
      ValueRange indices = load ? load.getIndices() : store.getIndices();
      Value position = indexConstant(loc, offset);
      for (auto [index, stride] : llvm::zip(indices, strides)) {
        Value scaled = arith::MulIOp::create(rewriter, loc, index,
                                             indexConstant(loc, stride));
        position = arith::AddIOp::create(rewriter, loc, position, scaled);
      }
      Value slot = arith::DivUIOp::create(rewriter, loc, position,
                                          indexConstant(loc, workgroupSize));
      replaceAccess(rewriter, access, replacement, slot);
    }
    for (Operation *view : llvm::reverse(views))
      if (view->use_empty())
        rewriter.eraseOp(view);
    if (buffer.use_empty())
      rewriter.eraseOp(buffer.getDefiningOp());
  }
  return success();
}

/// Whether `op` (with what it nests) accesses a buffer held in registers
/// through a view (a subview or reshape): such accesses find their register
/// one element at a time (rewritePrivateAccesses), not in runs. Buffers
/// left in workgroup memory may be accessed in runs: barriers order their
/// accesses per buffer, whatever the spread.
bool KernelDistributor::accessesRegistersThroughViews(Operation *op) {
  auto isView = [&](Value value) {
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type || !triton_spirv::isWorkgroupMemory(type) ||
        privateBuffers.count(value))
      return false;
    Value root = bufferUnderViews(value);
    return privateBuffers.count(root) || layoutBuffers.count(root) ||
           fragmentBuffers.count(root);
  };
  return op
      ->walk([&](Operation *nested) {
        return llvm::any_of(nested->getOperands(), isView)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The elements an invocation takes at a time in `op`'s loop: kVectorWidth
/// where the op is element-wise over a static space that W such runs tile,
/// reaches no buffer in registers through a view and, if it touches private
/// buffers, reads them element for element while they are held in runs
/// (`privateInRuns`); else 1. Copies into workgroup memory (a matmul's
/// staged operands) thus load global memory in runs, whose address
/// arithmetic the run shares (and which triton-spirv-vectorize-memory-
/// accesses merges into 16-byte loads for 32-bit elements).
int64_t KernelDistributor::vectorWidthOf(linalg::LinalgOp op,
                                         bool privateInRuns) {
  if (op.getNumLoops() == 0 || op.getNumParallelLoops() != op.getNumLoops() ||
      iterationLayout(op))
    return 1;
  std::optional<SmallVector<int64_t, 4>> ranges = op.getStaticLoopRanges();
  if (!ranges || llvm::any_of(*ranges, ShapedType::isDynamic) ||
      computeProduct(*ranges) % (kVectorWidth * workgroupSize) != 0 ||
      accessesRegistersThroughViews(op))
    return 1;
  bool touchesPrivate = llvm::any_of(op->getOperands(), [&](Value operand) {
    return privateBuffers.count(operand) != 0;
  });
  if (touchesPrivate &&
      (!privateInRuns ||
       !llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
         return !privateBuffers.count(operand.get()) ||
                op.getMatchingIndexingMap(&operand).isIdentity();
       })))
    return 1;
  return kVectorWidth;
}

/// The first use of a private (cyclic) buffer that needs its elements one
/// per invocation at a time (none: the buffer can be held in runs of
/// kVectorWidth). Runs suit element-wise ops that take runs, and reductions
/// of the whole buffer by all invocations (which fold every register, in
/// any order); views and single-element accesses assume single elements.
Operation *KernelDistributor::needsSingleElements(Value privateBuffer) {
  llvm::SmallPtrSet<Operation *, 4> needing;
  for (Operation *user : privateBuffer.getUsers()) {
    // Such reductions read registers only where all their inputs are
    // private (distributeReduction).
    if (auto reduce = dyn_cast<linalg::ReduceOp>(user)) {
      if (!llvm::all_of(reduce.getInputs(),
                        [&](Value input) {
                          return privateBuffers.count(input) != 0;
                        }) ||
          llvm::is_contained(reduce.getInits(), privateBuffer) ||
          static_cast<int64_t>(reduce.getDimensions().size()) !=
              cast<MemRefType>(privateBuffer.getType()).getRank())
        needing.insert(user);
      continue;
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (!linalgOp || vectorWidthOf(linalgOp, /*privateInRuns=*/true) == 1)
      needing.insert(user);
  }
  if (needing.empty())
    return nullptr;
  // The first in program order, so that remarks name it.
  Operation *first = nullptr;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!needing.contains(op))
      return WalkResult::advance();
    first = op;
    return WalkResult::interrupt();
  });
  return first;
}

LogicalResult KernelDistributor::distributeLinalgOp(linalg::LinalgOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  if (op.getNumDpsInits() == 1) {
    auto found = fragmentBuffers.find(op.getDpsInits()[0]);
    if (found != fragmentBuffers.end()) {
      FragmentBuffer &fragments = found->second;
      // The fill becomes the fragments' initial value.
      if (auto fill = dyn_cast<linalg::FillOp>(op.getOperation())) {
        fragments.fill = fill.value();
        fragments.fillBlock = fill->getBlock();
        rewriter.eraseOp(fill);
        return success();
      }
      if (!fragments.fill)
        return op->emitError("accumulates into a buffer in layout ")
               << fragments.layout << " before its fill";
      barrier(loc);
      FailureOr<SmallVector<Value>> computed =
          triton_spirv::distributeMatmulOnFragments(
              rewriter, op, shape, fragments.layout, fragments.fill,
              fragments.fillBlock);
      if (failed(computed))
        return failure();
      fragments.fragments = std::move(*computed);
      return success();
    }
  }
  for (Value input : op.getDpsInputs())
    if (auto found = fragmentBuffers.find(input);
        found != fragmentBuffers.end())
      return distributeOnFragments(op, input, found->second);
  barrier(loc);
  triton_spirv::GridLayoutAttr accumulatorLayout;
  Value accumulatorRegisters;
  if (op.getNumDpsInits() == 1) {
    auto found = layoutBuffers.find(op.getDpsInits()[0]);
    if (found != layoutBuffers.end()) {
      accumulatorLayout =
          dyn_cast<triton_spirv::GridLayoutAttr>(found->second.layout);
      accumulatorRegisters = found->second.registers;
    }
  }
  FailureOr<bool> matmul =
      triton_spirv::distributeMatmul(rewriter, op, invocationId, shape,
                                     accumulatorLayout, accumulatorRegisters);
  if (failed(matmul))
    return failure();
  if (*matmul) {
    barrier(loc);
    return success();
  }
  Attribute layout = iterationLayout(op);
  int64_t vectorWidth = layout ? 1 : vectorWidthOf(op, vectorPrivate);
  FailureOr<linalg::GenericOp> asGenericOp =
      triton_spirv::asGeneric(rewriter, op);
  if (failed(asGenericOp))
    return op->emitError("cannot distribute this op over a workgroup");
  linalg::GenericOp generic = *asGenericOp;
  // Parallel dimensions outermost, so that they form one scf.parallel.
  SmallVector<unsigned> order;
  for (auto [dim, type] : llvm::enumerate(generic.getIteratorTypesArray()))
    if (type == utils::IteratorType::parallel)
      order.push_back(dim);
  bool hasParallelDims = !order.empty();
  for (auto [dim, type] : llvm::enumerate(generic.getIteratorTypesArray()))
    if (type != utils::IteratorType::parallel)
      order.push_back(dim);
  if (!llvm::equal(order, llvm::seq<unsigned>(0, order.size()))) {
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rewriter, generic, order);
    if (failed(interchanged))
      return op->emitError("cannot reorder the loops of this op");
    generic = *interchanged;
  }

  if (!hasParallelDims) {
    // A pure reduction (or a 0-d op): one invocation does it.
    auto guard = scf::IfOp::create(rewriter, loc, isInvocationZero,
                                   /*withElseRegion=*/false);
    rewriter.moveOpBefore(generic, guard.thenBlock()->getTerminator());
    rewriter.setInsertionPoint(generic);
    if (failed(linalg::linalgOpToLoops(rewriter, generic)))
      return op->emitError("cannot lower this op to loops");
    rewriter.eraseOp(generic);
    rewriter.setInsertionPointAfter(guard);
    barrier(loc);
    return success();
  }
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, generic);
  if (failed(loops) || loops->empty())
    return op->emitError("cannot lower this op to parallel loops");
  rewriter.eraseOp(generic);
  auto parallel = dyn_cast<scf::ParallelOp>(loops->front());
  if (!parallel)
    return op->emitError("expected the parallel dimensions outermost");
  if (layout)
    return distributeOnLayout(parallel, layout);
  return distributeParallelLoop(parallel, vectorWidth);
}

/// The row-major indices of linear position `linear` in `extents` (last
/// dimension fastest).
SmallVector<Value>
KernelDistributor::delinearize(Location loc, Value linear,
                               ArrayRef<OpFoldResult> extents) {
  SmallVector<Value> indices(extents.size());
  for (int64_t dim = extents.size() - 1; dim > 0; --dim) {
    Value extent = getValueOrCreateConstantIndexOp(rewriter, loc, extents[dim]);
    indices[dim] = arith::RemUIOp::create(rewriter, loc, linear, extent);
    linear = arith::DivUIOp::create(rewriter, loc, linear, extent);
  }
  if (!extents.empty())
    indices[0] = linear;
  return indices;
}

/// The element types of a reduction's outputs.
static SmallVector<Type> elementTypes(linalg::ReduceOp op) {
  return llvm::map_to_vector(op.getInits(), [](Value init) {
    return cast<MemRefType>(init.getType()).getElementType();
  });
}

/// Butterfly: after the step of distance d (first, 2 first, ... below
/// `end`), each lane holds the fold of `partial` over its aligned block of
/// 2d / first lanes, exchanged with xor shuffles.
SmallVector<Value> KernelDistributor::xorButterfly(linalg::ReduceOp op,
                                                   SmallVector<Value> partial,
                                                   int64_t first, int64_t end) {
  Location loc = op.getLoc();
  for (int64_t distance = first; distance < end; distance *= 2) {
    SmallVector<Value> theirs =
        llvm::map_to_vector(partial, [&](Value value) -> Value {
          return gpu::ShuffleOp::create(rewriter, loc, value, distance,
                                        subgroupSize, gpu::ShuffleMode::XOR)
              .getShuffleResult();
        });
    partial = combine(op, theirs, partial);
  }
  return partial;
}

/// The reduction's combiner applied to (element, accumulator), at the
/// rewriter's insertion point.
SmallVector<Value> KernelDistributor::combine(linalg::ReduceOp op,
                                              ValueRange elements,
                                              ValueRange accumulators) {
  SmallVector<Value> args(elements);
  llvm::append_range(args, accumulators);
  return triton_spirv::inlineBlock(rewriter, op.getCombiner().front(), args);
}

Value KernelDistributor::kernelWorkgroupBuffer(Location loc,
                                               ArrayRef<int64_t> shape,
                                               Type element) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&kernel.getBody().front());
  auto workgroup = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                              gpu::AddressSpace::Workgroup);
  return memref::AllocOp::create(
      rewriter, loc, MemRefType::get(shape, element, nullptr, workgroup));
}

Value KernelDistributor::partialsBuffer(Location loc, Type type,
                                        unsigned position) {
  Value &buffer = partials[{type, position, oddReduction}];
  if (!buffer)
    buffer = kernelWorkgroupBuffer(loc, {workgroupSize}, type);
  return buffer;
}

/// Whether anything but `op` uses the buffers under its outputs (through
/// views), or they are not the kernel's own.
static bool outputsUsedElsewhere(linalg::ReduceOp op) {
  return llvm::any_of(op.getInits(), [&](Value init) {
    Value root = bufferUnderViews(init);
    bool used = !root.getDefiningOp<memref::AllocOp>();
    triton_spirv::forEachUserThroughViews(
        root, [&](Operation *user, bool isView) {
          used |= !isView && user != op.getOperation();
        });
    return used;
  });
}

/// After a full reduction that every invocation computed: loads of its
/// outputs that follow it in its block take the result instead, up to the
/// next op that the distribution starts with a barrier. True when no other
/// read of the outputs comes before that barrier (or the end of the kernel,
/// for outputs it allocated), so that the write of the outputs needs no
/// barrier of its own.
bool KernelDistributor::forwardResults(linalg::ReduceOp op,
                                       ValueRange results) {
  ValueRange outputs = op.getInits();
  // The buffers under the outputs (views included), which other views may
  // read too.
  SmallVector<Value> roots = llvm::map_to_vector(outputs, bufferUnderViews);
  for (Operation *next = op->getNextNode(); next;) {
    Operation *current = next;
    next = next->getNextNode();
    if (isa<gpu::BarrierOp>(current) || startsWithBarrier(current))
      return true;
    if (auto load = dyn_cast<memref::LoadOp>(current);
        load && llvm::is_contained(outputs, load.getMemRef()) &&
        llvm::all_of(load.getIndices(), [](Value index) {
          return isConstantIntValue(index, 0);
        })) {
      unsigned position =
          llvm::find(outputs, load.getMemRef()) - outputs.begin();
      rewriter.replaceOp(load, results[position]);
      continue;
    }
    if (llvm::any_of(roots, [&](Value root) {
          return triton_spirv::usesBuffer(current, root);
        }))
      return false;
  }
  // At the kernel's end nothing reads outputs that it allocated itself.
  return op->getBlock() == &kernel.getBody().front() &&
         llvm::all_of(roots, [](Value root) {
           return root.getDefiningOp<memref::AllocOp>() != nullptr;
         });
}

/// At most this many partial results of a reduction are folded in order by
/// one invocation; more are first halved in parallel.
static constexpr int64_t kSequentialPartials = 32;

/// A reduction with fewer outputs than invocations: G invocations (a power
/// of two) share each output. Each folds every G-th element into a partial
/// result, lanes of a subgroup combine theirs with shuffles, the rest meet in
/// workgroup memory, where the first of the G folds them (after halving
/// steps when there are many) and the output's initial value. Triton
/// combiners are associative and commutative (its GPU backends reorder them
/// the same way). Returns false, changing nothing, when there is nothing to
/// share, and the op is distributed over its outputs instead.
bool KernelDistributor::distributeReduction(
    linalg::ReduceOp op, MutableArrayRef<linalg::FillOp> seeds) {
  auto inputType = dyn_cast<MemRefType>(op.getInputs()[0].getType());
  if (!inputType || !inputType.hasStaticShape() || !op.hasPureBufferSemantics())
    return false;
  ArrayRef<int64_t> shape = inputType.getShape();
  SmallVector<int64_t> outputShape, reducedShape;
  llvm::SmallDenseSet<int64_t> reducedDims(op.getDimensions().begin(),
                                           op.getDimensions().end());
  for (auto [dim, size] : llvm::enumerate(shape))
    (reducedDims.contains(dim) ? reducedShape : outputShape).push_back(size);
  int64_t outputs = computeProduct(outputShape);
  int64_t reduced = computeProduct(reducedShape);
  int64_t group = 1;
  while (group * 2 <= reduced && outputs * group * 2 <= workgroupSize)
    group *= 2;
  if (group < 2)
    return false;

  Location loc = op.getLoc();
  // Seeded outputs start from their fill's scalar, the others from what
  // they hold.
  SmallVector<Value> seedScalars;
  for (linalg::FillOp &fill : seeds) {
    seedScalars.push_back(fill ? fill.getInputs()[0] : Value());
    if (fill)
      rewriter.eraseOp(std::exchange(fill, nullptr));
  }
  rewriter.setInsertionPoint(op);
  SmallVector<Value> buffers;
  for (auto [position, init] : llvm::enumerate(op.getInits()))
    buffers.push_back(partialsBuffer(
        loc, cast<MemRefType>(init.getType()).getElementType(), position));
  oddReduction ^= 1;
  // With the innermost dimension reduced, the G invocations of an output
  // are neighbours and read neighbouring elements; otherwise neighbouring
  // invocations take neighbouring outputs.
  bool innermostReduced = reducedDims.contains(shape.size() - 1);
  Value outputsValue = indexConstant(loc, outputs);
  Value groupValue = indexConstant(loc, group);
  Value output, member;
  bool allShare = outputs * group == workgroupSize && outputs == 1;
  int64_t shift =
      allShare ? triton_spirv::rotation(op.getInputs()[0], workgroupSize) : 0;
  if (allShare) {
    output = indexConstant(loc, 0);
    member = invocationId;
    if (shift)
      member = arith::RemUIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, invocationId,
                                indexConstant(loc, workgroupSize - shift)),
          indexConstant(loc, workgroupSize));
  } else if (innermostReduced) {
    output = arith::DivUIOp::create(rewriter, loc, invocationId, groupValue);
    member = arith::RemUIOp::create(rewriter, loc, invocationId, groupValue);
  } else {
    output = arith::RemUIOp::create(rewriter, loc, invocationId, outputsValue);
    member = arith::DivUIOp::create(rewriter, loc, invocationId, outputsValue);
  }
  Value active =
      outputs * group == workgroupSize
          ? arith::ConstantIntOp::create(rewriter, loc, 1, 1).getResult()
          : arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  invocationId,
                                  indexConstant(loc, outputs * group))
                .getResult();
  MLIRContext *context = rewriter.getContext();
  SmallVector<Value> outputIndices =
      delinearize(loc, output, getAsIndexOpFoldResult(context, outputShape));
  auto elementIndices = [&](Value position) {
    SmallVector<Value> reducedIndices = delinearize(
        loc, position, getAsIndexOpFoldResult(context, reducedShape));
    SmallVector<Value> indices;
    unsigned nextOutput = 0, nextReduced = 0;
    for (int64_t dim = 0, e = shape.size(); dim < e; ++dim)
      indices.push_back(reducedDims.contains(dim)
                            ? reducedIndices[nextReduced++]
                            : outputIndices[nextOutput++]);
    return indices;
  };
  auto loadAll = [&](ValueRange memrefs, ValueRange indices) {
    return llvm::map_to_vector(memrefs, [&](Value memref) -> Value {
      return memref::LoadOp::create(rewriter, loc, memref, indices);
    });
  };
  auto storeAll = [&](ValueRange values, ValueRange memrefs,
                      ValueRange indices) {
    for (auto [value, memref] : llvm::zip(values, memrefs))
      memref::StoreOp::create(rewriter, loc, value, memref, indices);
  };

  // Neighbouring members of an output are neighbouring lanes of a subgroup
  // (G-aligned blocks of invocations): the steps between them are subgroup
  // shuffles, without workgroup memory or barriers.
  bool shuffles = subgroupSize > 1 && (innermostReduced || allShare) &&
                  shift == 0 &&
                  llvm::all_of(elementTypes(op), triton_spirv::isShuffleType);
  int64_t laneGroup = shuffles ? std::min<int64_t>(group, subgroupSize) : 1;

  // Where every invocation shares the one output of private (cyclic)
  // inputs, member m's element p = m + kW (an element q = p + o of a buffer
  // or a contiguous view of it at offset o, held by invocation q mod W, which
  // the rotation makes this one) is its register q / W = k + o / W, plus 1
  // where m + o mod W passes W. Reading registers so keeps their indices
  // constant once the fold is unrolled; (m + o + kW) / W would not be, and
  // drivers then put the private array in local memory.
  struct RegisterInput {
    Value registers;
    int64_t first;
  };
  SmallVector<RegisterInput> registerInputs;
  for (Value input : allShare ? op.getInputs() : ValueRange()) {
    Value buffer = input;
    if (auto view = input.getDefiningOp<memref::SubViewOp>())
      buffer = view.getSource();
    Value registers = privateBuffers.lookup(buffer);
    std::optional<int64_t> offset = triton_spirv::contiguousOffset(input);
    if (!registers || !offset || *offset % workgroupSize != shift)
      break;
    registerInputs.push_back({registers, *offset / workgroupSize});
  }
  bool fromRegisters = registerInputs.size() == op.getInputs().size();
  Value carries = fromRegisters && shift
                      ? arith::CmpIOp::create(rewriter, loc,
                                              arith::CmpIPredicate::ult,
                                              invocationId,
                                              indexConstant(loc, shift))
                            .getResult()
                      : Value();
  auto loadRegisters = [&](Value step) {
    return llvm::map_to_vector(registerInputs, [&](RegisterInput input) {
      Value slot = arith::AddIOp::create(rewriter, loc, step,
                                         indexConstant(loc, input.first));
      Value own = memref::LoadOp::create(rewriter, loc, input.registers, slot);
      if (!carries)
        return own;
      int64_t last =
          cast<MemRefType>(input.registers.getType()).getNumElements() - 1;
      Value next = arith::MinUIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, slot, indexConstant(loc, 1)),
          indexConstant(loc, last));
      Value carried =
          memref::LoadOp::create(rewriter, loc, input.registers, next);
      return arith::SelectOp::create(rewriter, loc, carries, carried, own)
          .getResult();
    });
  };

  barrier(loc);
  // Each invocation's partial result, seeded with its first element: a loop
  // of a constant trip count over its elements member + kG.
  int64_t steps = llvm::divideCeil(reduced, group);
  auto fold = scf::IfOp::create(rewriter, loc, elementTypes(op), active,
                                /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(fold.thenBlock());
  SmallVector<Value> first =
      fromRegisters ? loadRegisters(indexConstant(loc, 0))
                    : loadAll(op.getInputs(), elementIndices(member));
  auto loop = scf::ForOp::create(rewriter, loc, indexConstant(loc, 1),
                                 indexConstant(loc, steps),
                                 indexConstant(loc, 1), first);
  rewriter.setInsertionPointToStart(loop.getBody());
  Value position = arith::AddIOp::create(
      rewriter, loc, member,
      arith::MulIOp::create(rewriter, loc, loop.getInductionVar(),
                            groupValue));
  auto foldStep = [&]() {
    SmallVector<Value> elements =
        fromRegisters ? loadRegisters(loop.getInductionVar())
                      : loadAll(op.getInputs(), elementIndices(position));
    return combine(op, elements, loop.getRegionIterArgs());
  };
  if (reduced % group == 0) {
    scf::YieldOp::create(rewriter, loc, foldStep());
  } else {
    Value inside = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::ult, position,
                                         indexConstant(loc, reduced));
    auto guard = scf::IfOp::create(rewriter, loc, elementTypes(op), inside,
                                   /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(guard.thenBlock());
    scf::YieldOp::create(rewriter, loc, foldStep());
    rewriter.setInsertionPointToStart(guard.elseBlock());
    scf::YieldOp::create(rewriter, loc, loop.getRegionIterArgs());
    rewriter.setInsertionPointAfter(guard);
    scf::YieldOp::create(rewriter, loc, guard.getResults());
  }
  rewriter.setInsertionPointAfter(loop);
  scf::YieldOp::create(rewriter, loc, loop.getResults());
  // Inactive invocations only take part in shuffles; their values are unused.
  rewriter.setInsertionPointToStart(fold.elseBlock());
  scf::YieldOp::create(
      rewriter, loc,
      llvm::map_to_vector(elementTypes(op), [&](Type type) -> Value {
        return ub::PoisonOp::create(rewriter, loc, type);
      }));
  rewriter.setInsertionPointAfter(fold);
  SmallVector<Value> partial =
      xorButterfly(op, fold.getResults(), /*first=*/1, /*end=*/laneGroup);
  auto initialValues = [&]() {
    SmallVector<Value> values;
    for (auto [init, seed] : llvm::zip(op.getInits(), seedScalars))
      values.push_back(
          seed ? seed
               : memref::LoadOp::create(rewriter, loc, init, outputIndices));
    return values;
  };
  auto finish = [&](ValueRange result) {
    storeAll(combine(op, result, initialValues()), op.getInits(),
             outputIndices);
  };
  if (laneGroup == group) {
    // One lane per output writes it.
    Value leader = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, member, indexConstant(loc, 0));
    auto guard = scf::IfOp::create(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, active, leader),
        /*withElseRegion=*/false);
    rewriter.setInsertionPoint(guard.thenBlock()->getTerminator());
    finish(partial);
    rewriter.setInsertionPointAfter(guard);
    barrier(loc);
    rewriter.eraseOp(op);
    return true;
  }
  // Where every invocation computes the result, each reads the output's
  // initial value before the barrier that precedes its first member's
  // write of the result.
  SmallVector<Value> initial;
  if (allShare)
    initial = initialValues();
  auto publish =
      scf::IfOp::create(rewriter, loc, active, /*withElseRegion=*/false);
  rewriter.setInsertionPoint(publish.thenBlock()->getTerminator());
  storeAll(partial, buffers, invocationId);
  rewriter.setInsertionPointAfter(publish);
  barrier(loc);
  // The partial of the member `distance` members above this one.
  auto partnerPartials = [&](Value distance) {
    Value slots = arith::MulIOp::create(
        rewriter, loc, distance,
        indexConstant(loc, innermostReduced ? 1 : outputs));
    Value partner = arith::AddIOp::create(rewriter, loc, invocationId, slots);
    if (shift)
      partner = arith::RemUIOp::create(rewriter, loc, partner,
                                       indexConstant(loc, workgroupSize));
    return loadAll(buffers, partner);
  };
  auto guardedBy = [&](Value condition) {
    auto guard = scf::IfOp::create(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, active, condition),
        /*withElseRegion=*/false);
    rewriter.setInsertionPoint(guard.thenBlock()->getTerminator());
    return guard;
  };
  // Halving steps over workgroup memory (member m < s folds in member
  // m + s), a barrier each, only while many lane groups remain; then the
  // first member folds the remaining partials in order, behind one barrier.
  int64_t remaining = group;
  while (remaining / laneGroup > kSequentialPartials) {
    int64_t step = remaining / 2;
    auto guard = guardedBy(arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, member,
        indexConstant(loc, step)));
    SmallVector<Value> mine = loadAll(buffers, invocationId);
    SmallVector<Value> theirs = partnerPartials(indexConstant(loc, step));
    storeAll(combine(op, theirs, mine), buffers, invocationId);
    rewriter.setInsertionPointAfter(guard);
    barrier(loc);
    remaining = step;
  }
  if (allShare) {
    // Every invocation folds the partials in the first member's order, so
    // that all hold the same result (whatever the combiner); the first
    // member writes it, and later reads of the output take it from there
    // only after a barrier.
    auto slotOf = [&](int64_t partial) {
      return indexConstant(loc, (shift + partial * laneGroup) % workgroupSize);
    };
    SmallVector<Value> folded = loadAll(buffers, slotOf(0));
    for (int64_t partial = 1; partial < remaining / laneGroup; ++partial)
      folded = combine(op, loadAll(buffers, slotOf(partial)), folded);
    SmallVector<Value> result = combine(op, folded, initial);
    bool forwarded = forwardResults(op, result);
    // Outputs that nothing reads any more need no write.
    if (!forwarded || outputsUsedElsewhere(op)) {
      auto leader = scf::IfOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                member, indexConstant(loc, 0)),
          /*withElseRegion=*/false);
      rewriter.setInsertionPoint(leader.thenBlock()->getTerminator());
      storeAll(result, op.getInits(), outputIndices);
      rewriter.setInsertionPointAfter(leader);
    }
    if (!forwarded)
      barrier(loc);
    rewriter.eraseOp(op);
    return true;
  }
  auto last = guardedBy(arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::eq, member, indexConstant(loc, 0)));
  auto sequential = scf::ForOp::create(
      rewriter, loc, indexConstant(loc, 1),
      indexConstant(loc, remaining / laneGroup), indexConstant(loc, 1),
      loadAll(buffers, invocationId));
  rewriter.setInsertionPointToStart(sequential.getBody());
  SmallVector<Value> theirs = partnerPartials(arith::MulIOp::create(
      rewriter, loc, sequential.getInductionVar(),
      indexConstant(loc, laneGroup)));
  scf::YieldOp::create(rewriter, loc,
                       combine(op, theirs, sequential.getRegionIterArgs()));
  rewriter.setInsertionPointAfter(sequential);
  // The output's initial value is folded in last.
  finish(sequential.getResults());
  rewriter.setInsertionPointAfter(last);
  barrier(loc);
  rewriter.eraseOp(op);
  return true;
}

/// Moves the reduction loop of a distributed linalg op out of the loop over
/// an invocation's iterations where the body is index arithmetic around
/// that one loop: `for k { index math; for r { f(k, r) } }` becomes
/// `for r { for k { index math; f(k, r) } }`. Iteration k touches only its
/// own outputs, so each output is still reduced in order. Once the
/// iterations are unrolled (triton-spirv-unroll-register-loops), one loop
/// updates all of an invocation's accumulators instead of one loop per
/// accumulator: a batched dot's 128 loops of 32 made lavapipe's compiler,
/// which splits a shader with barriers into coroutines, run for minutes.
static void hoistReductionLoop(RewriterBase &rewriter, scf::ForOp iterations) {
  Block *body = iterations.getBody();
  auto inner =
      dyn_cast_or_null<scf::ForOp>(body->getTerminator()->getPrevNode());
  if (!inner || inner.getNumResults() != 0 ||
      !llvm::all_of(body->without_terminator(), [&](Operation &op) {
        return &op == inner.getOperation() || isPure(&op);
      }))
    return;
  SmallVector<Value> bounds;
  for (Value bound :
       {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()}) {
    std::optional<int64_t> constant = getConstantIntValue(bound);
    Operation *owner = bound.getParentBlock()->getParentOp();
    if (!constant && iterations->isAncestor(owner))
      return;
    bounds.push_back(bound);
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(iterations);
  for (Value &bound : bounds)
    if (std::optional<int64_t> constant = getConstantIntValue(bound))
      bound = arith::ConstantIndexOp::create(rewriter, inner.getLoc(),
                                             *constant);
  auto outer = scf::ForOp::create(rewriter, inner.getLoc(), bounds[0],
                                  bounds[1], bounds[2]);
  rewriter.moveOpBefore(iterations, outer.getBody()->getTerminator());
  Block *innerBody = inner.getBody();
  rewriter.eraseOp(innerBody->getTerminator());
  rewriter.inlineBlockBefore(innerBody, inner, outer.getInductionVar());
  rewriter.eraseOp(inner);
}

/// `scf.parallel` over an N-d space becomes `for (l = id; l < total; l += W)`
/// with the N indices recovered from `l` (last dimension fastest), so that
/// consecutive invocations touch consecutive elements.
LogicalResult KernelDistributor::distributeParallelLoop(scf::ParallelOp loop,
                                                       int64_t vectorWidth) {
  if (loop.getNumResults() != 0)
    return loop.emitError("parallel loops with reductions are not expected");
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<OpFoldResult> tripCounts;
  Value total = indexConstant(loc, 1);
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    Value extent = rewriter.createOrFold<arith::SubIOp>(loc, ub, lb);
    Value trips = rewriter.createOrFold<arith::CeilDivUIOp>(loc, extent, step);
    tripCounts.push_back(trips);
    total = rewriter.createOrFold<arith::MulIOp>(loc, total, trips);
  }
  std::optional<int64_t> staticTotal = getConstantIntValue(total);
  auto indicesOf = [&](Value linear) {
    SmallVector<Value> ivs = delinearize(loc, linear, tripCounts);
    for (auto [iv, lb, step] :
         llvm::zip(ivs, loop.getLowerBound(), loop.getStep()))
      iv = arith::AddIOp::create(
          rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, iv, step));
    return ivs;
  };
  if (vectorWidth > 1 && staticTotal &&
      *staticTotal % (vectorWidth * workgroupSize) == 0) {
    // Invocation t takes the runs of V elements that start at V (t + kW).
    // Iteration k computes the V elements of its run k, each op for all V
    // in turn, so that their memory accesses sit side by side
    // (triton-spirv-vectorize-memory-accesses merges them). Element j of
    // run k is private register kV + j.
    int64_t runs = *staticTotal / (vectorWidth * workgroupSize);
    scf::ForOp runLoop = scf::ForOp::create(
        rewriter, loc, indexConstant(loc, 0), indexConstant(loc, runs),
        indexConstant(loc, 1));
    rewriter.setInsertionPointToStart(runLoop.getBody());
    Value run = runLoop.getInductionVar();
    Value runStart = arith::MulIOp::create(
        rewriter, loc,
        arith::AddIOp::create(
            rewriter, loc,
            arith::MulIOp::create(rewriter, loc, run,
                                  indexConstant(loc, workgroupSize)),
            invocationId),
        indexConstant(loc, vectorWidth));
    SmallVector<IRMapping> elements(vectorWidth);
    SmallVector<SmallVector<Value>> elementIvs;
    Block *body = loop.getBody();
    // Where the innermost extent is a multiple of V, a run stays in one
    // row: its elements differ only in the innermost index, by 0..V-1, which
    // lets triton-spirv-vectorize-memory-accesses see consecutive addresses.
    std::optional<int64_t> innermost = getConstantIntValue(tripCounts.back());
    SmallVector<Value> runIndices;
    if (innermost && *innermost % vectorWidth == 0)
      runIndices = delinearize(loc, runStart, tripCounts);
    for (int64_t j = 0; j < vectorWidth; ++j) {
      if (runIndices.empty()) {
        elementIvs.push_back(indicesOf(arith::AddIOp::create(
            rewriter, loc, runStart, indexConstant(loc, j))));
      } else {
        SmallVector<Value> ivs(runIndices);
        ivs.back() = arith::AddIOp::create(rewriter, loc, ivs.back(),
                                           indexConstant(loc, j));
        for (auto [iv, lb, step] :
             llvm::zip(ivs, loop.getLowerBound(), loop.getStep()))
          iv = arith::AddIOp::create(
              rewriter, loc, lb,
              arith::MulIOp::create(rewriter, loc, iv, step));
        elementIvs.push_back(ivs);
      }
      elements[j].map(body->getArguments(), elementIvs.back());
    }
    for (Operation &op : body->without_terminator())
      for (IRMapping &element : elements)
        rewriter.clone(op, element);
    rewriter.eraseOp(loop);
    for (int64_t j = 0; j < vectorWidth; ++j)
      usePrivateRegisters(
          runLoop, elementIvs[j],
          [&](Value memref) { return privateBuffers.lookup(memref); },
          [&](Value) -> Value {
            return arith::AddIOp::create(
                rewriter, loc,
                arith::MulIOp::create(rewriter, loc, run,
                                      indexConstant(loc, vectorWidth)),
                indexConstant(loc, j));
          });
    markSpread(runLoop, tripCounts, vectorWidth);
    rewriter.setInsertionPointAfter(runLoop);
    barrier(loc);
    return success();
  }
  // With a static size, invocation t runs a fixed count of iterations k and
  // takes linear index t + k * W (guarded when W does not divide the size),
  // so drivers can unroll the loop and keep private elements in registers.
  Value linear, iteration;
  Operation *insertBefore;
  scf::ForOp forOp;
  if (staticTotal) {
    int64_t perInvocation = llvm::divideCeil(*staticTotal, workgroupSize);
    forOp = scf::ForOp::create(rewriter, loc, indexConstant(loc, 0),
                               indexConstant(loc, perInvocation),
                               indexConstant(loc, 1));
    rewriter.setInsertionPointToStart(forOp.getBody());
    iteration = forOp.getInductionVar();
    Value scaled = arith::MulIOp::create(rewriter, loc, iteration,
                                         indexConstant(loc, workgroupSize));
    linear = arith::AddIOp::create(rewriter, loc, invocationId, scaled);
    insertBefore = forOp.getBody()->getTerminator();
    if (*staticTotal % workgroupSize) {
      Value inside =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                linear, indexConstant(loc, *staticTotal));
      auto guard = scf::IfOp::create(rewriter, loc, inside,
                                     /*withElseRegion=*/false);
      insertBefore = guard.thenBlock()->getTerminator();
      rewriter.setInsertionPoint(insertBefore);
    }
  } else {
    forOp = scf::ForOp::create(rewriter, loc, invocationId, total,
                               indexConstant(loc, workgroupSize));
    rewriter.setInsertionPointToStart(forOp.getBody());
    linear = forOp.getInductionVar();
    insertBefore = forOp.getBody()->getTerminator();
  }
  SmallVector<Value> ivs = indicesOf(linear);
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, insertBefore, ivs);
  rewriter.eraseOp(loop);
  // Whole-buffer accesses to private buffers use the iteration number.
  if (iteration) {
    if (failed(readPairPartners(forOp, ivs, iteration,
                                *staticTotal % workgroupSize != 0)))
      return failure();
    usePrivateRegisters(
        forOp, ivs, [&](Value memref) { return privateBuffers.lookup(memref); },
        [&](Value) { return iteration; });
    markSpread(forOp, tripCounts, 1);
  }
  rewriter.setInsertionPointAfter(forOp);
  barrier(loc);
  if (iteration && *staticTotal % workgroupSize == 0)
    hoistReductionLoop(rewriter, forOp);
  return success();
}

/// Pair swaps of private buffers in `loop`, the cyclic loop in which
/// invocation t's iteration r takes position q = t + rW: a load of a private
/// buffer (or of reshapes of it) at the loop's indices `ivs` but with
/// size-2 dimensions mirrored reads element q ^ M (pairSwapMask), register
/// r ^ (M / W) of invocation t ^ (M mod W). That is the invocation's own
/// register when M mod W is 0, a subgroup xor-shuffle of the register when
/// M mod W is below the subgroup size, and otherwise a read of a copy of
/// the registers that the invocations write to workgroup memory before the
/// loop.
LogicalResult KernelDistributor::readPairPartners(scf::ForOp loop,
                                                  ValueRange ivs,
                                                  Value iteration,
                                                  bool guarded) {
  SmallVector<memref::LoadOp> loads;
  loop.walk([&](memref::LoadOp load) { loads.push_back(load); });
  DenseMap<Value, Value> copies; // Registers -> their copy, made once here.
  // Copies of different buffers in one loop need exchange buffers of their
  // own: how many of each element type and size this loop took.
  DenseMap<std::pair<Type, int64_t>, unsigned> taken;
  for (memref::LoadOp load : loads) {
    Value memref = load.getMemRef();
    Value registers =
        privateBuffers.lookup(triton_spirv::bufferUnderReshapes(memref));
    if (!registers || load.getIndices().size() != ivs.size())
      continue;
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> reads;
    bool matches = true;
    for (auto [dim, index, iv] : llvm::enumerate(load.getIndices(), ivs)) {
      AffineExpr d = getAffineDimExpr(dim, context);
      if (lookThroughDimApply(index) == iv)
        reads.push_back(d);
      else if (mirroredIndex(index) == iv)
        reads.push_back(1 - d);
      else
        matches = false;
    }
    auto type = cast<MemRefType>(memref.getType());
    std::optional<int64_t> mask =
        matches ? triton_spirv::pairSwapMask(
                      AffineMap::get(ivs.size(), 0, reads, context),
                      type.getShape())
                : std::nullopt;
    if (!mask || *mask == 0)
      continue;
    // The layout analysis admits pair swaps only of buffers that W divides:
    // every invocation runs every iteration, as shuffles and barriers need.
    if (guarded)
      return load.emitError("a pair swap of a block in registers needs the "
                            "workgroup size to divide its elements");
    Location loc = load.getLoc();
    int64_t across = *mask % workgroupSize, along = *mask / workgroupSize;
    Type element = type.getElementType();
    auto xorIndex = [&](Value value, int64_t bits) -> Value {
      return bits ? arith::XOrIOp::create(rewriter, loc, value,
                                          indexConstant(loc, bits))
                  : value;
    };
    rewriter.setInsertionPoint(load);
    Value slot = xorIndex(iteration, along);
    Value partner;
    if (across == 0) {
      partner = memref::LoadOp::create(rewriter, loc, registers, slot);
    } else if (across < subgroupSize && triton_spirv::isShuffleType(element)) {
      Value own = memref::LoadOp::create(rewriter, loc, registers, slot);
      partner = gpu::ShuffleOp::create(rewriter, loc, own, across,
                                       subgroupSize, gpu::ShuffleMode::XOR)
                    .getShuffleResult();
    } else {
      Value &copy = copies[registers];
      if (!copy) {
        int64_t elements = type.getNumElements();
        Value &exchange =
            exchangeBuffers[{element, elements, taken[{element, elements}]++}];
        if (!exchange)
          exchange = kernelWorkgroupBuffer(loc, {elements}, element);
        copy = exchange;
        // Invocation t writes its registers r at t + rW, then all wait.
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(loop);
        int64_t perInvocation = elements / workgroupSize;
        auto write = scf::ForOp::create(rewriter, loc, indexConstant(loc, 0),
                                        indexConstant(loc, perInvocation),
                                        indexConstant(loc, 1));
        rewriter.setInsertionPointToStart(write.getBody());
        Value r = write.getInductionVar();
        Value value = memref::LoadOp::create(rewriter, loc, registers, r);
        Value position = arith::AddIOp::create(
            rewriter, loc, invocationId,
            arith::MulIOp::create(rewriter, loc, r,
                                  indexConstant(loc, workgroupSize)));
        memref::StoreOp::create(rewriter, loc, value, copy, position);
        rewriter.setInsertionPointAfter(write);
        OpFoldResult space = rewriter.getIndexAttr(elements);
        markSpread(write, space, 1);
        barrier(loc);
      }
      Value position = arith::AddIOp::create(
          rewriter, loc, xorIndex(invocationId, across),
          arith::MulIOp::create(rewriter, loc, slot,
                                indexConstant(loc, workgroupSize)));
      partner = memref::LoadOp::create(rewriter, loc, copy, position);
    }
    rewriter.replaceOp(load, partner);
  }
  return success();
}

/// Within `root`, loads and stores at exactly the indices `ivs` of a memref
/// whose private registers `registersOf` gives become accesses to them, at
/// the register `slotOf` computes (before the access).
void KernelDistributor::usePrivateRegisters(
    Operation *root, ValueRange ivs,
    function_ref<Value(Value memref)> registersOf,
    function_ref<Value(Value memref)> slotOf) {
  root->walk([&](Operation *access) {
    auto load = dyn_cast<memref::LoadOp>(access);
    auto store = dyn_cast<memref::StoreOp>(access);
    if (!load && !store)
      return;
    Value memref = load ? load.getMemRef() : store.getMemRef();
    Value registers = registersOf(memref);
    ValueRange indices = load ? load.getIndices() : store.getIndices();
    if (!registers || !llvm::equal(indices, ivs, [](Value index, Value iv) {
          return lookThroughDimApply(index) == iv;
        }))
      return;
    rewriter.setInsertionPoint(access);
    replaceAccess(rewriter, access, registers, slotOf(memref));
  });
}

/// `scf.parallel` over the whole of a buffer in a grid or slice layout:
/// invocation (t_0, ..., t_n) of the grid runs the elements
/// x_d = t_d + G_d * r_d in nested loops over its tile r, and the elements of
/// the buffers in that layout are its registers at the row-major position of
/// r. Iterating in a grid, slices of it read broadcast are registers too.
/// Several invocations hold each element of a slice: all compute it, one
/// writes it to memory.
LogicalResult KernelDistributor::distributeOnLayout(scf::ParallelOp loop,
                                                    Attribute layout) {
  Location loc = loop.getLoc();
  auto grid = dyn_cast<triton_spirv::GridLayoutAttr>(layout);
  auto slice = dyn_cast<triton_spirv::SliceLayoutAttr>(layout);
  triton_spirv::GridLayoutAttr parent = grid ? grid : slice.getParent();
  SmallVector<int64_t> counts = heldBy(layout);
  SmallVector<int64_t> tile;
  for (auto [lb, ub, step, count] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep(),
                 counts)) {
    std::optional<int64_t> lower = getConstantIntValue(lb),
                           upper = getConstantIntValue(ub),
                           stride = getConstantIntValue(step);
    if (!lower || !upper || stride != 1 || *lower != 0 || *upper % count)
      return loop.emitError("an op on a buffer in layout ")
             << layout << " must iterate over the whole buffer";
    tile.push_back(*upper / count);
  }
  if (tile.size() != counts.size() ||
      tile.size() != loop.getInductionVars().size())
    return loop.emitError("an op on a buffer in layout ")
           << layout << " must have the buffer's rank";
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> coordinates = delinearize(
      loc, invocationId,
      getAsIndexOpFoldResult(rewriter.getContext(), parent.getInvocations()));
  // On a slice: the invocation's place among the holders of its elements
  // (along the reduced dimension), and whether it is the first of them.
  Value leader, holder;
  if (slice) {
    holder = coordinates[slice.getDim()];
    leader = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                   holder, indexConstant(loc, 0));
    coordinates.erase(coordinates.begin() + slice.getDim());
  }
  SmallVector<Value> ivs, steps;
  Operation *outermost = nullptr;
  for (auto [coordinate, count, extent] :
       llvm::zip(coordinates, counts, tile)) {
    auto forOp =
        scf::ForOp::create(rewriter, loc, indexConstant(loc, 0),
                           indexConstant(loc, extent), indexConstant(loc, 1));
    if (!outermost)
      outermost = forOp;
    rewriter.setInsertionPointToStart(forOp.getBody());
    steps.push_back(forOp.getInductionVar());
    ivs.push_back(arith::AddIOp::create(
        rewriter, loc, coordinate,
        arith::MulIOp::create(rewriter, loc, forOp.getInductionVar(),
                              indexConstant(loc, count))));
  }
  Value slot = linearize(rewriter, loc, steps, tile);
  // The register, in a buffer of `shape` held by a grid of `counts`, of the
  // tile position `steps` (without dimension `dropped`) of a view at
  // `offsets` (multiples of the grid) into it.
  auto shiftedSlot = [&](ArrayRef<OpFoldResult> offsets,
                         ArrayRef<int64_t> gridCounts, ArrayRef<int64_t> shape,
                         std::optional<unsigned> dropped) {
    SmallVector<Value> shiftedSteps(steps);
    SmallVector<int64_t> extents(offsets.size(), 1);
    unsigned kept = 0;
    for (auto [position, offset] : llvm::enumerate(offsets)) {
      if (dropped == position)
        continue;
      int64_t count = gridCounts[kept], size = shape[kept];
      ++kept;
      Value shift = arith::DivUIOp::create(
          rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, offset),
          indexConstant(loc, count));
      shiftedSteps[position] =
          arith::AddIOp::create(rewriter, loc, steps[position], shift);
      extents[position] = size / count;
    }
    return linearize(rewriter, loc, shiftedSteps, extents, dropped);
  };
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  Operation *insertBefore = rewriter.getInsertionBlock()->getTerminator();
  rewriter.inlineBlockBefore(body, insertBefore, ivs);
  rewriter.eraseOp(loop);
  // The buffers in this layout, and views of grid buffers that keep the grid
  // (element iv of the view is element iv + offset of the buffer, the
  // register r + offset / G of its tile).
  auto registersOf = [&](Value memref) -> Value {
    auto view =
        grid ? memref.getDefiningOp<memref::SubViewOp>() : memref::SubViewOp();
    auto found = layoutBuffers.find(view ? view.getSource() : memref);
    return found == layoutBuffers.end() || found->second.layout != layout
               ? Value()
               : found->second.registers;
  };
  usePrivateRegisters(outermost, ivs, registersOf, [&](Value memref) {
    auto view = memref.getDefiningOp<memref::SubViewOp>();
    return view ? shiftedSlot(view.getMixedOffsets(), counts,
                              view.getSourceType().getShape(), std::nullopt)
                : slot;
  });
  if (grid) {
    // Reads of slices of this grid, broadcast along their reduced dimension
    // through a view that inserts it (or a chunk of that view whose offsets
    // are multiples of the grid: element iv of the chunk is element
    // iv + offset of the slice, register r + offset / G).
    // Each read, with the slice buffer it reads and its registers.
    SmallVector<std::tuple<memref::LoadOp, Value, const LayoutBuffer *>>
        broadcastReads;
    outermost->walk([&](memref::LoadOp load) {
      Value memref = load.getMemRef();
      if (auto chunk = memref.getDefiningOp<memref::SubViewOp>())
        memref = chunk.getSource();
      auto view = memref.getDefiningOp<memref::ExpandShapeOp>();
      auto found =
          view ? layoutBuffers.find(view.getSrc()) : layoutBuffers.end();
      if (found == layoutBuffers.end())
        return;
      auto sliced =
          dyn_cast<triton_spirv::SliceLayoutAttr>(found->second.layout);
      if (sliced && sliced.getParent() == grid)
        broadcastReads.push_back({load, found->first, &found->second});
    });
    for (auto [load, sliceBuffer, sliceInRegisters] : broadcastReads) {
      const LayoutBuffer &source = *sliceInRegisters;
      auto sliced = cast<triton_spirv::SliceLayoutAttr>(source.layout);
      unsigned dim = sliced.getDim();
      bool broadcast = true;
      for (auto [position, index] : llvm::enumerate(load.getIndices())) {
        Value at = lookThroughDimApply(index);
        broadcast &=
            position == dim ? constantIndex(at) == 0 : at == ivs[position];
      }
      if (!broadcast)
        continue;
      rewriter.setInsertionPoint(load);
      Value keptSlot;
      auto chunk = load.getMemRef().getDefiningOp<memref::SubViewOp>();
      if (!chunk) {
        keptSlot = linearize(rewriter, loc, steps, tile, dim);
      } else {
        // The slice's own tile, shifted by the chunk's offsets.
        keptSlot = shiftedSlot(
            chunk.getMixedOffsets(), sliced.getInvocations(),
            cast<MemRefType>(sliceBuffer.getType()).getShape(), dim);
      }
      rewriter.replaceOpWithNewOp<memref::LoadOp>(load, source.registers,
                                                  keptSlot);
    }
  }
  SmallVector<int64_t> shape;
  for (auto [extent, count] : llvm::zip(tile, counts))
    shape.push_back(extent * count);
  markSpread(outermost, getAsIndexOpFoldResult(rewriter.getContext(), shape),
             1, layout);
  if (leader) {
    // The other holders skip writes to memory, and atomics too: they take
    // the leader's result from its lane where they share its subgroup, else
    // from a workgroup buffer (the analysis admits that only for atomics the
    // op's body runs unconditionally, so that the barrier is reached by
    // all). A single holder needs nobody's result.
    bool oneHolder = parent.getInvocations()[slice.getDim()] == 1;
    SmallVector<memref::StoreOp> writes;
    SmallVector<Operation *> atomics;
    outermost->walk([&](Operation *op) {
      if (auto store = dyn_cast<memref::StoreOp>(op)) {
        auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
            store.getMemRefType().getMemorySpace());
        if (!space || space.getValue() != gpu::AddressSpace::Private)
          writes.push_back(store);
      } else if (!oneHolder &&
                 isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op)) {
        atomics.push_back(op);
      }
    });
    for (memref::StoreOp store : writes) {
      rewriter.setInsertionPoint(store);
      auto guard =
          scf::IfOp::create(rewriter, loc, leader, /*withElseRegion=*/false);
      rewriter.moveOpBefore(store, guard.thenBlock()->getTerminator());
    }
    Value leaderLane;
    if (!atomics.empty() &&
        triton_spirv::rowInOneSubgroup(parent, slice.getDim(), subgroupSize)) {
      int64_t stride = computeProduct(
          parent.getInvocations().drop_front(slice.getDim() + 1));
      rewriter.setInsertionPoint(outermost);
      Value leaderId = arith::SubIOp::create(
          rewriter, loc, invocationId,
          arith::MulIOp::create(rewriter, loc, holder,
                                indexConstant(loc, stride)));
      leaderLane = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getI32Type(),
          arith::RemUIOp::create(rewriter, loc, leaderId,
                                 indexConstant(loc, subgroupSize)));
    }
    for (Operation *atomic : atomics) {
      if (leaderLane) {
        leaderOnly(atomic, leader, leaderLane);
        continue;
      }
      rewriter.setInsertionPoint(atomic);
      Value position = linearize(rewriter, loc, ivs, shape);
      Value results = kernelWorkgroupBuffer(
          loc, {computeProduct(shape)}, atomic->getResult(0).getType());
      runAloneAndShare(atomic, leader, {results}, position,
                       /*barrierAfter=*/true);
    }
  }
  rewriter.setInsertionPointAfter(outermost);
  barrier(loc);
  return success();
}

/// Runs `atomic` on the leader only and gives every invocation the
/// leader's result from lane `leaderLane` of its subgroup.
void KernelDistributor::leaderOnly(Operation *atomic, Value leader,
                                   Value leaderLane) {
  Location loc = atomic->getLoc();
  Value result = atomic->getResult(0);
  Type type = result.getType();
  rewriter.setInsertionPoint(atomic);
  auto guard = scf::IfOp::create(rewriter, loc, TypeRange{type}, leader,
                                 /*addThenBlock=*/true, /*addElseBlock=*/true);
  rewriter.setInsertionPointToEnd(guard.thenBlock());
  Operation *yield = scf::YieldOp::create(rewriter, loc, result);
  rewriter.moveOpBefore(atomic, yield);
  // (The other lanes' values are never read.)
  rewriter.setInsertionPointToEnd(guard.elseBlock());
  scf::YieldOp::create(rewriter, loc,
                       arith::getZeroConstant(rewriter, loc, type));
  rewriter.setInsertionPointAfter(guard);
  Value shared = shuffleFrom(guard.getResult(0), leaderLane);
  rewriter.replaceUsesWithIf(result, shared, [&](OpOperand &use) {
    return !guard->isAncestor(use.getOwner());
  });
}

/// Runs `op` where `condition` holds only, storing its results to `slots`
/// at `position`; every use of them outside reads them there, after a
/// barrier where `barrierAfter`.
scf::IfOp KernelDistributor::runAloneAndShare(Operation *op, Value condition,
                                              ArrayRef<Value> slots,
                                              Value position,
                                              bool barrierAfter) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto guard =
      scf::IfOp::create(rewriter, loc, condition, /*withElseRegion=*/false);
  rewriter.moveOpBefore(op, guard.thenBlock()->getTerminator());
  rewriter.setInsertionPointAfter(op);
  for (auto [result, slot] : llvm::zip(op->getResults(), slots))
    memref::StoreOp::create(rewriter, loc, result, slot, position);
  rewriter.setInsertionPointAfter(guard);
  if (barrierAfter)
    barrier(loc);
  for (auto [result, slot] : llvm::zip(op->getResults(), slots)) {
    Value shared = memref::LoadOp::create(rewriter, loc, slot, position);
    rewriter.replaceUsesWithIf(result, shared, [&](OpOperand &use) {
      return !guard->isAncestor(use.getOwner());
    });
  }
  return guard;
}

/// `value` of lane `lane` of the subgroup, as 32- or 64-bit integers
/// (shuffles take no narrower types).
Value KernelDistributor::shuffleFrom(Value value, Value lane) {
  Location loc = value.getLoc();
  Type type = value.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Type bits = rewriter.getIntegerType(width);
  Type wide = rewriter.getIntegerType(width > 32 ? 64 : 32);
  if (type != bits)
    value = arith::BitcastOp::create(rewriter, loc, bits, value);
  if (wide != bits)
    value = arith::ExtUIOp::create(rewriter, loc, wide, value);
  Value shuffled =
      gpu::ShuffleOp::create(rewriter, loc, value, lane,
                             arith::ConstantIntOp::create(
                                 rewriter, loc, rewriter.getI32Type(),
                                 subgroupSize),
                             gpu::ShuffleMode::IDX)
          .getShuffleResult();
  if (wide != bits)
    shuffled = arith::TruncIOp::create(rewriter, loc, bits, shuffled);
  if (type != bits)
    shuffled = arith::BitcastOp::create(rewriter, loc, type, shuffled);
  return shuffled;
}

void KernelDistributor::createFragmentFamilyDistributor() {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfter(isInvocationZero.getDefiningOp());
  fragmentSubgroupId =
      gpu::SubgroupIdOp::create(rewriter, kernel.getLoc(), nullptr);
  fragmentFamily.emplace(
      rewriter, shape, fragmentSubgroupId,
      [&](Location at, Type element, unsigned slot) {
        Value &buffer = familyScratches[{element, slot}];
        if (!buffer)
          buffer = kernelWorkgroupBuffer(
              at,
              {workgroupSize / subgroupSize * triton_spirv::kFragmentSize,
               triton_spirv::kFragmentSize},
              element);
        return buffer;
      },
      [&](Location at) { barrier(at); });
  fragmentFamily->recordIndexVectors(kernel);
}

Value KernelDistributor::fragmentScratch(Location loc, Type element) {
  Value &scratch = fragmentScratches[element];
  if (!scratch) {
    int64_t subgroups = workgroupSize / subgroupSize;
    scratch = kernelWorkgroupBuffer(loc,
                                    {subgroups * triton_spirv::kFragmentSize,
                                     triton_spirv::kFragmentSize},
                                    element);
  }
  return scratch;
}

/// An element-wise op that reads an accumulator kept as fragments (the
/// matmul's epilogue). Which lane holds which element of a fragment is the
/// driver's choice, so each subgroup stores its fragments, one at a time,
/// to its own 16x16 tile of a scratch buffer in workgroup memory, and its
/// lanes run the op's body on that tile's elements, reading them from
/// there: lane l takes elements l, l + S, ... of the tile in row-major
/// order (S the subgroup size).
LogicalResult
KernelDistributor::distributeOnFragments(linalg::LinalgOp op, Value buffer,
                                         const FragmentBuffer &fragments) {
  Location loc = op.getLoc();
  constexpr int64_t size = triton_spirv::kFragmentSize;
  triton_spirv::FragmentsLayoutAttr layout = fragments.layout;
  ArrayRef<int64_t> grid = layout.getSubgroups();
  ArrayRef<int64_t> shape = cast<MemRefType>(buffer.getType()).getShape();
  int64_t tilesM = shape[0] / (grid[0] * size);
  int64_t tilesN = shape[1] / (grid[1] * size);
  if (fragments.fragments.size() != size_t(tilesM * tilesN))
    return op->emitError("reads a buffer in layout ")
           << layout << " before its matmul computed it";
  FailureOr<linalg::GenericOp> generic = triton_spirv::asGeneric(rewriter, op);
  if (failed(generic))
    return op->emitError("cannot distribute this op over a workgroup");
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, *generic);
  if (failed(loops) || loops->size() != 1)
    return op->emitError("cannot lower this op to parallel loops");
  rewriter.eraseOp(*generic);
  auto parallel = dyn_cast<scf::ParallelOp>(loops->front());
  if (!parallel || parallel.getNumLoops() != 2 ||
      !llvm::all_of(parallel.getLowerBound(), isZeroInteger) ||
      !llvm::all_of(parallel.getStep(), isOneInteger) ||
      getConstantIntValues(getAsOpFoldResult(parallel.getUpperBound())) !=
          SmallVector<int64_t>(shape))
    return op->emitError("an op on a buffer in layout ")
           << layout << " must iterate over the whole buffer";

  rewriter.setInsertionPoint(parallel);
  Value subgroup = gpu::SubgroupIdOp::create(rewriter, loc, nullptr);
  Value lane = gpu::LaneIdOp::create(rewriter, loc, nullptr);
  // The tiles the subgroup's matmul computed (emitCooperativeTiles).
  triton_spirv::FragmentOrigins origins = triton_spirv::fragmentOrigins(
      rewriter, loc, {grid[0], grid[1], tilesM, tilesN}, subgroup);
  Value scratchRow0 =
      arith::MulIOp::create(rewriter, loc, subgroup, indexConstant(loc, size));
  Block *body = parallel.getBody();
  // An f32 accumulator whose every read is rounded to f16 (a matmul whose
  // result is stored as f16) is rounded as fragments, and its scratch is
  // f16: half the memory, and the element type of the operands' stagings,
  // whose memory it can share (triton-spirv-reuse-workgroup-memory). So is
  // one rounded to bf16 where cooperative matrices take bf16: its scratch
  // holds the bf16 bits as f16, as bf16 operands' stagings do, and the
  // conversion is marked to give bf16 (triton-spirv-kernel-to-spirv).
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  // The one type every read rounds to (f16 where there are no reads).
  Type roundedTo;
  bool rounded =
      element.isF32() && llvm::all_of(*body, [&](Operation &nested) {
        auto load = dyn_cast<memref::LoadOp>(&nested);
        return !load || load.getMemRef() != buffer ||
               llvm::all_of(load->getUsers(), [&](Operation *user) {
                 Type type = triton_spirv::halfRounding(user);
                 if (!type || (roundedTo && type != roundedTo))
                   return false;
                 roundedTo = type;
                 return true;
               });
      });
  bool bfloat16 = rounded && roundedTo && roundedTo.isBF16();
  if (bfloat16 && !this->shape.bfloat16CooperativeMatrix)
    rounded = bfloat16 = false;
  if (rounded)
    element = rewriter.getF16Type();
  Value scratch = fragmentScratch(loc, element);
  MLIRContext *context = rewriter.getContext();
  for (auto [index, fragment] : llvm::enumerate(fragments.fragments)) {
    int64_t i = index / tilesN, j = index % tilesN;
    // The previous tile's readers are done before the store.
    barrier(loc);
    Value stored = fragment;
    if (rounded) {
      auto convert = triton_spirv::ConvertFragmentOp::create(
          rewriter, loc,
          gpu::MMAMatrixType::get({size, size}, element, "COp"), fragment);
      if (bfloat16)
        convert->setAttr(triton_spirv::kBFloat16MatrixAttrName,
                         rewriter.getUnitAttr());
      stored = convert;
    }
    gpu::SubgroupMmaStoreMatrixOp::create(
        rewriter, loc, stored, scratch,
        ValueRange{scratchRow0, indexConstant(loc, 0)},
        rewriter.getIndexAttr(size), UnitAttr());
    barrier(loc);
    auto elements =
        scf::ForOp::create(rewriter, loc, indexConstant(loc, 0),
                           indexConstant(loc, size * size / subgroupSize),
                           indexConstant(loc, 1));
    markSpread(elements, getAsIndexOpFoldResult(context, shape), 1, layout);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(elements.getBody());
    Value linear = arith::AddIOp::create(
        rewriter, loc, lane,
        arith::MulIOp::create(rewriter, loc, elements.getInductionVar(),
                              indexConstant(loc, subgroupSize)));
    Value row = arith::DivUIOp::create(rewriter, loc, linear,
                                       indexConstant(loc, size));
    Value col = arith::RemUIOp::create(rewriter, loc, linear,
                                       indexConstant(loc, size));
    Value bufferRow =
        arith::AddIOp::create(rewriter, loc, origins.rows[i], row);
    Value bufferCol =
        arith::AddIOp::create(rewriter, loc, origins.cols[j], col);
    Value scratchRow = arith::AddIOp::create(rewriter, loc, scratchRow0, row);
    IRMapping mapping;
    mapping.map(parallel.getInductionVars(), ValueRange{bufferRow, bufferCol});
    for (Operation &nested : body->without_terminator()) {
      auto load = dyn_cast<memref::LoadOp>(&nested);
      if (load && load.getMemRef() == buffer) {
        // The layout analysis admits only reads at the op's own indices.
        if (!llvm::equal(
                llvm::map_range(load.getIndices(), lookThroughDimApply),
                parallel.getInductionVars()))
          return load.emitError("reads a buffer in layout ")
                 << layout << " at other elements than its own";
        Value value = memref::LoadOp::create(rewriter, loc, scratch,
                                             ValueRange{scratchRow, col});
        if (bfloat16)
          value = arith::BitcastOp::create(rewriter, loc,
                                           rewriter.getBF16Type(), value);
        // Rounded already: the roundings read the f16 (or bf16) value.
        if (rounded)
          for (Operation *trunc : load->getUsers())
            mapping.map(trunc->getResult(0), value);
        else
          mapping.map(load.getResult(), value);
        continue;
      }
      if (rounded && isa<arith::TruncFOp>(nested) &&
          mapping.contains(nested.getResult(0)))
        continue;
      rewriter.clone(nested, mapping);
    }
  }
  rewriter.eraseOp(parallel);
  barrier(loc);
  return success();
}

/// A reduction of one dimension of a grid buffer into a slice of it: each
/// invocation folds the elements of each row it holds, seeded with the
/// first; the invocations sharing the row combine their partial results,
/// with a butterfly of xor shuffles where they are lanes of one subgroup,
/// else through a workgroup buffer of one slot per holder and kept element;
/// then all of them hold the row's result and fold in the output's initial
/// value. False (nothing done) for other reductions.
bool KernelDistributor::distributeGridReduction(linalg::ReduceOp op) {
  if (op.getInputs().size() != 1 || op.getDimensions().size() != 1)
    return false;
  auto inputFound = layoutBuffers.find(op.getInputs()[0]);
  auto outputFound = layoutBuffers.find(op.getInits()[0]);
  if (inputFound == layoutBuffers.end() || outputFound == layoutBuffers.end())
    return false;
  const LayoutBuffer &input = inputFound->second;
  const LayoutBuffer &output = outputFound->second;
  auto grid = dyn_cast<triton_spirv::GridLayoutAttr>(input.layout);
  if (!grid || !isa<triton_spirv::SliceLayoutAttr>(output.layout))
    return false;
  Location loc = op.getLoc();
  ArrayRef<int64_t> counts = grid.getInvocations();
  ArrayRef<int64_t> shape =
      cast<MemRefType>(op.getInputs()[0].getType()).getShape();
  if (shape.size() < 2)
    return false;
  unsigned reduced = op.getDimensions().front();
  SmallVector<int64_t> tile;
  for (auto [size, count] : llvm::zip(shape, counts))
    tile.push_back(size / count);
  Type element = cast<MemRefType>(op.getInits()[0].getType()).getElementType();
  int64_t stride = computeProduct(counts.drop_front(reduced + 1));
  bool shuffles =
      counts[reduced] == 1 ||
      (triton_spirv::rowInOneSubgroup(grid, reduced, subgroupSize) &&
       triton_spirv::isShuffleType(element));
  // Otherwise the row's partials meet in workgroup memory: one slot per
  // holder and kept element.
  int64_t kept = computeProduct(shape) / shape[reduced];
  Value rowPartials, holder;
  SmallVector<Value> coordinates;
  rewriter.setInsertionPoint(op);
  if (!shuffles) {
    rowPartials = kernelWorkgroupBuffer(loc, {counts[reduced], kept}, element);
    coordinates = delinearize(
        loc, invocationId,
        getAsIndexOpFoldResult(rewriter.getContext(), counts));
    holder = coordinates[reduced];
  }

  barrier(loc);
  SmallVector<Value> steps(shape.size());
  // Loops over the invocation's tile of the kept dimensions.
  auto keptLoops = [&]() {
    Operation *outermost = nullptr;
    for (unsigned dim = 0; dim < shape.size(); ++dim) {
      if (dim == reduced)
        continue;
      auto forOp = scf::ForOp::create(rewriter, loc, indexConstant(loc, 0),
                                      indexConstant(loc, tile[dim]),
                                      indexConstant(loc, 1));
      if (!outermost)
        outermost = forOp;
      rewriter.setInsertionPointToStart(forOp.getBody());
      steps[dim] = forOp.getInductionVar();
    }
    return outermost;
  };
  auto slotOf = [&](bool keepReduced) {
    return linearize(rewriter, loc, steps, tile,
                     keepReduced ? std::nullopt
                                 : std::optional<unsigned>(reduced));
  };
  // The row-major position of the current kept element in the result.
  auto keptPosition = [&]() {
    SmallVector<Value> positions;
    SmallVector<int64_t> sizes;
    for (unsigned dim = 0; dim < shape.size(); ++dim) {
      if (dim == reduced)
        continue;
      positions.push_back(arith::AddIOp::create(
          rewriter, loc, coordinates[dim],
          arith::MulIOp::create(rewriter, loc, steps[dim],
                                indexConstant(loc, counts[dim]))));
      sizes.push_back(shape[dim]);
    }
    return linearize(rewriter, loc, positions, sizes);
  };
  auto addToResult = [&](Value partial) {
    Value keptSlot = slotOf(false);
    Value initial =
        memref::LoadOp::create(rewriter, loc, output.registers, keptSlot);
    memref::StoreOp::create(rewriter, loc,
                            combine(op, partial, initial).front(),
                            output.registers, keptSlot);
  };

  Operation *outermost = keptLoops();
  steps[reduced] = indexConstant(loc, 0);
  Value first =
      memref::LoadOp::create(rewriter, loc, input.registers, slotOf(true));
  auto fold = scf::ForOp::create(rewriter, loc, indexConstant(loc, 1),
                                 indexConstant(loc, tile[reduced]),
                                 indexConstant(loc, 1), ValueRange{first});
  if (!outermost)
    outermost = fold;
  rewriter.setInsertionPointToStart(fold.getBody());
  steps[reduced] = fold.getInductionVar();
  Value value =
      memref::LoadOp::create(rewriter, loc, input.registers, slotOf(true));
  scf::YieldOp::create(rewriter, loc,
                       combine(op, value, fold.getRegionIterArgs()));
  rewriter.setInsertionPointAfter(fold);
  if (shuffles) {
    addToResult(xorButterfly(op, {fold.getResult(0)}, stride,
                             stride * counts[reduced])
                    .front());
  } else {
    memref::StoreOp::create(rewriter, loc, fold.getResult(0), rowPartials,
                            ValueRange{holder, keptPosition()});
    rewriter.setInsertionPointAfter(outermost);
    barrier(loc);
    // Every holder folds the row's partials in the same order, so they
    // all hold the same result.
    outermost = keptLoops();
    Value position = keptPosition();
    Value partial =
        memref::LoadOp::create(rewriter, loc, rowPartials,
                               ValueRange{indexConstant(loc, 0), position});
    for (int64_t other = 1; other < counts[reduced]; ++other) {
      Value next = memref::LoadOp::create(
          rewriter, loc, rowPartials,
          ValueRange{indexConstant(loc, other), position});
      partial = combine(op, next, partial).front();
    }
    addToResult(partial);
  }
  rewriter.setInsertionPointAfter(outermost);
  barrier(loc);
  rewriter.eraseOp(op);
  return true;
}


/// A write made by the scalar code happens once per program, not once per
/// invocation: invocation 0 does it and shares its results (atomics return
/// the old value) through workgroup memory.
void KernelDistributor::runOnInvocationZero(Operation *op) {
  Location loc = op->getLoc();
  SmallVector<Value> slots;
  for (Type type : op->getResultTypes())
    slots.push_back(kernelWorkgroupBuffer(loc, {1}, type));

  rewriter.setInsertionPoint(op);
  Value zero = indexConstant(loc, 0);
  bool ordered = startsWithBarrier(op);
  if (ordered)
    barrier(loc);
  scf::IfOp guard =
      runAloneAndShare(op, isInvocationZero, slots, zero, ordered);
  // A 0-d iteration space: invocation 0 runs its one iteration.
  markSpread(guard, {}, 1);
}


struct DistributeToWorkgroupPass
    : triton_spirv::impl::DistributeToWorkgroupBase<DistributeToWorkgroupPass> {
  using Base::Base;
  void runOnOperation() override {
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (kernel.isExternal())
        continue;
      triton_spirv::WorkgroupShape shape{workgroupSize, subgroupSize,
                                         cooperativeMatrix, maxWorkgroupMemory,
                                         bfloat16CooperativeMatrix};
      if (failed(KernelDistributor(kernel, shape).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
