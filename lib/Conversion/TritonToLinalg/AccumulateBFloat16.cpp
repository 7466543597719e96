//===- AccumulateBFloat16.cpp - bf16 sums and products in f32 -------------===//
//
// From Triton 3.8 on, tl.sum, tl.cumsum and tl.cumprod of bf16 compute in
// bf16 (3.6 promoted cumsum to f32). This backend combines a row's
// elements one after another, where CUDA's combine in a tree: rounding
// each step to bf16, a cumsum of 32 elements came out past Triton's own
// tolerance (rtol 0.01) in 28 of 256 elements, and a cumprod of 1024 in 2.
// They therefore accumulate in f32 and round once, at the end.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/ElementTypes.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONACCUMULATEBFLOAT16
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Whether `op` (a tt.scan or tt.reduce) adds or multiplies one bf16
/// tensor: its combiner is one `arith.addf` or `arith.mulf` of its two
/// arguments, returned.
bool sumsOrMultipliesBFloat16(Operation *op) {
  if (op->getNumOperands() != 1 ||
      !getElementTypeOrSelf(op->getOperand(0)).isBF16())
    return false;
  Block &combiner = op->getRegion(0).front();
  if (combiner.getNumArguments() != 2 || !llvm::hasNItems(combiner, 2))
    return false;
  Operation &combine = combiner.front();
  return isa<arith::AddFOp, arith::MulFOp>(combine) &&
         combine.getOperands() == combiner.getArguments() &&
         combiner.getTerminator()->getOperands() == combine.getResults();
}

/// `op` on its operand widened to f32, its combiner computing in f32, and its
/// results rounded to bf16 (to nearest even) once.
void accumulateInF32(Operation *op, RewriterBase &rewriter) {
  Location loc = op->getLoc();
  Type f32 = rewriter.getF32Type();
  rewriter.setInsertionPoint(op);
  Value source = op->getOperand(0);
  IRMapping mapping;
  mapping.map(source, arith::ExtFOp::create(
                          rewriter, loc,
                          triton_spirv::withElementType(source.getType(), f32),
                          source));
  Operation *wide = rewriter.clone(*op, mapping);
  Block &combiner = wide->getRegion(0).front();
  for (BlockArgument argument : combiner.getArguments())
    argument.setType(f32);
  combiner.front().getResult(0).setType(f32);
  SmallVector<Value> rounded;
  for (auto [result, wideResult] :
       llvm::zip(op->getResults(), wide->getResults())) {
    wideResult.setType(triton_spirv::withElementType(result.getType(), f32));
    rounded.push_back(
        arith::TruncFOp::create(rewriter, loc, result.getType(), wideResult));
  }
  rewriter.replaceOp(op, rounded);
}

struct TritonAccumulateBFloat16Pass
    : triton_spirv::impl::TritonAccumulateBFloat16Base<
          TritonAccumulateBFloat16Pass> {
  void runOnOperation() override {
    SmallVector<Operation *> accumulations;
    getOperation()->walk([&](Operation *op) {
      if (isa<triton::ScanOp, triton::ReduceOp>(op) &&
          sumsOrMultipliesBFloat16(op))
        accumulations.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : accumulations)
      accumulateInF32(op, rewriter);
  }
};
} // namespace
