//===- DistributeMatmul.cpp - Register-tiled matmuls ----------------------===//
//
// Spread over the invocations one output at a time, a matmul loads two
// operands from workgroup memory per multiply-add, and shared-memory
// bandwidth bounds it. Here each invocation computes a tile of TM x TN
// outputs held in registers: per step of the reduction it loads TM elements
// of A and TN of B and does TM * TN multiply-adds.
//
// The invocations form a GM x GN grid; invocation (i, j) owns the outputs
// (i + GM * r, j + GN * c). Strided rather than contiguous tiles keep
// neighbouring invocations on neighbouring columns of B (no bank conflicts)
// and broadcast the rows of A they share.
//
// With cooperative matrices (fp16 operands), the same scheme works one level
// up: subgroups form the grid and own 16x16 tiles of outputs, which they
// compute with the subgroup's matrix instructions (tensor cores).
//
//===----------------------------------------------------------------------===//

#include "DistributeMatmul.h"
#include "triton-spirv/Conversion/InlineBlock.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"

using namespace mlir;

namespace {
/// Accumulators one invocation keeps in registers at a time; larger tiles
/// are done in chunks of rows.
constexpr int64_t kMaxAccumulators = 64;
/// The cooperative-matrix shape used: 16x16 tiles, 16 deep (fp16 on NVIDIA).
constexpr int64_t kMatrixSize = 16;

struct MatmulTiling {
  int64_t gridM, gridN, tileM, tileN;
};
} // namespace

/// The grid that maximizes multiply-adds per operand load
/// (TM * TN / (TM + TN)); among equals, the widest one up to a subgroup, which
/// has the fewest rows of A per subgroup and so the fewest bank conflicts.
static std::optional<MatmulTiling> chooseTiling(int64_t m, int64_t n,
                                                int64_t workgroupSize) {
  std::optional<MatmulTiling> best;
  double bestScore = 0;
  for (int64_t gridN = 1; gridN <= std::min<int64_t>(n, 32); gridN *= 2) {
    int64_t gridM = workgroupSize / gridN;
    if (n % gridN || workgroupSize % gridN || m % gridM)
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

static bool isStaticBuffer(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && type.hasStaticShape();
}

/// Whether `op` computes C[m, n] (+)= A[m, k] * B[k, n] on static buffers,
/// with a body that only combines its three elements.
static bool isStaticMatmul(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureBufferSemantics() || op.hasIndexSemantics() ||
      !llvm::all_of(op->getOperands(), isStaticBuffer))
    return false;
  MLIRContext *context = op.getContext();
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  SmallVector<AffineMap> expected = AffineMap::inferFromExprList(
      ArrayRef<ArrayRef<AffineExpr>>{{m, k}, {k, n}, {m, n}}, context);
  using utils::IteratorType;
  return op.getIndexingMapsArray() == expected &&
         op.getIteratorTypesArray() ==
             SmallVector<IteratorType>{IteratorType::parallel,
                                       IteratorType::parallel,
                                       IteratorType::reduction};
}

/// Whether the body is `acc + cast(a) * cast(b)` with fp16 `a` and `b` and
/// each cast an extension to the accumulator's type (or none when the
/// accumulator is fp16 too): what one cooperative multiply-add computes.
static bool isHalfPrecisionMultiplyAdd(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  Type accType = body.getArgument(2).getType();
  if (!body.getArgument(0).getType().isF16() ||
      !body.getArgument(1).getType().isF16() ||
      !(accType.isF16() || accType.isF32()))
    return false;
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value product = add.getRhs();
  if (add.getLhs() != body.getArgument(2)) {
    if (add.getRhs() != body.getArgument(2))
      return false;
    product = add.getLhs();
  }
  auto mul = product.getDefiningOp<arith::MulFOp>();
  auto isCastOf = [&](Value value, Value arg) {
    if (value == arg)
      return arg.getType() == accType;
    auto ext = value.getDefiningOp<arith::ExtFOp>();
    return ext && ext.getIn() == arg && ext.getType() == accType;
  };
  return mul && body.getOperations().size() <= 5 &&
         ((isCastOf(mul.getLhs(), body.getArgument(0)) &&
           isCastOf(mul.getRhs(), body.getArgument(1))) ||
          (isCastOf(mul.getLhs(), body.getArgument(1)) &&
           isCastOf(mul.getRhs(), body.getArgument(0))));
}

/// The distance between rows of a 2-D buffer with unit column stride.
static std::optional<int64_t> rowStride(Value buffer) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(cast<MemRefType>(buffer.getType())
                 .getStridesAndOffset(strides, offset)) ||
      strides[1] != 1 || ShapedType::isDynamic(strides[0]))
    return std::nullopt;
  return strides[0];
}

/// The `scf.for` directly around `op` across which its accumulator can stay
/// in registers: nothing else in the loop touches the buffer (nor any alias
/// of it), and the buffer lives outside the loop.
static scf::ForOp accumulationLoop(linalg::LinalgOp op) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  Value acc = op.getDpsInits()[0];
  if (!loop || !acc.getDefiningOp<memref::AllocOp>() ||
      loop->isAncestor(acc.getDefiningOp()))
    return nullptr;
  for (Operation *user : acc.getUsers())
    if (user != op.getOperation() &&
        (loop->isAncestor(user) || isa<ViewLikeOpInterface>(user)))
      return nullptr;
  return loop;
}

namespace {
class MatmulDistributor {
public:
  MatmulDistributor(RewriterBase &rewriter, linalg::GenericOp op,
                    scf::ForOp accumulationLoop)
      : rewriter(rewriter), op(op), loc(op.getLoc()), lhs(op.getDpsInputs()[0]),
        rhs(op.getDpsInputs()[1]), acc(op.getDpsInits()[0]),
        accumulationLoop(accumulationLoop) {
    k = cast<MemRefType>(lhs.getType()).getDimSize(1);
  }

  void emitRegisterTiles(const MatmulTiling &tiling, Value invocationId);
  void emitCooperativeTiles(const MatmulTiling &tiling, Value subgroupId);

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  /// `first + step * index` for each index in [from, from + count).
  SmallVector<Value> strided(Value first, int64_t step, Value from,
                             int64_t count);
  /// Loads the accumulators at (row, column) for all rows and columns,
  /// updates them with `reduce` and stores them back. With an accumulation
  /// loop, the loads go before it and the stores after it, and the values are
  /// carried through it instead; the insertion point must then be before the
  /// loop, where the indices are defined. Leaves the insertion point after
  /// the update.
  void accumulate(ArrayRef<Value> rows, ArrayRef<Value> cols,
                  function_ref<Value(Value, Value)> load,
                  function_ref<void(Value, Value, Value)> store,
                  function_ref<SmallVector<Value>(ValueRange)> reduce);

  RewriterBase &rewriter;
  linalg::GenericOp op;
  Location loc;
  Value lhs, rhs, acc;
  scf::ForOp accumulationLoop;
  int64_t k;
};
} // namespace

SmallVector<Value> MatmulDistributor::strided(Value first, int64_t step,
                                              Value from, int64_t count) {
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; ++i) {
    Value index = arith::AddIOp::create(rewriter, loc, from, constant(i));
    Value offset = arith::MulIOp::create(rewriter, loc, index, constant(step));
    values.push_back(arith::AddIOp::create(rewriter, loc, first, offset));
  }
  return values;
}

void MatmulDistributor::accumulate(
    ArrayRef<Value> rows, ArrayRef<Value> cols,
    function_ref<Value(Value, Value)> load,
    function_ref<void(Value, Value, Value)> store,
    function_ref<SmallVector<Value>(ValueRange)> reduce) {
  auto storeAll = [&](ValueRange values) {
    for (auto [index, value] : llvm::enumerate(values))
      store(value, rows[index / cols.size()], cols[index % cols.size()]);
  };
  if (accumulationLoop)
    gpu::BarrierOp::create(rewriter, loc);
  SmallVector<Value> initial;
  for (Value row : rows)
    for (Value col : cols)
      initial.push_back(load(row, col));
  if (!accumulationLoop) {
    storeAll(reduce(initial));
    return;
  }
  FailureOr<LoopLikeOpInterface> extended =
      accumulationLoop.replaceWithAdditionalYields(
          rewriter, initial, /*replaceInitOperandUsesInLoop=*/false,
          [](OpBuilder &, Location, ArrayRef<BlockArgument> carried) {
            return SmallVector<Value>(carried.begin(), carried.end());
          });
  // scf.for always accepts more loop-carried values.
  auto loop = cast<scf::ForOp>(extended->getOperation());
  unsigned first = loop.getNumRegionIterArgs() - initial.size();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> updated =
      reduce(loop.getRegionIterArgs().drop_front(first));
  Operation *yield = loop.getBody()->getTerminator();
  rewriter.modifyOpInPlace(yield, [&] {
    for (auto [index, value] : llvm::enumerate(updated))
      yield->setOperand(first + index, value);
  });
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfter(loop);
  gpu::BarrierOp::create(rewriter, loc);
  storeAll(loop.getResults().drop_front(first));
  gpu::BarrierOp::create(rewriter, loc);
}

void MatmulDistributor::emitRegisterTiles(const MatmulTiling &tiling,
                                          Value invocationId) {
  // Chunks of rows small enough to keep their accumulators in registers;
  // accumulators stay in registers across a loop only without chunks.
  int64_t chunkRows = std::max<int64_t>(1, kMaxAccumulators / tiling.tileN);
  while (tiling.tileM % chunkRows)
    --chunkRows;
  if (chunkRows != tiling.tileM)
    accumulationLoop = nullptr;
  if (accumulationLoop)
    rewriter.setInsertionPoint(accumulationLoop);
  Value gridN = constant(tiling.gridN);
  Value row0 = arith::DivUIOp::create(rewriter, loc, invocationId, gridN);
  Value col0 = arith::RemUIOp::create(rewriter, loc, invocationId, gridN);
  SmallVector<Value> cols =
      strided(col0, tiling.gridN, constant(0), tiling.tileN);
  scf::ForOp chunks;
  Value firstRow = constant(0);
  if (chunkRows != tiling.tileM) {
    chunks =
        scf::ForOp::create(rewriter, loc, constant(0),
                           constant(tiling.tileM / chunkRows), constant(1));
    rewriter.setInsertionPointToStart(chunks.getBody());
    firstRow = arith::MulIOp::create(rewriter, loc, chunks.getInductionVar(),
                                     constant(chunkRows));
  }
  SmallVector<Value> rows = strided(row0, tiling.gridM, firstRow, chunkRows);

  auto reduce = [&](ValueRange initial) -> SmallVector<Value> {
    auto steps = scf::ForOp::create(rewriter, loc, constant(0), constant(k),
                                    constant(1), initial);
    rewriter.setInsertionPointToStart(steps.getBody());
    Value step = steps.getInductionVar();
    SmallVector<Value> lhsElements, rhsElements;
    for (Value row : rows)
      lhsElements.push_back(
          memref::LoadOp::create(rewriter, loc, lhs, ValueRange{row, step}));
    for (Value col : cols)
      rhsElements.push_back(
          memref::LoadOp::create(rewriter, loc, rhs, ValueRange{step, col}));
    SmallVector<Value> updated;
    for (auto [index, accumulator] : llvm::enumerate(steps.getRegionIterArgs()))
      updated.push_back(triton_spirv::inlineBlock(
                            rewriter, op.getRegion().front(),
                            {lhsElements[index / cols.size()],
                             rhsElements[index % cols.size()], accumulator})
                            .front());
    scf::YieldOp::create(rewriter, loc, updated);
    rewriter.setInsertionPointAfter(steps);
    return steps.getResults();
  };
  accumulate(
      rows, cols,
      [&](Value row, Value col) -> Value {
        return memref::LoadOp::create(rewriter, loc, acc, ValueRange{row, col});
      },
      [&](Value value, Value row, Value col) {
        memref::StoreOp::create(rewriter, loc, value, acc,
                                ValueRange{row, col});
      },
      reduce);
  if (chunks)
    rewriter.setInsertionPointAfter(chunks);
}

void MatmulDistributor::emitCooperativeTiles(const MatmulTiling &tiling,
                                             Value subgroupId) {
  if (accumulationLoop)
    rewriter.setInsertionPoint(accumulationLoop);
  Value gridN = constant(tiling.gridN);
  Value zero = constant(0);
  Value tileRow0 = arith::DivUIOp::create(rewriter, loc, subgroupId, gridN);
  Value tileCol0 = arith::RemUIOp::create(rewriter, loc, subgroupId, gridN);
  SmallVector<Value> rows = strided(
      arith::MulIOp::create(rewriter, loc, tileRow0, constant(kMatrixSize)),
      tiling.gridM * kMatrixSize, zero, tiling.tileM);
  SmallVector<Value> cols = strided(
      arith::MulIOp::create(rewriter, loc, tileCol0, constant(kMatrixSize)),
      tiling.gridN * kMatrixSize, zero, tiling.tileN);
  auto load = [&](Value buffer, StringRef operand, Value row,
                  Value col) -> Value {
    auto type = gpu::MMAMatrixType::get(
        {kMatrixSize, kMatrixSize},
        cast<MemRefType>(buffer.getType()).getElementType(), operand);
    return gpu::SubgroupMmaLoadMatrixOp::create(
        rewriter, loc, type, buffer, ValueRange{row, col},
        rewriter.getIndexAttr(*rowStride(buffer)), UnitAttr());
  };

  auto reduce = [&](ValueRange initial) -> SmallVector<Value> {
    auto steps = scf::ForOp::create(rewriter, loc, zero, constant(k),
                                    constant(kMatrixSize), initial);
    rewriter.setInsertionPointToStart(steps.getBody());
    Value step = steps.getInductionVar();
    SmallVector<Value> lhsTiles, rhsTiles;
    for (Value row : rows)
      lhsTiles.push_back(load(lhs, "AOp", row, step));
    for (Value col : cols)
      rhsTiles.push_back(load(rhs, "BOp", step, col));
    SmallVector<Value> updated;
    for (auto [index, accumulator] : llvm::enumerate(steps.getRegionIterArgs()))
      updated.push_back(gpu::SubgroupMmaComputeOp::create(
          rewriter, loc, lhsTiles[index / cols.size()],
          rhsTiles[index % cols.size()], accumulator, UnitAttr(), UnitAttr()));
    scf::YieldOp::create(rewriter, loc, updated);
    rewriter.setInsertionPointAfter(steps);
    return steps.getResults();
  };
  accumulate(
      rows, cols,
      [&](Value row, Value col) { return load(acc, "COp", row, col); },
      [&](Value value, Value row, Value col) {
        gpu::SubgroupMmaStoreMatrixOp::create(
            rewriter, loc, value, acc, ValueRange{row, col},
            rewriter.getIndexAttr(*rowStride(acc)), UnitAttr());
      },
      reduce);
}

FailureOr<linalg::GenericOp> triton_spirv::asGeneric(RewriterBase &rewriter,
                                                     linalg::LinalgOp op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  return linalg::generalizeNamedOp(rewriter, op);
}

LogicalResult
triton_spirv::distributeMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                               Value invocationId,
                               const DistributeToWorkgroupOptions &options) {
  if (!isStaticMatmul(op))
    return failure();
  Value lhs = op.getDpsInputs()[0], acc = op.getDpsInits()[0];
  ArrayRef<int64_t> accShape = cast<MemRefType>(acc.getType()).getShape();
  int64_t m = accShape[0], n = accShape[1];
  int64_t k = cast<MemRefType>(lhs.getType()).getDimSize(1);
  std::optional<MatmulTiling> tiling =
      chooseTiling(m, n, options.workgroupSize);
  if (!tiling)
    return failure();
  // Cooperative matrices need whole 16x16x16 tiles, rows of unit stride,
  // and a grid of subgroups over them.
  std::optional<MatmulTiling> cooperativeTiling;
  if (options.cooperativeMatrix && m % kMatrixSize == 0 &&
      n % kMatrixSize == 0 && k % kMatrixSize == 0 &&
      llvm::all_of(op->getOperands(),
                   [](Value buffer) { return rowStride(buffer).has_value(); }))
    cooperativeTiling =
        chooseTiling(m / kMatrixSize, n / kMatrixSize,
                     options.workgroupSize / options.subgroupSize);

  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> asGenericOp = asGeneric(rewriter, op);
  if (failed(asGenericOp))
    return failure();
  linalg::GenericOp generic = *asGenericOp;
  rewriter.setInsertionPoint(generic);
  scf::ForOp loop = accumulationLoop(generic);
  MatmulDistributor distributor(rewriter, generic, loop);
  if (cooperativeTiling && isHalfPrecisionMultiplyAdd(generic)) {
    OpBuilder::InsertionGuard guard(rewriter);
    if (loop)
      rewriter.setInsertionPoint(loop);
    Value subgroupId =
        gpu::SubgroupIdOp::create(rewriter, generic.getLoc(), nullptr);
    rewriter.setInsertionPoint(generic);
    distributor.emitCooperativeTiles(*cooperativeTiling, subgroupId);
  } else {
    distributor.emitRegisterTiles(*tiling, invocationId);
  }
  rewriter.setInsertionPointAfter(generic);
  rewriter.eraseOp(generic);
  return success();
}
