//===- DistributeReductions.cpp - Reductions over a workgroup -------------===//
//
// Reductions spread over the invocations: partials, shuffles and
// workgroup slots, and reductions of rows held in a grid layout.
// (KernelDistributor: DistributeKernel.h.)
//
//===----------------------------------------------------------------------===//

#include "DistributeKernel.h"

using namespace mlir;
using namespace mlir::triton_spirv::distribution;
using triton_spirv::bufferUnderViews;

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
    partial = combinePartials(op, theirs, partial);
  }
  return partial;
}

/// The reduction's combiner applied to (element, accumulator), at the
/// rewriter's insertion point.
SmallVector<Value> KernelDistributor::combinePartials(linalg::ReduceOp op,
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
  // Private inputs held in runs are read register by register, whichever
  // elements they hold: every invocation folds all of its registers, but for
  // the first `skippedInRuns` elements, which sit in invocation 0's first
  // registers.
  std::optional<int64_t> skippedInRuns;
  if (vectorPrivate && allShare) {
    skippedInRuns = skippedRunElements(op.getInputs()[0]);
    for (Value input : op.getInputs())
      if (skippedRunElements(input) != skippedInRuns)
        skippedInRuns.reset();
  }
  int64_t shift = allShare && !skippedInRuns
                      ? triton_spirv::rotation(op.getInputs()[0], workgroupSize)
                      : 0;
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
    if (skippedInRuns) {
      registerInputs.push_back({registers, 0});
      continue;
    }
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
  if (skippedInRuns)
    steps = (reduced + *skippedInRuns) / workgroupSize;
  auto fold = scf::IfOp::create(rewriter, loc, elementTypes(op), active,
                                /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(fold.thenBlock());
  SmallVector<Value> first =
      fromRegisters ? loadRegisters(indexConstant(loc, 0))
                    : loadAll(op.getInputs(), elementIndices(member));
  if (skippedInRuns && *skippedInRuns > 0) {
    SmallVector<Value> afterSkipped =
        loadRegisters(indexConstant(loc, *skippedInRuns));
    for (auto [value, replacement] : llvm::zip(first, afterSkipped))
      value = arith::SelectOp::create(rewriter, loc, isInvocationZero,
                                      replacement, value);
  }
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
    SmallVector<Value> folded =
        combinePartials(op, elements, loop.getRegionIterArgs());
    if (!skippedInRuns || *skippedInRuns == 0)
      return folded;
    // Invocation 0 leaves out the skipped registers and the one it started
    // from.
    Value skip = arith::AndIOp::create(
        rewriter, loc, isInvocationZero,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ule,
                              loop.getInductionVar(),
                              indexConstant(loc, *skippedInRuns)));
    for (auto [value, kept] : llvm::zip(folded, loop.getRegionIterArgs()))
      value = arith::SelectOp::create(rewriter, loc, skip, kept, value);
    return folded;
  };
  if (skippedInRuns || reduced % group == 0) {
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
    storeAll(combinePartials(op, result, initialValues()), op.getInits(),
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
    storeAll(combinePartials(op, theirs, mine), buffers, invocationId);
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
      folded = combinePartials(op, loadAll(buffers, slotOf(partial)), folded);
    SmallVector<Value> result = combinePartials(op, folded, initial);
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
  scf::YieldOp::create(
      rewriter, loc,
      combinePartials(op, theirs, sequential.getRegionIterArgs()));
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
void triton_spirv::distribution::hoistReductionLoop(RewriterBase &rewriter,
                                                    scf::ForOp iterations) {
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
                            combinePartials(op, partial, initial).front(),
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
                       combinePartials(op, value, fold.getRegionIterArgs()));
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
      partial = combinePartials(op, next, partial).front();
    }
    addToResult(partial);
  }
  rewriter.setInsertionPointAfter(outermost);
  barrier(loc);
  rewriter.eraseOp(op);
  return true;
}
