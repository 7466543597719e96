//===- DistributeLayouts.cpp - Grid, slice, fragment layouts --------------===//
//
// Element-wise loops over buffers in a grid or slice layout, and epilogues
// of matmul accumulators kept as cooperative-matrix fragments.
// (KernelDistributor: DistributeKernel.h.)
//
//===----------------------------------------------------------------------===//

#include "DistributeKernel.h"

using namespace mlir;
using namespace mlir::triton_spirv::distribution;
using triton_spirv::bufferUnderViews;

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

/// `fragment` (f32) with each element rounded to bf16's precision, to
/// nearest even, and kept in f32: converting it to bf16 is then exact,
/// whichever rounding the driver's conversion takes.
static Value roundFragmentToBFloat16(RewriterBase &rewriter, Location loc,
                                     Value fragment) {
  auto map = triton_spirv::MapFragmentsOp::create(
      rewriter, loc, fragment.getType(), ValueRange{fragment}, ValueRange{});
  OpBuilder::InsertionGuard guard(rewriter);
  Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
  Block *body = rewriter.createBlock(&map.getBody(), {}, {i32, i32, f32},
                                     {loc, loc, loc});
  Value narrow = arith::TruncFOp::create(rewriter, loc, rewriter.getBF16Type(),
                                         body->getArgument(2));
  triton_spirv::YieldOp::create(
      rewriter, loc, arith::ExtFOp::create(rewriter, loc, f32, narrow));
  return map.getResult();
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
  // conversion is marked to give bf16 (triton-spirv-retype-bfloat16-matrices).
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
  // A matrix's OpFConvert rounds as the driver chooses, and NVIDIA's
  // truncates to bf16: each element is first rounded to bf16 in f32 (to
  // nearest even, by a per-element operation), so that the conversion is
  // exact. Without per-element operations, each lane rounds its elements
  // from an f32 scratch.
  if (bfloat16 && !(this->shape.bfloat16CooperativeMatrix &&
                    this->shape.cooperativeMatrix2))
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
      Value exact = bfloat16 ? roundFragmentToBFloat16(rewriter, loc, fragment)
                             : fragment;
      auto convert = triton_spirv::ConvertFragmentOp::create(
          rewriter, loc, gpu::MMAMatrixType::get({size, size}, element, "COp"),
          exact);
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
