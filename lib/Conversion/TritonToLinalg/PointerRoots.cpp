//===- PointerRoots.cpp - Where a Triton pointer comes from ---------------===//

#include "PointerRoots.h"

#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::triton;

namespace {
/// Values a pointer-typed block argument of a structured op can take.
void addRegionArgumentSources(BlockArgument arg, SmallVectorImpl<Value> &out) {
  Operation *parent = arg.getOwner()->getParentOp();
  unsigned index = arg.getArgNumber();
  if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
    if (index == 0)
      return; // the induction variable is no pointer
    out.push_back(forOp.getInitArgs()[index - 1]);
    out.push_back(forOp.getYieldedValues()[index - 1]);
    return;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
    if (arg.getOwner() == whileOp.getBeforeBody()) {
      out.push_back(whileOp.getInits()[index]);
      out.push_back(whileOp.getYieldOp().getResults()[index]);
    } else {
      out.push_back(whileOp.getConditionOp().getArgs()[index]);
    }
    return;
  }
  // Blocks reached by branches: every predecessor's successor operand.
  Block *block = arg.getOwner();
  for (auto it = block->pred_begin(); it != block->pred_end(); ++it) {
    auto branch = dyn_cast<BranchOpInterface>((*it)->getTerminator());
    if (!branch)
      continue;
    SuccessorOperands operands =
        branch.getSuccessorOperands(it.getSuccessorIndex());
    if (Value value = operands[index])
      out.push_back(value);
  }
}

/// Values a pointer-typed result of a structured op can take.
void addResultSources(OpResult result, SmallVectorImpl<Value> &out) {
  Operation *op = result.getOwner();
  unsigned index = result.getResultNumber();
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    out.push_back(forOp.getInitArgs()[index]);
    out.push_back(forOp.getYieldedValues()[index]);
  } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    out.push_back(ifOp.thenYield().getOperand(index));
    if (!ifOp.getElseRegion().empty())
      out.push_back(ifOp.elseYield().getOperand(index));
  } else if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    out.push_back(whileOp.getConditionOp().getArgs()[index]);
  }
}

/// Pushes the pointer operands of the tt.ptr_to_int ops that `address` is
/// computed from (through integer arithmetic, shape ops and control flow);
/// false when there are none.
bool addAddressSources(Value address, SmallVectorImpl<Value> &out) {
  llvm::SetVector<Value> visited;
  SmallVector<Value> worklist{address};
  bool found = false;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (!isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
        addRegionArgumentSources(arg, worklist);
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (auto toInt = dyn_cast<PtrToIntOp>(def)) {
      out.push_back(toInt.getSrc());
      found = true;
      continue;
    }
    if (isa<scf::ForOp, scf::IfOp, scf::WhileOp>(def)) {
      addResultSources(cast<OpResult>(value), worklist);
      continue;
    }
    // Loads end the search: an integer read from memory names no buffer.
    if (def->getNumRegions() == 0 && !isa<LoadOp>(def))
      worklist.append(def->getOperands().begin(), def->getOperands().end());
  }
  return found;
}
} // namespace

/// The single root of `pointer`, or a failure made by `unsupported` from
/// the reason there is none (and the op the pointer comes from, where there
/// is one).
static FailureOr<Value>
traceRoot(Value pointer,
          function_ref<LogicalResult(Operation *, StringRef)> unsupported) {
  llvm::SetVector<Value> visited;
  llvm::SetVector<Value> roots;
  SmallVector<Value> worklist{pointer};

  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value))
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *parent = arg.getOwner()->getParentOp();
      if (isa<FunctionOpInterface>(parent) && arg.getOwner()->isEntryBlock()) {
        roots.insert(arg);
        continue;
      }
      addRegionArgumentSources(arg, worklist);
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (isa<AddPtrOp, SplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp,
            BitcastOp, AdvanceOp>(def)) {
      worklist.push_back(def->getOperand(0));
      continue;
    }
    if (isa<CatOp, JoinOp>(def)) {
      worklist.append(def->getOperands().begin(), def->getOperands().end());
      continue;
    }
    if (auto split = dyn_cast<SplitOp>(def)) {
      worklist.push_back(split.getSrc());
      continue;
    }
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      worklist.push_back(select.getTrueValue());
      worklist.push_back(select.getFalseValue());
      continue;
    }
    if (isa<MakeTensorPtrOp>(def)) {
      worklist.push_back(cast<MakeTensorPtrOp>(def).getBase());
      continue;
    }
    if (isa<scf::ForOp, scf::IfOp, scf::WhileOp>(def)) {
      addResultSources(cast<OpResult>(value), worklist);
      continue;
    }
    if (auto toPointer = dyn_cast<IntToPtrOp>(def)) {
      // An address computed from pointers (tt.ptr_to_int) stays in their
      // buffer; an address from anywhere else is a root of its own, reached
      // through its device address.
      if (addAddressSources(toPointer.getSrc(), worklist))
        continue;
      if (isa<ShapedType>(toPointer.getType()))
        return unsupported(def, "made by tt.int_to_ptr from a block of "
                                "integers; only a scalar address can be "
                                "the base of pointers outside the kernel's "
                                "pointer arguments");
      roots.insert(toPointer.getResult());
      continue;
    }
    if (isa<LoadOp>(def))
      return unsupported(def, "loaded from memory; only pointers derived "
                              "from kernel arguments can be bound to buffers");
    return unsupported(def, (Twine("derived through '") +
                             def->getName().getStringRef() +
                             "', which this lowering does not follow")
                                .str());
  }
  if (roots.size() != 1)
    return unsupported(nullptr,
                       roots.empty()
                           ? "it is not derived from a kernel argument"
                           : "it may come from different pointer arguments");
  return roots.front();
}

FailureOr<Value> mlir::triton_spirv::findPointerRoot(Value pointer,
                                                     Operation *user) {
  return traceRoot(pointer, [&](Operation *source, StringRef why) {
    InFlightDiagnostic diag = user->emitError()
                              << "unsupported pointer: " << why;
    if (source)
      diag.attachNote(source->getLoc()) << "pointer produced here";
    return failure();
  });
}

std::optional<Value> mlir::triton_spirv::pointerRoot(Value pointer,
                                                     bool allowAddress) {
  FailureOr<Value> root =
      traceRoot(pointer, [](Operation *, StringRef) { return failure(); });
  if (failed(root) || (!allowAddress && isAddressRoot(*root)))
    return std::nullopt;
  return *root;
}

bool mlir::triton_spirv::isAddressRoot(Value root) {
  return root.getDefiningOp<IntToPtrOp>() != nullptr;
}

Value mlir::triton_spirv::accessedPointer(Operation *op) {
  if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op))
    return op->getOperand(0);
  return {};
}
