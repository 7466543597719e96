//===- FuseElementwise.cpp - Element-wise fusion with cheap recompute -----===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Analysis/MatmulPlan.h"
#include "triton-spirv/Conversion/ParallelGeneric.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// The most ops a fused op may have when a producer with other uses is fused
/// into it. Linalg's fusion then keeps the producer's results as results of
/// the fused op, so without a bound one op can absorb a whole integer
/// network (a sort's compare-and-swap stages), growing without end.
constexpr size_t kMaxOpsFusingSharedProducer = 64;

/// Whether recomputing `producer` in each consumer costs less than keeping
/// its result in workgroup memory: only integer/index arithmetic, compares,
/// casts (bitcasts too) and selects, no memory access and no floating-point
/// math.
bool isCheapToRecompute(linalg::GenericOp producer) {
  for (Operation &op : producer.getBody()->without_terminator()) {
    if (isa<linalg::IndexOp, arith::ConstantOp, arith::IndexCastOp,
            arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp, arith::CmpIOp, arith::SelectOp, arith::AndIOp,
            arith::OrIOp, arith::XOrIOp, arith::BitcastOp>(op))
      continue;
    if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op) &&
        isa<IndexType, IntegerType>(op.getResult(0).getType()))
      continue;
    return false;
  }
  return true;
}

/// Whether `producer` only moves data: its body yields its inputs, at most
/// through bitcasts (the swaps of --triton-recognize-pair-swaps).
bool onlyMovesData(linalg::GenericOp producer) {
  return llvm::all_of(producer.getBody()->without_terminator(),
                      [](Operation &op) { return isa<arith::BitcastOp>(op); });
}

/// Whether `use` is a linalg op's read other than element by element at its
/// own loop position, a projection of it or a broadcast (a mirrored read,
/// `1 - d`, of a pair swap).
bool readsAcrossElements(OpOperand &use) {
  auto reader = dyn_cast<linalg::LinalgOp>(use.getOwner());
  return reader && !reader.getMatchingIndexingMap(&use).isProjectedPermutation(
                       /*allowZeroInResults=*/true);
}

/// Whether some linalg op reads `value` across elements: it then needs the
/// value materialized, so recomputing it elsewhere only adds work. Sorting
/// networks read each stage both ways; recomputing a stage into the next
/// would repeat the whole network in every stage.
bool isReadAcrossElements(Value value) {
  return llvm::any_of(value.getUses(), readsAcrossElements);
}

/// Whether `op` or an op in its regions writes memory (a store or an atomic
/// in a generic's body). Element-wise fusion clones the producer into the
/// consumer but keeps the original, which is not dead because of the write:
/// the store or atomic would then run twice (an atomic's second run returns
/// the value its first run wrote).
bool writesMemory(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    return !isa<MemoryEffects::Read>(e.getEffect());
  });
}

/// `tensor + scalar`, element-wise.
Value addScalar(OpBuilder &builder, Location loc, Value tensor, Value scalar) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Value init = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                       type.getElementType());
  AffineMap identity = builder.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             builder, loc, type, tensor, init,
             ArrayRef<AffineMap>{identity, identity}, iterators,
             [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
               Value sum = arith::AddIOp::create(b, bodyLoc, args[0], scalar);
               linalg::YieldOp::create(b, bodyLoc, sum);
             })
      .getResult(0);
}

/// An `scf.for` iter-arg tensor that each iteration advances by one value for
/// all elements, as Triton's pointer blocks `ptrs += BLOCK_K * stride` are:
///   %next = linalg.generic ins(%iter, %s...) { addi %in, f(%s...) }
/// where `f` only reads scalar operands. Carrying the tensor forces it into
/// workgroup memory; carrying the accumulated scalar instead leaves the loop
/// an invariant tensor plus a scalar, which fuses into the tensor's users.
struct UniformIncrement {
  unsigned position;
  linalg::GenericOp step;
  arith::AddIOp add;
  Value increment; // The value added, in the step's body.
};

/// The splat value of a tensor constant, else null.
TypedAttr splatValue(Value value) {
  SplatElementsAttr splat;
  if (!matchPattern(value, m_Constant(&splat)))
    return {};
  return splat.getSplatValue<TypedAttr>();
}

/// Whether an input of a generic has one value for all elements.
bool isSplatOrScalar(Value value) {
  return !isa<ShapedType>(value.getType()) || splatValue(value);
}

/// Whether fusing the producer of `fused` into its consumer would leave the
/// consumer, a generic with no results (a store), without a shaped operand
/// once splat constants are folded into its body (MLIR's folding of them
/// takes no control function): its loop bounds would be lost. This is the
/// store of a constant block, `tl.store(p + offsets, tl.zeros(...))`, whose
/// offsets come from an index computation that reads no tensor. Refusing
/// the last such fusion keeps that operand (computed per element by the
/// same invocation that stores it, so it stays in registers).
bool leavesNoShapedOperand(OpOperand *fused) {
  auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
  auto producer = fused->get().getDefiningOp<linalg::GenericOp>();
  if (!consumer || !producer || consumer.getNumResults() != 0)
    return false;
  for (OpOperand &other : consumer->getOpOperands())
    if (&other != fused && !isSplatOrScalar(other.get()))
      return false;
  return llvm::all_of(producer.getDpsInputs(), isSplatOrScalar);
}

std::optional<UniformIncrement> matchUniformIncrement(scf::ForOp loop,
                                                      unsigned position) {
  BlockArgument iterArg = loop.getRegionIterArgs()[position];
  auto type = dyn_cast<RankedTensorType>(iterArg.getType());
  if (!type || !type.hasStaticShape() ||
      !isa<IndexType, IntegerType>(type.getElementType()))
    return std::nullopt;
  auto step =
      loop.getYieldedValues()[position].getDefiningOp<linalg::GenericOp>();
  if (!step || step->getParentOp() != loop || step.getNumResults() != 1 ||
      step.getNumDpsInits() != 1 ||
      step.getNumParallelLoops() != step.getNumLoops() ||
      !step.getIndexingMapsArray().back().isIdentity())
    return std::nullopt;
  Block *body = step.getBody();
  auto add = dyn_cast_or_null<arith::AddIOp>(
      body->getTerminator()->getOperand(0).getDefiningOp());
  if (!add || add->getBlock() != body)
    return std::nullopt;
  // One operand is the iter-arg's element, the other depends only on scalar
  // inputs of the step.
  for (unsigned side = 0; side < 2; ++side) {
    auto element = dyn_cast<BlockArgument>(add->getOperand(side));
    Value increment = add->getOperand(1 - side);
    if (!element || element.getOwner() != body ||
        element.getArgNumber() >= step.getNumDpsInputs())
      continue;
    OpOperand *input = step.getDpsInputOperand(element.getArgNumber());
    if (input->get() != iterArg ||
        !step.getMatchingIndexingMap(input).isIdentity())
      continue;
    // Values of the body that are the same for all elements.
    auto isUniform = [&](Value value) {
      auto arg = dyn_cast<BlockArgument>(value);
      if (!arg || arg.getOwner() != body)
        return true;
      return arg != element && arg.getArgNumber() < step.getNumDpsInputs() &&
             isSplatOrScalar(
                 step.getDpsInputOperand(arg.getArgNumber())->get());
    };
    bool uniform = isUniform(increment);
    for (Operation &op : body->without_terminator()) {
      if (&op == add)
        continue;
      if (!isPure(&op) || op.getNumRegions() != 0 || isa<linalg::IndexOp>(op))
        uniform = false;
      uniform &= llvm::all_of(op.getOperands(), isUniform);
    }
    if (uniform)
      return UniformIncrement{position, step, add, increment};
  }
  return std::nullopt;
}

/// Computes the step's increment as a scalar at `builder`'s insertion point.
Value cloneIncrement(OpBuilder &builder, UniformIncrement match) {
  IRMapping mapping;
  Block *body = match.step.getBody();
  for (OpOperand *input : match.step.getDpsInputOperands()) {
    Value scalar = input->get();
    if (TypedAttr splat = splatValue(scalar))
      scalar = arith::ConstantOp::create(builder, scalar.getLoc(), splat);
    if (!isa<ShapedType>(scalar.getType()))
      mapping.map(body->getArgument(input->getOperandNumber()), scalar);
  }
  for (Operation &op : body->without_terminator())
    if (&op != match.add.getOperation())
      builder.clone(op, mapping);
  return mapping.lookupOrDefault(match.increment);
}

struct CarryUniformIncrementAsScalar : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    std::optional<UniformIncrement> match;
    for (unsigned position = 0;
         position < loop.getNumRegionIterArgs() && !match; ++position)
      match = matchUniformIncrement(loop, position);
    if (!match)
      return rewriter.notifyMatchFailure(loop, "no uniformly advanced tensor");
    unsigned position = match->position;
    Location loc = match->step.getLoc();
    Type elementType =
        cast<RankedTensorType>(loop.getRegionIterArgs()[position].getType())
            .getElementType();
    rewriter.setInsertionPoint(loop);
    Value zero = arith::getZeroConstant(rewriter, loc, elementType);
    FailureOr<LoopLikeOpInterface> replaced =
        cast<LoopLikeOpInterface>(loop.getOperation())
            .replaceWithAdditionalYields(
                rewriter, zero, /*replaceInitOperandUsesInLoop=*/false,
                [&](OpBuilder &builder, Location,
                    ArrayRef<BlockArgument> args) {
                  Value increment = cloneIncrement(builder, *match);
                  return SmallVector<Value>{
                      arith::AddIOp::create(builder, loc, args[0], increment)};
                });
    if (failed(replaced))
      return failure();
    auto newLoop = cast<scf::ForOp>(replaced->getOperation());
    BlockArgument tensorArg = newLoop.getRegionIterArgs()[position];
    BlockArgument offsetArg = newLoop.getRegionIterArgs().back();
    // The tensor is now loop-invariant: yield it unchanged and rebase its
    // users, inside the loop and after it, on the carried offset.
    rewriter.setInsertionPointToStart(newLoop.getBody());
    Value inside = addScalar(rewriter, loc, tensorArg, offsetArg);
    rewriter.replaceAllUsesExcept(tensorArg, inside, inside.getDefiningOp());
    auto yield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
    rewriter.modifyOpInPlace(yield,
                             [&] { yield->setOperand(position, tensorArg); });
    rewriter.setInsertionPointAfter(newLoop);
    Value result = newLoop.getResult(position);
    Value after = addScalar(rewriter, loc, result, newLoop.getResults().back());
    rewriter.replaceAllUsesExcept(result, after, after.getDefiningOp());
    return success();
  }
};

/// A store (a generic with no results) whose shaped operands are all splat
/// constants would lose them all to MLIR's constant folding, and with them
/// its loop bounds: its first one becomes a generic that fills a tensor with
/// the value, which the fusion control above keeps as an operand. Runs
/// before the folding (higher benefit), also when loop canonicalization
/// turns an operand into a constant midway.
struct KeepOneShapedOperand : OpRewritePattern<linalg::GenericOp> {
  KeepOneShapedOperand(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(linalg::GenericOp store,
                                PatternRewriter &rewriter) const override {
    if (store.getNumResults() != 0 ||
        !llvm::all_of(store->getOperands(), isSplatOrScalar))
      return rewriter.notifyMatchFailure(store, "not a store of constants");
    for (OpOperand &operand : store->getOpOperands()) {
      TypedAttr splat = splatValue(operand.get());
      if (!splat)
        continue;
      auto type = cast<RankedTensorType>(operand.get().getType());
      Location loc = store.getLoc();
      Value scalar = arith::ConstantOp::create(rewriter, loc, splat);
      Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                           type.getElementType());
      // As a generic, so that it fuses like the rest.
      FailureOr<linalg::GenericOp> filled = linalg::generalizeNamedOp(
          rewriter, linalg::FillOp::create(rewriter, loc, scalar, init));
      if (failed(filled))
        return failure();
      rewriter.modifyOpInPlace(store,
                               [&] { operand.set(filled->getResult(0)); });
      return success();
    }
    return rewriter.notifyMatchFailure(store, "no shaped operand");
  }
};

/// An element-wise generic that only moves data (bit casts), reading the
/// result of an `scf.if` it alone uses, moves into both branches, where it
/// fuses with what each yields. A bf16 matmul's operands are bit cast to
/// f16 (--triton-spirv-bfloat16-cooperative-operands) after the run-time
/// versions of their loads; in the branches the casts join the loads, and
/// the operands are staged as f16, as fp16 ones are.
struct SinkDataMovementIntoBranches : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 1 || op.getNumResults() != 1 ||
        !op.hasPureTensorSemantics() || !onlyMovesData(op) ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !llvm::all_of(op.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); }))
      return rewriter.notifyMatchFailure(op, "not an element-wise move");
    // The body uses its own values only, so that its clones in the
    // branches use nothing defined after them.
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    if (!captured.empty())
      return rewriter.notifyMatchFailure(op, "body uses outside values");
    Value input = op.getDpsInputs()[0];
    auto branch = input.getDefiningOp<scf::IfOp>();
    if (!branch || !input.hasOneUse() || branch->getBlock() != op->getBlock())
      return rewriter.notifyMatchFailure(op, "input not from a branch");
    auto type = cast<RankedTensorType>(op.getResultTypes()[0]);
    if (!op.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>() ||
        !type.hasStaticShape() || type.getEncoding())
      return rewriter.notifyMatchFailure(
          op, "init is not a static tensor.empty");
    // The branch's result is only the generic's input: each branch yields
    // the generic of what it yielded, and the result takes its type.
    unsigned position = cast<OpResult>(input).getResultNumber();
    for (Block *block : {branch.thenBlock(), branch.elseBlock()}) {
      auto yield = cast<scf::YieldOp>(block->getTerminator());
      rewriter.setInsertionPoint(yield);
      IRMapping mapping;
      mapping.map(input, yield.getOperand(position));
      mapping.map(op.getDpsInits()[0],
                  triton_spirv::emptyLike(rewriter, op.getLoc(), type));
      Operation *clone = rewriter.clone(*op, mapping);
      rewriter.modifyOpInPlace(yield, [&] {
        yield.setOperand(position, clone->getResult(0));
      });
    }
    rewriter.modifyOpInPlace(branch, [&] { input.setType(type); });
    rewriter.replaceOp(op, input);
    return success();
  }
};

struct FuseElementwisePass
    : triton_spirv::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // Fills, broadcasts and transposes fuse once they are generics.
    IRRewriter rewriter(context);
    getOperation()->walk([&](Operation *op) {
      if (!isa<linalg::FillOp, linalg::BroadcastOp, linalg::TransposeOp,
               linalg::MapOp, linalg::CopyOp>(op))
        return;
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, cast<linalg::LinalgOp>(op));
    });
    RewritePatternSet patterns(context);
    linalg::ControlFusionFn control = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      if (!producer || writesMemory(producer) || leavesNoShapedOperand(fused))
        return false;
      // The operands of a matmul of bf16 bits stay f16 blocks, which
      // cooperative matrices load.
      auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
      if (consumer && triton_spirv::multipliesBFloat16Bits(consumer))
        return false;
      // A read across elements (a pair swap) of a computed block would
      // compute it at the partner's position, and the stages of a sorting
      // network would pull every earlier stage into every later one; only
      // data movement (bitcasts, other swaps) composes into such a read.
      if (readsAcrossElements(*fused)) {
        auto generic = dyn_cast<linalg::GenericOp>(producer);
        return generic && onlyMovesData(generic);
      }
      if (producer->hasOneUse())
        return true;
      auto generic = dyn_cast<linalg::GenericOp>(producer);
      auto consumerGeneric = dyn_cast<linalg::GenericOp>(fused->getOwner());
      if (!generic || !consumerGeneric)
        return false;
      if (isReadAcrossElements(fused->get()))
        return onlyMovesData(generic);
      return isCheapToRecompute(generic) &&
             generic.getBody()->getOperations().size() +
                     consumerGeneric.getBody()->getOperations().size() <=
                 kMaxOpsFusingSharedProducer;
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    patterns.add<CarryUniformIncrementAsScalar, KeepOneShapedOperand,
                 SinkDataMovementIntoBranches>(context);
    scf::ForOp::getCanonicalizationPatterns(patterns, context);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::EmptyOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
