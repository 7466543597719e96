//===- PlanMatmuls.cpp - Register tiles or cooperative matrices -----------===//
//
// Makes the matmul plans of lib/Analysis/MatmulPlan.cpp once, for the
// module's workgroup, and writes them into the IR as
// `triton_spirv.matmul_plan`: the layout assignment and the distribution
// read the same decision, and tests can check it.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "triton-spirv/Analysis/MatmulPlan.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_PLANMATMULS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton_spirv;

namespace {
struct PlanMatmulsPass : triton_spirv::impl::PlanMatmulsBase<PlanMatmulsPass> {
  using Base::Base;
  void runOnOperation() override {
    FailureOr<ModuleTarget> target = lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    getOperation().walk([&](linalg::LinalgOp op) {
      if (needsMatmulPlan(op))
        op->setAttr(kMatmulPlanAttrName,
                    getMatmulPlanAttr(&getContext(),
                                      planMatmul(op, target->workgroup)));
    });
  }
};
} // namespace
