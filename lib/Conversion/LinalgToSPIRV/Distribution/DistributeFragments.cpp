//===- DistributeFragments.cpp - Fragment families over subgroups ---------===//

#include "DistributeFragments.h"
#include "DistributeMatmul.h"

#include "triton-spirv/Analysis/FragmentFamilies.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::triton_spirv;

static constexpr int64_t kTile = kFragmentSize;

LogicalResult FragmentFamilyDistributor::addMember(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  Attribute layout = alloc->getAttr(kLayoutAttrName);
  FragmentVariables member{layout};
  MLIRContext *context = rewriter.getContext();
  gpu::MMAMatrixType fragment;
  if (auto rows = dyn_cast<FragmentRowsLayoutAttr>(layout)) {
    member.gridM = rows.getSubgroups();
    if (type.getRank() != 1 || type.getDimSize(0) % (kTile * member.gridM))
      return alloc.emitError("layout ") << layout << " does not tile " << type;
    member.tilesM = type.getDimSize(0) / (kTile * member.gridM);
    fragment = gpu::MMAMatrixType::get({kTile, kTile}, type.getElementType(),
                                       "COp");
  } else {
    auto blocks = cast<FragmentsLayoutAttr>(layout);
    if (!blocks.tiles(type.getShape()))
      return alloc.emitError("layout ") << layout << " does not tile " << type;
    member.gridM = blocks.getSubgroups()[0];
    member.gridN = blocks.getSubgroups()[1];
    member.tilesM = type.getDimSize(0) / (kTile * member.gridM);
    member.tilesN = type.getDimSize(1) / (kTile * member.gridN);
    // f16 blocks are matmul operands (the analysis admits no other).
    fragment = gpu::MMAMatrixType::get({kTile, kTile}, type.getElementType(),
                                       type.getElementType().isF16() ? "AOp"
                                                                     : "COp");
  }
  auto variableType = FragmentVariableType::get(context, fragment);
  for (int64_t i = 0; i < member.tilesM * member.tilesN; ++i)
    member.variables.push_back(
        FragmentVariableOp::create(rewriter, alloc.getLoc(), variableType));
  members[alloc] = std::move(member);
  return success();
}

FragmentFamilyDistributor::~FragmentFamilyDistributor() {
  for (auto &entry : indexVectors)
    entry.second.producer->destroy();
}

void FragmentFamilyDistributor::recordIndexVectors(Operation *kernel) {
  kernel->walk([&](memref::AllocOp alloc) {
    linalg::GenericOp producer = indexVectorProducer(alloc);
    if (!producer)
      return;
    auto copy = cast<linalg::GenericOp>(producer->clone());
    IndexVector &recorded = indexVectors[alloc];
    recorded.producer = copy;
    for (OpOperand &operand : copy->getOpOperands()) {
      recorded.operands.push_back(operand.get());
      operand.drop();
    }
  });
}

bool FragmentFamilyDistributor::touches(Operation *op) const {
  return llvm::any_of(op->getOperands(), [&](Value operand) {
    return members.count(bufferUnderViews(operand));
  });
}

FragmentFamilyDistributor::Access
FragmentFamilyDistributor::memberAccess(Value value) const {
  auto found = members.find(bufferUnderViews(value));
  if (found == members.end())
    return {};
  Access result{const_cast<FragmentVariables *>(&found->second)};
  if (auto view = value.getDefiningOp<memref::SubViewOp>()) {
    SmallVector<OpFoldResult> offsets = view.getMixedOffsets();
    // The analysis admits static offsets of whole tiles of a subgroup (the
    // loops that stepped them unrolled).
    result.rowTiles = *getConstantIntValue(offsets[0]) /
                      (kTile * result.member->gridM);
    result.colTiles = *getConstantIntValue(offsets[1]) /
                      (kTile * result.member->gridN);
  }
  return result;
}

Value FragmentFamilyDistributor::readTile(const Access &access, int64_t r,
                                          int64_t c) {
  FragmentVariables &member = *access.member;
  // A vector of rows has one fragment per row tile, for every column.
  int64_t index = isa<FragmentRowsLayoutAttr>(member.layout)
                      ? r + access.rowTiles
                      : (r + access.rowTiles) * member.tilesN + c +
                            access.colTiles;
  Value variable = member.variables[index];
  return ReadFragmentOp::create(
      rewriter, variable.getLoc(),
      cast<FragmentVariableType>(variable.getType()).getFragment(), variable);
}

void FragmentFamilyDistributor::writeTile(FragmentVariables &member,
                                          int64_t index, Value fragment) {
  WriteFragmentOp::create(rewriter, fragment.getLoc(), fragment,
                          member.variables[index]);
}

LogicalResult FragmentFamilyDistributor::distribute(linalg::LinalgOp op) {
  rewriter.setInsertionPoint(op);
  LogicalResult result = failure();
  if (auto fillOp = dyn_cast<linalg::FillOp>(op.getOperation()))
    result = fillMembers(fillOp);
  else if (auto copyOp = dyn_cast<linalg::CopyOp>(op.getOperation()))
    result = copyMembers(copyOp);
  else if (auto reduceOp = dyn_cast<linalg::ReduceOp>(op.getOperation()))
    result = reduceMemberRows(reduceOp);
  else if (isStaticMatmul(op))
    return multiplyMembers(op); // erases the op itself
  else if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    result =
        generic.getNumDpsInits() ? mapMembers(generic) : storeMembers(generic);
  else
    return op->emitError("cannot distribute this op on a fragment family");
  if (failed(result))
    return failure();
  rewriter.eraseOp(op);
  return success();
}

LogicalResult FragmentFamilyDistributor::fillMembers(linalg::FillOp op) {
  FragmentVariables &member = *memberAccess(op.getOutputs()[0]).member;
  for (auto [index, variable] : llvm::enumerate(member.variables)) {
    auto type = cast<FragmentVariableType>(variable.getType()).getFragment();
    writeTile(member, index,
              gpu::SubgroupMmaConstantMatrixOp::create(rewriter, op.getLoc(),
                                                       type, op.value()));
  }
  return success();
}

LogicalResult FragmentFamilyDistributor::copyMembers(linalg::CopyOp op) {
  Access from = memberAccess(op.getInputs()[0]),
         to = memberAccess(op.getOutputs()[0]);
  if (!from.member)
    return loadMember(op.getInputs()[0], to);
  if (from.member->variables.size() != to.member->variables.size())
    return op.emitError("copies between fragment buffers of other shapes");
  for (int64_t r = 0; r < to.member->tilesM; ++r)
    for (int64_t c = 0; c < to.member->tilesN; ++c)
      writeTile(*to.member, r * to.member->tilesN + c, readTile(from, r, c));
  return success();
}

LogicalResult FragmentFamilyDistributor::loadMember(Value staged,
                                                    const Access &to) {
  Location loc = staged.getLoc();
  FragmentVariables &member = *to.member;
  auto type = cast<MemRefType>(staged.getType());
  std::optional<int64_t> stride = rowStride(staged);
  if (!stride)
    return emitError(loc, "a fragment family loads a block of unknown row "
                          "stride");
  // The staging's writers are done.
  barrier(loc);
  // The tiles of the staged block (a view of whole rows and some columns of
  // the member), at their origins in the staging.
  MatmulTiling tiling{member.gridM, member.gridN, member.tilesM,
                      type.getDimSize(1) / (kTile * member.gridN)};
  FragmentOrigins origins = fragmentOrigins(rewriter, loc, tiling, subgroupId);
  for (int64_t r = 0; r < tiling.tileM; ++r)
    for (int64_t c = 0; c < tiling.tileN; ++c) {
      int64_t index = (r + to.rowTiles) * member.tilesN + c + to.colTiles;
      Value variable = member.variables[index];
      writeTile(
          member, index,
          gpu::SubgroupMmaLoadMatrixOp::create(
              rewriter, loc,
              cast<FragmentVariableType>(variable.getType()).getFragment(),
              staged, ValueRange{origins.rows[r], origins.cols[c]},
              rewriter.getIndexAttr(*stride), UnitAttr()));
    }
  return success();
}

LogicalResult FragmentFamilyDistributor::multiplyMembers(linalg::LinalgOp op) {
  Access acc = memberAccess(op.getDpsInits()[0]);
  Access lhs = memberAccess(op.getDpsInputs()[0]);
  SmallVector<Value> initial, lhsFragments;
  for (int64_t r = 0; r < acc.member->tilesM; ++r)
    for (int64_t c = 0; c < acc.member->tilesN; ++c)
      initial.push_back(readTile(acc, r, c));
  if (lhs.member) {
    // A view (a chunk of K) has fewer column tiles than its member.
    auto lhsType = cast<MemRefType>(op.getDpsInputs()[0].getType());
    int64_t tilesN = lhsType.getDimSize(1) / (kTile * lhs.member->gridN);
    for (int64_t r = 0; r < lhs.member->tilesM; ++r)
      for (int64_t c = 0; c < tilesN; ++c)
        lhsFragments.push_back(readTile(lhs, r, c));
  }
  // The right operand's staging is done.
  barrier(op.getLoc());
  FailureOr<SmallVector<Value>> computed = distributeMatmulOnFragmentValues(
      rewriter, op, shape, cast<FragmentsLayoutAttr>(acc.member->layout),
      subgroupId, initial, lhsFragments);
  if (failed(computed))
    return failure();
  for (auto [index, fragment] : llvm::enumerate(*computed))
    writeTile(*acc.member, index, fragment);
  return success();
}

namespace {
/// How a block argument of a linalg op's body gets its value in a map
/// that runs per element of a tile.
struct ArgumentSource {
  enum Kind { Fragment, Extra, IndexVector, Unused } kind = Unused;
  /// The linalg operand.
  Value operand;
  /// IndexVector: what computes it, that op's operands, and the dimension
  /// of the tile along which it varies.
  linalg::GenericOp producer;
  ArrayRef<Value> producerOperands;
  unsigned dim = 0;
};

/// Builds the body of a fragment op from a linalg op's scalar code: block
/// arguments of the linalg body are mapped to the new body's, values
/// captured from above become the op's extra operands (constants are cloned
/// in), `linalg.index` becomes the tile origin plus the element's
/// coordinate, and index vectors are computed again from their index.
class BodyCloner {
public:
  explicit BodyCloner(RewriterBase &rewriter) : rewriter(rewriter) {}

  /// Values from above the regions that are not constants: extras.
  void collectCaptured(Region &region) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(region, above);
    for (Value value : above)
      if (!matchPattern(value, m_Constant()) &&
          !llvm::is_contained(captured, value))
        captured.push_back(value);
  }

  /// Clones `block`'s ops but its terminator; returns what it yields.
  /// Constants from above are cloned in on first use (the body is
  /// isolated); other values from above must be mapped already.
  Value cloneBody(Block &block, IRMapping &mapping,
                  function_ref<Value(unsigned)> indexOf) {
    SmallVector<Operation *> ops;
    for (Operation &op : block.without_terminator())
      ops.push_back(&op);
    return cloneOps(block, ops, block.getTerminator()->getOperand(0), mapping,
                    indexOf);
  }

  /// Clones `ops` (some of `block`'s, in order) alike; returns what
  /// `result` became.
  Value cloneOps(Block &block, ArrayRef<Operation *> ops, Value result,
                 IRMapping &mapping, function_ref<Value(unsigned)> indexOf) {
    auto cloneConstantFromAbove = [&](Value value) {
      if (!mapping.contains(value) && value.getDefiningOp() &&
          !block.getParent()->isAncestor(value.getParentRegion()) &&
          matchPattern(value, m_Constant()))
        mapping.map(value,
                    rewriter.clone(*value.getDefiningOp())->getResult(0));
    };
    for (Operation *op : ops) {
      if (auto index = dyn_cast<linalg::IndexOp>(op)) {
        mapping.map(index.getResult(), indexOf(index.getDim()));
        continue;
      }
      op->walk([&](Operation *nested) {
        llvm::for_each(nested->getOperands(), cloneConstantFromAbove);
      });
      rewriter.clone(*op, mapping);
    }
    cloneConstantFromAbove(result);
    return mapping.lookupOrDefault(result);
  }

  SmallVector<Value> captured;

private:
  RewriterBase &rewriter;
};
} // namespace

LogicalResult FragmentFamilyDistributor::mapMembers(linalg::GenericOp op) {
  Location loc = op.getLoc();
  Value output = op.getDpsInits()[0];
  Access out = memberAccess(output);
  FragmentVariables &result = *out.member;
  // The type of the output's fragments, and of the maps' results.
  auto storedType = cast<FragmentVariableType>(result.variables[0].getType())
                        .getFragment();
  auto resultType = storedType;
  unsigned rank = op.getNumLoops();

  // A block converted for a matmul: its elements are computed in f32 (the
  // value the body truncates), then the fragment converts. Where the body
  // only truncates its input, the input's fragments convert.
  Value yielded = op.getBlock()->getTerminator()->getOperand(0);
  if (storedType.getOperand() != "COp") {
    arith::TruncFOp trunc = yieldedTruncation(op);
    yielded = trunc.getIn();
    auto yieldedArg = dyn_cast<BlockArgument>(yielded);
    if (yieldedArg && yieldedArg.getOwner() == op.getBlock() &&
        memberAccess(op->getOperand(yieldedArg.getArgNumber())).member) {
      Access in = memberAccess(op->getOperand(yieldedArg.getArgNumber()));
      for (int64_t r = 0; r < result.tilesM; ++r)
        for (int64_t c = 0; c < result.tilesN; ++c)
          writeTile(result, r * result.tilesN + c,
                    ConvertFragmentOp::create(rewriter, loc, storedType,
                                              readTile(in, r, c)));
      return success();
    }
    resultType = gpu::MMAMatrixType::get({kTile, kTile},
                                         rewriter.getF32Type(), "COp");
  }

  // Where each argument of the body comes from.
  SmallVector<ArgumentSource> sources;
  BodyCloner cloner(rewriter);
  cloner.collectCaptured(op.getRegion());
  SmallVector<Value> scalars;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    ArgumentSource source;
    source.operand = operand.get();
    if (arg.use_empty()) {
      sources.push_back(source);
      continue;
    }
    if (!isa<ShapedType>(operand.get().getType())) {
      source.kind = ArgumentSource::Extra;
      if (!llvm::is_contained(scalars, operand.get()))
        scalars.push_back(operand.get());
    } else if (memberAccess(operand.get()).member) {
      source.kind = ArgumentSource::Fragment;
    } else if (auto found = indexVectors.find(bufferUnderViews(operand.get()));
               found != indexVectors.end()) {
      linalg::GenericOp producer = found->second.producer;
      source.kind = ArgumentSource::IndexVector;
      source.producer = producer;
      source.producerOperands = found->second.operands;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      for (AffineExpr expr : map.getResults())
        if (auto dim = dyn_cast<AffineDimExpr>(expr))
          source.dim = dim.getPosition();
      cloner.collectCaptured(producer.getRegion());
      for (OpOperand *input : producer.getDpsInputOperands())
        if (Value value = source.producerOperands[input->getOperandNumber()];
            !llvm::is_contained(scalars, value))
          scalars.push_back(value);
    } else {
      return op.emitError("reads a block that is neither a fragment nor an "
                          "index vector in a fragment map");
    }
    sources.push_back(source);
  }
  SmallVector<Value> extrasAbove(scalars);
  for (Value value : cloner.captured)
    if (!llvm::is_contained(extrasAbove, value))
      extrasAbove.push_back(value);

  MatmulTiling tiling{result.gridM, result.gridN, result.tilesM,
                      result.tilesN};
  FragmentOrigins origins = fragmentOrigins(rewriter, loc, tiling, subgroupId);
  Type i32 = rewriter.getI32Type();
  for (int64_t r = 0; r < result.tilesM; ++r) {
    for (int64_t c = 0; c < result.tilesN; ++c) {
      SmallVector<Value> fragments;
      for (ArgumentSource &source : sources)
        if (source.kind == ArgumentSource::Fragment)
          fragments.push_back(readTile(memberAccess(source.operand), r, c));
      bool placeholder = fragments.empty();
      if (placeholder)
        fragments.push_back(gpu::SubgroupMmaConstantMatrixOp::create(
            rewriter, loc, resultType,
            arith::ConstantOp::create(
                rewriter, loc,
                rewriter.getZeroAttr(resultType.getElementType()))));
      SmallVector<Value> extras{
          arith::IndexCastOp::create(rewriter, loc, i32, origins.rows[r]),
          rank == 2 ? arith::IndexCastOp::create(rewriter, loc, i32,
                                                 origins.cols[c])
                          .getResult()
                    : arith::ConstantIntOp::create(rewriter, loc, 0, 32)
                          .getResult()};
      llvm::append_range(extras, extrasAbove);
      auto mapOp = MapFragmentsOp::create(rewriter, loc, resultType, fragments,
                                          extras);
      SmallVector<Type> argTypes{i32, i32};
      for (size_t i = 0; i < fragments.size(); ++i)
        argTypes.push_back(resultType.getElementType());
      for (Value extra : extras)
        argTypes.push_back(extra.getType());
      Block *body = rewriter.createBlock(
          &mapOp.getBody(), {}, argTypes,
          SmallVector<Location>(argTypes.size(), loc));
      // Arguments: row, column, fragments' elements, then the extras:
      // origins, scalars, captured values.
      unsigned firstExtra = 2 + fragments.size();
      Value rowOrigin = body->getArgument(firstExtra);
      Value colOrigin = body->getArgument(firstExtra + 1);
      IRMapping mapping;
      for (auto [i, value] : llvm::enumerate(extrasAbove))
        mapping.map(value, body->getArgument(firstExtra + 2 + i));
      Value coordinates[2] = {};
      auto indexOf = [&](unsigned dim) -> Value {
        if (!coordinates[dim]) {
          Value origin = dim == 0 ? rowOrigin : colOrigin;
          Value sum = arith::AddIOp::create(rewriter, loc, origin,
                                            body->getArgument(dim));
          coordinates[dim] = arith::IndexCastOp::create(
              rewriter, loc, rewriter.getIndexType(), sum);
        }
        return coordinates[dim];
      };
      unsigned nextFragment = placeholder ? 3 : 2;
      for (auto [arg, source] :
           llvm::zip(op.getBlock()->getArguments(), sources)) {
        switch (source.kind) {
        case ArgumentSource::Fragment:
          mapping.map(arg, body->getArgument(nextFragment++));
          break;
        case ArgumentSource::Extra:
          mapping.map(arg, mapping.lookup(source.operand));
          break;
        case ArgumentSource::IndexVector: {
          IRMapping producerMapping = mapping;
          for (OpOperand *input : source.producer.getDpsInputOperands())
            producerMapping.map(
                source.producer.getMatchingBlockArgument(input),
                mapping.lookup(
                    source.producerOperands[input->getOperandNumber()]));
          unsigned dim = rank == 1 ? 0 : source.dim;
          mapping.map(arg, cloner.cloneBody(*source.producer.getBlock(),
                                            producerMapping,
                                            [&](unsigned) {
                                              return indexOf(dim);
                                            }));
          break;
        }
        case ArgumentSource::Unused:
          break;
        }
      }
      cloner.cloneBody(*op.getBlock(), mapping, indexOf);
      YieldOp::create(rewriter, loc, mapping.lookupOrDefault(yielded));
      rewriter.setInsertionPointAfter(mapOp);
      Value computed = mapOp.getResult();
      if (storedType != resultType)
        computed =
            ConvertFragmentOp::create(rewriter, loc, storedType, computed);
      writeTile(result, r * result.tilesN + c, computed);
    }
  }
  return success();
}

LogicalResult FragmentFamilyDistributor::reduceMemberRows(linalg::ReduceOp op) {
  Location loc = op.getLoc();
  Access in = memberAccess(op.getInputs()[0]);
  Access init = memberAccess(op.getInits()[0]);
  Block &combiner = op.getCombiner().front();
  auto fragmentType = cast<FragmentVariableType>(
                          init.member->variables[0].getType())
                          .getFragment();
  Type element = fragmentType.getElementType();
  Type i32 = rewriter.getI32Type();
  BodyCloner cloner(rewriter);
  // Fills `region` with the combiner, its two elements the block
  // arguments after `leading` ones (a map's row and column).
  auto buildCombiner = [&](Region &region, unsigned leading) {
    SmallVector<Type> types(leading, i32);
    types.append({element, element});
    Block *body = rewriter.createBlock(
        &region, {}, types, SmallVector<Location>(types.size(), loc));
    IRMapping mapping;
    mapping.map(combiner.getArgument(0), body->getArgument(leading));
    mapping.map(combiner.getArgument(1), body->getArgument(leading + 1));
    YieldOp::create(rewriter, loc,
                    cloner.cloneBody(combiner, mapping,
                                     [](unsigned) { return Value(); }));
    rewriter.setInsertionPointAfter(region.getParentOp());
  };
  // The combiner of two fragments, element by element.
  auto combine = [&](Value a, Value b) -> Value {
    auto mapOp = MapFragmentsOp::create(rewriter, loc, fragmentType,
                                        ValueRange{a, b}, ValueRange{});
    buildCombiner(mapOp.getBody(), 2);
    return mapOp.getResult();
  };
  for (int64_t r = 0; r < init.member->tilesM; ++r) {
    Value partial = readTile(in, r, 0);
    for (int64_t c = 1; c < in.member->tilesN; ++c)
      partial = combine(partial, readTile(in, r, c));
    auto rowsOp = ReduceFragmentRowsOp::create(rewriter, loc, partial);
    buildCombiner(rowsOp.getCombiner(), 0);
    // linalg.reduce combines each element into the output's value.
    writeTile(*init.member, r,
              combine(rowsOp.getResult(), readTile(init, r, 0)));
  }
  return success();
}

namespace {
/// An epilogue whose only use of its members' elements is one value rounded
/// to f16 (attention's `acc / l` stored as fp16): the value, computed from
/// the member loads by pure ops (`slice`, in body order), and its rounding.
struct RoundedValue {
  arith::TruncFOp rounding;
  SmallVector<memref::LoadOp> loads;
  SmallVector<Operation *> slice;
  /// The loads and the slice: what the scratch's element replaces.
  llvm::SmallPtrSet<Operation *, 8> replaced;
};
} // namespace

/// The rounded value of an epilogue's loop `body` whose member loads read
/// `members`, if it has one.
static std::optional<RoundedValue>
roundedValue(Block &body, const llvm::SmallDenseSet<Value> &members) {
  RoundedValue result;
  for (Operation &op : body.without_terminator()) {
    if (!isF16Rounding(&op))
      continue;
    if (result.rounding)
      return std::nullopt;
    result.rounding = cast<arith::TruncFOp>(op);
  }
  if (!result.rounding)
    return std::nullopt;
  llvm::SmallPtrSet<Operation *, 8> &inSlice = result.replaced;
  SmallVector<Value> worklist{result.rounding.getIn()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *producer = value.getDefiningOp();
    if (!producer || producer->getBlock() != &body) {
      // Constants from above are cloned in; nothing else crosses.
      if (producer && matchPattern(value, m_Constant()))
        continue;
      return std::nullopt;
    }
    if (!inSlice.insert(producer).second)
      continue;
    if (auto load = dyn_cast<memref::LoadOp>(producer)) {
      if (!members.contains(load.getMemRef()))
        return std::nullopt;
      result.loads.push_back(load);
      continue;
    }
    if (producer->getNumRegions() || !isMemoryEffectFree(producer))
      return std::nullopt;
    llvm::append_range(worklist, producer->getOperands());
  }
  // Every member load feeds the value alone, and every slice op too.
  for (Operation &op : body.without_terminator()) {
    auto load = dyn_cast<memref::LoadOp>(op);
    if (load && members.contains(load.getMemRef()) && !inSlice.contains(load))
      return std::nullopt;
    if (!inSlice.contains(&op))
      continue;
    if (!isa<memref::LoadOp>(op))
      result.slice.push_back(&op);
    for (Operation *user : op.getUsers())
      if (!inSlice.contains(user) && user != result.rounding)
        return std::nullopt;
  }
  return result;
}

LogicalResult FragmentFamilyDistributor::storeMembers(linalg::GenericOp op) {
  Location loc = op.getLoc();
  // The tiles are those of the op's first member input: a block's, or, for
  // a 1-D epilogue (a vector of rows stored), a vector's row tiles.
  bool vector = op.getNumLoops() == 1;
  Access first;
  for (Value input : op.getDpsInputs())
    if (Access found = memberAccess(input);
        found.member &&
        (vector || isa<FragmentsLayoutAttr>(found.member->layout))) {
      first = found;
      break;
    }
  if (!first.member)
    return op.emitError("an epilogue of a fragment family reads no member");
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, op);
  if (failed(loops) || loops->size() != 1)
    return op.emitError("cannot lower this op to parallel loops");
  auto parallel = cast<scf::ParallelOp>(loops->front());
  rewriter.setInsertionPoint(parallel);
  FragmentVariables &tiles = *first.member;
  MatmulTiling tiling{tiles.gridM, tiles.gridN, tiles.tilesM, tiles.tilesN};
  FragmentOrigins origins = fragmentOrigins(rewriter, loc, tiling, subgroupId);
  Value lane = gpu::LaneIdOp::create(rewriter, loc, nullptr);
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value).getResult();
  };
  Value scratchRow0 =
      arith::MulIOp::create(rewriter, loc, subgroupId, index(kTile));
  // The members the loop reads, each through its own scratch tile.
  SmallVector<std::pair<Value, Access>> inputs;
  llvm::SmallDenseSet<Value> memberInputs;
  for (Value input : op.getDpsInputs())
    if (Access found = memberAccess(input); found.member) {
      inputs.push_back({input, found});
      memberInputs.insert(input);
    }
  // Or, where the members' elements only make one value rounded to f16
  // (attention's output), that value is computed on the fragments and
  // rounded there: one f16 scratch tile, a quarter of two f32 ones, and of
  // the element type of the loop's stagings, whose memory it can share.
  std::optional<RoundedValue> rounded;
  if (!vector)
    rounded = roundedValue(*parallel.getBody(), memberInputs);
  auto f16Tile = gpu::MMAMatrixType::get({kTile, kTile},
                                         rewriter.getF16Type(), "COp");
  for (int64_t r = 0; r < tiles.tilesM; ++r) {
    for (int64_t c = 0; c < tiles.tilesN; ++c) {
      // The previous tile's readers are done before the stores.
      barrier(loc);
      if (rounded) {
        SmallVector<Value> fragments;
        for (memref::LoadOp load : rounded->loads)
          fragments.push_back(readTile(memberAccess(load.getMemRef()), r, c));
        auto f32Tile = cast<gpu::MMAMatrixType>(fragments.front().getType());
        auto mapOp = MapFragmentsOp::create(rewriter, loc, f32Tile, fragments,
                                            ValueRange{});
        Type i32 = rewriter.getI32Type();
        SmallVector<Type> argTypes{i32, i32};
        argTypes.append(fragments.size(), f32Tile.getElementType());
        {
          OpBuilder::InsertionGuard guard(rewriter);
          Block *body = rewriter.createBlock(
              &mapOp.getBody(), {}, argTypes,
              SmallVector<Location>(argTypes.size(), loc));
          IRMapping mapping;
          for (auto [i, load] : llvm::enumerate(rounded->loads))
            mapping.map(load.getResult(), body->getArgument(2 + i));
          YieldOp::create(rewriter, loc,
                          BodyCloner(rewriter).cloneOps(
                              *parallel.getBody(), rounded->slice,
                              rounded->rounding.getIn(), mapping,
                              [](unsigned) { return Value(); }));
        }
        gpu::SubgroupMmaStoreMatrixOp::create(
            rewriter, loc,
            ConvertFragmentOp::create(rewriter, loc, f16Tile, mapOp),
            scratch(loc, rewriter.getF16Type(), 0),
            ValueRange{scratchRow0, index(0)}, rewriter.getIndexAttr(kTile),
            UnitAttr());
      } else {
        for (auto [slot, input] : llvm::enumerate(inputs)) {
          Value fragment = readTile(input.second, r, c);
          Type element =
              cast<gpu::MMAMatrixType>(fragment.getType()).getElementType();
          gpu::SubgroupMmaStoreMatrixOp::create(
              rewriter, loc, fragment, scratch(loc, element, slot),
              ValueRange{scratchRow0, index(0)}, rewriter.getIndexAttr(kTile),
              UnitAttr());
        }
      }
      barrier(loc);
      // Lane l takes the tile's elements l, l + S, ... (S the subgroup
      // size); a vector's 16 rows go to the first 16 lanes.
      int64_t elementsPerTile = vector ? kTile : kTile * kTile;
      auto elements = scf::ForOp::create(
          rewriter, loc, index(0),
          index(llvm::divideCeil(elementsPerTile, shape.subgroupSize)),
          index(1));
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(elements.getBody());
      Value linear = arith::AddIOp::create(
          rewriter, loc, lane,
          arith::MulIOp::create(rewriter, loc, elements.getInductionVar(),
                                index(shape.subgroupSize)));
      if (elementsPerTile % shape.subgroupSize) {
        Value inside = arith::CmpIOp::create(rewriter, loc,
                                             arith::CmpIPredicate::ult, linear,
                                             index(elementsPerTile));
        auto guarded = scf::IfOp::create(rewriter, loc, inside);
        rewriter.setInsertionPointToStart(guarded.thenBlock());
      }
      Value row = vector ? linear
                         : arith::DivUIOp::create(rewriter, loc, linear,
                                                  index(kTile))
                               .getResult();
      Value col = vector ? index(0)
                         : arith::RemUIOp::create(rewriter, loc, linear,
                                                  index(kTile))
                               .getResult();
      Value scratchRow = arith::AddIOp::create(rewriter, loc, scratchRow0, row);
      IRMapping mapping;
      Value bufferRow =
          arith::AddIOp::create(rewriter, loc, origins.rows[r], row);
      if (vector)
        mapping.map(parallel.getInductionVars(), ValueRange{bufferRow});
      else
        mapping.map(parallel.getInductionVars(),
                    ValueRange{bufferRow,
                               arith::AddIOp::create(rewriter, loc,
                                                     origins.cols[c], col)});
      for (Operation &nested : parallel.getBody()->without_terminator()) {
        if (rounded) {
          // The rounded value is the scratch's element; what computed it
          // from the members is gone.
          if (&nested == rounded->rounding.getOperation())
            mapping.map(rounded->rounding.getResult(),
                        memref::LoadOp::create(
                            rewriter, loc,
                            scratch(loc, rewriter.getF16Type(), 0),
                            ValueRange{scratchRow, col}));
          else if (!rounded->replaced.contains(&nested))
            rewriter.clone(nested, mapping);
          continue;
        }
        auto load = dyn_cast<memref::LoadOp>(&nested);
        auto found =
            load ? llvm::find_if(inputs,
                                 [&](auto &input) {
                                   return input.first == load.getMemRef();
                                 })
                 : inputs.end();
        if (found == inputs.end()) {
          rewriter.clone(nested, mapping);
          continue;
        }
        Type element = load.getType();
        mapping.map(load.getResult(),
                    memref::LoadOp::create(
                        rewriter, loc,
                        scratch(loc, element, found - inputs.begin()),
                        ValueRange{scratchRow, col}));
      }
    }
  }
  rewriter.eraseOp(parallel);
  barrier(loc);
  return success();
}

LogicalResult FragmentFamilyDistributor::eraseMembers() {
  for (auto &[buffer, member] : members) {
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      if (isa<memref::SubViewOp, memref::ExpandShapeOp>(user) &&
          user->use_empty())
        rewriter.eraseOp(user);
    if (failed(eraseDistributedBuffer(
            rewriter, buffer, member.layout,
            "other than its fragment family's ops do")))
      return failure();
  }
  return success();
}
