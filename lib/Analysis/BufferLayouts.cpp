//===- BufferLayouts.cpp - Which block buffers live in registers ----------===//
//
// Two layouts keep a buffer in registers:
// - cyclic: element q with invocation q mod W. It fits element-wise work
//   over the whole buffer (any op iterates that way by default), reductions
//   that all invocations share, and views that keep positions congruent
//   modulo W.
// - grid: the register tile of a matmul computed by invocations. It is
//   anchored at the matmul's accumulator and carried to the buffers that
//   element-wise ops combine with it (the epilogue), which then iterate in
//   the grid too.
// An element-wise op iterates in one layout, so the buffers it reads and
// writes element by element must agree: a cyclic buffer meeting a grid one
// takes the grid when all its uses allow it, else it stays in workgroup
// memory.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Analysis/BufferLayouts.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

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

int64_t triton_spirv::rotation(Value input, unsigned workgroupSize) {
  auto view = input.getDefiningOp<memref::SubViewOp>();
  if (!view || view.getSourceType().getRank() != 1)
    return 0;
  std::optional<ViewPlacement> placement = placeView(view);
  return placement ? placement->offset % workgroupSize : 0;
}

namespace {
class LayoutAssignment {
public:
  LayoutAssignment(func::FuncOp kernel, const WorkgroupShape &shape)
      : kernel(kernel), shape(shape), workgroupSize(shape.workgroupSize) {}

  llvm::MapVector<Value, Attribute> run();

private:
  bool isOwnerAligned(Operation *user, Value buffer);
  bool allowsGrid(Value buffer, GridLayoutAttr grid);
  void propagateGrids(SmallVector<Value> worklist);

  func::FuncOp kernel;
  const WorkgroupShape &shape;
  const int64_t workgroupSize;
  llvm::MapVector<Value, Attribute> layouts;
};
} // namespace

/// Whether `user` of `buffer` only touches element q from invocation
/// q mod W once distributed: element-wise ops reading or writing it whole
/// (cyclic loops), reductions shared by all invocations of a 1-D buffer of at
/// least W elements, reductions of outer dimensions with W dividing the
/// outputs, and single elements at multiples of W read by invocation 0. Views
/// qualify when they keep positions congruent modulo W.
bool LayoutAssignment::isOwnerAligned(Operation *user, Value buffer) {
  if (auto reduce = dyn_cast<linalg::ReduceOp>(user)) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!llvm::is_contained(reduce.getInputs(), buffer) ||
        llvm::is_contained(reduce.getInits(), buffer))
      return false;
    // A full reduction shared by all W invocations: each folds its own,
    // provided all its inputs are rotated alike.
    if (type.getRank() == 1)
      return reduce.getDimensions().size() == 1 &&
             type.getNumElements() >= workgroupSize &&
             llvm::all_of(reduce.getInputs(), [&](Value input) {
               return rotation(input, workgroupSize) ==
                      rotation(buffer, workgroupSize);
             });
    // Outer dimensions reduced, W dividing the outputs: invocation t folds
    // the elements of output p = t mod W, at positions r * P + p.
    ArrayRef<int64_t> dims = reduce.getDimensions();
    int64_t outputs = computeProduct(type.getShape().drop_front(dims.size()));
    return llvm::equal(dims, llvm::seq<int64_t>(0, dims.size())) &&
           outputs % workgroupSize == 0;
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
    if (linalgOp.getNumParallelLoops() != linalgOp.getNumLoops() ||
        linalgOp.getNumLoops() == 0)
      return false;
    for (OpOperand &operand : user->getOpOperands())
      if (operand.get() == buffer &&
          !linalgOp.getMatchingIndexingMap(&operand).isIdentity())
        return false;
    return true;
  }
  auto view = dyn_cast<memref::SubViewOp>(user);
  if (!view || view.getSource() != buffer)
    return false;
  std::optional<ViewPlacement> placement = placeView(view);
  if (!placement)
    return false;
  MemRefType viewType = view.getType();
  bool congruent = placement->offset % workgroupSize == 0;
  for (auto [stride, rowMajor] :
       llvm::zip(placement->strides, computeStrides(viewType.getShape())))
    congruent &= (stride - rowMajor) % workgroupSize == 0;
  for (Operation *viewUser : view->getUsers()) {
    if (viewType.getRank() == 0) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(viewUser);
      if (!linalgOp || linalgOp.getNumLoops() != 0 || !congruent)
        return false;
      continue;
    }
    if (congruent && isOwnerAligned(viewUser, view.getResult()))
      continue;
    // A 1-D view at any offset: full reductions rotate their members.
    if (viewType.getRank() == 1 && view.getSourceType().getRank() == 1 &&
        isa<linalg::ReduceOp>(viewUser) &&
        isOwnerAligned(viewUser, view.getResult()))
      continue;
    return false;
  }
  return true;
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

/// The grid layout of a matmul computed in register tiles.
static GridLayoutAttr gridOf(const MatmulPlan &plan, MLIRContext *context) {
  return GridLayoutAttr::get(context, {plan.tiling.gridM, plan.tiling.gridN});
}

/// Whether every use of `buffer` can follow `grid`: element-wise ops (which
/// then iterate in the grid), and matmuls computed in register tiles of that
/// grid that accumulate into it.
bool LayoutAssignment::allowsGrid(Value buffer, GridLayoutAttr grid) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!grid.tiles(type.getShape()) || grid.getNumInvocations() != workgroupSize)
    return false;
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    if (isElementwiseUse(user, buffer))
      return true;
    auto matmul = dyn_cast<linalg::LinalgOp>(user);
    if (!matmul || matmul.getNumDpsInits() != 1 ||
        matmul.getDpsInits()[0] != buffer ||
        llvm::is_contained(matmul.getDpsInputs(), buffer))
      return false;
    std::optional<MatmulPlan> plan = planMatmul(matmul, shape);
    return plan && plan->kind == MatmulPlan::Kind::RegisterTiles &&
           gridOf(*plan, user->getContext()) == grid;
  });
}

/// Element-wise ops that touch a grid buffer iterate in its grid: the other
/// buffers they touch element by element take the same grid, or, when they
/// cannot, stay in workgroup memory.
void LayoutAssignment::propagateGrids(SmallVector<Value> worklist) {
  while (!worklist.empty()) {
    Value buffer = worklist.pop_back_val();
    auto grid = dyn_cast_or_null<GridLayoutAttr>(layouts.lookup(buffer));
    if (!grid)
      continue;
    for (Operation *user : buffer.getUsers()) {
      if (!isElementwiseUse(user, buffer))
        continue;
      for (Value other : user->getOperands()) {
        if (other == buffer || !layouts.count(other))
          continue;
        Attribute layout = layouts.lookup(other);
        if (layout == grid)
          continue;
        if (isa<CyclicLayoutAttr>(layout) && allowsGrid(other, grid)) {
          layouts[other] = grid;
          worklist.push_back(other);
          continue;
        }
        layouts.erase(other);
      }
    }
  }
}

llvm::MapVector<Value, Attribute> LayoutAssignment::run() {
  MLIRContext *context = kernel.getContext();
  SmallVector<memref::AllocOp> allocs;
  kernel.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (isWorkgroupMemory(type) && type.hasStaticShape() &&
        type.getLayout().isIdentity() && type.getNumElements() != 0)
      allocs.push_back(alloc);
  });
  for (memref::AllocOp alloc : allocs)
    if (llvm::all_of(alloc->getUsers(), [&](Operation *user) {
          return isOwnerAligned(user, alloc);
        }))
      layouts[alloc] = CyclicLayoutAttr::get(context);

  // Matmul accumulators computed in register tiles anchor grids.
  llvm::SmallDenseSet<Value> isAlloc;
  for (memref::AllocOp alloc : allocs)
    isAlloc.insert(alloc);
  SmallVector<Value> anchors;
  kernel.walk([&](linalg::LinalgOp op) {
    std::optional<MatmulPlan> plan = planMatmul(op, shape);
    if (!plan || plan->kind != MatmulPlan::Kind::RegisterTiles)
      return;
    Value acc = op.getDpsInits()[0];
    GridLayoutAttr grid = gridOf(*plan, context);
    if (!isAlloc.contains(acc) || !allowsGrid(acc, grid))
      return;
    layouts[acc] = grid;
    anchors.push_back(acc);
  });
  propagateGrids(anchors);
  return std::move(layouts);
}

llvm::MapVector<Value, Attribute>
triton_spirv::assignBufferLayouts(func::FuncOp kernel,
                                  const WorkgroupShape &shape) {
  return LayoutAssignment(kernel, shape).run();
}
