//===- ChunkMatmulReduction.cpp - Stage matmul operands by chunks of K ----===//
//
// A matmul C += A * B of M x K and K x N blocks becomes
//
//   for k0 in 0..K step KC:
//     C += A[:, k0:k0+KC] * B[k0:k0+KC, :]
//
// with the producers of A and B (the element-wise loads of the tiles, also
// under the scf.if of a wrapped load) computed a chunk at a time inside the
// loop, so that only chunks are ever staged in workgroup memory. Batched
// matmuls (3-D dots) are chunked alike, along K for all batches; a block
// loaded flat and reshaped into their operand is loaded in the operand's
// shape instead (reshapes folded into the load by expansion), so that its
// chunks are loads too.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "triton-spirv/Analysis/FragmentFamilies.h"
#include "triton-spirv/Analysis/MatmulPlan.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_CHUNKMATMULREDUCTION
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// The smallest chunk: a cooperative-matrix step is 16 deep.
constexpr int64_t kMinChunk = 16;
/// The smallest chunk of a batched matmul, which invocations compute: any
/// depth would do, and shallower chunks save little memory for more steps.
constexpr int64_t kMinBatchedChunk = 4;
/// The most A fragments a subgroup holds across a loop (4 registers each on
/// NVIDIA): more would crowd out the accumulators.
constexpr int64_t kMaxHeldTiles = 8;
/// The most chunks a held operand is loaded in: the loop that loads them is
/// unrolled (fragment families unroll loops of at most 8 steps).
constexpr int64_t kMaxHeldChunks = 8;
/// The most fragments of the matmul's result per subgroup where A is held.
/// Attention's scores in 8 or more (BLOCK_KV 128, or 64 over 2 row tiles)
/// hold registers enough already: held queries made 5 of the 6 such
/// configurations 11-16% slower on an H100 (benchmarks/README.md).
constexpr int64_t kMaxHeldResultTiles = 4;

class MatmulChunker {
public:
  explicit MatmulChunker(RewriterBase &rewriter) : rewriter(rewriter) {}

  /// Rewrites `op` into a loop over chunks of `chunk` reduction steps.
  /// `lhsHeld`: A's chunks are views of the whole A (held as fragments),
  /// neither computed again nor copied.
  void chunk(linalg::LinalgOp op, int64_t chunk, bool lhsHeld);

  /// Makes `op`'s left operand a block of its own, assembled right after
  /// the operand by a loop over chunks of `chunk` columns, each computed by
  /// the operand's producer and inserted: the fragment family loads the
  /// block into fragments a chunk at a time, so only a chunk is ever
  /// staged.
  void holdLeftOperand(linalg::LinalgOp op, int64_t chunk);

private:
  /// The slice [offsets, offsets + sizes) of `value`, computed at the
  /// insertion point: by a tile of its producer when that is element-wise
  /// and `exclusive` (nothing else uses the value; looking through scf.if),
  /// else sliced from it.
  Value slice(Value value, bool exclusive, ArrayRef<OpFoldResult> offsets,
              ArrayRef<OpFoldResult> sizes);
  /// The same slice computed from `value`'s producer (a tile of it, of a
  /// transpose, a reshape or a branch), or null where that is not done.
  Value sliceOfProducer(Value value, bool exclusive,
                        ArrayRef<OpFoldResult> offsets,
                        ArrayRef<OpFoldResult> sizes);
  /// The slice of a tensor.collapse_shape result, as the collapse of a slice
  /// of its source; null where the slice does not map to one box.
  Value sliceCollapsed(tensor::CollapseShapeOp collapse, bool exclusive,
                       ArrayRef<OpFoldResult> offsets,
                       ArrayRef<OpFoldResult> sizes);
  /// The slice of a tensor.expand_shape result that adds unit dimensions.
  Value sliceExpanded(tensor::ExpandShapeOp expand, bool exclusive,
                      ArrayRef<OpFoldResult> offsets,
                      ArrayRef<OpFoldResult> sizes);
  /// Computes the inputs of a freshly tiled `tiled` (slices of the whole
  /// inputs of `original`) from their producers too, where those are used by
  /// `original` alone: chains of element-wise ops and reshapes are chunked
  /// whole.
  void fuseInputProducers(Operation *original, Operation *tiled,
                          bool exclusive);

  RewriterBase &rewriter;
};
} // namespace

/// The type of a chunk of `sizes` (constants) of the tensor `value`.
static RankedTensorType chunkType(Value value, ArrayRef<OpFoldResult> sizes) {
  return RankedTensorType::get(*getConstantIntValues(sizes),
                               getElementTypeOrSelf(value));
}

/// Whether `op` loads a tile from memory, element by element (with the
/// address arithmetic and conversions fused into it): computing a chunk of it
/// again costs a read more, not repeated work.
static bool isGenerator(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return false;
  WalkResult loads =
      op->walk([](memref::LoadOp) { return WalkResult::interrupt(); });
  return loads.wasInterrupted();
}

/// Whether each branch of `branch` yields, as result `index`, a load.
static bool yieldsGenerators(scf::IfOp branch, unsigned index) {
  return branch.elseBlock() &&
         llvm::all_of(branch->getRegions(), [&](Region &region) {
           return isGenerator(region.front()
                                  .getTerminator()
                                  ->getOperand(index)
                                  .getDefiningOp());
         });
}

Value MatmulChunker::sliceOfProducer(Value value, bool exclusive,
                                     ArrayRef<OpFoldResult> offsets,
                                     ArrayRef<OpFoldResult> sizes) {
  Location loc = value.getLoc();
  auto result = dyn_cast<OpResult>(value);
  Operation *producer = result ? result.getOwner() : nullptr;
  if (!producer)
    return {};
  // A block that other ops use too is computed a chunk at a time only when
  // that repeats no work: a tile loaded again, or a chunk transposed again
  // (the whole block, which the other users keep, stays).
  if (!exclusive && !isGenerator(producer) &&
      !isa<linalg::TransposeOp>(producer)) {
    auto branch = dyn_cast<scf::IfOp>(producer);
    if (!branch || !yieldsGenerators(branch, result.getResultNumber()))
      return {};
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(producer))
    return sliceCollapsed(collapse, exclusive, offsets, sizes);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(producer))
    return sliceExpanded(expand, exclusive, offsets, sizes);
  // The chunk of a transposed block is the transpose of the matching chunk
  // of its input (a copy of the chunk, not of the whole block).
  if (auto transpose = dyn_cast<linalg::TransposeOp>(producer)) {
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    SmallVector<int64_t> inverse = invertPermutationVector(permutation);
    Value input = transpose.getInput();
    Value inputChunk = slice(input, exclusive && input.hasOneUse(),
                             applyPermutation(offsets, inverse),
                             applyPermutation(sizes, inverse));
    Value init = tensor::EmptyOp::create(rewriter, loc, sizes,
                                         getElementTypeOrSelf(value));
    return linalg::TransposeOp::create(rewriter, loc, inputChunk, init,
                                       permutation)
        .getResult()[0];
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(producer);
  if (auto tileable = dyn_cast<TilingInterface>(producer);
      tileable && linalgOp &&
      linalgOp.getNumParallelLoops() == linalgOp.getNumLoops()) {
    FailureOr<TilingResult> tile = tileable.generateResultTileValue(
        rewriter, result.getResultNumber(), offsets, sizes);
    if (failed(tile))
      return {};
    for (Operation *tiled : tile->tiledOps)
      fuseInputProducers(producer, tiled, exclusive);
    return tile->tiledValues.front();
  }
  if (auto branch = dyn_cast<scf::IfOp>(producer);
      branch && branch.elseBlock()) {
    // The branches are cloned with the chunk of this result as theirs.
    unsigned index = result.getResultNumber();
    auto chunked =
        scf::IfOp::create(rewriter, loc, TypeRange{chunkType(value, sizes)},
                          branch.getCondition(),
                          /*withElseRegion=*/true);
    for (auto [from, to] :
         {std::pair{branch.thenBlock(), chunked.thenBlock()},
          std::pair{branch.elseBlock(), chunked.elseBlock()}}) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(to);
      IRMapping mapping;
      for (Operation &op : from->without_terminator())
        rewriter.clone(op, mapping);
      // Each clone is used by the new yield only, like its original (when
      // the original if has no other users).
      Value yielded = from->getTerminator()->getOperand(index);
      scf::YieldOp::create(rewriter, loc,
                           slice(mapping.lookupOrDefault(yielded),
                                 exclusive && yielded.hasOneUse(), offsets,
                                 sizes));
    }
    return chunked.getResult(0);
  }
  return {};
}

Value MatmulChunker::sliceCollapsed(tensor::CollapseShapeOp collapse,
                                    bool exclusive,
                                    ArrayRef<OpFoldResult> offsets,
                                    ArrayRef<OpFoldResult> sizes) {
  Location loc = collapse.getLoc();
  ArrayRef<int64_t> sourceShape = collapse.getSrcType().getShape();
  SmallVector<OpFoldResult> sourceOffsets, sourceSizes;
  for (auto [dim, group] :
       llvm::enumerate(collapse.getReassociationIndices())) {
    std::optional<int64_t> size = getConstantIntValue(sizes[dim]);
    if (group.size() == 1) {
      sourceOffsets.push_back(offsets[dim]);
      sourceSizes.push_back(sizes[dim]);
      continue;
    }
    // All of the merged dimensions (the batches of a batched matmul).
    int64_t whole = 1;
    for (int64_t d : group)
      whole *= sourceShape[d];
    if (size == whole && isConstantIntValue(offsets[dim], 0)) {
      for (int64_t d : group) {
        sourceOffsets.push_back(rewriter.getIndexAttr(0));
        sourceSizes.push_back(rewriter.getIndexAttr(sourceShape[d]));
      }
      continue;
    }
    // Two merged dimensions, outer x inner: a chunk of whole inner rows, or
    // a part of one row (the chunks start at multiples of their size).
    if (group.size() != 2 || !size)
      return {};
    int64_t inner = sourceShape[group[1]];
    AffineExpr d0 = rewriter.getAffineDimExpr(0);
    OpFoldResult outerOffset = affine::makeComposedFoldedAffineApply(
        rewriter, loc, d0.floorDiv(inner), {offsets[dim]});
    if (*size % inner == 0) {
      sourceOffsets.append({outerOffset, rewriter.getIndexAttr(0)});
      sourceSizes.append(
          {rewriter.getIndexAttr(*size / inner), rewriter.getIndexAttr(inner)});
    } else if (inner % *size == 0) {
      sourceOffsets.append(
          {outerOffset, affine::makeComposedFoldedAffineApply(
                            rewriter, loc, d0 % inner, {offsets[dim]})});
      sourceSizes.append({rewriter.getIndexAttr(1), sizes[dim]});
    } else {
      return {};
    }
  }
  Value source = collapse.getSrc();
  Value chunk = slice(source, exclusive && source.hasOneUse(), sourceOffsets,
                      sourceSizes);
  return tensor::CollapseShapeOp::create(rewriter, loc, chunk,
                                         collapse.getReassociationIndices());
}

Value MatmulChunker::sliceExpanded(tensor::ExpandShapeOp expand, bool exclusive,
                                   ArrayRef<OpFoldResult> offsets,
                                   ArrayRef<OpFoldResult> sizes) {
  ArrayRef<int64_t> shape = expand.getResultType().getShape();
  SmallVector<OpFoldResult> sourceOffsets, sourceSizes;
  for (ReassociationIndices group : expand.getReassociationIndices()) {
    // Each source dimension becomes itself and unit dimensions.
    auto kept = llvm::find_if(group, [&](int64_t d) { return shape[d] != 1; });
    int64_t dim = kept == group.end() ? group.front() : *kept;
    if (llvm::count_if(group, [&](int64_t d) { return shape[d] != 1; }) > 1)
      return {};
    sourceOffsets.push_back(offsets[dim]);
    sourceSizes.push_back(sizes[dim]);
  }
  Value source = expand.getSrc();
  Value chunk = slice(source, exclusive && source.hasOneUse(), sourceOffsets,
                      sourceSizes);
  return tensor::ExpandShapeOp::create(rewriter, expand.getLoc(),
                                       chunkType(expand.getResult(), sizes),
                                       chunk, expand.getReassociationIndices());
}

void MatmulChunker::fuseInputProducers(Operation *original, Operation *tiled,
                                       bool exclusive) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(tiled);
  if (!linalgOp)
    return;
  for (OpOperand *operand : linalgOp.getDpsInputOperands()) {
    auto extract = operand->get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!extract || !extract.hasUnitStride() ||
        extract.getSourceType().getRank() != extract.getType().getRank())
      continue;
    Value source = extract.getSource();
    bool sourceExclusive =
        exclusive && llvm::all_of(source.getUsers(), [&](Operation *user) {
          return user == original || user == extract;
        });
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(extract);
    if (Value chunk =
            sliceOfProducer(source, sourceExclusive, extract.getMixedOffsets(),
                            extract.getMixedSizes()))
      rewriter.replaceOp(extract, chunk);
  }
}

Value MatmulChunker::slice(Value value, bool exclusive,
                           ArrayRef<OpFoldResult> offsets,
                           ArrayRef<OpFoldResult> sizes) {
  if (Value chunk = sliceOfProducer(value, exclusive, offsets, sizes))
    return chunk;
  Location loc = value.getLoc();
  SmallVector<OpFoldResult> strides(offsets.size(), rewriter.getIndexAttr(1));
  Value chunk = tensor::ExtractSliceOp::create(rewriter, loc, value, offsets,
                                               sizes, strides);
  if (!isa<OpResult>(value))
    return chunk;
  // A computed block (another matmul's result, say) is copied chunk by chunk
  // into a block of its own, so that the whole can stay where its
  // computation put it (in registers) rather than be read as an operand.
  // (A copying allocation: canonicalization folds a linalg.copy into an
  // empty tensor away.)
  return bufferization::AllocTensorOp::create(
      rewriter, loc, cast<RankedTensorType>(chunk.getType()),
      /*dynamicSizes=*/ValueRange{}, /*copy=*/chunk);
}

void MatmulChunker::chunk(linalg::LinalgOp op, int64_t chunk,
                          bool lhsHeld) {
  Location loc = op.getLoc();
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
  Value acc = op.getDpsInits()[0];
  ArrayRef<int64_t> lhsShape = cast<RankedTensorType>(lhs.getType()).getShape();
  ArrayRef<int64_t> rhsShape = cast<RankedTensorType>(rhs.getType()).getShape();
  // K is A's last dimension and B's next to last (after any batch one).
  unsigned lhsK = lhsShape.size() - 1, rhsK = rhsShape.size() - 2;
  rewriter.setInsertionPoint(op);
  auto loop = scf::ForOp::create(
      rewriter, loc, arith::ConstantIndexOp::create(rewriter, loc, 0),
      arith::ConstantIndexOp::create(rewriter, loc, lhsShape[lhsK]),
      arith::ConstantIndexOp::create(rewriter, loc, chunk), ValueRange{acc});
  rewriter.setInsertionPointToStart(loop.getBody());
  OpFoldResult k0 = loop.getInductionVar();
  auto chunkBox = [&](ArrayRef<int64_t> shape, unsigned kDim) {
    SmallVector<OpFoldResult> offsets(shape.size(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(rewriter.getContext(), shape);
    offsets[kDim] = k0;
    sizes[kDim] = rewriter.getIndexAttr(chunk);
    return std::pair{offsets, sizes};
  };
  auto [lhsOffsets, lhsSizes] = chunkBox(lhsShape, lhsK);
  auto [rhsOffsets, rhsSizes] = chunkBox(rhsShape, rhsK);
  Value lhsChunk =
      lhsHeld ? tensor::ExtractSliceOp::create(
                    rewriter, loc, lhs, lhsOffsets, lhsSizes,
                    SmallVector<OpFoldResult>(lhsShape.size(),
                                              rewriter.getIndexAttr(1)))
                    .getResult()
              : slice(lhs, lhs.hasOneUse(), lhsOffsets, lhsSizes);
  Value rhsChunk = slice(rhs, rhs.hasOneUse(), rhsOffsets, rhsSizes);
  // Operands are set by position: A and B may be the same value.
  auto chunked = cast<linalg::LinalgOp>(rewriter.clone(*op));
  rewriter.modifyOpInPlace(chunked, [&] {
    chunked.getDpsInputOperand(0)->set(lhsChunk);
    chunked.getDpsInputOperand(1)->set(rhsChunk);
    chunked.getDpsInitOperand(0)->set(loop.getRegionIterArgs().front());
  });
  scf::YieldOp::create(rewriter, loc, chunked->getResults());
  rewriter.replaceOp(op, loop.getResults());
}

void MatmulChunker::holdLeftOperand(linalg::LinalgOp op, int64_t chunk) {
  OpOperand &operand = *op.getDpsInputOperand(0);
  Value lhs = operand.get();
  Location loc = lhs.getLoc();
  auto type = cast<RankedTensorType>(lhs.getType());
  rewriter.setInsertionPointAfterValue(lhs);
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value).getResult();
  };
  auto loop = scf::ForOp::create(rewriter, loc, index(0),
                                 index(type.getDimSize(1)), index(chunk),
                                 ValueRange{init});
  rewriter.setInsertionPointToStart(loop.getBody());
  SmallVector<OpFoldResult> offsets{rewriter.getIndexAttr(0),
                                    loop.getInductionVar()};
  SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(type.getDimSize(0)),
                                  rewriter.getIndexAttr(chunk)};
  SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
  Value part = slice(lhs, lhs.hasOneUse(), offsets, sizes);
  scf::YieldOp::create(
      rewriter, loc,
      tensor::InsertSliceOp::create(rewriter, loc, part,
                                    loop.getRegionIterArgs().front(), offsets,
                                    sizes, strides)
          .getResult());
  rewriter.modifyOpInPlace(op, [&] { operand.set(loop.getResult(0)); });
}

/// A reshape of an empty tensor of static shape is an empty tensor (the
/// init of a producer that a reshape folded into, whose chunks must be
/// empty chunks too).
template <typename ReshapeOp>
struct EmptyReshape : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern<ReshapeOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getResultType();
    if (!op.getSrc().template getDefiningOp<tensor::EmptyOp>() ||
        !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not a static empty reshape");
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type.getShape(),
                                                 type.getElementType());
    return success();
  }
};

/// Whether `op` only moves its one input's elements (a transpose).
static bool movesElements(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && generic.getNumDpsInputs() == 1 &&
         generic.getNumParallelLoops() == generic.getNumLoops() &&
         generic.getBody()->getTerminator()->getOperand(0) ==
             generic.getBody()->getArgument(0);
}

/// The reshapes between the operands of the batched matmuls among `ops`
/// and the ops that compute them, through reshapes and transposes.
static DenseSet<Operation *>
reshapesBehindOperands(ArrayRef<std::pair<linalg::LinalgOp, int64_t>> ops) {
  DenseSet<Operation *> reshapes;
  SmallVector<Value> worklist;
  for (auto [op, chunk] : ops)
    if (isa<linalg::BatchMatmulOp>(op))
      llvm::append_range(worklist, op.getDpsInputs());
  while (!worklist.empty()) {
    Operation *producer = worklist.pop_back_val().getDefiningOp();
    if (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
            producer)) {
      if (reshapes.insert(producer).second)
        worklist.push_back(producer->getOperand(0));
      continue;
    }
    if (movesElements(producer))
      worklist.push_back(producer->getOperand(0));
  }
  return reshapes;
}

namespace {
struct ChunkMatmulReductionPass
    : triton_spirv::impl::ChunkMatmulReductionBase<ChunkMatmulReductionPass> {
  using Base::Base;

  /// A block loaded flat and reshaped into a chunked operand (tl.reshape of
  /// a 1-D load) has no chunks that are boxes of the flat block: the
  /// reshapes fold into the element-wise ops that produce them, which then
  /// compute the block in the operand's shape.
  LogicalResult loadReshapedOperandsInShape(
      ArrayRef<std::pair<linalg::LinalgOp, int64_t>> work) {
    DenseSet<Operation *> reshapes = reshapesBehindOperands(work);
    if (reshapes.empty())
      return success();
    DenseSet<Operation *> matmuls;
    for (auto [op, chunk] : work)
      matmuls.insert(op);
    RewritePatternSet patterns(&getContext());
    // A reshape folds into the op that produces it, or into an element-wise
    // op (a transpose) that consumes it; the matmuls stay as they are.
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [&](OpOperand *fused) {
          return !matmuls.contains(fused->getOwner()) &&
                 (reshapes.contains(fused->getOwner()) ||
                  reshapes.contains(fused->get().getDefiningOp()));
        });
    return applyPatternsGreedily(getOperation(), std::move(patterns));
  }

  /// Whether `op`'s left operand is f16 computed by element-wise ops from
  /// the result of another matmul of the same block, of rows that whole
  /// tiles of `rowTile` cover: with cooperative-matrix2 it stays that
  /// matmul's fragments, converted (the fragment families' conditions).
  static bool leftOperandIsFragments(linalg::LinalgOp op, int64_t rowTile) {
    Value lhs = op.getDpsInputs()[0];
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    if (!lhsType.getElementType().isF16() ||
        lhsType.getDimSize(0) % rowTile)
      return false;
    SmallVector<Value> worklist{lhs};
    llvm::SmallDenseSet<Value> seen;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      auto producer = value.getDefiningOp<linalg::LinalgOp>();
      if (!producer || producer->getBlock() != op->getBlock())
        continue;
      if (triton_spirv::isStaticMatmul(producer))
        return true;
      if (isa<linalg::GenericOp>(producer) &&
          producer.getNumParallelLoops() == producer.getNumLoops())
        for (Value input : producer.getDpsInputs())
          if (isa<RankedTensorType>(input.getType()))
            worklist.push_back(input);
    }
    return false;
  }

  /// Whether `op`'s result feeds, through element-wise ops of its block, a
  /// reduction of its rows (a fragment family's anchor: attention's scores
  /// and their row maximum).
  static bool resultReducedByRows(linalg::LinalgOp op) {
    SmallVector<Value> worklist(op->getResults());
    llvm::SmallDenseSet<Value> seen;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      for (Operation *user : value.getUsers()) {
        if (user->getBlock() != op->getBlock())
          continue;
        if (auto reduce = dyn_cast<linalg::ReduceOp>(user);
            reduce && reduce.getDimensions() == ArrayRef<int64_t>{1})
          return true;
        auto generic = dyn_cast<linalg::GenericOp>(user);
        if (generic &&
            generic.getNumParallelLoops() == generic.getNumLoops())
          llvm::append_range(worklist, generic->getResults());
      }
    }
    return false;
  }

  /// The columns staged at a time (0: not held) of `op`'s left operand
  /// where it is an f16 block of a loop around it (the queries of
  /// attention), used by it alone, that its subgroups can hold as A
  /// fragments across the loop: whole 16-row tiles per subgroup, at most
  /// kMaxHeldTiles of them and kMaxHeldResultTiles of the result, with its
  /// result a fragment family's (reduced by rows). It is loaded before the
  /// loop a chunk at a time (heldStagingChunk).
  int64_t heldLeftOperandChunk(linalg::LinalgOp op, int64_t rowTile) const {
    Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());
    auto accType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
    auto loop = op->getParentOfType<scf::ForOp>();
    if (!loop || !loop.isDefinedOutsideOfLoop(lhs) || !lhs.hasOneUse() ||
        !lhsType.getElementType().isF16() ||
        !rhsType.getElementType().isF16() ||
        !accType.getElementType().isF32())
      return 0;
    int64_t rows = lhsType.getDimSize(0), k = lhsType.getDimSize(1);
    int64_t subgroups = workgroupSize / std::max(1u, unsigned(subgroupSize));
    if (rows % rowTile || k % kMinChunk || rhsType.getDimSize(1) % kMinChunk)
      return 0;
    int64_t tiles = rows / (subgroups * kMinChunk) * (k / kMinChunk);
    int64_t resultTiles =
        rows / (subgroups * kMinChunk) * (rhsType.getDimSize(1) / kMinChunk);
    int64_t chunk = heldStagingChunk(rows, k);
    // The staging of a chunk fits a sixth of workgroup memory.
    bool held = tiles <= kMaxHeldTiles && resultTiles <= kMaxHeldResultTiles &&
                chunk &&
                6 * rows * chunk * 2 <= int64_t(maxWorkgroupMemory) &&
                resultReducedByRows(op);
    return held ? chunk : 0;
  }

  /// The columns of an f16 held operand of `rows` x `k` staged at a time
  /// (0: none fit): at most kMaxHeldChunks chunks, each as wide as a twelfth
  /// of workgroup memory allows, so that the staging stays small next to
  /// the loop's (on NVIDIA, a workgroup of more than 24 KiB leaves room for
  /// one per multiprocessor).
  int64_t heldStagingChunk(int64_t rows, int64_t k) const {
    int64_t chunk = kMinChunk;
    auto canDouble = [&] { return chunk * 2 <= k && k % (chunk * 2) == 0; };
    while (k / chunk > kMaxHeldChunks && canDouble())
      chunk *= 2;
    while (canDouble() &&
           rows * (chunk * 2) * 2 <= int64_t(maxWorkgroupMemory) / 12)
      chunk *= 2;
    return k / chunk <= kMaxHeldChunks ? chunk : 0;
  }

  // The workgroup's facts (triton_spirv::lookupTarget), read by
  // runOnOperation for the helpers.
  unsigned workgroupSize = 0, subgroupSize = 0;
  int64_t maxWorkgroupMemory = 0;
  bool cooperativeMatrix2 = false;

  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    const triton_spirv::WorkgroupShape &shape = target->workgroup;
    workgroupSize = shape.workgroupSize;
    subgroupSize = shape.subgroupSize;
    maxWorkgroupMemory = shape.maxWorkgroupMemory;
    cooperativeMatrix2 = shape.cooperativeMatrix2;
    if (maxWorkgroupMemory == 0)
      return;
    // The matmuls of one loop body have their operands staged at the same
    // time: together they get a third of workgroup memory, which leaves room
    // for the rest of the kernel's blocks. (Half, where one multiplies
    // another's fragments, was measured slower for attention on an H100:
    // fewer, larger stagings, 92.0 -> 64.0 TFLOP/s at N_CTX 4096. So were
    // a loop-invariant operand staged once, whole, and chunks taken in
    // pairs of buffers, which halves the barriers: each took attention's
    // 4-warp workgroups past 24 KiB, where NVIDIA runs one per
    // multiprocessor instead of two; benchmarks/README.md.)
    SmallVector<linalg::LinalgOp> matmuls;
    DenseMap<Operation *, int64_t> matmulsPerParent;
    getOperation().walk([&](linalg::LinalgOp op) {
      // Matmuls and batched matmuls (3-D dots) of static shapes.
      bool batched = isa<linalg::BatchMatmulOp>(op) && !op.hasDynamicShape();
      if (!(triton_spirv::isStaticMatmul(op) || batched) ||
          !op.hasPureTensorSemantics())
        return;
      matmuls.push_back(op);
      ++matmulsPerParent[op->getParentOp()];
    });
    SmallVector<std::pair<linalg::LinalgOp, int64_t>> work;
    int64_t rowTile = triton_spirv::fragmentFamilyRowTile(
        {workgroupSize, subgroupSize});
    // Held operands take no workgroup memory in the loop: their chunks are
    // staged before it, in memory the loop's stagings take over.
    // (Held matmuls, with the columns of A staged at a time.)
    llvm::MapVector<Operation *, int64_t> held;
    if (cooperativeMatrix2)
      for (linalg::LinalgOp op : matmuls)
        if (!isa<linalg::BatchMatmulOp>(op))
          if (int64_t chunk = heldLeftOperandChunk(op, rowTile))
            held[op] = chunk;
    for (linalg::LinalgOp op : matmuls) {
      int64_t budget =
          maxWorkgroupMemory / (3 * matmulsPerParent.lookup(op->getParentOp()));
      auto lhsType = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
      auto rhsType = cast<RankedTensorType>(op.getDpsInputs()[1].getType());
      int64_t k = lhsType.getShape().back();
      bool fragmentFamily = cooperativeMatrix2 &&
                            !isa<linalg::BatchMatmulOp>(op);
      // Bytes of A and B per step of K.
      int64_t lhsBytes =
          fragmentFamily && leftOperandIsFragments(op, rowTile)
              ? 0
              : lhsType.getNumElements() / k *
                    triton_spirv::elementBytes(lhsType.getElementType());
      int64_t rhsBytes = rhsType.getNumElements() / k *
                         triton_spirv::elementBytes(rhsType.getElementType());
      // The deepest chunk whose `bytesPerStep` fit `limit` (K: no chunks).
      auto chunkFor = [&](int64_t bytesPerStep, int64_t limit) {
        if (k * bytesPerStep <= limit)
          return k;
        int64_t chunk =
            isa<linalg::BatchMatmulOp>(op) ? kMinBatchedChunk : kMinChunk;
        while (chunk * 2 < k && k % (chunk * 2) == 0 &&
               chunk * 2 * bytesPerStep <= limit)
          chunk *= 2;
        return chunk;
      };
      int64_t chunk = chunkFor(lhsBytes + rhsBytes, budget);
      // A held operand is staged before the loop, so B's chunks may grow
      // into A's share of the budget (fewer barriers). Not in workgroups of
      // up to 4 subgroups: their fragment families run two to a
      // multiprocessor on NVIDIA where each takes at most 24 KiB of
      // workgroup memory, which is worth more than the barriers (measured,
      // benchmarks/README.md), so there B takes no more than A and B took.
      // (Larger workgroups run one at a time for their registers.)
      if (held.count(op))
        chunk = chunkFor(rhsBytes, workgroupSize <= 4 * subgroupSize
                                       ? chunk * (lhsBytes + rhsBytes)
                                       : budget);
      if (chunk < k && k % chunk == 0)
        work.push_back({op, chunk});
    }
    if (work.empty() && held.empty())
      return;
    if (failed(loadReshapedOperandsInShape(work)))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    MatmulChunker chunker(rewriter);
    for (auto [op, chunk] : held)
      chunker.holdLeftOperand(cast<linalg::LinalgOp>(op), chunk);
    for (auto [op, chunk] : work)
      chunker.chunk(op, chunk, held.count(op));
    // The chunks of the producers' tensor.empty inits become empty chunks,
    // so that bufferization allocates chunks, not views of whole blocks.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorEmptyPatterns(patterns);
    patterns.add<EmptyReshape<tensor::ExpandShapeOp>,
                 EmptyReshape<tensor::CollapseShapeOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
