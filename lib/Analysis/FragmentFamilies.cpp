//===- FragmentFamilies.cpp - Blocks that stay cooperative matrices -------===//

#include "triton-spirv/Analysis/FragmentFamilies.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace mlir::triton_spirv;

/// Whether every op nested in `body` is free of memory effects (the body of
/// a map that runs per element of a fragment, or of a combiner).
static bool isPureBody(Block &body) {
  WalkResult walk = body.walk([](Operation *nested) {
    return isa<linalg::YieldOp, linalg::IndexOp>(nested) ||
                   isMemoryEffectFree(nested)
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

int64_t triton_spirv::fragmentFamilyRowTile(const WorkgroupShape &shape) {
  return kFragmentSize * (shape.workgroupSize /
                          std::max(shape.subgroupSize, 1u));
}

linalg::GenericOp triton_spirv::indexVectorProducer(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || type.getRank() != 1)
    return nullptr;
  linalg::GenericOp producer;
  for (Operation *user : buffer.getUsers()) {
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || !llvm::is_contained(generic.getDpsInits(), buffer))
      continue;
    if (producer)
      return nullptr;
    producer = generic;
  }
  if (!producer || producer.getNumDpsInits() != 1 ||
      producer.getNumLoops() != 1 ||
      llvm::any_of(producer.getDpsInputs(), [](Value input) {
        return isa<ShapedType>(input.getType());
      }))
    return nullptr;
  // Computed from the index and scalars: nothing read from memory.
  return isPureBody(*producer.getBlock()) ? producer : nullptr;
}

/// The f32 to f16 `arith.truncf` whose result the op's body yields, or
/// null.
arith::TruncFOp triton_spirv::yieldedTruncation(linalg::GenericOp op) {
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  auto trunc = yield.getValues()[0].getDefiningOp<arith::TruncFOp>();
  if (!trunc || !trunc.getIn().getType().isF32())
    return nullptr;
  return trunc;
}

Type triton_spirv::halfRounding(Operation *op) {
  auto trunc = dyn_cast<arith::TruncFOp>(op);
  if (!trunc || !trunc.getIn().getType().isF32() ||
      trunc.getRoundingmodeAttr() ||
      !isa<Float16Type, BFloat16Type>(trunc.getType()))
    return nullptr;
  return trunc.getType();
}

bool triton_spirv::isF16Rounding(Operation *op) {
  Type type = halfRounding(op);
  return type && type.isF16();
}

namespace {
/// Whether `op`'s body touches no workgroup memory (an epilogue may load
/// and store global memory).
bool touchesOnlyGlobalMemory(linalg::LinalgOp op) {
  return !op.getBlock()
              ->walk([](Operation *nested) {
                Value accessed;
                if (auto load = dyn_cast<memref::LoadOp>(nested))
                  accessed = load.getMemRef();
                if (auto store = dyn_cast<memref::StoreOp>(nested))
                  accessed = store.getMemRef();
                return accessed && !isGlobalMemory(
                                       cast<MemRefType>(accessed.getType()))
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted();
}

class FamilyFinder {
public:
  FamilyFinder(func::FuncOp kernel, const WorkgroupShape &shape)
      : kernel(kernel),
        subgroups(shape.workgroupSize / std::max(shape.subgroupSize, 1u)),
        rowTile(fragmentFamilyRowTile(shape)) {}

  FragmentFamilies run(const llvm::SmallDenseSet<Value> &candidates);

private:
  bool isBlock(Value buffer) const { return blocks.contains(buffer); }
  bool isRows(Value buffer) const { return rows.contains(buffer); }
  bool isMember(Value buffer) const {
    return isBlock(buffer) || isRows(buffer);
  }
  bool allowsUse(Operation *user, Value buffer);
  bool allowsOp(Operation *op, Value buffer);
  bool allowsElementwise(linalg::GenericOp op);
  bool allowsMatmul(linalg::LinalgOp op, Value buffer);
  std::optional<scf::ForOp> unrollableView(memref::SubViewOp view);

  func::FuncOp kernel;
  int64_t subgroups, rowTile;
  /// Candidate 2-D blocks and vectors of rows.
  llvm::SetVector<Value> blocks, rows;
  /// The kernel's index vectors (indexVectorProducer), found once.
  llvm::SmallDenseSet<Value> indexVectors;
  /// Loops to unroll, per view of a block at their induction variable.
  DenseMap<Operation *, scf::ForOp> viewLoops;
};
} // namespace

/// For a view of a block: a null loop where its offsets are static; the
/// loop to unroll where an offset is the induction variable of a loop of
/// static bounds stepping in whole tiles, at most 8 times; none otherwise.
std::optional<scf::ForOp>
FamilyFinder::unrollableView(memref::SubViewOp view) {
  for (OpFoldResult offset : view.getMixedOffsets()) {
    if (getConstantIntValue(offset))
      continue;
    auto iv = dyn_cast<BlockArgument>(cast<Value>(offset));
    auto loop = iv ? dyn_cast<scf::ForOp>(iv.getOwner()->getParentOp())
                   : scf::ForOp();
    if (!loop || loop.getInductionVar() != iv)
      return std::nullopt;
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!lower || !upper || !step || *lower % kFragmentSize ||
        *step % kFragmentSize || (*upper - *lower) / *step > 8)
      return std::nullopt;
    return loop;
  }
  return scf::ForOp();
}

bool FamilyFinder::allowsMatmul(linalg::LinalgOp op, Value buffer) {
  Value acc = op.getDpsInits()[0];
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
  // The right operand is staged in workgroup memory: not a member (which
  // leaves the family alone, not the matmul's other members).
  if (buffer == rhs)
    return false;
  std::optional<MatmulPlan> plan = lookupMatmulPlan(op);
  if (!plan || !plan->cooperativeTiling || !isBlock(acc))
    return false;
  auto accType = cast<MemRefType>(acc.getType());
  if (!accType.getElementType().isF32())
    return false;
  // A's member may be read through a view of a chunk of K.
  Value lhsRoot = bufferUnderViews(lhs);
  if (!isMember(lhsRoot))
    return true;
  auto lhsType = cast<MemRefType>(lhsRoot.getType());
  return isBlock(lhsRoot) && lhsType.getElementType().isF16() &&
         lhsType.getDimSize(0) == accType.getDimSize(0);
}

bool FamilyFinder::allowsElementwise(linalg::GenericOp op) {
  if (op.getNumParallelLoops() != op.getNumLoops() ||
      op.getNumDpsInits() > 1)
    return false;
  unsigned rank = op.getNumLoops();
  if (rank != 1 && rank != 2)
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    if (!isa<ShapedType>(value.getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    Value root = value;
    if (auto view = value.getDefiningOp<memref::SubViewOp>())
      root = view.getSource();
    if (isMember(root) && map.isIdentity() &&
        cast<MemRefType>(root.getType()).getRank() == rank)
      continue;
    // A vector read broadcast over a block's columns (a row maximum), or an
    // index vector along either dimension.
    auto expand = value.getDefiningOp<memref::ExpandShapeOp>();
    Value vector = expand ? expand.getSrc() : value;
    bool indexVector = indexVectors.contains(vector);
    if (rank == 1 && map.isIdentity() && (isRows(vector) || indexVector))
      continue;
    if (rank == 2 && expand && map.getNumResults() == 2) {
      auto zero = dyn_cast<AffineConstantExpr>(map.getResult(1));
      bool rowBroadcast =
          map.getResult(0) == getAffineDimExpr(0, map.getContext()) && zero &&
          zero.getValue() == 0;
      auto zeroRow = dyn_cast<AffineConstantExpr>(map.getResult(0));
      bool columnBroadcast =
          map.getResult(1) == getAffineDimExpr(1, map.getContext()) &&
          zeroRow && zeroRow.getValue() == 0;
      if ((rowBroadcast && (isRows(vector) || indexVector)) ||
          (columnBroadcast && indexVector))
        continue;
    }
    return false;
  }
  if (op.getNumDpsInits() == 0)
    // An epilogue: reads members (a block's tiles, or a vector of rows),
    // writes global memory.
    return touchesOnlyGlobalMemory(op);
  Value output = op.getDpsInits()[0];
  auto outputType = cast<MemRefType>(output.getType());
  if (!isMember(output) || outputType.getRank() != rank)
    return false;
  // An f16 block is a matmul operand: f32 elements computed, then
  // converted.
  if (outputType.getElementType().isF16() &&
      (rank != 2 || !yieldedTruncation(op)))
    return false;
  return isPureBody(*op.getBlock());
}

/// Whether every matmul reading the block that `copy` writes (directly or
/// through a view) sits in a loop without the copy: the block is loaded
/// once and held across that loop. (A staging copied in every step, for the
/// matmul that follows it, is no held block.)
static bool loadedOutsideLoop(linalg::CopyOp copy) {
  bool readers = false, held = true;
  Value block = bufferUnderViews(copy.getOutputs()[0]);
  forEachUserThroughViews(block, [&](Operation *user, bool isView) {
    auto matmul = dyn_cast<linalg::LinalgOp>(user);
    if (isView || !matmul || !isStaticMatmul(matmul))
      return;
    readers = true;
    bool separated = false;
    for (Operation *parent = user->getParentOp(); parent && !separated;
         parent = parent->getParentOp())
      separated =
          isa<LoopLikeOpInterface>(parent) && !parent->isAncestor(copy);
    held &= separated;
  });
  return readers && held;
}

/// Whether `op` can be a fragment family's op, as a use of `buffer`.
bool FamilyFinder::allowsOp(Operation *op, Value buffer) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return isMember(fill.getDpsInits()[0]);
  if (auto copy = dyn_cast<linalg::CopyOp>(op)) {
    Value from = copy.getInputs()[0], to = copy.getOutputs()[0];
    if (isMember(from) && isMember(to) && from.getType() == to.getType())
      return true;
    // A block staged in workgroup memory, loaded into an f16 member (a
    // matmul operand held across a loop), whole or into a view of a chunk.
    // (The staging is no member: an f16 member is only ever written or read
    // by a matmul.)
    auto fromType = cast<MemRefType>(from.getType());
    auto toType = cast<MemRefType>(to.getType());
    Value root = bufferUnderViews(to);
    return isBlock(root) && toType.getElementType().isF16() &&
           fromType.getElementType() == toType.getElementType() &&
           fromType.getShape() == toType.getShape() &&
           from.getDefiningOp<memref::AllocOp>() && loadedOutsideLoop(copy);
  }
  if (auto reduce = dyn_cast<linalg::ReduceOp>(op))
    return reduce.getInputs().size() == 1 &&
           reduce.getDimensions() == ArrayRef<int64_t>{1} &&
           isBlock(reduce.getInputs()[0]) && isRows(reduce.getInits()[0]) &&
           isPureBody(reduce.getCombiner().front());
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (linalgOp && isStaticMatmul(linalgOp))
    return allowsMatmul(linalgOp, buffer);
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return allowsElementwise(generic);
  return false;
}

bool FamilyFinder::allowsUse(Operation *user, Value buffer) {
  if (auto view = dyn_cast<memref::SubViewOp>(user)) {
    std::optional<scf::ForOp> loop = unrollableView(view);
    if (!loop || !isBlock(buffer) ||
        !llvm::all_of(view.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; }) ||
        !llvm::all_of(view.getStaticSizes(), [&](int64_t size) {
          return !ShapedType::isDynamic(size) && size % kFragmentSize == 0;
        }))
      return false;
    // Whole tiles of each subgroup's rows.
    std::optional<int64_t> rowOffset =
        getConstantIntValue(view.getMixedOffsets()[0]);
    if (!rowOffset || *rowOffset % rowTile ||
        view.getStaticSizes()[0] % rowTile)
      return false;
    if (std::optional<int64_t> col =
            getConstantIntValue(view.getMixedOffsets()[1]);
        col && *col % kFragmentSize)
      return false;
    for (Operation *user : view->getUsers()) {
      // Element-wise reads, a chunk of a matmul's held A operand, or the
      // loading of such a chunk.
      auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
      auto copy = dyn_cast<linalg::CopyOp>(user);
      bool read = linalgOp && (isa<linalg::GenericOp>(user) ||
                               (isStaticMatmul(linalgOp) &&
                                linalgOp.getDpsInputs()[0] == view &&
                                linalgOp.getDpsInputs()[1] != view));
      bool allowed =
          copy ? copy.getOutputs()[0] == view.getResult()
               : read && llvm::is_contained(linalgOp.getDpsInputs(),
                                            view.getResult());
      if (!allowed || !allowsOp(user, buffer))
        return false;
    }
    if (*loop)
      viewLoops[view] = *loop;
    return true;
  }
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(user))
    return isRows(buffer) &&
           llvm::all_of(expand->getUsers(), [&](Operation *reader) {
             auto generic = dyn_cast<linalg::GenericOp>(reader);
             return generic &&
                    llvm::is_contained(generic.getDpsInputs(),
                                       expand.getResult()) &&
                    allowsOp(generic, buffer);
           });
  if (!allowsOp(user, buffer))
    return false;
  // A converted or staged block is only ever a matmul's left operand.
  auto type = cast<MemRefType>(buffer.getType());
  if (isBlock(buffer) && type.getElementType().isF16()) {
    if (auto generic = dyn_cast<linalg::GenericOp>(user))
      return llvm::is_contained(generic.getDpsInits(), buffer);
    if (auto copy = dyn_cast<linalg::CopyOp>(user))
      return copy.getOutputs()[0] == buffer;
    auto matmul = dyn_cast<linalg::LinalgOp>(user);
    return matmul && isStaticMatmul(matmul) &&
           matmul.getDpsInputs()[0] == buffer &&
           matmul.getDpsInputs()[1] != buffer;
  }
  return true;
}

FragmentFamilies
FamilyFinder::run(const llvm::SmallDenseSet<Value> &candidates) {
  kernel.walk([&](memref::AllocOp alloc) {
    Value buffer = alloc.getResult();
    if (!candidates.contains(buffer))
      return;
    MemRefType type = alloc.getType();
    Type element = type.getElementType();
    if (type.getRank() == 2 && (element.isF32() || element.isF16()) &&
        type.getDimSize(0) % rowTile == 0 &&
        type.getDimSize(1) % kFragmentSize == 0)
      blocks.insert(buffer);
    if (type.getRank() == 1 && element.isF32() &&
        type.getDimSize(0) % rowTile == 0)
      rows.insert(buffer);
    if (indexVectorProducer(buffer))
      indexVectors.insert(buffer);
  });
  // Members go where a use is not one a family has, until none does.
  for (bool changed = true; changed;) {
    changed = false;
    viewLoops.clear();
    for (llvm::SetVector<Value> *set : {&blocks, &rows}) {
      SmallVector<Value> rejected;
      for (Value buffer : *set)
        if (!llvm::all_of(buffer.getUsers(), [&](Operation *user) {
              return allowsUse(user, buffer);
            }))
          rejected.push_back(buffer);
      for (Value buffer : rejected)
        set->remove(buffer);
      changed |= !rejected.empty();
    }
  }

  // Members that ops touch together form one family; a family is kept where
  // it has what only fragment operations serve (a row reduction, a matmul
  // operand computed from a block): the others are plain matmuls, which
  // keep their planned tiling.
  llvm::EquivalenceClasses<Value> families;
  llvm::SmallDenseSet<Value> needed;
  SmallVector<Value> members(blocks.begin(), blocks.end());
  llvm::append_range(members, rows);
  for (Value member : members) {
    families.insert(member);
    for (Operation *user : member.getUsers()) {
      SmallVector<Operation *> ops{user};
      if (isa<memref::SubViewOp, memref::ExpandShapeOp>(user))
        ops.assign(user->getUsers().begin(), user->getUsers().end());
      for (Operation *op : ops) {
        for (Value operand : op->getOperands())
          if (Value root = bufferUnderViews(operand); isMember(root))
            families.unionSets(member, root);
        auto matmul = dyn_cast<linalg::LinalgOp>(op);
        if (isa<linalg::ReduceOp>(op) ||
            (matmul && isStaticMatmul(matmul) &&
             isMember(bufferUnderViews(matmul.getDpsInputs()[0]))))
          needed.insert(member);
      }
    }
  }
  llvm::SmallDenseSet<Value> keptLeaders;
  for (Value member : needed)
    keptLeaders.insert(families.getLeaderValue(member));

  FragmentFamilies result;
  MLIRContext *context = kernel.getContext();
  auto blockLayout = FragmentsLayoutAttr::get(context, {subgroups, 1});
  auto rowsLayout = FragmentRowsLayoutAttr::get(context, subgroups);
  for (Value member : members)
    if (keptLeaders.contains(families.getLeaderValue(member)))
      result.layouts[member] = isBlock(member) ? Attribute(blockLayout)
                                               : Attribute(rowsLayout);
  for (auto [view, loop] : viewLoops)
    if (result.layouts.count(cast<memref::SubViewOp>(view).getSource()) &&
        !llvm::is_contained(result.loopsToUnroll, loop))
      result.loopsToUnroll.push_back(loop);
  return result;
}

FragmentFamilies triton_spirv::findFragmentFamilies(
    func::FuncOp kernel, const WorkgroupShape &shape,
    const llvm::SmallDenseSet<Value> &candidates) {
  if (!shape.cooperativeMatrix || !shape.cooperativeMatrix2 ||
      shape.subgroupSize <= 1)
    return {};
  return FamilyFinder(kernel, shape).run(candidates);
}
