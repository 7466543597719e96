//===- Distribute.cpp - One Triton program per workgroup ------------------===//
//
// After bufferization a kernel is scalar code around linalg ops on buffers.
// Every invocation of the workgroup runs the scalar code; the linalg ops are
// the block-level work and get spread over the invocations here: the driver,
// element-wise loops and the scalar code's writes (DistributeKernel.h says
// where the rest lives).
//
//===----------------------------------------------------------------------===//

#include "DistributeKernel.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_DISTRIBUTETOWORKGROUP
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton_spirv::distribution;
using triton_spirv::bufferUnderViews;


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
bool triton_spirv::distribution::startsWithBarrier(Operation *op) {
  auto store = dyn_cast<memref::StoreOp>(op);
  return isDistributedWork(op) &&
         !(store && triton_spirv::isGlobalMemory(store.getMemRefType()));
}

/// Marks `op` (a distributed loop, or the guard of what invocation 0 runs)
/// with how it spreads an iteration space of static `tripCounts` (none
/// where one is dynamic) over the invocations.
void triton_spirv::distribution::markSpread(Operation *op,
                                            ArrayRef<OpFoldResult> tripCounts,
                                            int64_t run, Attribute layout) {
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
Value triton_spirv::distribution::lookThroughDimApply(Value v) {
  auto apply = v.getDefiningOp<affine::AffineApplyOp>();
  if (!apply)
    return v;
  auto dim = dyn_cast<AffineDimExpr>(apply.getAffineMap().getResult(0));
  return dim ? apply.getMapOperands()[dim.getPosition()] : v;
}

/// The loop index that `index` mirrors on a size-2 dimension: an
/// `affine.apply` of `1 - d` (linalg's loop lowering of a pair swap's map).
Value triton_spirv::distribution::mirroredIndex(Value index) {
  auto apply = index.getDefiningOp<affine::AffineApplyOp>();
  if (!apply || apply.getMapOperands().size() != 1)
    return {};
  AffineExpr d = getAffineDimExpr(0, apply.getContext());
  return apply.getAffineMap().getResult(0) == 1 - d ? apply.getMapOperands()[0]
                                                     : Value();
}

/// `access` (a memref.load or memref.store) made on `memref` at `index`.
void triton_spirv::distribution::replaceAccess(RewriterBase &rewriter,
                                               Operation *access, Value memref,
                                               Value index) {
  if (auto load = dyn_cast<memref::LoadOp>(access))
    rewriter.replaceOpWithNewOp<memref::LoadOp>(load, memref, index);
  else
    rewriter.replaceOpWithNewOp<memref::StoreOp>(
        access, cast<memref::StoreOp>(access).getValueToStore(), memref, index);
}

/// The row-major position of `steps` in a tile of `extents`, leaving out
/// dimension `skip`.
Value triton_spirv::distribution::linearize(RewriterBase &rewriter,
                                            Location loc, ValueRange steps,
                                            ArrayRef<int64_t> extents,
                                            std::optional<unsigned> skip) {
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
std::optional<int64_t> triton_spirv::distribution::constantIndex(Value v) {
  if (auto apply = v.getDefiningOp<affine::AffineApplyOp>())
    if (auto constant =
            dyn_cast<AffineConstantExpr>(apply.getAffineMap().getResult(0)))
      return constant.getValue();
  return getConstantIntValue(v);
}

/// The invocations along each dimension of a buffer in a grid or slice
/// layout.
SmallVector<int64_t> triton_spirv::distribution::heldBy(Attribute layout) {
  if (auto grid = dyn_cast<triton_spirv::GridLayoutAttr>(layout))
    return SmallVector<int64_t>(grid.getInvocations());
  return cast<triton_spirv::SliceLayoutAttr>(layout).getInvocations();
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
          [&](Value memref) { return privateRegistersOf(memref); },
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
        forOp, ivs, [&](Value memref) { return privateRegistersOf(memref); },
        [&](Value) { return iteration; });
    markSpread(forOp, tripCounts, 1);
  }
  rewriter.setInsertionPointAfter(forOp);
  barrier(loc);
  if (iteration && *staticTotal % workgroupSize == 0)
    hoistReductionLoop(rewriter, forOp);
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


namespace {
struct DistributeToWorkgroupPass
    : triton_spirv::impl::DistributeToWorkgroupBase<DistributeToWorkgroupPass> {
  using Base::Base;
  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target) || failed(triton_spirv::checkMatmulsPlanned(
                              getOperation(), getArgument())))
      return signalPassFailure();
    const triton_spirv::WorkgroupShape &shape = target->workgroup;
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (kernel.isExternal())
        continue;
      if (failed(KernelDistributor(kernel, shape).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
