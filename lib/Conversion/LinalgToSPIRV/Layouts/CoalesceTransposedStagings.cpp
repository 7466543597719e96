//===- CoalesceTransposedStagings.cpp - Read transposed blocks along rows -===//
//
// The distribution spreads an op's iterations over the invocations with the
// last dimension fastest, so neighbouring invocations touch neighbouring
// elements of what the op writes. An op that fills a workgroup buffer with
// a transposed block of global memory (attention's `tl.trans(k)` staged for
// the first dot) then reads global memory a row apart per invocation: each
// lane's load touches its own 32-byte sector. Where the op's global loads
// step by one element along another dimension, its loops are interchanged
// so that this dimension is the fastest, and the loads of neighbouring
// invocations meet in the same sectors. Its stores into the buffer then step
// by a row per invocation, so rows of an even number of 32-bit words get
// one word of padding: an odd row length puts neighbouring rows in distinct
// banks.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "triton-spirv/Analysis/MatmulPlan.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_COALESCETRANSPOSEDSTAGINGS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
using Coefficients = SmallVector<int64_t>;

/// `index` as a sum of `op`'s loop indices (linalg.index) times constants
/// plus terms that do not depend on them: the coefficient of each loop.
std::optional<Coefficients> loopCoefficients(Value index, linalg::GenericOp op,
                                             unsigned depth = 0) {
  unsigned loops = op.getNumLoops();
  Coefficients zero(loops, 0);
  if (depth > 16)
    return std::nullopt;
  // Values from outside the op do not change with its loops; block
  // arguments inside it (operand elements, nested loops' values) may, in
  // ways not followed here.
  Operation *def = index.getDefiningOp();
  if (!def)
    return op->isAncestor(cast<BlockArgument>(index).getOwner()->getParentOp())
               ? std::nullopt
               : std::optional<Coefficients>(zero);
  if (!op->isAncestor(def))
    return zero;
  if (auto loopIndex = dyn_cast<linalg::IndexOp>(def)) {
    zero[loopIndex.getDim()] = 1;
    return zero;
  }
  if (isa<arith::ConstantOp>(def))
    return zero;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(def))
    return loopCoefficients(def->getOperand(0), op, depth + 1);
  auto operand = [&](unsigned position) {
    return loopCoefficients(def->getOperand(position), op, depth + 1);
  };
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<Coefficients> lhs = operand(0), rhs = operand(1);
    if (!lhs || !rhs)
      return std::nullopt;
    int64_t sign = isa<arith::SubIOp>(def) ? -1 : 1;
    for (unsigned loop = 0; loop < loops; ++loop)
      (*lhs)[loop] += sign * (*rhs)[loop];
    return lhs;
  }
  if (isa<arith::MulIOp>(def)) {
    for (unsigned side = 0; side < 2; ++side) {
      std::optional<int64_t> factor =
          getConstantIntValue(def->getOperand(1 - side));
      if (!factor)
        continue;
      std::optional<Coefficients> term = operand(side);
      if (!term)
        return std::nullopt;
      for (int64_t &coefficient : *term)
        coefficient *= *factor;
      return term;
    }
    return std::nullopt;
  }
  auto apply = dyn_cast<affine::AffineApplyOp>(def);
  if (!apply)
    return std::nullopt;
  // Sums and constant multiples of the map's dimensions and symbols.
  std::function<std::optional<Coefficients>(AffineExpr)> evaluate =
      [&](AffineExpr expr) -> std::optional<Coefficients> {
    if (isa<AffineConstantExpr>(expr))
      return zero;
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      return operand(dim.getPosition());
    if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
      return operand(apply.getMap().getNumDims() + symbol.getPosition());
    auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!binary)
      return std::nullopt;
    if (binary.getKind() == AffineExprKind::Add) {
      std::optional<Coefficients> lhs = evaluate(binary.getLHS());
      std::optional<Coefficients> rhs = evaluate(binary.getRHS());
      if (!lhs || !rhs)
        return std::nullopt;
      for (unsigned loop = 0; loop < loops; ++loop)
        (*lhs)[loop] += (*rhs)[loop];
      return lhs;
    }
    auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    if (binary.getKind() != AffineExprKind::Mul || !factor)
      return std::nullopt;
    std::optional<Coefficients> term = evaluate(binary.getLHS());
    if (term)
      for (int64_t &coefficient : *term)
        coefficient *= factor.getValue();
    return term;
  };
  return evaluate(apply.getMap().getResult(0));
}

/// The loop that `op`'s global loads step along by one element, where it
/// is not its last loop and they all agree (the last loop stepping by more
/// than one element): the loop to make the fastest.
std::optional<unsigned> coalescingLoop(linalg::GenericOp op) {
  std::optional<unsigned> found;
  WalkResult result = op.getBlock()->walk([&](memref::LoadOp load) {
    if (!triton_spirv::isGlobalMemory(load.getMemRefType()))
      return WalkResult::advance();
    if (load.getIndices().size() != 1)
      return WalkResult::interrupt();
    std::optional<Coefficients> steps =
        loopCoefficients(load.getIndices()[0], op);
    if (!steps)
      return WalkResult::interrupt();
    int64_t last = steps->back();
    auto unit = llvm::find(*steps, 1);
    if (last == 0 || last == 1 || unit == steps->end() ||
        (found && *found != unit - steps->begin()))
      return WalkResult::interrupt();
    found = unit - steps->begin();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return std::nullopt;
  return found;
}

/// Whether `op` only fills workgroup buffers that stay in workgroup memory
/// (kernel allocations without a layout), element by element, from global
/// loads: a staging the distribution may iterate in any order.
bool isWorkgroupStaging(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 0 || op.getNumLoops() < 2 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  return llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
    auto alloc = init.get().getDefiningOp<memref::AllocOp>();
    return alloc && triton_spirv::isWorkgroupMemory(alloc.getType()) &&
           !alloc->hasAttr(triton_spirv::kLayoutAttrName) &&
           op.getMatchingIndexingMap(&init).isIdentity() &&
           !op.payloadUsesValueFromOperand(&init);
  });
}

/// Whether `op`'s outputs are 2-D buffers that besides it only matmuls
/// computed in register tiles (their accumulators in a grid layout) read,
/// as their B operand: those read B at any row stride, so its rows can be
/// padded. (Cooperative-matrix loads want rows of whole 16-byte units, and
/// a register-tiled A is laid out anew by the distribution, from its
/// allocation.)
bool readAsRegisterTileB(linalg::GenericOp op) {
  return llvm::all_of(op.getDpsInits(), [&](Value init) {
    if (cast<MemRefType>(init.getType()).getRank() != 2)
      return false;
    return llvm::all_of(init.getUsers(), [&](Operation *user) {
      if (user == op.getOperation())
        return true;
      auto reader = dyn_cast<linalg::LinalgOp>(user);
      if (!reader || !triton_spirv::isStaticMatmul(reader) ||
          reader.getDpsInputs()[1] != init || reader.getDpsInputs()[0] == init)
        return false;
      auto acc = reader.getDpsInits()[0].getDefiningOp<memref::AllocOp>();
      return acc && isa_and_nonnull<triton_spirv::GridLayoutAttr>(
                        acc->getAttr(triton_spirv::kLayoutAttrName));
    });
  });
}

/// Elements of padding that make rows of `type` an odd number of 32-bit
/// words long: none where they are, one word's worth where not.
int64_t rowPadding(MemRefType type) {
  int64_t bytes = triton_spirv::elementBytes(type.getElementType());
  if ((type.getShape().back() * bytes / 4) % 2)
    return 0;
  return std::max<int64_t>(1, 4 / bytes);
}

/// `alloc` (2-D) with rows `pad` elements longer, seen through a view of its
/// old shape.
void padRows(RewriterBase &rewriter, memref::AllocOp alloc, int64_t pad) {
  MemRefType type = alloc.getType();
  SmallVector<int64_t> shape(type.getShape());
  shape.back() += pad;
  rewriter.setInsertionPoint(alloc);
  auto padded = memref::AllocOp::create(
      rewriter, alloc.getLoc(),
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace()),
      alloc.getAlignmentAttr());
  SmallVector<OpFoldResult> offsets(2, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = getAsIndexOpFoldResult(
      rewriter.getContext(), type.getShape());
  SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
  Value view = memref::SubViewOp::create(rewriter, alloc.getLoc(), padded,
                                         offsets, sizes, strides);
  rewriter.replaceOp(alloc, view);
}

struct CoalesceTransposedStagingsPass
    : triton_spirv::impl::CoalesceTransposedStagingsBase<
          CoalesceTransposedStagingsPass> {
  using CoalesceTransposedStagingsBase::CoalesceTransposedStagingsBase;

  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    int64_t maxWorkgroupMemory = target->workgroup.maxWorkgroupMemory;
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> stagings;
    getOperation().walk([&](linalg::GenericOp op) {
      if (isWorkgroupStaging(op))
        stagings.push_back(op);
    });
    // The buffers to pad (the stagings of both run-time versions of a load
    // write the same one) and, by kernel, the bytes their padding adds.
    llvm::SetVector<Operation *> written;
    DenseMap<Operation *, int64_t> chosenPadding;
    for (linalg::GenericOp op : stagings) {
      std::optional<unsigned> fastest = coalescingLoop(op);
      if (!fastest || !readAsRegisterTileB(op))
        continue;
      // Where the padding would not fit, the staging stays as it is (its
      // stores would meet in one bank).
      int64_t padding = 0;
      for (Value init : op.getDpsInits()) {
        auto type = cast<MemRefType>(init.getType());
        if (!written.contains(init.getDefiningOp()))
          padding += type.getDimSize(0) * rowPadding(type) *
                     triton_spirv::elementBytes(type.getElementType());
      }
      int64_t &chosen = chosenPadding[op->getParentOfType<func::FuncOp>()];
      if (!triton_spirv::fitsWorkgroupMemory(op, chosen + padding,
                                             maxWorkgroupMemory))
        continue;
      chosen += padding;
      SmallVector<unsigned> order;
      for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
        if (loop != *fastest)
          order.push_back(loop);
      order.push_back(*fastest);
      for (Value init : op.getDpsInits())
        written.insert(init.getDefiningOp());
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order))) {
        op->emitError("cannot interchange the loops of this staging");
        return signalPassFailure();
      }
    }
    for (Operation *op : written) {
      auto alloc = cast<memref::AllocOp>(op);
      if (int64_t pad = rowPadding(alloc.getType()))
        padRows(rewriter, alloc, pad);
    }
  }
};
} // namespace
