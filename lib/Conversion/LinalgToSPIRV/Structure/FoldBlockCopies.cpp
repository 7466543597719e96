//===- FoldBlockCopies.cpp - Block copies as element accesses -------------===//
//
// --triton-structured-memory expresses a structured load as a copy of a
// strided view of a kernel buffer into a fresh block, read as a tensor, and a
// structured store as a tensor materialized into such a view. On a GPU the
// block would be a round trip through workgroup memory; instead each element
// is read (written) where it is used: the copy becomes an element-wise
// linalg.generic that loads from the buffer at offset + sum(i_d * stride_d)
// inside the copied extents (the fill value elsewhere), which later fuses
// into its consumers like any element-wise op.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/ParallelGeneric.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_FOLDBLOCKCOPIES
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// A strided view of a kernel buffer, or its leading `extents` (empty: all).
struct BlockView {
  memref::ReinterpretCastOp view;
  memref::SubViewOp leading; // null when the whole view is accessed
  SmallVector<OpFoldResult> extents;
};

/// Erases the view (subview, reinterpret_cast) or slice that defines
/// `value`, and then its source's, as long as they have no other user.
void eraseUnusedViews(Value value) {
  while (Operation *def = value ? value.getDefiningOp() : nullptr) {
    if (!isa<memref::SubViewOp, memref::ReinterpretCastOp,
             tensor::ExtractSliceOp>(def) ||
        !def->use_empty())
      return;
    value = def->getOperand(0);
    def->erase();
  }
}

std::optional<BlockView> matchBlockView(Value memref) {
  BlockView block;
  if (auto subview = memref.getDefiningOp<memref::SubViewOp>()) {
    if (!subview.hasZeroOffset() || !subview.hasUnitStride())
      return std::nullopt;
    block.leading = subview;
    block.extents = subview.getMixedSizes();
    memref = subview.getSource();
  }
  block.view = memref.getDefiningOp<memref::ReinterpretCastOp>();
  auto source = block.view
                    ? dyn_cast<MemRefType>(block.view.getSource().getType())
                    : MemRefType();
  if (!source || source.getRank() != 1)
    return std::nullopt;
  return block;
}

/// The buffer position of the current element (linalg.index) of a block
/// whose region from `at` (per dimension; empty: the origin) is read from
/// or written to `block`, and whether the element lies in the region's
/// extents (null when it always does).
std::pair<Value, Value> addressOf(OpBuilder &b, Location loc, BlockView &block,
                                  ArrayRef<OpFoldResult> at,
                                  ArrayRef<int64_t> shape) {
  Value offset = getValueOrCreateConstantIndexOp(
      b, loc, block.view.getMixedOffsets().front());
  Value inside;
  auto both = [&](Value condition) {
    inside =
        inside ? arith::AndIOp::create(b, loc, inside, condition) : condition;
  };
  for (auto [dim, stride] : llvm::enumerate(block.view.getMixedStrides())) {
    Value index = linalg::IndexOp::create(b, loc, dim);
    bool fromOrigin = at.empty() || isConstantIntValue(at[dim], 0);
    if (!fromOrigin) {
      Value start = getValueOrCreateConstantIndexOp(b, loc, at[dim]);
      both(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index,
                                 start));
      index = arith::SubIOp::create(b, loc, index, start);
    }
    Value step = arith::MulIOp::create(
        b, loc, index, getValueOrCreateConstantIndexOp(b, loc, stride));
    offset = arith::AddIOp::create(b, loc, offset, step);
    if (block.extents.empty() ||
        (fromOrigin && isConstantIntValue(block.extents[dim], shape[dim])))
      continue;
    both(arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt, index,
        getValueOrCreateConstantIndexOp(b, loc, block.extents[dim])));
  }
  return {offset, inside};
}

/// One copy into a block: from a view, to the block's region at `at`.
struct BlockCopy {
  memref::CopyOp copy;
  BlockView source;
  SmallVector<OpFoldResult> at;
};

/// to_tensor(block) where the block is filled (optionally) and then written
/// by copies from views: an element-wise read of the views, each in the
/// region it was copied to (later copies first), the fill value (or zero)
/// elsewhere.
LogicalResult foldLoad(bufferization::ToTensorOp toTensor) {
  auto alloc = toTensor.getBuffer().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc.getType().getMemorySpace())
    return failure();
  linalg::FillOp fill;
  SmallVector<BlockCopy> copies;
  SmallVector<Operation *> regions;
  for (Operation *user : alloc->getUsers()) {
    if (user == toTensor)
      continue;
    if (auto fillOp = dyn_cast<linalg::FillOp>(user)) {
      if (fill)
        return failure();
      fill = fillOp;
      continue;
    }
    Value written = alloc;
    SmallVector<OpFoldResult> at;
    if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
      if (!subview->hasOneUse() || !subview.hasUnitStride())
        return failure();
      regions.push_back(subview);
      at = subview.getMixedOffsets();
      written = subview;
      user = *subview->getUsers().begin();
    }
    auto copy = dyn_cast<memref::CopyOp>(user);
    if (!copy || copy.getTarget() != written)
      return failure();
    std::optional<BlockView> source = matchBlockView(copy.getSource());
    if (!source)
      return failure();
    copies.push_back({copy, *source, at});
  }
  if (copies.empty())
    return failure();
  // Program order, so that a later copy wins where copies overlap.
  llvm::sort(copies, [](const BlockCopy &x, const BlockCopy &y) {
    return x.copy->isBeforeInBlock(y.copy);
  });

  OpBuilder b(toTensor);
  Location loc = toTensor.getLoc();
  auto type = cast<RankedTensorType>(toTensor.getType());
  Value fillValue = fill ? fill.getInputs().front() : Value();
  auto generic = triton_spirv::createParallelGeneric(
      b, loc, TypeRange{type}, ValueRange{},
      [&](OpBuilder &nested, Location l, ValueRange) {
        // Outside every copied region: the fill, else undefined (zero).
        Value value = fillValue ? fillValue
                                : arith::getZeroConstant(nested, l,
                                                         type.getElementType());
        for (BlockCopy &copy : copies) {
          auto [offset, inside] =
              addressOf(nested, l, copy.source, copy.at, type.getShape());
          Value buffer = copy.source.view.getSource();
          if (!inside) {
            value = memref::LoadOp::create(nested, l, buffer, offset);
            continue;
          }
          value = scf::IfOp::create(
                      nested, l, inside,
                      [&](OpBuilder &then, Location tl) {
                        scf::YieldOp::create(
                            then, tl,
                            memref::LoadOp::create(then, tl, buffer, offset)
                                .getResult());
                      },
                      [&](OpBuilder &otherwise, Location ol) {
                        scf::YieldOp::create(otherwise, ol, value);
                      })
                      .getResult(0);
        }
        linalg::YieldOp::create(nested, l, value);
      });
  toTensor.replaceAllUsesWith(generic.getResult(0));
  toTensor.erase();
  for (BlockCopy &copy : copies) {
    Value source = copy.copy.getSource();
    copy.copy.erase();
    eraseUnusedViews(source);
  }
  for (Operation *region : regions)
    region->erase();
  if (fill)
    fill.erase();
  alloc.erase();
  return success();
}

/// materialize_in_destination(value or its leading slice, view or its
/// leading subview): an element-wise write into the buffer.
LogicalResult foldStore(bufferization::MaterializeInDestinationOp store) {
  std::optional<BlockView> dest = matchBlockView(store.getDest());
  if (!dest)
    return failure();
  Value value = store.getSource();
  if (dest->leading) {
    // The leading slice of a block, written from the block; or a value
    // exactly as large as the leading region (a masked store of a splat,
    // whose slice folded into a smaller constant), written whole.
    auto slice = value.getDefiningOp<tensor::ExtractSliceOp>();
    auto whole = dyn_cast<RankedTensorType>(value.getType());
    if (slice && slice.hasZeroOffset())
      value = slice.getSource();
    else if (!whole || getConstantIntValues(dest->extents) !=
                           std::optional(llvm::to_vector(whole.getShape())))
      return failure();
  }
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return failure();
  OpBuilder b(store);
  Location loc = store.getLoc();
  Value buffer = dest->view.getSource();
  triton_spirv::createParallelGeneric(
      b, loc, TypeRange{}, ValueRange{value},
      [&](OpBuilder &nested, Location l, ValueRange args) {
        auto [offset, inside] =
            addressOf(nested, l, *dest, /*at=*/{}, type.getShape());
        {
          OpBuilder::InsertionGuard guard(nested);
          if (inside) // stored inside the extents only
            nested.setInsertionPointToStart(
                scf::IfOp::create(nested, l, inside).thenBlock());
          memref::StoreOp::create(nested, l, args[0], buffer, offset);
        }
        linalg::YieldOp::create(nested, l);
      });
  Value stored = store.getSource(), target = store.getDest();
  store.erase();
  eraseUnusedViews(stored);
  eraseUnusedViews(target);
  return success();
}

struct FoldBlockCopiesPass
    : triton_spirv::impl::FoldBlockCopiesBase<FoldBlockCopiesPass> {
  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (isa<bufferization::ToTensorOp,
              bufferization::MaterializeInDestinationOp>(op))
        candidates.push_back(op);
    });
    for (Operation *op : candidates) {
      if (auto toTensor = dyn_cast<bufferization::ToTensorOp>(op))
        (void)foldLoad(toTensor);
      else
        (void)foldStore(cast<bufferization::MaterializeInDestinationOp>(op));
    }
  }
};
} // namespace
