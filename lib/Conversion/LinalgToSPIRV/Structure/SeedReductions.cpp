//===- SeedReductions.cpp - Reductions start from the constant they hold --===//
//
// A Triton reduction's initial value reaches its output buffer through
// bufferization's temporaries: a fill of one buffer, copied into another,
// which the reduction then reads. Each of those steps is a write of
// workgroup memory by one invocation behind barriers once distributed.
// When the output provably holds one scalar everywhere, this pass fills it
// with that scalar right before the reduction, where the distribution takes
// the fill as the reduction's seed, and drops the writes that no one reads
// any more.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_SEEDREDUCTIONS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using triton_spirv::bufferUnderViews;

namespace {
/// Whether `value` covers all of its root buffer: the buffer itself, or a
/// reshape or cast of all of it.
bool coversRoot(Value value) {
  while (Operation *view = value.getDefiningOp()) {
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(
            view))
      break;
    value = view->getOperand(0);
  }
  return value == bufferUnderViews(value);
}

/// Whether `view` is all of the buffer `root`.
bool isWhole(Value view, Value root) {
  return bufferUnderViews(view) == root && coversRoot(view);
}

/// Whether `op`, or an op it nests, may write a view of `root`: anything
/// but a load, a view or an input of a linalg op counts as a write.
bool mayWrite(Operation *op, Value root) {
  auto isRooted = [&](Value value) {
    return isa<MemRefType>(value.getType()) && bufferUnderViews(value) == root;
  };
  return op
      ->walk([&](Operation *nested) {
        if (isa<memref::LoadOp, ViewLikeOpInterface>(nested))
          return WalkResult::advance();
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(nested))
          return llvm::any_of(linalgOp.getDpsInits(), isRooted)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        return llvm::any_of(nested->getOperands(), isRooted)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// A write of one scalar, defined before it, to every element of a buffer.
struct Fill {
  Value output, scalar;
};

std::optional<Fill> asFill(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    Value output = fill.getOutputs()[0];
    Value scalar = fill.getInputs()[0];
    if (!isa<MemRefType>(output.getType()) ||
        scalar.getType() != getElementTypeOrSelf(output.getType()))
      return std::nullopt;
    return Fill{output, scalar};
  }
  // A generic without inputs yielding one value from outside its body (how
  // a 0-d `tensor` splat bufferizes).
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumDpsInits() != 1 || !generic.hasPureBufferSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !generic.getIndexingMapsArray()[0].isIdentity())
    return std::nullopt;
  Block *body = generic.getBody();
  if (body->getOperations().size() != 1)
    return std::nullopt;
  Value yielded = body->getTerminator()->getOperand(0);
  if (generic.getRegion().isAncestor(yielded.getParentRegion()))
    return std::nullopt;
  return Fill{generic.getDpsInits()[0], yielded};
}

/// A write of every element of a buffer: a fill or a copy.
std::optional<Value> wholeWriteTarget(Operation *op) {
  if (std::optional<Fill> fill = asFill(op))
    return fill->output;
  if (auto copy = dyn_cast<linalg::CopyOp>(op);
      copy && copy.hasPureBufferSemantics())
    return copy.getOutputs()[0];
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget();
  return std::nullopt;
}

/// The scalar every element of `buffer` holds right before `at`: that of
/// the last write of its buffer in `at`'s block, when that is a fill, or a
/// copy of a buffer that holds one scalar there.
Value heldScalar(Value buffer, Operation *at) {
  // Only buffers the kernel allocated: arguments may alias each other.
  Value root = bufferUnderViews(buffer);
  if (!root.getDefiningOp<memref::AllocOp>() || !coversRoot(buffer))
    return {};
  for (Operation *prev = at->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (!mayWrite(prev, root))
      continue;
    if (std::optional<Fill> fill = asFill(prev))
      return isWhole(fill->output, root) ? fill->scalar : Value();
    if (auto copy = dyn_cast<linalg::CopyOp>(prev);
        copy && copy.hasPureBufferSemantics() &&
        isWhole(copy.getOutputs()[0], root))
      return heldScalar(copy.getInputs()[0], copy);
    return {};
  }
  return {};
}

/// Whether the whole-buffer write `op` is overwritten before anything reads
/// it: the next op of its block using the buffer fills all of it, or
/// nothing later in the kernel uses a buffer the kernel allocated.
bool isOverwrittenUnread(Operation *op, Value target) {
  Value root = bufferUnderViews(target);
  if (!root.getDefiningOp<memref::AllocOp>() || !coversRoot(target))
    return false;
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (!triton_spirv::usesBuffer(next, root))
      continue;
    std::optional<Fill> fill = asFill(next);
    return fill && isWhole(fill->output, root);
  }
  return isa<func::FuncOp>(op->getParentOp());
}

struct SeedReductionsPass
    : triton_spirv::impl::SeedReductionsBase<SeedReductionsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp kernel) {
      OpBuilder builder(kernel.getContext());
      kernel.walk([&](linalg::ReduceOp reduce) {
        if (!reduce.hasPureBufferSemantics())
          return;
        for (Value init : reduce.getInits()) {
          Value scalar = heldScalar(init, reduce);
          if (!scalar)
            continue;
          builder.setInsertionPoint(reduce);
          linalg::FillOp::create(builder, reduce.getLoc(), scalar, init);
        }
      });
      // Later writes first: dropping one can leave an earlier one unread.
      SmallVector<Operation *> writes;
      kernel.walk([&](Operation *op) {
        if (wholeWriteTarget(op))
          writes.push_back(op);
      });
      for (Operation *write : llvm::reverse(writes))
        if (isOverwrittenUnread(write, *wholeWriteTarget(write)))
          write->erase();
    });
  }
};
} // namespace
