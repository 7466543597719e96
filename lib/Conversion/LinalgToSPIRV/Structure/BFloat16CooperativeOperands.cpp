//===- BFloat16CooperativeOperands.cpp - bf16 matmul operands as f16 bits -===//
//
// gpu.mma_matrix has no bf16 element type: a bf16 matmul reads its
// operands as f16-typed bits, which cooperative matrices load, and
// bit-casts them back in its body (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "triton-spirv/Analysis/MatmulPlan.h"
#include "triton-spirv/Conversion/ParallelGeneric.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_BFLOAT16COOPERATIVEOPERANDS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Whether `op` multiplies static bf16 blocks, 16-divisible, into an f32
/// accumulator of whole cooperative-matrix tiles for `shape`, on tensors.
bool isBFloat16Matmul(linalg::LinalgOp op,
                      const triton_spirv::WorkgroupShape &shape) {
  if (!op.hasPureTensorSemantics() || !triton_spirv::isStaticMatmul(op))
    return false;
  std::optional<Type> value = triton_spirv::multiplyAddOperandType(op);
  Block &body = *op.getBlock();
  if (!value || !value->isBF16() || !body.getArgument(0).getType().isBF16() ||
      !body.getArgument(1).getType().isBF16() ||
      !body.getArgument(2).getType().isF32())
    return false;
  ArrayRef<int64_t> acc =
      cast<ShapedType>(op.getDpsInits()[0].getType()).getShape();
  int64_t k = cast<ShapedType>(op.getDpsInputs()[0].getType()).getDimSize(1);
  return triton_spirv::cooperativeTiling(acc[0], acc[1], k, shape)
      .has_value();
}

/// The element-wise bit cast of `tensor` to elements of `element`.
Value bitcastElements(OpBuilder &b, Location loc, Value tensor, Type element) {
  auto type = cast<RankedTensorType>(tensor.getType());
  return triton_spirv::createParallelGeneric(
             b, loc, TypeRange{type.clone(element)}, ValueRange{tensor},
             [&](OpBuilder &nested, Location l, ValueRange args) {
               Value bits =
                   arith::BitcastOp::create(nested, l, element, args[0]);
               linalg::YieldOp::create(nested, l, bits);
             })
      .getResult(0);
}

/// `acc + ext(bitcast(a)) * ext(bitcast(b))` over f16-typed bits of the
/// operands, replacing the bf16 matmul `op`.
void readOperandsAsBits(RewriterBase &rewriter, linalg::LinalgOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type f16 = rewriter.getF16Type(), bf16 = rewriter.getBF16Type();
  Type f32 = rewriter.getF32Type();
  Value lhs = bitcastElements(rewriter, loc, op.getDpsInputs()[0], f16);
  Value rhs = bitcastElements(rewriter, loc, op.getDpsInputs()[1], f16);
  Value acc = op.getDpsInits()[0];
  auto matmul = linalg::GenericOp::create(
      rewriter, loc, TypeRange{acc.getType()}, ValueRange{lhs, rhs},
      ValueRange{acc}, op.getIndexingMapsArray(), op.getIteratorTypesArray(),
      [&](OpBuilder &b, Location l, ValueRange args) {
        auto widen = [&](Value bits) -> Value {
          Value value = arith::BitcastOp::create(b, l, bf16, bits);
          return arith::ExtFOp::create(b, l, f32, value);
        };
        Value x = widen(args[0]);
        Value y = widen(args[1]);
        Value product = arith::MulFOp::create(b, l, x, y);
        linalg::YieldOp::create(
            b, l, ValueRange{arith::AddFOp::create(b, l, args[2], product)});
      });
  rewriter.replaceOp(op, matmul.getResults());
}

struct BFloat16CooperativeOperandsPass
    : triton_spirv::impl::BFloat16CooperativeOperandsBase<
          BFloat16CooperativeOperandsPass> {
  using Base::Base;
  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    const triton_spirv::WorkgroupShape &shape = target->workgroup;
    if (!shape.bfloat16CooperativeMatrix)
      return;
    SmallVector<linalg::LinalgOp> matmuls;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isBFloat16Matmul(op, shape))
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : matmuls)
      readOperandsAsBits(rewriter, op);
  }
};
} // namespace
