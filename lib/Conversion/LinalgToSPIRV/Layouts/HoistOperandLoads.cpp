//===- HoistOperandLoads.cpp - Every operand's loads before any staging ---===//
//
// A matmul in a loop stages each operand in turn: its global loads into
// registers, then its stores into workgroup memory. A store waits for its
// loads, so the second operand's loads only start once the first operand's
// have arrived. Here the loads of all operands staged by the run-time
// version for whole blocks go first, so that they are in flight together;
// the stores follow. (Issuing them a whole iteration ahead, before the
// previous matmul, was measured slower: the registers they hold across the
// matmul cost more than the overlap gains.)
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_HOISTOPERANDLOADS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// `scf.if %whole { ...; G; linalg.copy R -> S } else { ... }` at the top
/// level of a loop: G, which only reads global memory, fills R, a buffer in
/// registers allocated outside the loop, that only G and the copy use; the
/// rest of the branch is computation.
struct Staging {
  scf::IfOp guard;
  linalg::GenericOp load;
};

/// Whether the memory `effect` acts on is global (unknown counts as global).
bool onGlobalMemory(const MemoryEffects::EffectInstance &effect) {
  Value target = effect.getValue();
  auto type = target ? dyn_cast<MemRefType>(target.getType()) : MemRefType();
  return !type || triton_spirv::isGlobalMemory(type);
}

/// Whether `op` (in G's body) computes or reads global memory, nothing else.
bool onlyReadsGlobalMemory(Operation &op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(&op);
  return effects &&
         llvm::all_of(*effects, [](const MemoryEffects::EffectInstance &e) {
           return isa<MemoryEffects::Read>(e.getEffect()) && e.getValue() &&
                  onGlobalMemory(e);
         });
}

std::optional<Staging> matchStaging(scf::IfOp guard, scf::ForOp loop) {
  if (guard.getNumResults() != 0 || !guard.elseBlock())
    return std::nullopt;
  Block *then = guard.thenBlock();
  if (then->getOperations().size() < 3)
    return std::nullopt;
  auto copy = dyn_cast<linalg::CopyOp>(*std::prev(then->end(), 2));
  auto load = dyn_cast<linalg::GenericOp>(*std::prev(then->end(), 3));
  if (!copy || !load || load.getNumDpsInputs() != 0 ||
      load.getNumDpsInits() != 1 || load.getNumResults() != 0 ||
      copy.getInputs()[0] != load.getDpsInits()[0])
    return std::nullopt;
  // The copy stores to workgroup memory (not to other registers, before a
  // conversion: such stores already follow both operands' loads).
  auto target = copy.getOutputs()[0].getDefiningOp<memref::AllocOp>();
  if (!target || target->hasAttr(triton_spirv::kLayoutAttrName))
    return std::nullopt;
  Value registers = load.getDpsInits()[0];
  auto alloc = registers.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc->hasAttr(triton_spirv::kLayoutAttrName) ||
      loop->isAncestor(alloc) ||
      !llvm::all_of(registers.getUsers(), [&](Operation *user) {
        return user == load.getOperation() || user == copy.getOperation();
      }))
    return std::nullopt;
  for (Operation &op : then->without_terminator())
    if (&op != load.getOperation() && &op != copy.getOperation() &&
        !isMemoryEffectFree(&op))
      return std::nullopt;
  if (!llvm::all_of(load.getBody()->getOperations(), onlyReadsGlobalMemory))
    return std::nullopt;
  return Staging{guard, load};
}

/// Whether `loop` may write global memory (which the loads moved earlier
/// could read): a write to anything but workgroup or private memory, or an
/// op of unknown effects.
bool writesGlobalMemory(scf::ForOp loop) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(loop);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write>(e.getEffect()) && onGlobalMemory(e);
  });
}

/// The top-level ops of `loop`'s body that the staging's condition and its
/// then-branch use, directly or through each other, in program order; fails
/// when one of them has memory effects or regions.
FailureOr<SmallVector<Operation *>> operandSlice(scf::ForOp loop,
                                                 Staging staging) {
  Block *body = loop.getBody();
  SetVector<Operation *> slice;
  SmallVector<Value> pending = {staging.guard.getCondition()};
  staging.guard.getThenRegion().walk([&](Operation *op) {
    llvm::append_range(pending, op->getOperands());
  });
  while (!pending.empty()) {
    Value value = pending.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != body || slice.contains(def))
      continue;
    if (!isMemoryEffectFree(def) || def->getNumRegions() != 0)
      return failure();
    slice.insert(def);
    llvm::append_range(pending, def->getOperands());
  }
  SmallVector<Operation *> ordered = slice.takeVector();
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return ordered;
}

LogicalResult hoistLoads(scf::ForOp loop) {
  SmallVector<Staging> stagings;
  for (auto guard : loop.getBody()->getOps<scf::IfOp>())
    if (std::optional<Staging> staging = matchStaging(guard, loop))
      stagings.push_back(*staging);
  if (stagings.size() < 2 || writesGlobalMemory(loop))
    return failure();
  // Between the first staging and the last, only computation and the other
  // stagings (other work in between was not measured).
  Operation *first = stagings.front().guard;
  auto isStaging = [&](Operation *op) {
    return llvm::any_of(stagings, [&](Staging staging) {
      return staging.guard.getOperation() == op;
    });
  };
  for (Operation *op = first; op != stagings.back().guard;
       op = op->getNextNode())
    if (!isMemoryEffectFree(op) && !isStaging(op))
      return failure();
  SmallVector<SmallVector<Operation *>> slices;
  for (Staging staging : stagings) {
    FailureOr<SmallVector<Operation *>> slice = operandSlice(loop, staging);
    if (failed(slice))
      return failure();
    slices.push_back(std::move(*slice));
  }
  // Each staging's condition and loads, in order, before the first staging:
  // what they compute has no memory effects, so it may run earlier.
  OpBuilder b(first);
  for (auto [staging, slice] : llvm::zip(stagings, slices)) {
    for (Operation *op : slice)
      if (first->isBeforeInBlock(op))
        op->moveBefore(first);
    auto loads = scf::IfOp::create(b, staging.guard.getLoc(),
                                   staging.guard.getCondition(),
                                   /*withElseRegion=*/false);
    OpBuilder inside = OpBuilder::atBlockTerminator(loads.thenBlock());
    IRMapping mapping;
    for (Operation &op : staging.guard.thenBlock()->without_terminator()) {
      inside.clone(op, mapping);
      if (&op == staging.load.getOperation())
        break;
    }
    staging.load.erase();
  }
  return success();
}

struct HoistOperandLoadsPass
    : triton_spirv::impl::HoistOperandLoadsBase<HoistOperandLoadsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (llvm::any_of(loop.getBody()->getOps<linalg::LinalgOp>(),
                       [](linalg::LinalgOp op) {
                         return linalg::isaContractionOpInterface(op);
                       }))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      (void)hoistLoads(loop);
  }
};
} // namespace
