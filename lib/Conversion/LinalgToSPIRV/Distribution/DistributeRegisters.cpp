//===- DistributeRegisters.cpp - Buffers held in registers ----------------===//
//
// Buffers that invocations hold in registers: private (cyclic) buffers,
// their accesses, and pair swaps between invocations.
// (KernelDistributor: DistributeKernel.h.)
//
//===----------------------------------------------------------------------===//

#include "DistributeKernel.h"

using namespace mlir;
using namespace mlir::triton_spirv::distribution;
using triton_spirv::bufferUnderViews;

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
      // Static: the layout analysis admits only such views.
      auto [strides, offset] =
          cast<MemRefType>(accessed.getType()).getStridesAndOffset();
      Location loc = access->getLoc();
      rewriter.setInsertionPoint(access);
      Value slot;
      if (vectorPrivate) {
        // Held in runs, only a one-element view of invocation 0's first run
        // is read so (needsSingleElements), by invocation 0: element q is
        // its register q.
        if (cast<MemRefType>(accessed.getType()).getNumElements() != 1 ||
            offset >= kVectorWidth)
          return access->emitError("a private buffer held in runs of ")
                 << kVectorWidth << " is accessed element by element";
        slot = indexConstant(loc, offset);
      } else {
        // Held one at a time, element q is register q / W.
        ValueRange indices = load ? load.getIndices() : store.getIndices();
        Value position = indexConstant(loc, offset);
        for (auto [index, stride] : llvm::zip(indices, strides)) {
          Value scaled = arith::MulIOp::create(rewriter, loc, index,
                                               indexConstant(loc, stride));
          position = arith::AddIOp::create(rewriter, loc, position, scaled);
        }
        slot = arith::DivUIOp::create(rewriter, loc, position,
                                      indexConstant(loc, workgroupSize));
      }
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

Value KernelDistributor::privateRegistersOf(Value memref) {
  return privateBuffers.lookup(triton_spirv::bufferUnderReshapes(memref));
}

std::optional<int64_t> KernelDistributor::skippedRunElements(Value input) {
  Value buffer = input;
  if (auto view = input.getDefiningOp<memref::SubViewOp>())
    buffer = view.getSource();
  std::optional<int64_t> offset = triton_spirv::contiguousOffset(input);
  if (!privateBuffers.count(buffer) || !offset || *offset >= kVectorWidth)
    return std::nullopt;
  int64_t elements = cast<MemRefType>(buffer.getType()).getNumElements();
  if (cast<MemRefType>(input.getType()).getNumElements() != elements - *offset)
    return std::nullopt;
  return offset;
}

/// Whether `op` (with what it nests) accesses a buffer held in registers
/// through a view other than a reshape of a private buffer (a subview, or
/// any view of a grid, slice or fragment buffer): such accesses find their
/// register one element at a time (rewritePrivateAccesses), not in runs.
/// Buffers left in workgroup memory may be accessed in runs: barriers order
/// their accesses per buffer, whatever the spread.
bool KernelDistributor::accessesRegistersThroughViews(Operation *op) {
  auto isView = [&](Value value) {
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type || !triton_spirv::isWorkgroupMemory(type) ||
        privateRegistersOf(value))
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
    return privateRegistersOf(operand) != nullptr;
  });
  if (touchesPrivate &&
      (!privateInRuns ||
       !llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
         return !privateRegistersOf(operand.get()) ||
                op.getMatchingIndexingMap(&operand).isIdentity();
       })))
    return 1;
  return kVectorWidth;
}

/// The first use of a private (cyclic) buffer that needs its elements one
/// per invocation at a time (none: the buffer can be held in runs of
/// kVectorWidth). Runs suit element-wise ops that take runs, and reductions
/// of the whole buffer by all invocations (which fold every register, in
/// any order), and reshapes whose own uses suit runs; other views and
/// single-element accesses assume single elements.
Operation *KernelDistributor::needsSingleElements(Value privateBuffer) {
  llvm::SmallPtrSet<Operation *, 4> needing;
  SmallVector<Operation *> users(privateBuffer.getUsers());
  while (!users.empty()) {
    Operation *user = users.pop_back_val();
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
      llvm::append_range(users, user->getResult(0).getUsers());
      continue;
    }
    if (auto view = dyn_cast<memref::SubViewOp>(user)) {
      // Views that reductions seeded with their first element read.
      if (skippedRunElements(view)) {
        for (Operation *viewUser : view->getUsers()) {
          if (isa<linalg::ReduceOp>(viewUser))
            users.push_back(viewUser);
          else
            needing.insert(viewUser);
        }
        continue;
      }
      // Their seed: one element of invocation 0's first run, which an op
      // of one iteration (run by invocation 0) reads.
      std::optional<int64_t> offset = triton_spirv::contiguousOffset(view);
      if (view.getType().getNumElements() == 1 && offset &&
          *offset < kVectorWidth) {
        for (Operation *viewUser : view->getUsers()) {
          auto linalgOp = dyn_cast<linalg::LinalgOp>(viewUser);
          if (!linalgOp || computeProduct(linalgOp.getStaticLoopRanges()) != 1)
            needing.insert(viewUser);
        }
        continue;
      }
    }
    // Such reductions read registers only where all their inputs are
    // private, or such views of private buffers, alike, and make one output
    // (distributeReduction); unreduced dimensions of one element make none
    // more.
    if (auto reduce = dyn_cast<linalg::ReduceOp>(user)) {
      auto inputType = cast<MemRefType>(reduce.getInputs()[0].getType());
      std::optional<int64_t> skipped =
          skippedRunElements(reduce.getInputs()[0]);
      bool oneOutput = llvm::all_of(
          llvm::enumerate(inputType.getShape()), [&](const auto &dimAndSize) {
            auto [dim, size] = dimAndSize;
            return size == 1 || llvm::is_contained(reduce.getDimensions(),
                                                   static_cast<int64_t>(dim));
          });
      if (!skipped || !oneOutput ||
          !llvm::all_of(reduce.getInputs(),
                        [&](Value input) {
                          return skippedRunElements(input) == skipped;
                        }) ||
          llvm::any_of(reduce.getInits(), [&](Value init) {
            return privateRegistersOf(init) != nullptr;
          }))
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
