//===- LowerTTGBarriers.cpp - ttg.barrier as gpu.barrier ------------------===//
//
// Triton 3.8 and later print tl.debug_barrier() as `ttg.barrier <spaces>`;
// the pipeline takes the `gpu.barrier` of earlier releases, a barrier over
// every memory, so each ttg.barrier becomes one.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONLOWERTTGBARRIERS
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
struct TritonLowerTTGBarriersPass
    : triton_spirv::impl::TritonLowerTTGBarriersBase<
          TritonLowerTTGBarriersPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](triton::ttg::BarrierOp barrier) {
      rewriter.setInsertionPoint(barrier);
      rewriter.replaceOpWithNewOp<gpu::BarrierOp>(barrier);
    });
  }
};
} // namespace
