//===- StructuredMemory.cpp - Block loads and stores as strided views -----===//
//
// Pointer analysis. A block of pointers built from a pointer argument as
//
//   splat(p + scalar) + sum over dimensions d of (index along d) * stride_d
//
// (make_range, splat, expand_dims, broadcast, trans, reshapes that split or
// merge nested dimensions, addi/subi, muli by a uniform value, constants)
// addresses a strided box of the argument's buffer. A load
// or store through it becomes a memref.reinterpret_cast view of the buffer
// and one whole-block copy. A mask that is a conjunction of `index < bound`
// comparisons (after expand_dims/broadcast, as in `(rows < M)[:, None] &
// (cols < N)[None, :]`) limits the copy to a rectangular subview; `other`
// fills the rest of a loaded block.
//
// A block carried by an scf.for and advanced by the same uniform steps in
// every iteration (`ptrs += BLOCK_K * stride`) is its entry block moved by
// (iterations so far) * step.
//
// A load whose block wraps around along one dimension (`(start + arange) %
// M`, the matmul tutorial's rows) is two copies, split at the wrap, under a
// run-time check that it wraps at most once.
//
// Everything else (gathers through loaded indices, wrapped stores, masks of
// other shapes) is left to --triton-pointers-to-memref, which accepts any
// pointer arithmetic.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONSTRUCTUREDMEMORY
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// `scale * ((start + i_dim) mod modulus)`: the wrap-around of the matmul
/// tutorial's `(pid * BLOCK + arange(BLOCK)) % M`.
struct Wrap {
  unsigned dim;
  OpFoldResult start, modulus, scale;
};

/// A block of integers (or element offsets) that is an affine function of
/// the element's indices, plus at most one wrapped term:
/// value[i] = offset + sum_d i_d * strides[d] (+ wrap).
struct AffineBlock {
  OpFoldResult offset;
  SmallVector<OpFoldResult> strides;
  std::optional<Wrap> wrap;

  bool isUniform() const {
    return !wrap && llvm::all_of(strides, [](OpFoldResult stride) {
      return isConstantIntValue(stride, 0);
    });
  }
  /// The one dimension along which the block varies, in unit steps.
  std::optional<unsigned> unitDimension() const {
    std::optional<unsigned> varying;
    for (auto [dim, stride] : llvm::enumerate(strides)) {
      if (isConstantIntValue(stride, 0))
        continue;
      if (varying || !isConstantIntValue(stride, 1))
        return std::nullopt;
      varying = dim;
    }
    return wrap ? std::nullopt : varying;
  }
};

/// Builds the analysis' index arithmetic, folding constants.
class IndexBuilder {
public:
  IndexBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  OpFoldResult constant(int64_t value) { return b.getIndexAttr(value); }
  Value value(OpFoldResult ofr) {
    return getValueOrCreateConstantIndexOp(b, loc, ofr);
  }
  OpFoldResult add(OpFoldResult x, OpFoldResult y) {
    return apply<arith::AddIOp>(x, y);
  }
  OpFoldResult sub(OpFoldResult x, OpFoldResult y) {
    return apply<arith::SubIOp>(x, y);
  }
  OpFoldResult mul(OpFoldResult x, OpFoldResult y) {
    return apply<arith::MulIOp>(x, y);
  }
  OpFoldResult min(OpFoldResult x, OpFoldResult y) {
    return apply<arith::MinSIOp>(x, y);
  }
  OpFoldResult max(OpFoldResult x, OpFoldResult y) {
    return apply<arith::MaxSIOp>(x, y);
  }
  OpFoldResult divide(OpFoldResult x, OpFoldResult y) {
    return apply<arith::DivSIOp>(x, y);
  }
  OpFoldResult remainder(OpFoldResult x, OpFoldResult y) {
    return apply<arith::RemSIOp>(x, y);
  }
  /// An integer scalar as an index.
  OpFoldResult fromInteger(Value scalar) {
    return getAsOpFoldResult(
        b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), scalar));
  }

private:
  /// The op's result, or the constant it folds to as an attribute (so that
  /// views get static strides).
  template <typename OpT> OpFoldResult apply(OpFoldResult x, OpFoldResult y) {
    return getAsOpFoldResult(b.createOrFold<OpT>(loc, value(x), value(y)));
  }

  OpBuilder &b;
  Location loc;
};

class StructuredAccess {
public:
  StructuredAccess(OpBuilder &b, Location loc) : b(b), index(b, loc) {}

  FailureOr<AffineBlock> analyzeIntegers(Value value);
  FailureOr<AffineBlock> analyzePointers(Value value);
  /// Per dimension, how many leading positions the mask keeps.
  FailureOr<SmallVector<OpFoldResult>> analyzeMask(Value mask);

private:
  FailureOr<OpFoldResult> scalarPointerOffset(Value pointer);
  FailureOr<AffineBlock> analyzeLoopCarried(BlockArgument pointers);
  /// The shape ops shared by pointers, integers and masks.
  FailureOr<AffineBlock>
  analyzeShapeOp(Operation *def,
                 function_ref<FailureOr<AffineBlock>(Value)> analyze);
  FailureOr<AffineBlock> reshapeAffine(const AffineBlock &block,
                                       ArrayRef<int64_t> from,
                                       ArrayRef<int64_t> to);

  OpBuilder &b;
  IndexBuilder index;
};

FailureOr<AffineBlock> StructuredAccess::analyzeShapeOp(
    Operation *def, function_ref<FailureOr<AffineBlock>(Value)> analyze) {
  if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    FailureOr<AffineBlock> src = analyze(expand.getSrc());
    if (failed(src))
      return failure();
    src->strides.insert(src->strides.begin() + expand.getAxis(),
                        index.constant(0));
    if (src->wrap && src->wrap->dim >= expand.getAxis())
      ++src->wrap->dim;
    return src;
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(def)) {
    FailureOr<AffineBlock> src = analyze(broadcast.getSrc());
    if (failed(src))
      return failure();
    // A broadcast dimension reads position 0 of the source everywhere.
    auto srcShape = cast<RankedTensorType>(broadcast.getSrc().getType());
    auto dstShape = cast<RankedTensorType>(broadcast.getType());
    for (unsigned dim = 0; dim < src->strides.size(); ++dim) {
      if (srcShape.getDimSize(dim) == dstShape.getDimSize(dim))
        continue;
      if (src->wrap && src->wrap->dim == dim)
        return failure();
      src->strides[dim] = index.constant(0);
    }
    return src;
  }
  if (auto trans = dyn_cast<TransOp>(def)) {
    FailureOr<AffineBlock> src = analyze(trans.getSrc());
    if (failed(src))
      return failure();
    // Dimension d of the result is dimension order[d] of the source.
    AffineBlock permuted{src->offset, {}, src->wrap};
    for (auto [dim, from] : llvm::enumerate(trans.getOrder())) {
      permuted.strides.push_back(src->strides[from]);
      if (src->wrap && src->wrap->dim == static_cast<unsigned>(from))
        permuted.wrap->dim = dim;
    }
    return permuted;
  }
  if (auto reshape = dyn_cast<ReshapeOp>(def)) {
    FailureOr<AffineBlock> src = analyze(reshape.getSrc());
    if (failed(src) || src->wrap)
      return failure();
    return reshapeAffine(*src, reshape.getSrc().getType().getShape(),
                         reshape.getType().getShape());
  }
  return failure();
}

/// The strides of `block` (over `from`) read in the row-major order of
/// `to` (a reshape keeps linear positions), where the reshape only splits
/// or merges dimensions whose strides nest (a make_range reshaped: `arange(0,
/// M * N).reshape(M, N)` has strides [N, 1]).
FailureOr<AffineBlock>
StructuredAccess::reshapeAffine(const AffineBlock &block,
                                ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  // Groups of consecutive dimensions with equal extents on both sides
  // (getReassociationIndicesForReshape takes pure expansions or collapses
  // only; a reshape may split and merge within one group).
  AffineBlock result{block.offset, {}, std::nullopt};
  unsigned f = 0, t = 0;
  while (f < from.size() || t < to.size()) {
    // One dimension from each side that has any left, then more from the
    // side with the smaller extent until the extents match.
    unsigned fromEnd = f, toEnd = t;
    int64_t fromSize = 1, toSize = 1;
    if (fromEnd < from.size())
      fromSize *= from[fromEnd++];
    if (toEnd < to.size())
      toSize *= to[toEnd++];
    while (fromSize != toSize) {
      if (fromSize < toSize && fromEnd < from.size())
        fromSize *= from[fromEnd++];
      else if (toSize < fromSize && toEnd < to.size())
        toSize *= to[toEnd++];
      else
        return failure();
    }
    // Within the group the value moves by `step` per linear position: each
    // source dimension's stride is `step` times the extent after it.
    std::optional<OpFoldResult> step;
    int64_t after = 1;
    for (unsigned dim = fromEnd; dim-- > f;) {
      if (from[dim] != 1) {
        OpFoldResult stride = block.strides[dim];
        if (!step) {
          step = stride;
        } else {
          std::optional<int64_t> expected = getConstantIntValue(*step);
          std::optional<int64_t> actual = getConstantIntValue(stride);
          if (!expected || !actual || *actual != *expected * after)
            return failure();
        }
      }
      after *= from[dim];
    }
    after = 1;
    SmallVector<OpFoldResult> strides(toEnd - t);
    for (unsigned dim = toEnd; dim-- > t;) {
      strides[dim - t] = step ? index.mul(*step, index.constant(after))
                              : index.constant(0);
      after *= to[dim];
    }
    llvm::append_range(result.strides, strides);
    f = fromEnd;
    t = toEnd;
  }
  return result;
}

FailureOr<AffineBlock> StructuredAccess::analyzeIntegers(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  Operation *def = value.getDefiningOp();
  if (!type || !def || !isa<IntegerType>(type.getElementType()))
    return failure();
  unsigned rank = type.getRank();
  auto uniform = [&](OpFoldResult offset) {
    return AffineBlock{offset,
                       SmallVector<OpFoldResult>(rank, index.constant(0))};
  };
  if (auto range = dyn_cast<MakeRangeOp>(def))
    return AffineBlock{index.constant(range.getStart()), {index.constant(1)}};
  if (auto splat = dyn_cast<SplatOp>(def))
    return uniform(index.fromInteger(splat.getSrc()));
  DenseIntElementsAttr constant;
  if (matchPattern(value, m_Constant(&constant)) && constant.isSplat())
    return uniform(
        index.constant(constant.getSplatValue<APInt>().getSExtValue()));
  if (isa<arith::ExtSIOp>(def))
    return analyzeIntegers(def->getOperand(0));
  if (auto remainder = dyn_cast<arith::RemSIOp>(def)) {
    // (start + i_d) mod M, with i_d along one dimension in unit steps.
    FailureOr<AffineBlock> lhs = analyzeIntegers(remainder.getLhs());
    FailureOr<AffineBlock> rhs = analyzeIntegers(remainder.getRhs());
    if (failed(lhs) || failed(rhs) || !rhs->isUniform())
      return failure();
    std::optional<unsigned> dim = lhs->unitDimension();
    if (!dim)
      return failure();
    AffineBlock wrapped = uniform(index.constant(0));
    wrapped.wrap = Wrap{*dim, lhs->offset, rhs->offset, index.constant(1)};
    return wrapped;
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    FailureOr<AffineBlock> lhs = analyzeIntegers(def->getOperand(0));
    FailureOr<AffineBlock> rhs = analyzeIntegers(def->getOperand(1));
    if (failed(lhs) || failed(rhs))
      return failure();
    AffineBlock result;
    if (isa<arith::MulIOp>(def)) {
      // Only a uniform factor keeps the block affine.
      if (!lhs->isUniform())
        std::swap(lhs, rhs);
      if (!lhs->isUniform())
        return failure();
      result.offset = index.mul(lhs->offset, rhs->offset);
      for (OpFoldResult stride : rhs->strides)
        result.strides.push_back(index.mul(lhs->offset, stride));
      result.wrap = rhs->wrap;
      if (result.wrap)
        result.wrap->scale = index.mul(lhs->offset, result.wrap->scale);
      return result;
    }
    bool subtract = isa<arith::SubIOp>(def);
    // At most one wrapped term, added.
    if ((lhs->wrap && rhs->wrap) || (subtract && rhs->wrap))
      return failure();
    result.wrap = lhs->wrap ? lhs->wrap : rhs->wrap;
    auto combine = [&](OpFoldResult x, OpFoldResult y) {
      return subtract ? index.sub(x, y) : index.add(x, y);
    };
    result.offset = combine(lhs->offset, rhs->offset);
    for (auto [x, y] : llvm::zip(lhs->strides, rhs->strides))
      result.strides.push_back(combine(x, y));
    return result;
  }
  return analyzeShapeOp(def, [&](Value src) { return analyzeIntegers(src); });
}

FailureOr<OpFoldResult> StructuredAccess::scalarPointerOffset(Value pointer) {
  if (auto cast = pointer.getDefiningOp<UnrealizedConversionCastOp>())
    if (triton_spirv::isPointerRootCast(cast))
      return OpFoldResult(cast.getOperands().back());
  if (auto addPtr = pointer.getDefiningOp<AddPtrOp>()) {
    FailureOr<OpFoldResult> base = scalarPointerOffset(addPtr.getPtr());
    if (failed(base))
      return failure();
    return index.add(*base, index.fromInteger(addPtr.getOffset()));
  }
  return failure();
}

/// `value` if it is defined outside `loop`; if it is computed inside the loop
/// by pure ops from values defined outside (the same in every
/// iteration), a copy of that computation placed before the loop; else null.
static Value hoistInvariant(Value value, scf::ForOp loop, IRMapping &hoisted) {
  if (loop.isDefinedOutsideOfLoop(value))
    return value;
  if (Value copy = hoisted.lookupOrNull(value))
    return copy;
  // Speculatable too: the loop may run no iteration.
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumRegions() != 0 || !isPure(def))
    return {};
  for (Value operand : def->getOperands())
    if (!hoistInvariant(operand, loop, hoisted))
      return {};
  OpBuilder b(loop);
  Operation *copy = b.clone(*def, hoisted);
  return copy->getResult(cast<OpResult>(value).getResultNumber());
}

/// A pointer block carried by an scf.for whose yielded value is the block
/// advanced by the same uniform addptr steps in every iteration: the entry
/// block, moved by (iterations so far) * step.
FailureOr<AffineBlock>
StructuredAccess::analyzeLoopCarried(BlockArgument pointers) {
  auto loop = dyn_cast<scf::ForOp>(pointers.getOwner()->getParentOp());
  if (!loop || pointers.getArgNumber() == 0)
    return failure();
  unsigned position = pointers.getArgNumber() - 1;
  OpFoldResult step = index.constant(0);
  Value advanced = loop.getYieldedValues()[position];
  while (advanced != pointers) {
    // Each step runs once per iteration (not under a condition) and is the
    // same in every iteration.
    auto addPtr = advanced.getDefiningOp<AddPtrOp>();
    if (!addPtr || addPtr->getBlock() != loop.getBody())
      return failure();
    // Analyzed before the loop, where it is defined for every access.
    IRMapping hoisted;
    Value offset = hoistInvariant(addPtr.getOffset(), loop, hoisted);
    if (!offset)
      return failure();
    FailureOr<AffineBlock> increment = analyzeIntegers(offset);
    if (failed(increment) || !increment->isUniform())
      return failure();
    step = index.add(step, increment->offset);
    advanced = addPtr.getPtr();
  }
  FailureOr<AffineBlock> entry = analyzePointers(loop.getInitArgs()[position]);
  if (failed(entry))
    return failure();
  auto asIndex = [&](Value v) { return index.fromInteger(v); };
  OpFoldResult done =
      index.sub(asIndex(loop.getInductionVar()), asIndex(loop.getLowerBound()));
  OpFoldResult iterations = index.divide(done, asIndex(loop.getStep()));
  entry->offset = index.add(entry->offset, index.mul(iterations, step));
  return entry;
}

FailureOr<AffineBlock> StructuredAccess::analyzePointers(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (auto arg = dyn_cast<BlockArgument>(value); arg && type)
    return analyzeLoopCarried(arg);
  Operation *def = value.getDefiningOp();
  if (!type || !def)
    return failure();
  if (auto splat = dyn_cast<SplatOp>(def)) {
    FailureOr<OpFoldResult> offset = scalarPointerOffset(splat.getSrc());
    if (failed(offset))
      return failure();
    return AffineBlock{
        *offset, SmallVector<OpFoldResult>(type.getRank(), index.constant(0))};
  }
  if (auto addPtr = dyn_cast<AddPtrOp>(def)) {
    FailureOr<AffineBlock> pointers = analyzePointers(addPtr.getPtr());
    FailureOr<AffineBlock> offsets = analyzeIntegers(addPtr.getOffset());
    if (failed(pointers) || failed(offsets) ||
        (pointers->wrap && offsets->wrap))
      return failure();
    if (offsets->wrap)
      pointers->wrap = offsets->wrap;
    pointers->offset = index.add(pointers->offset, offsets->offset);
    for (auto [stride, extra] : llvm::zip(pointers->strides, offsets->strides))
      stride = index.add(stride, extra);
    return pointers;
  }
  return analyzeShapeOp(def, [&](Value src) { return analyzePointers(src); });
}

FailureOr<SmallVector<OpFoldResult>> StructuredAccess::analyzeMask(Value mask) {
  auto type = cast<RankedTensorType>(mask.getType());
  Operation *def = mask.getDefiningOp();
  if (!def)
    return failure();
  auto whole = [&]() {
    return getAsIndexOpFoldResult(b.getContext(), type.getShape());
  };
  // All or nothing, by a uniform condition.
  auto allIf = [&](Value condition) {
    Value zero = index.value(index.constant(0));
    return llvm::map_to_vector(type.getShape(), [&](int64_t size) {
      return OpFoldResult(
          arith::SelectOp::create(b, mask.getLoc(), condition,
                                  index.value(index.constant(size)), zero)
              .getResult());
    });
  };
  if (auto andOp = dyn_cast<arith::AndIOp>(def)) {
    auto lhs = analyzeMask(andOp.getLhs());
    auto rhs = analyzeMask(andOp.getRhs());
    if (failed(lhs) || failed(rhs))
      return failure();
    for (auto [x, y] : llvm::zip(*lhs, *rhs))
      x = index.min(x, y);
    return lhs;
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(def)) {
    auto src = analyzeMask(expand.getSrc());
    if (failed(src))
      return failure();
    src->insert(src->begin() + expand.getAxis(), index.constant(1));
    return src;
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(def)) {
    auto src = analyzeMask(broadcast.getSrc());
    if (failed(src))
      return failure();
    // A broadcast size-1 dimension keeps 0 or 1 positions: then none or all.
    auto srcType = cast<RankedTensorType>(broadcast.getSrc().getType());
    for (auto [dim, extent] : llvm::enumerate(*src))
      if (srcType.getDimSize(dim) != type.getDimSize(dim))
        extent = index.mul(extent, index.constant(type.getDimSize(dim)));
    return src;
  }
  if (auto trans = dyn_cast<TransOp>(def)) {
    auto src = analyzeMask(trans.getSrc());
    if (failed(src))
      return failure();
    return llvm::map_to_vector(trans.getOrder(),
                               [&](int32_t from) { return (*src)[from]; });
  }
  if (auto splat = dyn_cast<SplatOp>(def))
    return allIf(splat.getSrc());
  DenseIntElementsAttr constant;
  if (matchPattern(mask, m_Constant(&constant)) && constant.isSplat())
    return constant.getSplatValue<bool>()
               ? whole()
               : SmallVector<OpFoldResult>(type.getRank(), index.constant(0));
  auto compare = dyn_cast<arith::CmpIOp>(def);
  if (!compare)
    return failure();
  // index < bound (or <=), with the index along one dimension in unit steps
  // and the bound uniform; `bound > index` is read the other way round.
  arith::CmpIPredicate predicate = compare.getPredicate();
  Value lhs = compare.getLhs(), rhs = compare.getRhs();
  if (predicate == arith::CmpIPredicate::sgt ||
      predicate == arith::CmpIPredicate::sge) {
    std::swap(lhs, rhs);
    predicate = predicate == arith::CmpIPredicate::sgt
                    ? arith::CmpIPredicate::slt
                    : arith::CmpIPredicate::sle;
  }
  if (predicate != arith::CmpIPredicate::slt &&
      predicate != arith::CmpIPredicate::sle)
    return failure();
  FailureOr<AffineBlock> indices = analyzeIntegers(lhs);
  FailureOr<AffineBlock> bound = analyzeIntegers(rhs);
  if (failed(indices) || failed(bound) || !bound->isUniform() || indices->wrap)
    return failure();
  // Positions i along `dim` are kept while offset + i < limit.
  OpFoldResult limit = predicate == arith::CmpIPredicate::sle
                           ? index.add(bound->offset, index.constant(1))
                           : bound->offset;
  SmallVector<OpFoldResult> extents = whole();
  std::optional<unsigned> varying;
  if (!indices->isUniform() && !(varying = indices->unitDimension()))
    return failure();
  OpFoldResult kept = index.sub(limit, indices->offset);
  if (!varying) {
    // A uniform comparison keeps everything or nothing.
    Value holds = arith::CmpIOp::create(
        b, compare.getLoc(), arith::CmpIPredicate::sgt, index.value(kept),
        index.value(index.constant(0)));
    return allIf(holds);
  }
  extents[*varying] =
      index.max(index.constant(0),
                index.min(kept, index.constant(type.getDimSize(*varying))));
  return extents;
}

/// The scalar every element of `block` holds, when it is a splat.
Value splatScalar(Value block) {
  if (auto splat = block.getDefiningOp<SplatOp>())
    return splat.getSrc();
  DenseElementsAttr constant;
  if (matchPattern(block, m_Constant(&constant)) && constant.isSplat()) {
    OpBuilder b(block.getDefiningOp());
    return arith::ConstantOp::create(
        b, block.getLoc(),
        cast<TypedAttr>(constant.getSplatValue<Attribute>()));
  }
  return {};
}

/// The strided view of `buffer` that `block` describes, shaped `shape`.
Value createView(OpBuilder &b, Location loc, Value buffer,
                 const AffineBlock &block, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> staticStrides;
  for (OpFoldResult stride : block.strides)
    staticStrides.push_back(
        getConstantIntValue(stride).value_or(ShapedType::kDynamic));
  auto layout = StridedLayoutAttr::get(
      b.getContext(),
      getConstantIntValue(block.offset).value_or(ShapedType::kDynamic),
      staticStrides);
  auto bufferType = cast<MemRefType>(buffer.getType());
  auto type = MemRefType::get(shape, bufferType.getElementType(), layout,
                              bufferType.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      b, loc, type, buffer, block.offset,
      getAsIndexOpFoldResult(b.getContext(), shape), block.strides);
}

/// The part of `memref` of `sizes` at `offsets` (unit steps).
Value blockPart(OpBuilder &b, Location loc, Value memref,
                ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  return memref::SubViewOp::create(
      b, loc, memref, offsets, sizes,
      SmallVector<OpFoldResult>(sizes.size(), b.getIndexAttr(1)));
}

/// The leading `extents` of `memref` (all of it without extents).
Value leadingPart(OpBuilder &b, Location loc, Value memref,
                  ArrayRef<OpFoldResult> extents) {
  if (extents.empty())
    return memref;
  return blockPart(b, loc, memref,
                   SmallVector<OpFoldResult>(extents.size(), b.getIndexAttr(0)),
                   extents);
}

/// A fresh block for a loaded tensor of `type`, filled with `other` when
/// some elements are masked off (without `other` they are undefined, as in
/// Triton).
Value createBlockTensor(OpBuilder &b, Location loc, RankedTensorType type,
                        Value other, bool masked) {
  Value block = memref::AllocOp::create(
      b, loc, MemRefType::get(type.getShape(), type.getElementType()));
  if (other && masked)
    linalg::FillOp::create(b, loc, other, block);
  return block;
}

/// The block, once copied into, read as the loaded tensor.
Value readBlock(OpBuilder &b, Location loc, RankedTensorType type,
                Value block) {
  return bufferization::ToTensorOp::create(b, loc, type, block,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

/// Loads and stores through structured pointers: the pointer, the mask's
/// extents (empty without a mask), the buffer; fails for the others.
struct Access {
  AffineBlock pointers;
  SmallVector<OpFoldResult> extents;
  Value buffer;
};

FailureOr<Access> analyzeAccess(OpBuilder &b, Operation *op, Value pointer,
                                Value mask) {
  auto type = dyn_cast<RankedTensorType>(pointer.getType());
  if (!type)
    return failure();
  Type elementType = cast<PointerType>(type.getElementType()).getPointeeType();
  // Booleans are stored as bytes: the element-wise lowering handles them.
  if (elementType.isInteger(1) || isa<ShapedType>(elementType))
    return failure();
  StructuredAccess analysis(b, op->getLoc());
  FailureOr<AffineBlock> pointers = analysis.analyzePointers(pointer);
  if (failed(pointers))
    return failure();
  Access access{*pointers, {}, {}};
  if (mask) {
    FailureOr<SmallVector<OpFoldResult>> extents = analysis.analyzeMask(mask);
    if (failed(extents))
      return failure();
    access.extents = *extents;
  }
  FailureOr<Value> buffer = triton_spirv::lookupBuffer(op, elementType);
  if (failed(buffer))
    return failure();
  access.buffer = *buffer;
  return access;
}

/// `block` without its wrap, where the rows from `first` (start mod
/// modulus) on do not reach the modulus: row i is at first + i.
AffineBlock unwrapped(IndexBuilder &index, AffineBlock block,
                      OpFoldResult first) {
  Wrap wrap = *block.wrap;
  block.wrap.reset();
  block.strides[wrap.dim] = index.add(block.strides[wrap.dim], wrap.scale);
  block.offset = index.add(block.offset, index.mul(wrap.scale, first));
  return block;
}

/// A load whose block wraps around along one dimension: two copies, the
/// rows from the start to the wrap and the rows after it (triton-shared's
/// split). That is exact while the block wraps at most once (start >= 0,
/// block size <= modulus), which is checked at run time; otherwise the load
/// stays element-wise.
void rewriteWrappedLoad(OpBuilder &b, LoadOp load, const Access &access,
                        Value other) {
  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getType());
  const Wrap &wrap = *access.pointers.wrap;
  unsigned dim = wrap.dim;
  IndexBuilder index(b, loc);
  OpFoldResult size = index.constant(type.getDimSize(dim));
  Value fromStart = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                          index.value(wrap.start),
                                          index.value(index.constant(0)));
  Value wrapsOnce =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                            index.value(size), index.value(wrap.modulus));
  auto exact =
      scf::IfOp::create(b, loc, TypeRange{type},
                        arith::AndIOp::create(b, loc, fromStart, wrapsOnce),
                        /*withElseRegion=*/true);
  b.setInsertionPointToStart(exact.elseBlock());
  scf::YieldOp::create(b, loc, b.clone(*load)->getResults());

  b.setInsertionPointToStart(exact.thenBlock());
  OpFoldResult first = index.remainder(wrap.start, wrap.modulus);
  OpFoldResult headRows = index.min(size, index.sub(wrap.modulus, first));
  OpFoldResult tailRows = index.sub(size, headRows);
  AffineBlock head = unwrapped(index, access.pointers, first);
  AffineBlock tail = head;
  tail.offset = index.add(access.pointers.offset,
                          index.mul(access.pointers.strides[dim], headRows));
  SmallVector<OpFoldResult> kept =
      access.extents.empty()
          ? getAsIndexOpFoldResult(b.getContext(), type.getShape())
          : access.extents;
  SmallVector<OpFoldResult> headKept = kept, tailKept = kept;
  headKept[dim] = index.min(headRows, kept[dim]);
  tailKept[dim] = index.max(
      index.constant(0), index.min(tailRows, index.sub(kept[dim], headRows)));
  SmallVector<OpFoldResult> tailAt(type.getRank(), index.constant(0));
  tailAt[dim] = headRows;

  Value block = createBlockTensor(b, loc, type, other,
                                  /*masked=*/!access.extents.empty());
  SmallVector<OpFoldResult> zeros(type.getRank(), index.constant(0));
  Value headView = createView(b, loc, access.buffer, head, type.getShape());
  Value headSource = blockPart(b, loc, headView, zeros, headKept);
  Value headTarget = blockPart(b, loc, block, zeros, headKept);
  memref::CopyOp::create(b, loc, headSource, headTarget);
  Value tailView = createView(b, loc, access.buffer, tail, type.getShape());
  Value tailSource = blockPart(b, loc, tailView, zeros, tailKept);
  Value tailTarget = blockPart(b, loc, block, tailAt, tailKept);
  memref::CopyOp::create(b, loc, tailSource, tailTarget);
  scf::YieldOp::create(b, loc, readBlock(b, loc, type, block));
  load.getResult().replaceAllUsesWith(exact.getResult(0));
  load.erase();
}

/// Whether `value` is an operand of a tt.dot, directly or through
/// element-wise ops (conversions, scaling).
bool feedsDot(Value value) {
  SmallVector<Value> pending = {value};
  DenseSet<Value> seen;
  while (!pending.empty()) {
    Value current = pending.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    for (Operation *user : current.getUsers()) {
      if (isa<DotOp>(user))
        return true;
      if (user->getNumResults() == 1 &&
          user->hasTrait<mlir::OpTrait::Elementwise>())
        pending.push_back(user->getResult(0));
    }
  }
  return false;
}

/// Whether the whole block of `type` is in bounds (`condition`): every mask
/// extent covers its dimension and a wrapped block does not wrap; for a
/// wrapped block, also where its rows start (`first`, start mod modulus).
struct WholeBlockCheck {
  Value condition;
  OpFoldResult first;
};

WholeBlockCheck coversWholeBlock(OpBuilder &b, Location loc,
                                 RankedTensorType type, const Access &access) {
  IndexBuilder index(b, loc);
  OpFoldResult first;
  Value whole;
  auto require = [&](Value condition) {
    whole = whole ? arith::AndIOp::create(b, loc, whole, condition)
                  : condition;
  };
  for (auto [extent, size] : llvm::zip(access.extents, type.getShape()))
    if (!isConstantIntValue(extent, size))
      require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                    index.value(extent),
                                    index.value(index.constant(size))));
  if (const std::optional<Wrap> &wrap = access.pointers.wrap) {
    // start >= 0 and (start mod modulus) + size <= modulus (the remainder
    // taken of a positive modulus, so that it is defined for any input).
    OpFoldResult size = index.constant(type.getDimSize(wrap->dim));
    first = index.remainder(wrap->start,
                            index.max(wrap->modulus, index.constant(1)));
    require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                  index.value(wrap->start),
                                  index.value(index.constant(0))));
    require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                  index.value(index.add(first, size)),
                                  index.value(wrap->modulus)));
  }
  return {whole, first};
}

/// A masked or wrapped load of a matmul operand gets a version for blocks
/// wholly in bounds, checked at run time: one unmasked copy, as Triton's own
/// backends specialise masks proven full. The staging of matmul operands is
/// what bounds this backend's matmuls, and masks and the wrap's second
/// piece cost it the most. Returns the load of the other version, to lower
/// as before (the load itself where nothing needs checking).
LoadOp versionWholeBlockLoad(OpBuilder &b, LoadOp load,
                             const Access &access) {
  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getType());
  WholeBlockCheck check = coversWholeBlock(b, loc, type, access);
  if (!check.condition)
    return load;
  auto whole = scf::IfOp::create(b, loc, TypeRange{type}, check.condition,
                                 /*withElseRegion=*/true);
  b.setInsertionPointToStart(whole.elseBlock());
  auto partial = cast<LoadOp>(b.clone(*load));
  scf::YieldOp::create(b, loc, partial.getResult());

  b.setInsertionPointToStart(whole.thenBlock());
  IndexBuilder index(b, loc);
  AffineBlock pointers = access.pointers.wrap
                             ? unwrapped(index, access.pointers, check.first)
                             : access.pointers;
  Value block = createBlockTensor(b, loc, type, Value(), /*masked=*/false);
  memref::CopyOp::create(
      b, loc, createView(b, loc, access.buffer, pointers, type.getShape()),
      block);
  scf::YieldOp::create(b, loc, readBlock(b, loc, type, block));
  load.getResult().replaceAllUsesWith(whole.getResult(0));
  load.erase();
  b.setInsertionPoint(partial);
  return partial;
}

/// `matmulOperand`: the load feeds a tt.dot (feedsDot).
LogicalResult rewriteLoad(LoadOp load, bool matmulOperand) {
  OpBuilder b(load);
  Location loc = load.getLoc();
  Value other;
  if (load.getOther() && !(other = splatScalar(load.getOther())))
    return failure();
  FailureOr<Access> access =
      analyzeAccess(b, load, load.getPtr(), load.getMask());
  if (failed(access))
    return failure();
  if (matmulOperand && (access->pointers.wrap || !access->extents.empty()))
    load = versionWholeBlockLoad(b, load, *access);
  if (access->pointers.wrap) {
    rewriteWrappedLoad(b, load, *access, other);
    return success();
  }
  auto type = cast<RankedTensorType>(load.getType());
  Value view =
      createView(b, loc, access->buffer, access->pointers, type.getShape());
  Value block = createBlockTensor(b, loc, type, other,
                                  /*masked=*/!access->extents.empty());
  Value source = leadingPart(b, loc, view, access->extents);
  Value target = leadingPart(b, loc, block, access->extents);
  memref::CopyOp::create(b, loc, source, target);
  load.replaceAllUsesWith(readBlock(b, loc, type, block));
  load.erase();
  return success();
}

LogicalResult rewriteStore(StoreOp store) {
  OpBuilder b(store);
  Location loc = store.getLoc();
  FailureOr<Access> access =
      analyzeAccess(b, store, store.getPtr(), store.getMask());
  // Wrapped stores stay element-wise.
  if (failed(access) || access->pointers.wrap)
    return failure();
  auto type = cast<RankedTensorType>(store.getValue().getType());
  Value view =
      createView(b, loc, access->buffer, access->pointers, type.getShape());
  Value value = store.getValue();
  if (!access->extents.empty())
    value = tensor::ExtractSliceOp::create(
        b, loc, value,
        SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(0)),
        access->extents,
        SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(1)));
  auto materialize = bufferization::MaterializeInDestinationOp::create(
      b, loc, value, leadingPart(b, loc, view, access->extents));
  materialize.setWritable(true);
  store.erase();
  return success();
}

struct TritonStructuredMemoryPass
    : public triton_spirv::impl::TritonStructuredMemoryBase<
          TritonStructuredMemoryPass> {
  void runOnOperation() override {
    SmallVector<Operation *> accesses;
    getOperation().walk([&](Operation *op) {
      if (isa<LoadOp, StoreOp>(op))
        accesses.push_back(op);
    });
    // What the analysis cannot prove structured stays for the element-wise
    // lowering; index arithmetic it built on the way is dead and cleaned up.
    for (Operation *op : accesses) {
      auto load = dyn_cast<LoadOp>(op);
      if (!load) {
        (void)rewriteStore(cast<StoreOp>(op));
        continue;
      }
      // Matmul operands are where the element-wise path costs the most.
      bool operand = isa<RankedTensorType>(load.getType()) &&
                     feedsDot(load.getResult());
      if (failed(rewriteLoad(load, operand)) && operand)
        load.emitRemark("this matmul operand is loaded element by element "
                        "(its pointers, mask or `other` are not those of a "
                        "strided block): no whole-block version");
    }
  }
};
} // namespace
