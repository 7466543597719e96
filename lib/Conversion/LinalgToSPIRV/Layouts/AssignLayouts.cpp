//===- AssignLayouts.cpp - Mark the buffers that live in registers --------===//
//
// Writes the decisions of the buffer layout analysis into the IR, as
// `triton_spirv.layout` attributes on the allocations, for
// triton-spirv-distribute to follow and for tests to check.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "triton-spirv/Analysis/BufferLayouts.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_ASSIGNLAYOUTS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton_spirv;

namespace {
struct AssignLayoutsPass
    : triton_spirv::impl::AssignLayoutsBase<AssignLayoutsPass> {
  using Base::Base;
  void runOnOperation() override {
    FailureOr<ModuleTarget> target = lookupTarget(getOperation());
    if (failed(target) ||
        failed(checkMatmulsPlanned(getOperation(), getArgument())))
      return signalPassFailure();
    const WorkgroupShape &shape = target->workgroup;
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (kernel.isExternal())
        continue;
      BufferLayouts result = assignBufferLayouts(kernel, shape);
      for (auto [buffer, layout] : result.layouts)
        buffer.getDefiningOp()->setAttr(kLayoutAttrName, layout);
      for (Value buffer : result.fragmentFamilyMembers)
        buffer.getDefiningOp()->setAttr(kFragmentFamilyAttrName,
                                        UnitAttr::get(&getContext()));

      kernel.walk([&](linalg::LinalgOp op) {
        std::optional<MatmulPlan> plan = lookupMatmulPlan(op);
        if (!plan)
          return;
        Attribute accLayout = result.layouts.lookup(op.getDpsInits()[0]);
        if (isa_and_nonnull<FragmentsLayoutAttr>(accLayout))
          return;
        if (plan->cooperativeTiling && plan->cooperativeNeedsFragments)
          op->emitRemark(describeWorkgroupMemoryMiss(op, shape));
        else if (plan->cooperativeFitsWorkgroupMemory() &&
                 isa_and_nonnull<GridLayoutAttr>(accLayout))
          op->emitRemark("cooperative matrices not used: the accumulator is "
                         "reduced, which needs it in registers; it is computed "
                         "by invocations");
      });
      // Views of fragments at static offsets: the tiles are separate values.
      for (scf::ForOp loop : result.loopsToUnroll)
        if (failed(loopUnrollFull(loop)))
          return signalPassFailure();
      // The unrolled induction variables fold to constants.
      if (!result.loopsToUnroll.empty() &&
          failed(applyPatternsGreedily(kernel,
                                       RewritePatternSet(&getContext()))))
        return signalPassFailure();
    }
  }
};
} // namespace
