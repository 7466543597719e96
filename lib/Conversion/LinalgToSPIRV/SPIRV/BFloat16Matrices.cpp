//===- BFloat16Matrices.cpp - Cooperative matrices of bf16 bits as bf16 --===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Analysis/MatmulPlan.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_RETYPEBFLOAT16MATRICES
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// The cooperative-matrix loads of the A and B operands of the marked
/// multiply-adds (bf16 bits) get bf16 matrix types (the multiply-adds then
/// multiply bf16), so do the results of marked FConverts (accumulators
/// rounded to bf16 bits, which only cooperative-matrix stores may use), and
/// the marks go. Fails, with a diagnostic, where such a matrix has another
/// use or is not loaded.
LogicalResult retypeBFloat16Matrices(spirv::ModuleOp module) {
  // The marked ops: multiply-adds, whose A and B loads read bf16 bits, and
  // conversions rounding accumulators to bf16 bits, which only
  // cooperative-matrix stores may use (they store the bits).
  SmallVector<Operation *> marked;
  llvm::SetVector<spirv::KHRCooperativeMatrixLoadOp> loads;
  SmallVector<Value> matrices; // to retype as bf16
  WalkResult walk = module.walk([&](Operation *op) {
    if (!op->hasAttr(triton_spirv::kBFloat16MatrixAttrName))
      return WalkResult::advance();
    if (auto convert = dyn_cast<spirv::FConvertOp>(op)) {
      for (Operation *user : convert->getUsers())
        if (!isa<spirv::KHRCooperativeMatrixStoreOp>(user)) {
          convert.emitError("a matrix rounded to bf16 is used by ")
              << user->getName() << " besides cooperative-matrix stores";
          return WalkResult::interrupt();
        }
      marked.push_back(convert);
      matrices.push_back(convert.getResult());
      return WalkResult::advance();
    }
    auto mulAdd = dyn_cast<spirv::KHRCooperativeMatrixMulAddOp>(op);
    if (!mulAdd)
      return WalkResult::advance();
    marked.push_back(mulAdd);
    for (Value operand : {mulAdd.getA(), mulAdd.getB()}) {
      auto load = operand.getDefiningOp<spirv::KHRCooperativeMatrixLoadOp>();
      if (!load) {
        mulAdd.emitError("an operand of a bf16 multiply-add is not a "
                         "cooperative-matrix load");
        return WalkResult::interrupt();
      }
      loads.insert(load);
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  for (spirv::KHRCooperativeMatrixLoadOp load : loads) {
    // Only marked multiply-adds may read the bits as bf16.
    for (OpOperand &use : load->getUses())
      if (!isa<spirv::KHRCooperativeMatrixMulAddOp>(use.getOwner()) ||
          !use.getOwner()->hasAttr(triton_spirv::kBFloat16MatrixAttrName) ||
          use.getOperandNumber() > 1)
        return load.emitError("a bf16 cooperative matrix is used by ")
               << use.getOwner()->getName() << " besides bf16 multiply-adds";
    matrices.push_back(load.getResult());
  }
  auto bf16 = BFloat16Type::get(module.getContext());
  for (Value matrix : matrices) {
    auto type = cast<spirv::CooperativeMatrixType>(matrix.getType());
    matrix.setType(spirv::CooperativeMatrixType::get(
        bf16, type.getRows(), type.getColumns(), type.getScope(),
        type.getUse()));
  }
  for (Operation *op : marked)
    op->removeAttr(triton_spirv::kBFloat16MatrixAttrName);
  return success();
}

struct RetypeBFloat16MatricesPass
    : triton_spirv::impl::RetypeBFloat16MatricesBase<
          RetypeBFloat16MatricesPass> {
  void runOnOperation() override {
    for (auto spirvModule : getOperation().getOps<spirv::ModuleOp>())
      if (failed(retypeBFloat16Matrices(spirvModule)))
        return signalPassFailure();
  }
};
} // namespace
