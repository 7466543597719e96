//===- SplitRowReductions.cpp - One reduction per long row ----------------===//
//
// The distribution keeps a block in registers (a cyclic layout: element q
// with invocation q mod W) where every use touches an element from its
// owner. A reduction of the innermost dimension of an [X, R] block with
// X > 1 does not: it gives each row its own group of invocations. Where
// each row has at least W elements, a reduction per row loses no
// parallelism (every row still uses the whole workgroup), and each is a
// full reduction of a contiguous row view, which reads the registers of
// the block's cyclic layout.
//
// A reduction without a known identity starts from the first column
// (`tt.reduce` seeds each row with its first element) and folds in the
// rest, a view at column 1. The column is copied into the output before
// the reduction; that copy is split per row too, into single elements at
// the rows' starts, which the cyclic layout serves, where the strided
// column would not be. Views of views are composed, so that every row
// view is one view of the block. A splat input (a buffer filled with one
// scalar, as Inductor's Welford m2 of zeros bufferizes) is re-made in the
// shape of the first input's buffer, so that all row views start at the
// same positions. A block of one row gets these two rewrites alone.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_SPLITROWREDUCTIONS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Rows a block may have for its reduction to be split.
constexpr int64_t kMaxRows = 8;

/// The number of rows of `op`'s blocks where it reduces the innermost
/// dimension of 2-D blocks of at most kMaxRows rows of at least
/// `workgroupSize` elements each, or 0.
int64_t splittableRows(linalg::ReduceOp op, unsigned workgroupSize) {
  if (!op.hasPureBufferSemantics() ||
      op.getDimensions() != ArrayRef<int64_t>{1})
    return 0;
  auto type = dyn_cast<MemRefType>(op.getInputs()[0].getType());
  if (!type || type.getRank() != 2 || !type.hasStaticShape())
    return 0;
  int64_t rows = type.getDimSize(0);
  if (rows > kMaxRows ||
      type.getDimSize(1) < static_cast<int64_t>(workgroupSize))
    return 0;
  return rows;
}

/// Row `row` of an [X, R] buffer (as a [1, R] view), or element `row` of an
/// [X] one (as a [1] view). A buffer that is itself a static, unit-stride
/// view gives a view of the view's source, also when it drops dimensions
/// (a column of the block).
Value rowOf(OpBuilder &b, Location loc, Value buffer, int64_t row) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[0] = 1;
  auto view = buffer.getDefiningOp<memref::SubViewOp>();
  if (view && view.hasUnitStride() &&
      !ShapedType::isDynamicShape(view.getStaticOffsets()) &&
      !ShapedType::isDynamicShape(view.getStaticSizes())) {
    SmallVector<int64_t> offsets(view.getStaticOffsets());
    SmallVector<int64_t> sizes(view.getStaticSizes());
    // The view's dimension 0 is the first one of its source it keeps.
    llvm::SmallBitVector dropped = view.getDroppedDims();
    int64_t kept = dropped.find_first_unset();
    offsets[kept] += row;
    sizes[kept] = 1;
    SmallVector<int64_t> strides(offsets.size(), 1);
    MemRefType rowType = memref::SubViewOp::inferRankReducedResultType(
        shape, view.getSourceType(), offsets, sizes, strides);
    return memref::SubViewOp::create(b, loc, rowType, view.getSource(),
                                     offsets, sizes, strides);
  }
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  offsets[0] = b.getIndexAttr(row);
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(b.getContext(), shape);
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  return memref::SubViewOp::create(b, loc, buffer, offsets, sizes, strides);
}

/// The copy that writes all of `init` last before `reduce` in its block,
/// with nothing else touching it in between: how a reduction's first column
/// becomes its seed.
linalg::CopyOp seedingCopy(linalg::ReduceOp reduce, Value init) {
  for (Operation *prev = reduce->getPrevNode(); prev;
       prev = prev->getPrevNode()) {
    auto copy = dyn_cast<linalg::CopyOp>(prev);
    if (copy && copy.hasPureBufferSemantics() && copy.getOutputs()[0] == init)
      return copy;
    if (triton_spirv::usesBuffer(prev, triton_spirv::bufferUnderViews(init)))
      return nullptr;
  }
  return nullptr;
}

/// Drops `value` when it is a view nothing uses any more (the whole-block
/// views the row views replace), so that later passes do not take it for a
/// use of the block.
void eraseIfUnusedView(Value value) {
  if (auto view = value.getDefiningOp<memref::SubViewOp>();
      view && view->use_empty())
    view->erase();
}

/// The fill that writes the whole of `input`'s buffer when that buffer is
/// otherwise only read, through views, by `reduce`: a splat input (the
/// zero m2 of Inductor's Welford reduction).
linalg::FillOp splatFill(Value input, linalg::ReduceOp reduce) {
  Value root = triton_spirv::bufferUnderViews(input);
  if (!root.getDefiningOp<memref::AllocOp>())
    return nullptr;
  linalg::FillOp fill;
  for (Operation *user : root.getUsers()) {
    if (auto write = dyn_cast<linalg::FillOp>(user);
        write && !fill && write.getOutputs()[0] == root &&
        write->getBlock() == reduce->getBlock() &&
        write->isBeforeInBlock(reduce)) {
      fill = write;
      continue;
    }
    if (user == reduce.getOperation())
      continue;
    auto view = dyn_cast<memref::SubViewOp>(user);
    if (!view || llvm::any_of(view->getUsers(), [&](Operation *viewUser) {
          return viewUser != reduce.getOperation();
        }))
      return nullptr;
  }
  return fill;
}

/// Re-makes each splat input of `op` as a fill of a buffer shaped like the
/// buffer of `op`'s first input, viewed the same way. The row views of all
/// inputs then start at the same positions, as a reduction that reads the
/// registers of their cyclic layouts needs; a splat bufferizes to a buffer
/// of the input's own shape, whose rows start elsewhere.
void alignSplatInputs(linalg::ReduceOp op) {
  Value reference = op.getInputs()[0];
  Value referenceRoot = triton_spirv::bufferUnderViews(reference);
  auto referenceView = reference.getDefiningOp<memref::SubViewOp>();
  // The reference is a buffer of a static shape, or one view of it that
  // keeps its rank, and no splat itself.
  auto rootType = cast<MemRefType>(referenceRoot.getType());
  if (!rootType.hasStaticShape() || !rootType.getLayout().isIdentity() ||
      (referenceView ? referenceView.getSource() != referenceRoot ||
                           referenceView.getType().getRank() !=
                               referenceView.getSourceType().getRank()
                     : reference != referenceRoot) ||
      splatFill(reference, op))
    return;
  for (OpOperand *input : op.getDpsInputOperands()) {
    linalg::FillOp fill = splatFill(input->get(), op);
    if (!fill || input->get().getType() == reference.getType())
      continue;
    Value oldRoot = fill.getOutputs()[0];
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value aligned = memref::AllocOp::create(
        b, loc,
        MemRefType::get(rootType.getShape(),
                        getElementTypeOrSelf(oldRoot.getType()), nullptr,
                        rootType.getMemorySpace()));
    linalg::FillOp::create(b, loc, fill.getInputs()[0], aligned);
    if (referenceView)
      aligned = memref::SubViewOp::create(
          b, loc, aligned, referenceView.getMixedOffsets(),
          referenceView.getMixedSizes(), referenceView.getMixedStrides());
    Value old = input->get();
    input->set(aligned);
    eraseIfUnusedView(old);
    if (oldRoot.hasOneUse()) {
      fill->erase();
      oldRoot.getDefiningOp()->erase();
    }
  }
}

bool hasSeedOrSplat(linalg::ReduceOp op) {
  return llvm::any_of(op.getInits(),
                      [&](Value init) { return seedingCopy(op, init); }) ||
         llvm::any_of(op.getInputs(),
                      [&](Value input) { return splatFill(input, op); });
}

void splitRows(linalg::ReduceOp op, int64_t rows) {
  alignSplatInputs(op);
  for (Value init : op.getInits()) {
    linalg::CopyOp copy = seedingCopy(op, init);
    if (!copy)
      continue;
    OpBuilder b(copy);
    for (int64_t row = 0; row < rows; ++row)
      linalg::CopyOp::create(b, copy.getLoc(),
                             rowOf(b, copy.getLoc(), copy.getInputs()[0], row),
                             rowOf(b, copy.getLoc(), init, row));
    Value column = copy.getInputs()[0];
    copy.erase();
    eraseIfUnusedView(column);
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  for (int64_t row = 0; row < rows; ++row) {
    // The same reduction (combiner, attributes) over the row's views.
    IRMapping rowViews;
    for (Value operand : op->getOperands())
      if (!rowViews.contains(operand))
        rowViews.map(operand, rowOf(b, loc, operand, row));
    b.clone(*op, rowViews);
  }
  SmallVector<Value> operands(op->getOperands());
  op.erase();
  for (Value operand : operands)
    eraseIfUnusedView(operand);
}

struct SplitRowReductionsPass
    : triton_spirv::impl::SplitRowReductionsBase<SplitRowReductionsPass> {
  using SplitRowReductionsBase::SplitRowReductionsBase;
  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    unsigned workgroupSize = target->workgroup.workgroupSize;
    SmallVector<std::pair<linalg::ReduceOp, int64_t>> splittable;
    getOperation().walk([&](linalg::ReduceOp op) {
      int64_t rows = splittableRows(op, workgroupSize);
      // A single row is already one full reduction; only its seed copy and
      // splat inputs need the rewrite.
      if (rows > 1 || (rows == 1 && hasSeedOrSplat(op)))
        splittable.push_back({op, rows});
    });
    for (auto [op, rows] : splittable)
      splitRows(op, rows);
  }
};
} // namespace
