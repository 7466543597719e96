//===- DistributeMatmul.cpp - Register-tiled matmuls ----------------------===//
//
// Spread over the invocations one output at a time, a matmul loads two
// operands from workgroup memory per multiply-add, and shared-memory
// bandwidth bounds it. Here each invocation computes a tile of TM x TN
// outputs held in registers: per step of the reduction it loads TM elements
// of A and TN of B and does TM * TN multiply-adds.
//
// The invocations form a GM x GN grid; invocation (i, j) owns the outputs
// (i + GM * r, j + GN * c). Strided tiles keep the accumulator's grid layout
// (neighbouring invocations on neighbouring columns). Read as scalars, the
// operands would cost a shared-memory access per TM * TN / (TM + TN)
// multiply-adds, as many on NVIDIA as the multiply-adds' issue slots, and
// where a subgroup's lanes share a row of A, one access serves only a few
// distinct words. So A, staged in workgroup memory, is laid out tile-major
// instead where enough lanes share its rows (layOutTileMajor): an
// invocation's TM rows for one step are adjacent and read as vectors.
//
// With cooperative matrices (fp16 operands), the same scheme works one level
// up: subgroups form the grid and own 16x16 tiles of outputs, which they
// compute with the subgroup's matrix instructions (tensor cores). Their
// accumulators live in workgroup memory, or, in a fragments layout, only in
// registers: created from the fill's scalar and handed to the epilogue.
// Operands staged in workgroup memory get rows padded by 16 bytes
// (padFragmentRows): a fragment reads 16 rows of 32 bytes, which rows a
// multiple of 128 bytes long would all start at one bank.
//
//===----------------------------------------------------------------------===//

#include "DistributeMatmul.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Conversion/InlineBlock.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::triton_spirv;

/// Elements of an operand tile read by one vector load.
static constexpr int64_t kTileVector = 4;
/// Whether the rows of A are read as vectors, for a grid whose rows are
/// shared by `lanesPerRow` lanes of a subgroup, of `elementBytes` elements.
/// Read as scalars, a row element shared by many lanes costs a shared-memory
/// access for a few distinct words; as vectors, four elements per access.
/// Measured on the H200 (through NVIDIA's Vulkan driver, subgroups of 32):
/// fp32 tiles gain with 16 lanes per row (128x128 tiles of 8 warps at
/// 4096^3: 24.5 -> 29.3 TFLOP/s) and lose with 8 (128x64 tiles of 4 warps:
/// 16.8 -> 14.0); fp16 tiles gain with 8 (attention, 128x64 blocks of 4
/// warps, HEAD_DIM 128: 16.5 -> 23.9). B's columns stay scalar: neighbouring
/// lanes read neighbouring columns, and as vectors they were slower (fp32
/// 128x128 tiles: 16.2) or no faster (attention).
static bool readRowsAsVectors(int64_t lanesPerRow, int64_t subgroupSize,
                              int64_t elementBytes) {
  return lanesPerRow * 8 >= subgroupSize * elementBytes;
}

namespace {
/// The A operand [M][K] of a register-tiled matmul in workgroup memory,
/// laid out tile-major: `tiles` is [K][grid * stride], row m of step k at
/// (k, (m mod grid) * stride + m / grid). Row g of the invocation grid reads
/// its tile, rows m = g + grid * i for i < tile, at g * stride + i.
struct TileMajorOperand {
  Value tiles;
  int64_t stride;
};
} // namespace

/// The loads and stores of `alloc` when they and `matmul` are its only
/// users (what the distribution leaves of the copies that stage a matmul's
/// operand), to move to another buffer.
static std::optional<SmallVector<Operation *>>
stagingAccesses(memref::AllocOp alloc, Operation *matmul) {
  SmallVector<Operation *> accesses;
  for (Operation *user : alloc->getUsers()) {
    if (user == matmul)
      continue;
    if (!isa<memref::LoadOp, memref::StoreOp>(user))
      return std::nullopt;
    accesses.push_back(user);
  }
  return accesses;
}

/// Lays `operand`, A of `matmul` (its rows tiled by a grid of `grid`
/// invocations, `tile` rows each), out tile-major, rewriting its loads and
/// stores, when it is a workgroup buffer of 16- or 32-bit elements (not
/// emulated ones: bf16 becomes i16 later) that only they and `matmul` use
/// (what the distribution leaves of the copies that stage it). The tiles'
/// stride is padded to an odd number of vectors where workgroup memory
/// allows, so that the staging stores of neighbouring rows meet distinct
/// banks.
static std::optional<TileMajorOperand>
layOutTileMajor(RewriterBase &rewriter, Value operand, Operation *matmul,
                int64_t grid, int64_t tile, int64_t maxWorkgroupMemory) {
  auto alloc = operand.getDefiningOp<memref::AllocOp>();
  if (!alloc || tile % kTileVector)
    return std::nullopt;
  MemRefType type = alloc.getType();
  Type element = type.getElementType();
  if (!isWorkgroupMemory(type) || type.getRank() != 2 ||
      !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !(element.isF16() || element.isF32() || element.isInteger(16) ||
        element.isInteger(32)))
    return std::nullopt;
  std::optional<SmallVector<Operation *>> accesses =
      stagingAccesses(alloc, matmul);
  if (!accesses)
    return std::nullopt;
  int64_t steps = type.getDimSize(1);
  int64_t stride = tile;
  if ((tile / kTileVector) % 2 == 0) {
    int64_t padding = steps * grid * kTileVector * elementBytes(element);
    if (fitsWorkgroupMemory(alloc, padding, maxWorkgroupMemory))
      stride += kTileVector;
  }
  Location loc = alloc.getLoc();
  rewriter.setInsertionPoint(alloc);
  auto tiles = memref::AllocOp::create(
      rewriter, loc,
      MemRefType::get({steps, grid * stride}, element, nullptr,
                      type.getMemorySpace()),
      alloc.getAlignmentAttr());
  for (Operation *access : *accesses) {
    rewriter.setInsertionPoint(access);
    auto load = dyn_cast<memref::LoadOp>(access);
    ValueRange indices =
        load ? load.getIndices() : cast<memref::StoreOp>(access).getIndices();
    Value position = indices[0], step = indices[1];
    auto indexConstant = [&](int64_t value) {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    Value tileStart = arith::MulIOp::create(
        rewriter, loc,
        arith::RemUIOp::create(rewriter, loc, position, indexConstant(grid)),
        indexConstant(stride));
    Value moved = arith::AddIOp::create(
        rewriter, loc, tileStart,
        arith::DivUIOp::create(rewriter, loc, position, indexConstant(grid)));
    if (load)
      rewriter.replaceOpWithNewOp<memref::LoadOp>(load, tiles,
                                                  ValueRange{step, moved});
    else
      rewriter.replaceOpWithNewOp<memref::StoreOp>(
          access, cast<memref::StoreOp>(access).getValueToStore(), tiles,
          ValueRange{step, moved});
  }
  return TileMajorOperand{tiles, stride};
}

/// Bytes a cooperative-matrix operand's rows are padded by: a 16x16
/// fragment reads 16 rows of 32 bytes, and rows a multiple of 128 bytes
/// apart all start at the same bank.
static constexpr int64_t kFragmentRowPadding = 16;

/// `operand` (a workgroup buffer that only its staging loads and stores and
/// `matmul` use: stagingAccesses) with rows padded by kFragmentRowPadding
/// bytes, where its rows are longer than a fragment's and workgroup memory
/// allows: its accesses rewritten, `matmul` reading a view of the padded
/// rows and the old buffer erased. Else `operand`.
static Value padFragmentRows(RewriterBase &rewriter, Value operand,
                             Operation *matmul, int64_t maxWorkgroupMemory) {
  auto alloc = operand.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return operand;
  MemRefType type = alloc.getType();
  if (!isWorkgroupMemory(type) || type.getRank() != 2 ||
      !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !type.getElementType().isIntOrFloat())
    return operand;
  int64_t bytes = elementBytes(type.getElementType());
  int64_t columns = type.getDimSize(1);
  if (columns <= kCooperativeMatrixSize || kFragmentRowPadding % bytes)
    return operand;
  std::optional<SmallVector<Operation *>> accesses =
      stagingAccesses(alloc, matmul);
  if (!accesses)
    return operand;
  int64_t padding = kFragmentRowPadding / bytes;
  if (!fitsWorkgroupMemory(alloc, type.getDimSize(0) * kFragmentRowPadding,
                           maxWorkgroupMemory))
    return operand;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(alloc);
  auto padded = memref::AllocOp::create(
      rewriter, alloc.getLoc(),
      MemRefType::get({type.getDimSize(0), columns + padding},
                      type.getElementType(), nullptr, type.getMemorySpace()),
      alloc.getAlignmentAttr());
  // Same indices: every position of the old rows is in the new ones.
  for (Operation *access : *accesses)
    rewriter.modifyOpInPlace(access, [&] {
      if (auto load = dyn_cast<memref::LoadOp>(access))
        load.getMemrefMutable().set(padded);
      else
        cast<memref::StoreOp>(access).getMemrefMutable().set(padded);
    });
  // The matmul reads the old rows within the new ones, and the old buffer
  // goes now: it must not count when the other operand asks for padding.
  auto rows = memref::SubViewOp::create(
      rewriter, alloc.getLoc(), padded,
      SmallVector<OpFoldResult>(2, rewriter.getIndexAttr(0)),
      getAsIndexOpFoldResult(rewriter.getContext(), type.getShape()),
      SmallVector<OpFoldResult>(2, rewriter.getIndexAttr(1)));
  rewriter.modifyOpInPlace(matmul,
                           [&] { matmul->replaceUsesOfWith(alloc, rows); });
  rewriter.eraseOp(alloc);
  return padded;
}

/// Accumulators one invocation keeps in registers at a time when the
/// accumulator lives in workgroup memory; larger tiles are done in chunks of
/// rows.
static constexpr int64_t kMaxAccumulators = 64;

/// The `scf.for` directly around `op` across which its accumulator can stay
/// in registers: nothing else in the loop touches the buffer (nor any alias
/// of it, nor `registers`, the private buffer that replaces it, where ops
/// distributed before have moved their accesses), and the buffer lives
/// outside the loop.
static scf::ForOp accumulationLoop(linalg::LinalgOp op, Value registers) {
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  Value acc = op.getDpsInits()[0];
  if (!loop || !acc.getDefiningOp<memref::AllocOp>() ||
      loop->isAncestor(acc.getDefiningOp()))
    return nullptr;
  for (Operation *user : acc.getUsers())
    if (user != op.getOperation() &&
        (loop->isAncestor(user) || isa<ViewLikeOpInterface>(user)))
      return nullptr;
  if (registers && llvm::any_of(registers.getUsers(), [&](Operation *user) {
        return loop->isAncestor(user);
      }))
    return nullptr;
  return loop;
}

namespace {
/// Where cooperative-matrix tiles keep their accumulators: in workgroup
/// memory (the matmul's output buffer), or as fragments in registers that
/// start as the scalar `fill` or as the fragments `initial` and end in
/// `fragments`. `lhsFragments`, where given, are A's tiles (row tile r,
/// K step s at r * steps + s) instead of its buffer.
struct FragmentAccumulator {
  Value fill;
  ArrayRef<Value> initial;
  ArrayRef<Value> lhsFragments;
  SmallVector<Value> *fragments = nullptr;
};

class MatmulDistributor {
public:
  MatmulDistributor(RewriterBase &rewriter, linalg::GenericOp op,
                    ArrayRef<Operation *> accumulationLoops)
      : rewriter(rewriter), op(op), loc(op.getLoc()), lhs(op.getDpsInputs()[0]),
        rhs(op.getDpsInputs()[1]), acc(op.getDpsInits()[0]),
        accumulationLoops(llvm::map_to_vector(
            accumulationLoops,
            [](Operation *loop) { return cast<scf::ForOp>(loop); })) {
    k = cast<MemRefType>(lhs.getType()).getDimSize(1);
  }

  /// With `registers`, the accumulator is kept there in the grid layout of
  /// `tiling` (triton_spirv.grid).
  /// A is laid out tile-major where enough lanes of a subgroup share its
  /// rows (with registers, within `shape`'s workgroup memory).
  void emitRegisterTiles(const MatmulTiling &tiling, Value invocationId,
                         Value registers, const WorkgroupShape &shape);
  /// Operands staged in workgroup memory get padded rows (padFragmentRows)
  /// within `maxWorkgroupMemory`.
  void emitCooperativeTiles(const MatmulTiling &tiling, Value subgroupId,
                            int64_t maxWorkgroupMemory,
                            FragmentAccumulator fragments = {});

private:
  Value indexConstant(int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  /// `first + step * index` for each index in [from, from + count).
  SmallVector<Value> stridedIndices(Value first, int64_t step, Value from,
                                    int64_t count);
  /// Loads the accumulators of tile position (i, j) for all rows i and
  /// columns j, updates them with `reduce` and stores them back. With
  /// accumulation loops, the loads go before the outermost and the stores
  /// after it, and the values are carried through them instead; the
  /// insertion point must then be before the outermost loop, where the
  /// indices are defined. Leaves the insertion point after the update.
  void accumulate(ArrayRef<Value> rows, ArrayRef<Value> cols,
                  function_ref<Value(size_t, size_t)> load,
                  function_ref<void(Value, size_t, size_t)> store,
                  function_ref<SmallVector<Value>(ValueRange)> reduce);

  RewriterBase &rewriter;
  linalg::GenericOp op;
  Location loc;
  Value lhs, rhs, acc;
  /// Outermost first; the matmul is directly in the last.
  SmallVector<scf::ForOp> accumulationLoops;
  int64_t k;
};
} // namespace

/// `first + step * index` for each index in [from, from + count).
static SmallVector<Value> stridedValues(RewriterBase &rewriter, Location loc,
                                        Value first, int64_t step, Value from,
                                        int64_t count) {
  auto indexConstant = [&](int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; ++i) {
    Value index = arith::AddIOp::create(rewriter, loc, from, indexConstant(i));
    Value offset =
        arith::MulIOp::create(rewriter, loc, index, indexConstant(step));
    values.push_back(arith::AddIOp::create(rewriter, loc, first, offset));
  }
  return values;
}

SmallVector<Value> MatmulDistributor::stridedIndices(Value first, int64_t step,
                                                     Value from,
                                                     int64_t count) {
  return stridedValues(rewriter, loc, first, step, from, count);
}

FragmentOrigins triton_spirv::fragmentOrigins(RewriterBase &rewriter,
                                              Location loc,
                                              const MatmulTiling &tiling,
                                              Value subgroupId) {
  auto indexConstant = [&](int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value gridN = indexConstant(tiling.gridN);
  Value zero = indexConstant(0);
  Value tileRow0 = arith::DivUIOp::create(rewriter, loc, subgroupId, gridN);
  Value tileCol0 = arith::RemUIOp::create(rewriter, loc, subgroupId, gridN);
  constexpr int64_t size = kCooperativeMatrixSize;
  return {stridedValues(rewriter, loc,
                        arith::MulIOp::create(rewriter, loc, tileRow0,
                                              indexConstant(size)),
                        tiling.gridM * size, zero, tiling.tileM),
          stridedValues(rewriter, loc,
                        arith::MulIOp::create(rewriter, loc, tileCol0,
                                              indexConstant(size)),
                        tiling.gridN * size, zero, tiling.tileN)};
}

void MatmulDistributor::accumulate(
    ArrayRef<Value> rows, ArrayRef<Value> cols,
    function_ref<Value(size_t, size_t)> load,
    function_ref<void(Value, size_t, size_t)> store,
    function_ref<SmallVector<Value>(ValueRange)> reduce) {
  auto storeAll = [&](ValueRange values) {
    for (auto [index, value] : llvm::enumerate(values))
      store(value, index / cols.size(), index % cols.size());
  };
  if (!accumulationLoops.empty())
    gpu::BarrierOp::create(rewriter, loc);
  SmallVector<Value> initial;
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < cols.size(); ++j)
      initial.push_back(load(i, j));
  if (accumulationLoops.empty()) {
    storeAll(reduce(initial));
    return;
  }
  // Each loop carries the values from the one around it (the outermost from
  // before it) and yields what the one inside it (the matmul, innermost)
  // computed.
  SmallVector<unsigned> firsts;
  ValueRange carried = initial;
  for (scf::ForOp &loop : accumulationLoops) {
    FailureOr<LoopLikeOpInterface> extended = loop.replaceWithAdditionalYields(
        rewriter, carried, /*replaceInitOperandUsesInLoop=*/false,
        [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
          return SmallVector<Value>(args.begin(), args.end());
        });
    // scf.for always accepts more loop-carried values.
    loop = cast<scf::ForOp>(extended->getOperation());
    firsts.push_back(loop.getNumRegionIterArgs() - initial.size());
    carried = loop.getRegionIterArgs().drop_front(firsts.back());
  }
  rewriter.setInsertionPoint(op);
  SmallVector<Value> updated = reduce(carried);
  for (auto [level, loop] : llvm::enumerate(llvm::reverse(accumulationLoops))) {
    unsigned first = firsts[firsts.size() - 1 - level];
    Operation *yield = loop.getBody()->getTerminator();
    rewriter.modifyOpInPlace(yield, [&] {
      for (auto [index, value] : llvm::enumerate(updated))
        yield->setOperand(first + index, value);
    });
    updated = SmallVector<Value>(loop.getResults().drop_front(first));
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfter(accumulationLoops.front());
  gpu::BarrierOp::create(rewriter, loc);
  storeAll(updated);
  gpu::BarrierOp::create(rewriter, loc);
}

void MatmulDistributor::emitRegisterTiles(const MatmulTiling &tiling,
                                          Value invocationId, Value registers,
                                          const WorkgroupShape &shape) {
  // Chunks of rows small enough to keep their accumulators in registers;
  // accumulators stay in registers across a loop only without chunks. An
  // accumulator that lives in registers anyway is done whole.
  int64_t chunkRows =
      registers ? tiling.tileM
                : std::max<int64_t>(1, kMaxAccumulators / tiling.tileN);
  while (tiling.tileM % chunkRows)
    --chunkRows;
  if (chunkRows != tiling.tileM)
    accumulationLoops.clear();
  if (!accumulationLoops.empty())
    rewriter.setInsertionPoint(accumulationLoops.front());
  Value gridN = indexConstant(tiling.gridN);
  Value row0 = arith::DivUIOp::create(rewriter, loc, invocationId, gridN);
  Value col0 = arith::RemUIOp::create(rewriter, loc, invocationId, gridN);
  SmallVector<Value> cols =
      stridedIndices(col0, tiling.gridN, indexConstant(0), tiling.tileN);
  scf::ForOp chunks;
  Value firstRow = indexConstant(0);
  if (chunkRows != tiling.tileM) {
    chunks = scf::ForOp::create(rewriter, loc, indexConstant(0),
                                indexConstant(tiling.tileM / chunkRows),
                                indexConstant(1));
    rewriter.setInsertionPointToStart(chunks.getBody());
    firstRow = arith::MulIOp::create(rewriter, loc, chunks.getInductionVar(),
                                     indexConstant(chunkRows));
  }
  SmallVector<Value> rows =
      stridedIndices(row0, tiling.gridM, firstRow, chunkRows);

  // Whole tiles in registers (no chunks of rows) read A tile-major where
  // enough lanes share its rows: a subgroup's lanes (consecutive
  // invocations) share rows of the grid in runs of GN.
  // (Not where A is B too, as in tl.dot(z, z): B is read as it is.)
  std::optional<TileMajorOperand> lhsTiles;
  if (registers && chunkRows == tiling.tileM && lhs != rhs) {
    OpBuilder::InsertionGuard guard(rewriter);
    int64_t subgroup = std::max<int64_t>(shape.subgroupSize, 1);
    int64_t lanesPerRow = std::min(tiling.gridN, subgroup);
    Type element = cast<MemRefType>(lhs.getType()).getElementType();
    if (readRowsAsVectors(lanesPerRow, subgroup, elementBytes(element)))
      lhsTiles = layOutTileMajor(rewriter, lhs, op, tiling.gridM,
                                 tiling.tileM, shape.maxWorkgroupMemory);
  }
  // Row g's tile of A at `step`, as vectors (lhsTiles).
  auto readRowTile = [&](Value step) {
    SmallVector<Value> elements;
    auto vectorType = VectorType::get(
        {kTileVector}, cast<MemRefType>(lhs.getType()).getElementType());
    Value start = arith::MulIOp::create(rewriter, loc, row0,
                                        indexConstant(lhsTiles->stride));
    for (int64_t i = 0; i < chunkRows; i += kTileVector) {
      Value vector = vector::LoadOp::create(
          rewriter, loc, vectorType, lhsTiles->tiles,
          ValueRange{step, arith::AddIOp::create(rewriter, loc, start,
                                                 indexConstant(i))});
      for (int64_t lane = 0; lane < kTileVector; ++lane)
        elements.push_back(
            vector::ExtractOp::create(rewriter, loc, vector, lane));
    }
    return elements;
  };

  auto reduce = [&](ValueRange initial) -> SmallVector<Value> {
    auto steps =
        scf::ForOp::create(rewriter, loc, indexConstant(0), indexConstant(k),
                           indexConstant(1), initial);
    rewriter.setInsertionPointToStart(steps.getBody());
    Value step = steps.getInductionVar();
    SmallVector<Value> lhsElements, rhsElements;
    if (lhsTiles)
      lhsElements = readRowTile(step);
    else
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
  // Tile position (i, j) is register i * TN + j of the grid layout.
  accumulate(
      rows, cols,
      [&](size_t i, size_t j) -> Value {
        if (registers)
          return memref::LoadOp::create(rewriter, loc, registers,
                                        indexConstant(i * tiling.tileN + j));
        return memref::LoadOp::create(rewriter, loc, acc,
                                      ValueRange{rows[i], cols[j]});
      },
      [&](Value value, size_t i, size_t j) {
        if (registers)
          memref::StoreOp::create(rewriter, loc, value, registers,
                                  indexConstant(i * tiling.tileN + j));
        else
          memref::StoreOp::create(rewriter, loc, value, acc,
                                  ValueRange{rows[i], cols[j]});
      },
      reduce);
  if (chunks)
    rewriter.setInsertionPointAfter(chunks);
}

void MatmulDistributor::emitCooperativeTiles(const MatmulTiling &tiling,
                                             Value subgroupId,
                                             int64_t maxWorkgroupMemory,
                                             FragmentAccumulator fragments) {
  // One buffer may be both operands (tl.dot(z, z)): padded once, it is
  // read as both. A held as fragments is in no buffer.
  // (Padding erases the old buffer: compare before.)
  bool lhsInRegisters = !fragments.lhsFragments.empty();
  bool oneBuffer = rhs == lhs;
  Value lhsRows =
      lhsInRegisters ? lhs
                     : padFragmentRows(rewriter, lhs, op, maxWorkgroupMemory);
  Value rhsRows = oneBuffer ? lhsRows
                            : padFragmentRows(rewriter, rhs, op,
                                              maxWorkgroupMemory);
  if (!accumulationLoops.empty())
    rewriter.setInsertionPoint(accumulationLoops.front());
  auto [rows, cols] = fragmentOrigins(rewriter, loc, tiling, subgroupId);
  Value zero = indexConstant(0);
  // bf16 operands held as f16 bits: their matrices are f16 here, and the
  // multiply-adds are marked (the SPIR-V stage retypes what they multiply).
  bool bfloat16 = multipliesBFloat16Bits(op);
  auto load = [&](Value buffer, StringRef operand, Value row,
                  Value col) -> Value {
    auto type = gpu::MMAMatrixType::get(
        {kCooperativeMatrixSize, kCooperativeMatrixSize},
        cast<MemRefType>(buffer.getType()).getElementType(), operand);
    return gpu::SubgroupMmaLoadMatrixOp::create(
        rewriter, loc, type, buffer, ValueRange{row, col},
        rewriter.getIndexAttr(*rowStride(buffer)), UnitAttr());
  };

  // The multiply-adds of one K step (at `step`, the k-th), from the
  // accumulators before it.
  auto multiplyAdd = [&](ValueRange accumulators, Value step,
                         int64_t k) -> SmallVector<Value> {
    SmallVector<Value> lhsTiles, rhsTiles;
    int64_t steps = this->k / kCooperativeMatrixSize;
    for (auto [r, row] : llvm::enumerate(rows))
      lhsTiles.push_back(lhsInRegisters ? fragments.lhsFragments[r * steps + k]
                                        : load(lhsRows, "AOp", row, step));
    for (Value col : cols)
      rhsTiles.push_back(load(rhsRows, "BOp", step, col));
    SmallVector<Value> updated;
    for (auto [index, accumulator] : llvm::enumerate(accumulators)) {
      auto product = gpu::SubgroupMmaComputeOp::create(
          rewriter, loc, lhsTiles[index / cols.size()],
          rhsTiles[index % cols.size()], accumulator, UnitAttr(), UnitAttr());
      if (bfloat16)
        product->setAttr(kBFloat16MatrixAttrName, rewriter.getUnitAttr());
      updated.push_back(product);
    }
    return updated;
  };
  auto reduce = [&](ValueRange initial) -> SmallVector<Value> {
    // A's fragments are separate values: the K steps are unrolled.
    if (lhsInRegisters) {
      SmallVector<Value> accumulators(initial);
      for (int64_t step = 0; step * kCooperativeMatrixSize < k; ++step)
        accumulators = multiplyAdd(
            accumulators, indexConstant(step * kCooperativeMatrixSize), step);
      return accumulators;
    }
    auto steps =
        scf::ForOp::create(rewriter, loc, zero, indexConstant(k),
                           indexConstant(kCooperativeMatrixSize), initial);
    rewriter.setInsertionPointToStart(steps.getBody());
    scf::YieldOp::create(rewriter, loc,
                         multiplyAdd(steps.getRegionIterArgs(),
                                     steps.getInductionVar(), /*k=*/0));
    rewriter.setInsertionPointAfter(steps);
    return steps.getResults();
  };
  auto accType = gpu::MMAMatrixType::get(
      {kCooperativeMatrixSize, kCooperativeMatrixSize},
      cast<MemRefType>(acc.getType()).getElementType(), "COp");
  accumulate(
      rows, cols,
      [&](size_t i, size_t j) -> Value {
        if (fragments.fill)
          return gpu::SubgroupMmaConstantMatrixOp::create(rewriter, loc,
                                                          accType,
                                                          fragments.fill);
        if (!fragments.initial.empty())
          return fragments.initial[i * cols.size() + j];
        return load(acc, "COp", rows[i], cols[j]);
      },
      [&](Value value, size_t i, size_t j) {
        if (fragments.fragments) {
          fragments.fragments->push_back(value);
          return;
        }
        gpu::SubgroupMmaStoreMatrixOp::create(
            rewriter, loc, value, acc, ValueRange{rows[i], cols[j]},
            rewriter.getIndexAttr(*rowStride(acc)), UnitAttr());
      },
      reduce);
}

LogicalResult triton_spirv::eraseDistributedBuffer(RewriterBase &rewriter,
                                                   Value buffer,
                                                   Attribute layout,
                                                   StringRef admitted) {
  if (!buffer.use_empty())
    return buffer.user_begin()->emitError()
           << "accesses a buffer in layout " << layout << " " << admitted;
  rewriter.eraseOp(buffer.getDefiningOp());
  return success();
}

FailureOr<linalg::GenericOp> triton_spirv::asGeneric(RewriterBase &rewriter,
                                                     linalg::LinalgOp op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  return linalg::generalizeNamedOp(rewriter, op);
}

/// Erases the distributed `generic` and the operand buffers it leaves unused:
/// those laid out again (padded rows) must not count against workgroup
/// memory when the next matmul's operands ask for padding. (Fragment family
/// members are the family distributor's to erase.)
static void eraseDistributedMatmul(RewriterBase &rewriter,
                                   linalg::GenericOp generic) {
  // Once each: A may be B too. (A padded operand is read through a view
  // of its new rows, which goes with the matmul.)
  SmallVector<Operation *> oldBuffers;
  for (Value operand : generic.getDpsInputs()) {
    auto view = operand.getDefiningOp<memref::SubViewOp>();
    auto alloc = (view ? view.getSource() : operand)
                     .getDefiningOp<memref::AllocOp>();
    Operation *old = view ? view.getOperation() : alloc.getOperation();
    if (alloc && !alloc->hasAttr(kFragmentFamilyAttrName) &&
        !llvm::is_contained(oldBuffers, old))
      oldBuffers.push_back(old);
  }
  rewriter.eraseOp(generic);
  for (Operation *old : oldBuffers)
    if (old->use_empty())
      rewriter.eraseOp(old);
}

FailureOr<bool> triton_spirv::distributeMatmul(RewriterBase &rewriter,
                                               linalg::LinalgOp op,
                                               Value invocationId,
                                               const WorkgroupShape &shape,
                                               GridLayoutAttr accumulatorLayout,
                                               Value accumulatorRegisters) {
  std::optional<MatmulPlan> plan = lookupMatmulPlan(op);
  if (!plan)
    return false;
  // An accumulator in registers (a grid layout) means register tiles, in
  // its grid (the layout analysis may choose another than the plan's, to
  // agree with other matmuls).
  bool cooperative = plan->cooperativeFitsWorkgroupMemory() &&
                     !accumulatorRegisters;
  MatmulTiling tiling = plan->registerTiling;
  if (accumulatorRegisters) {
    // distribute checked that the grid tiles the accumulator.
    if (!accumulatorLayout)
      return op->emitError("the accumulator's layout is not a grid");
    ArrayRef<int64_t> grid = accumulatorLayout.getInvocations();
    ArrayRef<int64_t> accShape =
        cast<MemRefType>(op.getDpsInits()[0].getType()).getShape();
    tiling = {grid[0], grid[1], accShape[0] / grid[0], accShape[1] / grid[1]};
  }

  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> asGenericOp = asGeneric(rewriter, op);
  if (failed(asGenericOp))
    return op->emitError("cannot generalize this matmul");
  linalg::GenericOp generic = *asGenericOp;
  rewriter.setInsertionPoint(generic);
  scf::ForOp loop = accumulationLoop(generic, accumulatorRegisters);
  SmallVector<Operation *> loops;
  if (loop)
    loops.push_back(loop);
  MatmulDistributor distributor(rewriter, generic, loops);
  if (cooperative) {
    OpBuilder::InsertionGuard guard(rewriter);
    if (loop)
      rewriter.setInsertionPoint(loop);
    Value subgroupId =
        gpu::SubgroupIdOp::create(rewriter, generic.getLoc(), nullptr);
    rewriter.setInsertionPoint(generic);
    distributor.emitCooperativeTiles(*plan->cooperativeTiling, subgroupId,
                                     shape.maxWorkgroupMemory);
  } else {
    distributor.emitRegisterTiles(tiling, invocationId, accumulatorRegisters,
                                  shape);
  }
  rewriter.setInsertionPointAfter(generic);
  eraseDistributedMatmul(rewriter, generic);
  return true;
}

/// The subgroups' tiles of an accumulator of `type` in `layout`.
static MatmulTiling fragmentTiling(FragmentsLayoutAttr layout,
                                   MemRefType type) {
  ArrayRef<int64_t> grid = layout.getSubgroups();
  return {grid[0], grid[1], type.getDimSize(0) / (grid[0] * kFragmentSize),
          type.getDimSize(1) / (grid[1] * kFragmentSize)};
}

/// Replaces `op` by its subgroups' cooperative tiles of `tiling`, carried
/// through `loops` (outermost first, the matmul directly in the last),
/// starting from and ending in fragments as `accumulator` says; the
/// subgroup's index is `subgroupId`, or one made before the loops.
static FailureOr<SmallVector<Value>>
emitFragmentTiles(RewriterBase &rewriter, linalg::LinalgOp op,
                  const WorkgroupShape &shape, const MatmulTiling &tiling,
                  ArrayRef<Operation *> loops, Value subgroupId,
                  FragmentAccumulator accumulator) {
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generic = asGeneric(rewriter, op);
  if (failed(generic))
    return op->emitError("cannot generalize this matmul");
  if (!subgroupId) {
    rewriter.setInsertionPoint(loops.empty() ? generic->getOperation()
                                             : loops.front());
    subgroupId =
        gpu::SubgroupIdOp::create(rewriter, generic->getLoc(), nullptr);
  }
  rewriter.setInsertionPoint(*generic);
  SmallVector<Value> fragments;
  accumulator.fragments = &fragments;
  MatmulDistributor(rewriter, *generic, loops)
      .emitCooperativeTiles(tiling, subgroupId, shape.maxWorkgroupMemory,
                            accumulator);
  eraseDistributedMatmul(rewriter, *generic);
  return fragments;
}

FailureOr<SmallVector<Value>> triton_spirv::distributeMatmulOnFragments(
    RewriterBase &rewriter, linalg::LinalgOp op, const WorkgroupShape &shape,
    FragmentsLayoutAttr layout, Value fill, Block *fillBlock) {
  auto accType = cast<MemRefType>(op.getDpsInits()[0].getType());
  std::optional<MatmulPlan> plan = lookupMatmulPlan(op);
  std::optional<SmallVector<Operation *>> loops =
      fragmentLoops(op, fillBlock);
  if (!plan || !plan->cooperativeTiling || !layout.tiles(accType.getShape()) ||
      !loops)
    return op->emitError("a matmul accumulating into a buffer in layout ")
           << layout << " must have the cooperative-matrix form, be tiled "
           << "by the layout and sit in loops below its accumulator's fill";
  return emitFragmentTiles(rewriter, op, shape,
                           fragmentTiling(layout, accType), *loops, Value(),
                           {fill, {}, {}, nullptr});
}

FailureOr<SmallVector<Value>> triton_spirv::distributeMatmulOnFragmentValues(
    RewriterBase &rewriter, linalg::LinalgOp op, const WorkgroupShape &shape,
    FragmentsLayoutAttr layout, Value subgroupId, ArrayRef<Value> initial,
    ArrayRef<Value> lhsFragments) {
  auto accType = cast<MemRefType>(op.getDpsInits()[0].getType());
  std::optional<MatmulPlan> plan = lookupMatmulPlan(op);
  if (!plan || !plan->cooperativeTiling || !layout.tiles(accType.getShape()))
    return op->emitError("a matmul accumulating into a buffer in layout ")
           << layout << " must have the cooperative-matrix form and be "
           << "tiled by the layout";
  return emitFragmentTiles(rewriter, op, shape,
                           fragmentTiling(layout, accType), {}, subgroupId,
                           {Value(), initial, lhsFragments, nullptr});
}
