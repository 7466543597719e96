//===- TensorsToLinalg.cpp - tt block computations to linalg/tensor -------===//

#include "Patterns.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONTENSORSTOLINALG
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// Ops this pass cannot lower, with the message shown to the user.
std::optional<std::string> unsupportedMessage(Operation *op) {
  if (auto call = dyn_cast<ExternElementwiseOp>(op)) {
    if (triton_spirv::isSupportedLibraryFunction(call.getSymbol()))
      return std::nullopt;
    return ("device-library function '" + call.getSymbol() +
            "' is not supported by the SPIR-V backend")
        .str();
  }
  if (isa<ElementwiseInlineAsmOp>(op))
    return std::string("inline assembly (tl.inline_asm_elementwise) targets "
                       "a specific GPU ISA and cannot run on Vulkan");
  if (auto map = dyn_cast<MapElementwiseOp>(op)) {
    if (!map.getScalarOp().hasOneBlock())
      return std::string("tl.map_elementwise with control flow in its "
                         "function is not supported yet");
    // (The verifier makes the pack at least 1, the results ranked tensors.)
    auto type = cast<RankedTensorType>(map.getResultTypes()[0]);
    if (type.getNumElements() % map.getPack() != 0)
      return std::string("tl.map_elementwise: the block's elements are not "
                         "a whole number of packs");
  }
  return std::nullopt;
}

struct TritonTensorsToLinalgPass
    : public triton_spirv::impl::TritonTensorsToLinalgBase<
          TritonTensorsToLinalgPass> {
  void runOnOperation() override {
    if (failed(triton_spirv::reportUnsupportedOps(getOperation(),
                                                  unsupportedMessage)))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    // Memory ops, pointer arithmetic and functions belong to other passes.
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalOp<
        MakeRangeOp, SplatOp, UnsplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp,
        TransOp, CatOp, JoinOp, SplitOp, ReduceOp, ScanOp, MapElementwiseOp,
        DotOp, HistogramOp, GatherOp, ClampFOp, PreciseSqrtOp, PreciseDivFOp,
        MulhiUIOp, FpToFpOp, ExternElementwiseOp>();
    target.addDynamicallyLegalOp<BitcastOp>([](BitcastOp op) {
      return isa<PointerType>(getElementTypeOrSelf(op.getType()));
    });

    RewritePatternSet patterns(ctx);
    triton_spirv::populateShapeOpsToLinalgPatterns(patterns);
    triton_spirv::populateComputeOpsToLinalgPatterns(patterns);
    triton_spirv::populateElementwiseOpsToArithPatterns(patterns);
    if (failed(triton_spirv::applyConversionWithoutRollback(
            getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
