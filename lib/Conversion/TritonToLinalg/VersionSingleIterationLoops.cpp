//===- VersionSingleIterationLoops.cpp - one pass over a row when it fits -===//
//
// Row kernels (layer norm, RMS norm) walk a row in blocks several times:
// `for start in range(0, N, BLOCK)` once for the mean, again for the
// variance, again to write. Users pick BLOCK >= N when a row fits, so each
// loop runs once and every pass re-reads the row from memory. CUDA's L1
// serves the re-reads; through Vulkan they measured as costly as the first.
// When the loops run once, their bodies can be straight-line code in one
// block, where --triton-reuse-loads keeps the first read.
//
//===----------------------------------------------------------------------===//

#include "PointerRoots.h"
#include "triton-spirv/Conversion/InlineBlock.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONVERSIONSINGLEITERATIONLOOPS
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// The iteration space of a loop with constant start and step.
struct LoopBounds {
  Value upper;
  int64_t lower;
  int64_t step;
  bool operator==(const LoopBounds &other) const {
    return upper == other.upper && lower == other.lower && step == other.step;
  }
};

std::optional<LoopBounds> boundsOf(scf::ForOp loop) {
  APInt lower, step;
  if (loop.getUnsignedCmp() ||
      !matchPattern(loop.getLowerBound(), m_ConstantInt(&lower)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return std::nullopt;
  // lower + step must not overflow the induction variable's type.
  bool overflow = false;
  (void)lower.sadd_ov(step, overflow);
  if (overflow)
    return std::nullopt;
  return LoopBounds{loop.getUpperBound(), lower.getSExtValue(),
                    step.getSExtValue()};
}

/// The kernel arguments that `loop` loads through.
llvm::SmallPtrSet<Value, 4> loadedRoots(scf::ForOp loop) {
  llvm::SmallPtrSet<Value, 4> roots;
  loop.walk([&](LoadOp load) {
    if (std::optional<Value> root = triton_spirv::pointerRoot(load.getPtr()))
      roots.insert(*root);
  });
  return roots;
}

/// Loops of one iteration space, two of which load through one argument:
/// the first such group among the top-level loops of `body`.
SmallVector<scf::ForOp> rereadingLoops(Block &body) {
  // Loops by iteration space, in program order.
  SmallVector<std::pair<LoopBounds, SmallVector<scf::ForOp>>> groups;
  for (auto loop : body.getOps<scf::ForOp>()) {
    std::optional<LoopBounds> bounds = boundsOf(loop);
    if (!bounds)
      continue;
    auto group = llvm::find_if(
        groups, [&](const auto &entry) { return entry.first == *bounds; });
    if (group == groups.end())
      groups.push_back({*bounds, {loop}});
    else
      group->second.push_back(loop);
  }
  for (auto &[bounds, loops] : groups) {
    llvm::SmallPtrSet<Value, 4> seen;
    for (scf::ForOp loop : loops)
      for (Value root : loadedRoots(loop))
        if (!seen.insert(root).second)
          return loops;
  }
  return {};
}

/// Clones `op` into `b`; a loop of `single` becomes its body run once
/// (induction variable `lower`, iteration arguments their initial values).
void cloneRunningOnce(OpBuilder &b, Operation &op, IRMapping &mapping,
                      const llvm::SmallPtrSetImpl<Operation *> &single,
                      int64_t lower) {
  auto loop = dyn_cast<scf::ForOp>(op);
  if (!loop || !single.contains(loop)) {
    b.clone(op, mapping);
    return;
  }
  Value iv = loop.getInductionVar();
  SmallVector<Value> args{arith::ConstantOp::create(
      b, loop.getLoc(), b.getIntegerAttr(iv.getType(), lower))};
  for (Value init : loop.getInitArgs())
    args.push_back(mapping.lookupOrDefault(init));
  for (auto [result, yielded] : llvm::zip(
           loop.getResults(),
           triton_spirv::inlineBlock(b, *loop.getBody(), args, mapping)))
    mapping.map(result, yielded);
}

void versionKernel(FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return; // early returns: left as they are
  Block &body = func.getBody().front();
  auto ret = dyn_cast<ReturnOp>(body.getTerminator());
  if (!ret || ret.getNumOperands() != 0)
    return;
  SmallVector<scf::ForOp> loops = rereadingLoops(body);
  if (loops.empty())
    return;
  scf::ForOp first = loops.front();
  // The upper bound must be known before the first loop (where the version
  // is chosen).
  Value upper = first.getUpperBound();
  if (Operation *def = upper.getDefiningOp())
    if (def->getBlock() == &body && !def->isBeforeInBlock(first))
      return;
  LoopBounds bounds = *boundsOf(first);
  // The tail from the first loop on moves into both branches; nothing after
  // it uses its values (the kernel returns nothing).
  SmallVector<Operation *> tail;
  for (Operation *op = first; op != ret; op = op->getNextNode())
    tail.push_back(op);

  OpBuilder b(first);
  Location loc = first.getLoc();
  Type type = upper.getType();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
  };
  Value entered = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                        upper, constant(bounds.lower));
  Value once =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, upper,
                            constant(bounds.lower + bounds.step));
  auto version = scf::IfOp::create(
      b, loc, arith::AndIOp::create(b, loc, entered, once),
      /*withElseRegion=*/true);

  llvm::SmallPtrSet<Operation *, 4> single;
  for (scf::ForOp loop : loops)
    single.insert(loop);
  OpBuilder thenBuilder =
      OpBuilder::atBlockTerminator(&version.getThenRegion().front());
  IRMapping mapping;
  for (Operation *op : tail)
    cloneRunningOnce(thenBuilder, *op, mapping, single, bounds.lower);
  Operation *elseYield = version.getElseRegion().front().getTerminator();
  for (Operation *op : tail)
    op->moveBefore(elseYield);
}

struct TritonVersionSingleIterationLoopsPass
    : public triton_spirv::impl::TritonVersionSingleIterationLoopsBase<
          TritonVersionSingleIterationLoopsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<FuncOp>())
      if (func.isPublic())
        versionKernel(func);
  }
};
} // namespace
