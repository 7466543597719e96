//===- MatmulPlan.cpp - How a matmul is spread over a workgroup -----------===//

#include "triton-spirv/Analysis/MatmulPlan.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

using namespace mlir;
using namespace mlir::triton_spirv;

/// The grid that maximizes multiply-adds per operand load
/// (TM * TN / (TM + TN)); among equals, the widest one up to `maxGridN` (a
/// subgroup), which has the fewest rows of A per subgroup and so the fewest
/// bank conflicts. Rows of at most a subgroup also let the invocations that
/// share a row reduce it with shuffles.
static std::optional<MatmulTiling>
chooseTiling(int64_t m, int64_t n, int64_t workers, int64_t maxGridN) {
  std::optional<MatmulTiling> best;
  double bestScore = 0;
  for (int64_t gridN = 1; gridN <= std::min(n, maxGridN); gridN *= 2) {
    int64_t gridM = workers / gridN;
    if (n % gridN || workers % gridN || m % gridM)
      continue;
    MatmulTiling tiling{gridM, gridN, m / gridM, n / gridN};
    double score = double(tiling.tileM * tiling.tileN) /
                   double(tiling.tileM + tiling.tileN);
    if (!best || score >= bestScore) {
      best = tiling;
      bestScore = score;
    }
  }
  return best;
}

/// Whether `op` indexes its operands as C[m, n] (+)= A[m, k] * B[k, n],
/// with m and n parallel and k a reduction.
static bool hasMatmulIndexing(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return false;
  using utils::IteratorType;
  return op.getIndexingMapsArray() ==
             linalg::MatmulOp::getDefaultIndexingMaps(op.getContext()) &&
         op.getIteratorTypesArray() ==
             SmallVector<IteratorType>{IteratorType::parallel,
                                       IteratorType::parallel,
                                       IteratorType::reduction};
}

bool triton_spirv::isStaticMatmul(linalg::LinalgOp op) {
  return hasMatmulIndexing(op) && !op.hasIndexSemantics() &&
         llvm::all_of(op->getOperandTypes(), [](Type type) {
           auto shaped = dyn_cast<ShapedType>(type);
           return shaped && shaped.hasStaticShape();
         });
}

std::optional<Type> triton_spirv::multiplyAddOperandType(linalg::LinalgOp op) {
  Block &body = *op.getBlock();
  if (body.getNumArguments() != 3)
    return std::nullopt;
  Value acc = body.getArgument(2);
  Type accType = acc.getType();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || (add.getLhs() != acc && add.getRhs() != acc))
    return std::nullopt;
  auto mul = (add.getLhs() == acc ? add.getRhs() : add.getLhs())
                 .getDefiningOp<arith::MulFOp>();
  // A factor is the block argument itself (of the accumulator's type), or
  // its extension to the accumulator's type, possibly of its bits read as
  // another type (arith.bitcast): the type and the ops that make it.
  using Factor = std::pair<Type, size_t>;
  auto factorOf = [&](Value factor, Value arg) -> std::optional<Factor> {
    if (factor == arg)
      return arg.getType() == accType ? std::optional<Factor>({accType, 0})
                                      : std::nullopt;
    auto ext = factor.getDefiningOp<arith::ExtFOp>();
    if (!ext || ext.getType() != accType)
      return std::nullopt;
    if (ext.getIn() == arg)
      return Factor{arg.getType(), 1};
    auto bits = ext.getIn().getDefiningOp<arith::BitcastOp>();
    if (bits && bits.getIn() == arg)
      return Factor{bits.getType(), 2};
    return std::nullopt;
  };
  if (!mul)
    return std::nullopt;
  for (auto [x, y] : {std::pair(mul.getLhs(), mul.getRhs()),
                      std::pair(mul.getRhs(), mul.getLhs())}) {
    std::optional<Factor> lhs = factorOf(x, body.getArgument(0));
    std::optional<Factor> rhs = factorOf(y, body.getArgument(1));
    // Nothing else in the body: the add, the multiply, the yield and the
    // factors' casts.
    if (lhs && rhs && lhs->first == rhs->first &&
        body.getOperations().size() == 3 + lhs->second + rhs->second)
      return lhs->first;
  }
  return std::nullopt;
}

std::optional<MatmulTiling>
triton_spirv::cooperativeTiling(int64_t m, int64_t n, int64_t k,
                                const WorkgroupShape &shape) {
  constexpr int64_t size = kCooperativeMatrixSize;
  if (m % size || n % size || k % size || shape.subgroupSize <= 1)
    return std::nullopt;
  return chooseTiling(m / size, n / size,
                      shape.workgroupSize / shape.subgroupSize, 32);
}

bool triton_spirv::multipliesBFloat16Bits(linalg::LinalgOp op) {
  if (!hasMatmulIndexing(op))
    return false;
  Block &body = *op.getBlock();
  std::optional<Type> value = multiplyAddOperandType(op);
  return value && value->isBF16() && body.getArgument(0).getType().isF16() &&
         body.getArgument(1).getType().isF16();
}

/// Whether one cooperative multiply-add computes the body: fp16 operands
/// (and an fp16 or fp32 accumulator), or, with `bfloat16`, bf16 ones held
/// as f16 bits (--triton-spirv-bfloat16-cooperative-operands) and an fp32
/// accumulator.
static bool isCooperativeMultiplyAdd(linalg::LinalgOp op, bool bfloat16) {
  Block &body = *op.getBlock();
  Type accType = body.getArgument(2).getType();
  std::optional<Type> value = multiplyAddOperandType(op);
  if (!value || !body.getArgument(0).getType().isF16() ||
      !body.getArgument(1).getType().isF16())
    return false;
  if (value->isF16())
    return accType.isF16() || accType.isF32();
  return bfloat16 && value->isBF16() && accType.isF32();
}

std::optional<int64_t> triton_spirv::rowStride(Value buffer) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(cast<MemRefType>(buffer.getType())
                 .getStridesAndOffset(strides, offset)) ||
      strides[1] != 1 || ShapedType::isDynamic(strides[0]))
    return std::nullopt;
  return strides[0];
}

/// Bytes of a matmul's operands and accumulator together.
static int64_t matmulBufferBytes(linalg::LinalgOp op) {
  int64_t bytes = 0;
  for (Value buffer :
       {op.getDpsInputs()[0], op.getDpsInputs()[1], op.getDpsInits()[0]})
    bytes += bufferBytes(cast<MemRefType>(buffer.getType()));
  return bytes;
}

std::optional<MatmulPlan>
triton_spirv::planMatmul(linalg::LinalgOp op, const WorkgroupShape &shape) {
  if (!needsMatmulPlan(op))
    return std::nullopt;
  Value lhs = op.getDpsInputs()[0], acc = op.getDpsInits()[0];
  ArrayRef<int64_t> accShape = cast<MemRefType>(acc.getType()).getShape();
  int64_t m = accShape[0], n = accShape[1];
  int64_t k = cast<MemRefType>(lhs.getType()).getDimSize(1);
  std::optional<MatmulTiling> tiling = chooseTiling(
      m, n, shape.workgroupSize,
      shape.subgroupSize > 1 ? std::min<int64_t>(shape.subgroupSize, 32) : 32);
  if (!tiling)
    return std::nullopt;
  MatmulPlan plan{*tiling, std::nullopt, false};
  // Cooperative matrices need whole 16x16x16 tiles, rows of unit stride,
  // and a grid of subgroups over them.
  if (!shape.cooperativeMatrix ||
      !llvm::all_of(
          op->getOperands(),
          [](Value buffer) { return rowStride(buffer).has_value(); }) ||
      !isCooperativeMultiplyAdd(op, shape.bfloat16CooperativeMatrix))
    return plan;
  std::optional<MatmulTiling> subgroupTiling =
      cooperativeTiling(m, n, k, shape);
  if (!subgroupTiling)
    return plan;
  plan.cooperativeTiling = subgroupTiling;
  // A quarter of workgroup memory at most, so that the kernel's other
  // blocks (other matmuls' accumulators among them) still fit.
  plan.cooperativeNeedsFragments =
      shape.maxWorkgroupMemory &&
      matmulBufferBytes(op) > shape.maxWorkgroupMemory / 4;
  return plan;
}

std::string
triton_spirv::describeWorkgroupMemoryMiss(linalg::LinalgOp op,
                                          const WorkgroupShape &shape) {
  ArrayRef<int64_t> accShape =
      cast<MemRefType>(op.getDpsInits()[0].getType()).getShape();
  int64_t bytes = matmulBufferBytes(op);
  return "cooperative matrices not used: their " + std::to_string(accShape[0]) +
         "x" + std::to_string(accShape[1]) +
         " accumulator and operands would take " + std::to_string(bytes) +
         " bytes of workgroup memory (over a quarter of the target's " +
         std::to_string(shape.maxWorkgroupMemory) +
         ") and it cannot stay in registers as fragments; it stays in "
         "registers, computed by invocations";
}

bool triton_spirv::needsMatmulPlan(linalg::LinalgOp op) {
  return isStaticMatmul(op) && op.hasPureBufferSemantics();
}

static MatmulTilingAttr getTilingAttr(MLIRContext *context,
                                      const MatmulTiling &tiling) {
  return MatmulTilingAttr::get(context, tiling.gridM, tiling.gridN,
                               tiling.tileM, tiling.tileN);
}

static MatmulTiling getTiling(MatmulTilingAttr attr) {
  return {attr.getGridM(), attr.getGridN(), attr.getTileM(), attr.getTileN()};
}

MatmulPlanAttr
triton_spirv::getMatmulPlanAttr(MLIRContext *context,
                                const std::optional<MatmulPlan> &plan) {
  if (!plan)
    return MatmulPlanAttr::get(context, {}, {}, false);
  return MatmulPlanAttr::get(
      context, getTilingAttr(context, plan->registerTiling),
      plan->cooperativeTiling ? getTilingAttr(context, *plan->cooperativeTiling)
                              : MatmulTilingAttr(),
      plan->cooperativeNeedsFragments);
}

std::optional<MatmulPlan> triton_spirv::lookupMatmulPlan(linalg::LinalgOp op) {
  auto attr = op->getAttrOfType<MatmulPlanAttr>(kMatmulPlanAttrName);
  if (!attr || !attr.getInvocations())
    return std::nullopt;
  MatmulPlan plan{getTiling(attr.getInvocations()), std::nullopt,
                  attr.getFragmentsOnly()};
  if (attr.getSubgroups())
    plan.cooperativeTiling = getTiling(attr.getSubgroups());
  return plan;
}

LogicalResult triton_spirv::checkMatmulsPlanned(Operation *root,
                                                StringRef pass) {
  WalkResult result = root->walk([&](linalg::LinalgOp op) {
    if (!needsMatmulPlan(op) ||
        op->getAttrOfType<MatmulPlanAttr>(kMatmulPlanAttrName))
      return WalkResult::advance();
    op->emitError() << pass << " needs every matmul planned: run "
                    << "--triton-spirv-plan-matmuls first";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

std::optional<SmallVector<Operation *>>
triton_spirv::fragmentLoops(Operation *matmul, Block *block) {
  SmallVector<Operation *> loops;
  for (Operation *op = matmul; op->getBlock() != block;) {
    op = op->getParentOp();
    if (!op || !isa<scf::ForOp>(op))
      return std::nullopt;
    loops.push_back(op);
  }
  std::reverse(loops.begin(), loops.end());
  return loops;
}
