//===- BufferLayouts.cpp - Which block buffers live in registers ----------===//
//
// Four layouts keep a buffer in registers:
// - cyclic: element q with invocation q mod W. It fits element-wise work
//   over the whole buffer (any op iterates that way by default), reductions
//   that all invocations share, views that keep positions congruent modulo
//   W, and the pair swaps of sorting networks (element q reading q ^ M,
//   which the distribution fetches from the owner).
// - grid: the register tile of a matmul computed by invocations. It is
//   anchored at the matmul's accumulator (and at row reductions of blocks
//   that have no layout) and carried to the buffers that element-wise ops
//   combine with it (the epilogue), which then iterate in the grid too.
// - slice: the result of reducing one dimension of a grid buffer, held by
//   all invocations that shared the reduced row (they combine their partial
//   results with subgroup shuffles). Element-wise work on it runs on every
//   holder; grid ops read it broadcast along the reduced dimension. Vectors
//   that grid ops read broadcast become slices too.
// - fragments: the accumulator of a matmul computed with cooperative
//   matrices, as one matrix value per 16x16 tile of a subgroup's, from its
//   fill through the reduction loops to an epilogue that only reads it.
// An element-wise op iterates in one layout, so the buffers it reads and
// writes element by element must agree. Layouts spread from their anchors
// (matmul accumulators, reductions of grid buffers) to every buffer whose
// uses all allow them; a fixpoint then takes layouts away where buffers
// disagree (the grid wins over a slice, a slice over cyclic) or where a
// reduction's input and result, or a broadcast reader, do not match, and
// those buffers stay in workgroup memory.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Analysis/BufferLayouts.h"
#include "triton-spirv/Analysis/FragmentFamilies.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

#include <numeric>

using namespace mlir;
using namespace mlir::triton_spirv;

std::optional<ViewPlacement> triton_spirv::placeView(memref::SubViewOp view) {
  MemRefType source = view.getSourceType();
  ViewPlacement placement;
  if (!view.hasUnitStride() || !source.hasStaticShape() ||
      !source.getLayout().isIdentity() || !view.getType().hasStaticShape() ||
      failed(view.getType().getStridesAndOffset(placement.strides,
                                                placement.offset)) ||
      ShapedType::isDynamic(placement.offset))
    return std::nullopt;
  return placement;
}

bool triton_spirv::isShuffleType(Type element) {
  return element.isF32() || element.isF64() || element.isInteger(32) ||
         element.isInteger(64);
}

/// Whether view element v sits at buffer position `offset + q`, q being v's
/// row-major position in the view: every dimension but unit ones has the
/// view's own row-major stride.
static bool isContiguous(const ViewPlacement &placement,
                         ArrayRef<int64_t> shape) {
  for (auto [size, stride, rowMajor] :
       llvm::zip(shape, placement.strides, computeStrides(shape)))
    if (size != 1 && stride != rowMajor)
      return false;
  return true;
}

std::optional<int64_t> triton_spirv::contiguousOffset(Value input) {
  auto view = input.getDefiningOp<memref::SubViewOp>();
  if (!view)
    return 0;
  std::optional<ViewPlacement> placement = placeView(view);
  if (!placement || !isContiguous(*placement, view.getType().getShape()))
    return std::nullopt;
  return placement->offset;
}

int64_t triton_spirv::rotation(Value input, unsigned workgroupSize) {
  return contiguousOffset(input).value_or(0) % workgroupSize;
}

std::optional<int64_t> triton_spirv::pairSwapMask(AffineMap map,
                                                  ArrayRef<int64_t> shape) {
  if (map.getNumSymbols() != 0 || map.getNumDims() != shape.size() ||
      map.getNumResults() != shape.size() ||
      ShapedType::isDynamicShape(shape))
    return std::nullopt;
  int64_t mask = 0;
  SmallVector<int64_t> strides = computeStrides(shape);
  for (auto [dim, result] : llvm::enumerate(map.getResults())) {
    AffineExpr own = getAffineDimExpr(dim, map.getContext());
    if (result == own)
      continue;
    if (result != 1 - own || shape[dim] != 2 ||
        !llvm::isPowerOf2_64(strides[dim]))
      return std::nullopt;
    mask += strides[dim];
  }
  return mask;
}

/// An op that iterates over `buffer` element by element: all its loops
/// parallel, `buffer` accessed only through identity maps.
static bool isElementwiseUse(Operation *user, Value buffer) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
  if (!linalgOp || linalgOp.getNumLoops() == 0 ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return false;
  return llvm::all_of(user->getOpOperands(), [&](OpOperand &operand) {
    return operand.get() != buffer ||
           linalgOp.getMatchingIndexingMap(&operand).isIdentity();
  });
}

/// Whether `user` reads or writes `buffer`'s element x in its iteration x of
/// its parallel loops, which the distribution spreads cyclically (in
/// order, outermost), running any reduction loops inside: element-wise ops,
/// and ops such as batched matmuls over an output or input indexed by
/// exactly their parallel dimensions. Matmuls are tiled instead.
static bool isCyclicAlignedUse(Operation *user, Value buffer) {
  if (isElementwiseUse(user, buffer))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
  if (!linalgOp || linalgOp.getNumParallelLoops() == 0 ||
      isStaticMatmul(linalgOp))
    return false;
  SmallVector<unsigned> parallelDims;
  linalgOp.getParallelDims(parallelDims);
  return llvm::all_of(user->getOpOperands(), [&](OpOperand &operand) {
    if (operand.get() != buffer)
      return true;
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    return map.getNumResults() == parallelDims.size() &&
           llvm::all_of(llvm::enumerate(map.getResults()), [&](auto result) {
             auto dim = dyn_cast<AffineDimExpr>(result.value());
             return dim && dim.getPosition() == parallelDims[result.index()];
           });
  });
}

namespace {
class LayoutAssignment {
public:
  LayoutAssignment(func::FuncOp kernel, const WorkgroupShape &shape)
      : kernel(kernel), shape(shape), workgroupSize(shape.workgroupSize) {}

  BufferLayouts run();

private:
  bool isOwnerAligned(Operation *user, Value buffer);
  bool isPairSwapRead(Operation *user, Value buffer);
  bool isCandidate(Value buffer) const { return candidates.contains(buffer); }
  bool allowsGrid(Value buffer, GridLayoutAttr grid);
  bool allowsSlice(Value buffer, SliceLayoutAttr slice);
  bool allows(Value buffer, Attribute layout);
  void propagate(SmallVector<Value> worklist);
  bool isConsistent(Value buffer, Attribute layout);

  func::FuncOp kernel;
  const WorkgroupShape &shape;
  const int64_t workgroupSize;
  /// Workgroup allocations that could live in registers.
  llvm::SmallDenseSet<Value> candidates;
  llvm::MapVector<Value, Attribute> layouts;
};
} // namespace

/// Whether `user` of `buffer` only touches element q from invocation
/// q mod W once distributed: element-wise ops reading or writing it whole
/// (cyclic loops, also through reshapes), reductions shared by all
/// invocations of a buffer of at least W elements whose other dimensions are
/// units, reductions of outer dimensions with W dividing the outputs, and
/// single elements at multiples of W read by invocation 0, and pair swaps
/// (isPairSwapRead). Views qualify when they keep positions congruent modulo
/// W, or are contiguous and reduced whole; reshapes, also of reshapes,
/// always.
bool LayoutAssignment::isOwnerAligned(Operation *user, Value buffer) {
  if (auto reduce = dyn_cast<linalg::ReduceOp>(user)) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!llvm::is_contained(reduce.getInputs(), buffer) ||
        llvm::is_contained(reduce.getInits(), buffer))
      return false;
    ArrayRef<int64_t> dims = reduce.getDimensions();
    // A full reduction shared by all W invocations (every dimension left is
    // a unit one, as in Inductor's [1, R] blocks): each folds its own,
    // provided all its inputs are rotated alike.
    bool unitOutput =
        llvm::all_of(llvm::enumerate(type.getShape()), [&](auto dim) {
          return dim.value() == 1 ||
                 llvm::is_contained(dims, (int64_t)dim.index());
        });
    if (unitOutput) {
      int64_t shift = rotation(buffer, workgroupSize);
      return type.getNumElements() >= workgroupSize &&
             llvm::all_of(reduce.getInputs(), [&](Value input) {
               return rotation(input, workgroupSize) == shift;
             });
    }
    // Outer dimensions reduced, W dividing the outputs: invocation t folds
    // the elements of output p = t mod W, at positions r * P + p.
    int64_t outputs = computeProduct(type.getShape().drop_front(dims.size()));
    return llvm::equal(dims, llvm::seq<int64_t>(0, dims.size())) &&
           outputs % workgroupSize == 0;
  }
  if (isPairSwapRead(user, buffer))
    return true;
  if (isa<linalg::LinalgOp>(user))
    return isCyclicAlignedUse(user, buffer);
  // Reshapes keep every element's linear position (the buffer has the
  // identity layout), so element-wise ops and reductions over the reshaped
  // buffer, also through further reshapes, stay aligned.
  if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
    Value reshaped = user->getResult(0);
    return user->getOperand(0) == buffer &&
           llvm::all_of(reshaped.getUsers(), [&](Operation *reshapedUser) {
             return isa<linalg::LinalgOp, memref::ExpandShapeOp,
                        memref::CollapseShapeOp>(reshapedUser) &&
                    isOwnerAligned(reshapedUser, reshaped);
           });
  }
  auto view = dyn_cast<memref::SubViewOp>(user);
  if (!view || view.getSource() != buffer)
    return false;
  std::optional<ViewPlacement> placement = placeView(view);
  if (!placement)
    return false;
  MemRefType viewType = view.getType();
  bool congruent = placement->offset % workgroupSize == 0;
  for (auto [size, stride, rowMajor] :
       llvm::zip(viewType.getShape(), placement->strides,
                 computeStrides(viewType.getShape())))
    congruent &= size == 1 || (stride - rowMajor) % workgroupSize == 0;
  bool contiguous = isContiguous(*placement, viewType.getShape());
  for (Operation *viewUser : view->getUsers()) {
    if (viewType.getRank() == 0) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(viewUser);
      if (!linalgOp || linalgOp.getNumLoops() != 0 || !congruent)
        return false;
      continue;
    }
    // A contiguous view at any offset: full reductions rotate their
    // members.
    bool rotatedReduction = contiguous && isa<linalg::ReduceOp>(viewUser);
    if (!(congruent || rotatedReduction) ||
        !isOwnerAligned(viewUser, view.getResult()))
      return false;
  }
  return true;
}

/// Whether `user` is an element-wise op that reads `buffer` (a buffer or
/// reshapes of one, of a multiple of W elements) element by element and as
/// pair swaps, and does not write it: invocation t's iteration r then reads
/// element q ^ M of q = t + rW, which is its own register r ^ (M / W) of
/// invocation t ^ (M mod W), reached by a subgroup shuffle or a copy of the
/// registers in workgroup memory (triton-spirv-distribute).
bool LayoutAssignment::isPairSwapRead(Operation *user, Value buffer) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
  auto type = cast<MemRefType>(buffer.getType());
  // Through reshapes the linear positions are the buffer's; other views
  // would move them.
  if (!linalgOp ||
      !bufferUnderReshapes(buffer).getDefiningOp<memref::AllocOp>() ||
      !type.hasStaticShape() || type.getNumElements() % workgroupSize ||
      linalgOp.getNumLoops() == 0 ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return false;
  bool swaps = false;
  for (OpOperand &operand : user->getOpOperands()) {
    if (operand.get() != buffer)
      continue;
    std::optional<int64_t> mask = pairSwapMask(
        linalgOp.getMatchingIndexingMap(&operand), type.getShape());
    if (!mask || linalgOp.isDpsInit(&operand))
      return false;
    swaps |= *mask != 0;
  }
  return swaps;
}

/// The dimension a single-input, single-output reduction reduces.
static std::optional<unsigned> reducedDim(linalg::ReduceOp reduce) {
  if (reduce.getInputs().size() != 1 || reduce.getDimensions().size() != 1)
    return std::nullopt;
  return reduce.getDimensions().front();
}

/// The grid layout of a matmul computed in register tiles.
static GridLayoutAttr gridOf(const MatmulPlan &plan, MLIRContext *context) {
  return GridLayoutAttr::get(
      context, {plan.registerTiling.gridM, plan.registerTiling.gridN});
}

bool triton_spirv::rowInOneSubgroup(GridLayoutAttr grid, unsigned dim,
                                    unsigned subgroupSize) {
  ArrayRef<int64_t> counts = grid.getInvocations();
  int64_t stride = computeProduct(counts.drop_front(dim + 1));
  int64_t span = stride * counts[dim];
  return subgroupSize > 1 && llvm::isPowerOf2_64(counts[dim]) &&
         llvm::isPowerOf2_64(stride) && span <= subgroupSize;
}

/// Whether `offset` is a multiple of `multiple`: a constant, or the
/// induction variable of a loop whose start and step are.
static bool isMultipleOf(OpFoldResult offset, int64_t multiple) {
  if (std::optional<int64_t> constant = getConstantIntValue(offset))
    return *constant % multiple == 0;
  scf::ForOp loop = scf::getForInductionVarOwner(cast<Value>(offset));
  if (!loop)
    return false;
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  return lower && step && *lower % multiple == 0 && *step % multiple == 0;
}

/// Whether `view` is a box of unit strides whose offsets are multiples of
/// `counts` and whose sizes they divide: each invocation of a grid of
/// `counts` holds the same elements of the view as of the viewed buffer.
static bool isGridAlignedBox(memref::SubViewOp view, ArrayRef<int64_t> counts) {
  if (!view.hasUnitStride() ||
      view.getType().getRank() != view.getSourceType().getRank() ||
      !view.getType().hasStaticShape())
    return false;
  for (auto [offset, size, count] :
       llvm::zip(view.getMixedOffsets(), view.getType().getShape(), counts))
    if (!isMultipleOf(offset, count) || size % count)
      return false;
  return true;
}

/// Whether `view` of a buffer in `grid` keeps the grid, and ops read or write
/// it element by element (they can then iterate in the grid over it).
static bool keepsGrid(memref::SubViewOp view, GridLayoutAttr grid) {
  return isGridAlignedBox(view, grid.getInvocations()) &&
         llvm::all_of(view->getUsers(), [&](Operation *user) {
           return isElementwiseUse(user, view.getResult());
         });
}

/// Whether every use of `buffer` can follow `grid`: element-wise ops (which
/// then iterate in the grid), also through views that keep the grid,
/// matmuls computed in register tiles of that grid that accumulate into it,
/// and reductions of one dimension (the invocations sharing a row combine
/// their partial results with shuffles or through workgroup memory).
bool LayoutAssignment::allowsGrid(Value buffer, GridLayoutAttr grid) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!grid.tiles(type.getShape()) || grid.getNumInvocations() != workgroupSize)
    return false;
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    if (isElementwiseUse(user, buffer))
      return true;
    if (auto view = dyn_cast<memref::SubViewOp>(user))
      return keepsGrid(view, grid);
    if (auto reduce = dyn_cast<linalg::ReduceOp>(user)) {
      std::optional<unsigned> dim = reducedDim(reduce);
      return dim && reduce.getInputs()[0] == buffer &&
             reduce.getInits()[0] != buffer &&
             isCandidate(reduce.getInits()[0]);
    }
    auto matmul = dyn_cast<linalg::LinalgOp>(user);
    if (!matmul || matmul.getNumDpsInits() != 1 ||
        matmul.getDpsInits()[0] != buffer ||
        llvm::is_contained(matmul.getDpsInputs(), buffer))
      return false;
    // Any grid of all the invocations is a register tiling of the matmul.
    return lookupMatmulPlan(matmul) && grid.getInvocations().size() == 2;
  });
}

/// Whether the accumulator `acc` of `matmul` can stay in registers as
/// cooperative-matrix fragments: it is filled with a scalar, accumulated by
/// `matmul` alone (in `scf.for` loops around it below the fill's block,
/// which carry the fragments), and then only read, element by element, by
/// element-wise ops of the fill's block that touch no other block in
/// workgroup memory (the epilogue, which visits the fragments one at a
/// time; it may also read and write global memory).
static bool allowsFragments(Value acc, linalg::LinalgOp matmul) {
  linalg::FillOp fill;
  SmallVector<Operation *> readers;
  for (Operation *user : acc.getUsers()) {
    if (user == matmul.getOperation())
      continue;
    if (auto fillOp = dyn_cast<linalg::FillOp>(user)) {
      if (fill)
        return false;
      fill = fillOp;
      continue;
    }
    auto reader = dyn_cast<linalg::LinalgOp>(user);
    if (!reader || !isElementwiseUse(user, acc) || reader.getNumLoops() != 2 ||
        llvm::is_contained(reader.getDpsInits(), acc) ||
        llvm::any_of(user->getOperands(),
                     [&](Value operand) {
                       auto type = dyn_cast<MemRefType>(operand.getType());
                       return operand != acc && type && !isGlobalMemory(type);
                     }))
      return false;
    WalkResult blocks = user->walk([](Operation *nested) {
      auto load = dyn_cast<memref::LoadOp>(nested);
      auto store = dyn_cast<memref::StoreOp>(nested);
      Value memref = load    ? load.getMemRef()
                     : store ? store.getMemRef()
                             : Value();
      return memref && !isGlobalMemory(cast<MemRefType>(memref.getType()))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (blocks.wasInterrupted())
      return false;
    readers.push_back(user);
  }
  if (!fill || !isa<MemRefType>(acc.getType()) ||
      llvm::is_contained(matmul.getDpsInputs(), acc))
    return false;
  Block *block = fill->getBlock();
  std::optional<SmallVector<Operation *>> loops =
      fragmentLoops(matmul, block);
  if (!loops)
    return false;
  Operation *accumulation =
      loops->empty() ? matmul.getOperation() : loops->front();
  return fill->isBeforeInBlock(accumulation) &&
         llvm::all_of(readers, [&](Operation *reader) {
           return reader->getBlock() == block &&
                  accumulation->isBeforeInBlock(reader);
         });
}

/// Whether `buffer`, or a buffer computed from it element by element, is
/// the input of a reduction.
static bool feedsReduction(Value buffer) {
  SmallVector<Value> worklist{buffer};
  llvm::SmallDenseSet<Value> seen{buffer};
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    for (Operation *user : next.getUsers()) {
      if (auto reduce = dyn_cast<linalg::ReduceOp>(user))
        if (llvm::is_contained(reduce.getInputs(), next))
          return true;
      auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
      if (!linalgOp || !isElementwiseUse(user, next))
        continue;
      for (Value output : linalgOp.getDpsInits())
        if (seen.insert(output).second)
          worklist.push_back(output);
    }
  }
  return false;
}

/// Whether `view` inserts a unit dimension at `dim` into its source.
static bool insertsUnitDim(memref::ExpandShapeOp view, unsigned dim) {
  ArrayRef<int64_t> source = view.getSrcType().getShape();
  SmallVector<int64_t> expected(source);
  expected.insert(expected.begin() + dim, 1);
  return view.getResultType().getShape() == ArrayRef<int64_t>(expected);
}

/// The map of a read broadcast along `dim`: the identity on the other
/// dimensions, the constant 0 at `dim`.
static bool isBroadcastAlong(AffineMap map, unsigned dim) {
  if (map.getNumResults() != map.getNumDims())
    return false;
  for (auto [position, result] : llvm::enumerate(map.getResults())) {
    auto constant = dyn_cast<AffineConstantExpr>(result);
    auto dimExpr = dyn_cast<AffineDimExpr>(result);
    if (position == dim ? !constant || constant.getValue() != 0
                        : !dimExpr || dimExpr.getPosition() != position)
      return false;
  }
  return true;
}

/// Whether every use of `buffer` can follow `slice`: element-wise ops (run
/// on every holder; writes to memory by one; atomics by one too, which
/// shuffles their results to the others where they are lanes of its
/// subgroup, else shares them through workgroup memory), the
/// reduction that produces it, and reads broadcast along the reduced
/// dimension through a view that inserts it.
bool LayoutAssignment::allowsSlice(Value buffer, SliceLayoutAttr slice) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!slice.tiles(type.getShape()) ||
      slice.getParent().getNumInvocations() != workgroupSize)
    return false;
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    if (isElementwiseUse(user, buffer)) {
      WalkResult atomics = user->walk([&](Operation *op) {
        if (!isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op) ||
            slice.getParent().getInvocations()[slice.getDim()] == 1)
          return WalkResult::advance();
        // Where the holders are not lanes of one subgroup, the result goes
        // through workgroup memory, behind a barrier that the op's body
        // must reach unconditionally.
        return rowInOneSubgroup(slice.getParent(), slice.getDim(),
                                shape.subgroupSize) ||
                       op->getParentOp() == user
                   ? WalkResult::advance()
                   : WalkResult::interrupt();
      });
      return !atomics.wasInterrupted();
    }
    if (auto reduce = dyn_cast<linalg::ReduceOp>(user))
      return reducedDim(reduce) == slice.getDim() &&
             reduce.getInits()[0] == buffer && reduce.getInputs()[0] != buffer;
    auto view = dyn_cast<memref::ExpandShapeOp>(user);
    if (!view || !insertsUnitDim(view, slice.getDim()))
      return false;
    auto readsBroadcast = [&](OpOperand &use) {
      auto reader = dyn_cast<linalg::LinalgOp>(use.getOwner());
      return reader && reader.isDpsInput(&use) &&
             reader.getNumParallelLoops() == reader.getNumLoops() &&
             isBroadcastAlong(reader.getMatchingIndexingMap(&use),
                              slice.getDim());
    };
    return llvm::all_of(view->getUses(), [&](OpOperand &use) {
      // A chunk of the broadcast view (a chunked matmul's operand is
      // computed from it) that keeps the grid along the other dimensions.
      if (auto chunk = dyn_cast<memref::SubViewOp>(use.getOwner())) {
        SmallVector<int64_t> counts(slice.getParent().getInvocations());
        counts[slice.getDim()] = 1;
        return isGridAlignedBox(chunk, counts) &&
               llvm::all_of(chunk->getUses(), readsBroadcast);
      }
      return readsBroadcast(use);
    });
  });
}

bool LayoutAssignment::allows(Value buffer, Attribute layout) {
  if (auto grid = dyn_cast<GridLayoutAttr>(layout))
    return allowsGrid(buffer, grid);
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    return allowsSlice(buffer, slice);
  return false;
}

/// The ops that access `buffer` through `user`, and the value they access:
/// `user` itself, or the users of a view `user` makes.
static std::pair<SmallVector<Operation *>, Value>
accessesThrough(Operation *user, Value buffer) {
  if (auto view = dyn_cast<memref::SubViewOp>(user))
    return {SmallVector<Operation *>(view->getUsers()), view.getResult()};
  return {SmallVector<Operation *>{user}, buffer};
}

/// Which layout wins where two meet in an element-wise op. (Fragments meet
/// no other layout: their readers touch no other block.)
static int priority(Attribute layout) {
  if (!layout)
    return 0;
  if (isa<FragmentsLayoutAttr, FragmentRowsLayoutAttr>(layout))
    return 4;
  if (isa<GridLayoutAttr>(layout))
    return 3;
  if (isa<SliceLayoutAttr>(layout))
    return 2;
  return 1;
}

/// Spreads grids and slices from `worklist`: through element-wise ops to the
/// other buffers they touch element by element, and from a grid buffer to
/// the results of its reductions.
void LayoutAssignment::propagate(SmallVector<Value> worklist) {
  MLIRContext *context = kernel.getContext();
  auto offer = [&](Value other, Attribute layout) {
    if (!isCandidate(other) ||
        priority(layouts.lookup(other)) >= priority(layout) ||
        !allows(other, layout))
      return;
    layouts[other] = layout;
    worklist.push_back(other);
  };
  while (!worklist.empty()) {
    Value buffer = worklist.pop_back_val();
    Attribute layout = layouts.lookup(buffer);
    if (!layout)
      continue;
    for (Operation *user : buffer.getUsers()) {
      if (auto reduce = dyn_cast<linalg::ReduceOp>(user)) {
        auto grid = dyn_cast<GridLayoutAttr>(layout);
        if (grid && reduce.getInputs()[0] == buffer)
          offer(reduce.getInits()[0],
                SliceLayoutAttr::get(context, *reducedDim(reduce), grid));
        continue;
      }
      auto [readers, accessed] = accessesThrough(user, buffer);
      for (Operation *reader : readers) {
        if (!isElementwiseUse(reader, accessed))
          continue;
        auto linalgOp = cast<linalg::LinalgOp>(reader);
        for (OpOperand &operand : reader->getOpOperands()) {
          if (operand.get() == accessed)
            continue;
          AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
          if (map.isIdentity()) {
            offer(operand.get(), layout);
            continue;
          }
          // A block read broadcast along a dimension of the grid (a row
          // vector loaded once) can be a slice of it: each invocation holds
          // what it reads.
          auto grid = dyn_cast<GridLayoutAttr>(layout);
          Value read = operand.get();
          if (auto chunk = read.getDefiningOp<memref::SubViewOp>())
            read = chunk.getSource();
          auto view = read.getDefiningOp<memref::ExpandShapeOp>();
          if (!grid || !view || map.getNumResults() != map.getNumDims())
            continue;
          for (unsigned dim = 0; dim < map.getNumResults(); ++dim)
            if (isBroadcastAlong(map, dim) && insertsUnitDim(view, dim))
              offer(view.getSrc(), SliceLayoutAttr::get(context, dim, grid));
        }
      }
    }
  }
}

/// Whether `buffer` in `layout` agrees with the layouts around it: the
/// element-wise ops touching it iterate in its layout (no other buffer there
/// has another layout of equal or higher priority), a grid buffer's
/// reductions produce slices of its grid and a slice comes from a reduction
/// of its parent grid, and whoever reads a slice broadcast iterates in the
/// parent grid.
bool LayoutAssignment::isConsistent(Value buffer, Attribute layout) {
  if (isa<FragmentsLayoutAttr, FragmentRowsLayoutAttr>(layout))
    return true;
  auto grid = dyn_cast<GridLayoutAttr>(layout);
  auto slice = dyn_cast<SliceLayoutAttr>(layout);
  // (Through views that keep a grid too.)
  auto iteratesIn = [&](linalg::LinalgOp op, Attribute expected) {
    return llvm::any_of(op->getOpOperands(), [&](OpOperand &operand) {
      Value buffer = operand.get();
      if (auto view = buffer.getDefiningOp<memref::SubViewOp>())
        buffer = view.getSource();
      return layouts.lookup(buffer) == expected &&
             op.getMatchingIndexingMap(&operand).isIdentity();
    });
  };
  for (Operation *user : buffer.getUsers()) {
    if (auto reduce = dyn_cast<linalg::ReduceOp>(user)) {
      if (grid && reduce.getInputs()[0] == buffer &&
          layouts.lookup(reduce.getInits()[0]) !=
              SliceLayoutAttr::get(kernel.getContext(), *reducedDim(reduce),
                                   grid))
        return false;
      if (slice && layouts.lookup(reduce.getInputs()[0]) != slice.getParent())
        return false;
      continue;
    }
    auto view = dyn_cast<memref::ExpandShapeOp>(user);
    if (view && grid)
      return false;
    if (view && slice) {
      for (Operation *reader : view->getUsers()) {
        if (auto chunk = dyn_cast<memref::SubViewOp>(reader)) {
          for (Operation *chunkReader : chunk->getUsers())
            if (!iteratesIn(cast<linalg::LinalgOp>(chunkReader),
                            slice.getParent()))
              return false;
          continue;
        }
        if (!iteratesIn(cast<linalg::LinalgOp>(reader), slice.getParent()))
          return false;
      }
      continue;
    }
    // A cyclic buffer's reshapes (and theirs) are read in the same cyclic
    // order.
    SmallVector<std::pair<Operation *, Value>> reads;
    std::function<void(Operation *, Value)> addReads = [&](Operation *reader,
                                                          Value accessed) {
      if (!grid && !slice &&
          isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(reader)) {
        for (Operation *next : reader->getResult(0).getUsers())
          addReads(next, reader->getResult(0));
        return;
      }
      reads.push_back({reader, accessed});
    };
    auto [directReaders, directlyAccessed] = accessesThrough(user, buffer);
    for (Operation *reader : directReaders)
      addReads(reader, directlyAccessed);
    for (auto [reader, accessed] : reads) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(reader);
      if (!linalgOp || !isElementwiseUse(reader, accessed))
        continue;
      for (OpOperand &operand : reader->getOpOperands()) {
        Attribute other = layouts.lookup(operand.get());
        if (other && other != layout &&
            linalgOp.getMatchingIndexingMap(&operand).isIdentity() &&
            priority(other) >= priority(layout))
          return false;
      }
    }
  }
  return true;
}

BufferLayouts LayoutAssignment::run() {
  MLIRContext *context = kernel.getContext();
  kernel.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (!isWorkgroupMemory(type) || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() || type.getNumElements() == 0)
      return;
    candidates.insert(alloc);
    if (llvm::all_of(alloc->getUsers(), [&](Operation *user) {
          return isOwnerAligned(user, alloc);
        }))
      layouts[alloc] = CyclicLayoutAttr::get(context);
  });

  // Blocks that stay fragments through element-wise work, row reductions
  // and matmuls take no other layout.
  FragmentFamilies families = findFragmentFamilies(kernel, shape, candidates);
  for (auto [buffer, layout] : families.layouts) {
    layouts[buffer] = layout;
    candidates.erase(buffer);
  }
  // A block staged for a member's fragment loads stays in workgroup memory.
  for (auto [buffer, layout] : families.layouts)
    forEachUserThroughViews(buffer, [&](Operation *user, bool isView) {
      auto copy = dyn_cast<linalg::CopyOp>(user);
      if (isView || !copy ||
          bufferUnderViews(copy.getOutputs()[0]) != buffer ||
          families.layouts.count(copy.getInputs()[0]))
        return;
      layouts.erase(copy.getInputs()[0]);
      candidates.erase(copy.getInputs()[0]);
    });

  // Matmuls of cooperative-matrix form whose accumulator is filled, summed
  // and then read by an epilogue keep it as fragments in registers.
  // Other matmul accumulators computed in register tiles anchor grids. Where
  // cooperative matrices could compute the matmul with the accumulator in
  // workgroup memory, they do unless the accumulator is reduced: the
  // reduction needs it in registers, in a layout this project knows.
  // Matmuls with as many rows share one grid where they can, so that the
  // slices of one (attention's row maxima) can scale the other's rows.
  SmallVector<Value> anchors;
  DenseMap<int64_t, int64_t> gridRowsByRows;
  kernel.walk([&](linalg::LinalgOp op) {
    std::optional<MatmulPlan> plan = lookupMatmulPlan(op);
    if (!plan)
      return;
    Value acc = op.getDpsInits()[0];
    if (const std::optional<MatmulTiling> &tiles = plan->cooperativeTiling) {
      auto fragments =
          FragmentsLayoutAttr::get(context, {tiles->gridM, tiles->gridN});
      if (isCandidate(acc) &&
          fragments.tiles(cast<MemRefType>(acc.getType()).getShape()) &&
          allowsFragments(acc, op)) {
        layouts[acc] = fragments;
        return;
      }
      if (plan->cooperativeFitsWorkgroupMemory() && !feedsReduction(acc))
        return;
    }
    GridLayoutAttr grid = gridOf(*plan, context);
    ArrayRef<int64_t> accShape = cast<MemRefType>(acc.getType()).getShape();
    auto known =
        gridRowsByRows.try_emplace(accShape[0], plan->registerTiling.gridM)
            .first;
    int64_t gridColumns = workgroupSize / known->second;
    if (known->second != plan->registerTiling.gridM &&
        accShape[1] % gridColumns == 0 &&
        (shape.subgroupSize <= 1 || gridColumns <= shape.subgroupSize))
      grid = GridLayoutAttr::get(context, {known->second, gridColumns});
    if (!isCandidate(acc) || !allowsGrid(acc, grid))
      return;
    layouts[acc] = grid;
    anchors.push_back(acc);
  });
  propagate(anchors);

  // Reductions of one dimension of a block that has no layout yet anchor a
  // grid too. Of the last dimension: rows spread over as many lanes of a
  // subgroup as divide them (neighbouring lanes on neighbouring elements,
  // for coalesced accesses), the rest of the invocations over the other
  // dimensions. Of another dimension: the invocations spread from the
  // innermost dimension out, so that neighbouring lanes still read
  // neighbouring elements, and the holders of a column meet in workgroup
  // memory.
  anchors.clear();
  kernel.walk([&](linalg::ReduceOp reduce) {
    std::optional<unsigned> dim = reducedDim(reduce);
    Value input = reduce.getInputs()[0];
    auto type = dyn_cast<MemRefType>(input.getType());
    if (!dim || !type || type.getRank() < 2 || !isCandidate(input) ||
        layouts.count(input))
      return;
    ArrayRef<int64_t> sizes = type.getShape();
    // A grid of `counts`, the invocations left spread from dimension
    // `from` outwards; anchored where they all find a place and the buffer
    // allows it.
    auto tryGrid = [&](SmallVector<int64_t> counts, int64_t from) {
      int64_t left = workgroupSize / computeProduct(counts);
      for (int64_t d = from; d >= 0 && left > 1; --d) {
        counts[d] = std::gcd(left, sizes[d]);
        left /= counts[d];
      }
      auto grid = GridLayoutAttr::get(context, counts);
      if (left != 1 || !allowsGrid(input, grid))
        return false;
      layouts[input] = grid;
      anchors.push_back(input);
      return true;
    };
    SmallVector<int64_t> ones(sizes.size(), 1);
    if (*dim + 1 != type.getRank()) {
      tryGrid(ones, sizes.size() - 1);
      return;
    }
    // The other invocations go to the outer dimensions, innermost first.
    for (int64_t lanes = shape.subgroupSize; lanes > 1; lanes /= 2) {
      SmallVector<int64_t> counts = ones;
      counts.back() = lanes;
      if (tryGrid(counts, sizes.size() - 2))
        break;
    }
  });
  propagate(anchors);

  // Take layouts away where they disagree, until none does.
  for (bool changed = true; changed;) {
    changed = false;
    layouts.remove_if([&](const std::pair<Value, Attribute> &entry) {
      bool inconsistent = !isConsistent(entry.first, entry.second);
      changed |= inconsistent;
      return inconsistent;
    });
  }
  return BufferLayouts{
      std::move(layouts), std::move(families.loopsToUnroll),
      llvm::to_vector(llvm::make_first_range(families.layouts))};
}

BufferLayouts triton_spirv::assignBufferLayouts(func::FuncOp kernel,
                                                const WorkgroupShape &shape) {
  return LayoutAssignment(kernel, shape).run();
}
