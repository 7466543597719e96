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
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

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
/// `workgroupSize` elements each (and more than one row), or 0.
int64_t splittableRows(linalg::ReduceOp op, unsigned workgroupSize) {
  if (!op.hasPureBufferSemantics() ||
      op.getDimensions() != ArrayRef<int64_t>{1})
    return 0;
  auto type = dyn_cast<MemRefType>(op.getInputs()[0].getType());
  if (!type || type.getRank() != 2 || !type.hasStaticShape())
    return 0;
  int64_t rows = type.getDimSize(0);
  if (rows < 2 || rows > kMaxRows ||
      type.getDimSize(1) < static_cast<int64_t>(workgroupSize))
    return 0;
  return rows;
}

/// Row `row` of an [X, R] buffer (as a [1, R] view), or element `row` of an
/// [X] one (as a [1] view).
Value rowOf(OpBuilder &b, Location loc, Value buffer, int64_t row) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  offsets[0] = b.getIndexAttr(row);
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(b.getContext(), type.getShape());
  sizes[0] = b.getIndexAttr(1);
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  return memref::SubViewOp::create(b, loc, buffer, offsets, sizes, strides);
}

void splitRows(linalg::ReduceOp op, int64_t rows) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  for (int64_t row = 0; row < rows; ++row) {
    // The same reduction (combiner, attributes) over the row's views.
    IRMapping rowViews;
    for (Value operand : op->getOperands())
      rowViews.map(operand, rowOf(b, loc, operand, row));
    b.clone(*op, rowViews);
  }
  op.erase();
}

struct SplitRowReductionsPass
    : triton_spirv::impl::SplitRowReductionsBase<SplitRowReductionsPass> {
  using SplitRowReductionsBase::SplitRowReductionsBase;
  void runOnOperation() override {
    SmallVector<std::pair<linalg::ReduceOp, int64_t>> splittable;
    getOperation().walk([&](linalg::ReduceOp op) {
      if (int64_t rows = splittableRows(op, workgroupSize))
        splittable.push_back({op, rows});
    });
    for (auto [op, rows] : splittable)
      splitRows(op, rows);
  }
};
} // namespace
