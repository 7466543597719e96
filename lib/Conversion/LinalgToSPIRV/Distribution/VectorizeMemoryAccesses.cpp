//===- VectorizeMemoryAccesses.cpp - Vector loads and stores of runs -----===//
//
// The distribution gives each invocation runs of four consecutive elements
// and computes each op for the four in turn, so an element-wise kernel's
// global loads and stores come as four side by side: the same buffer, at
// indices i, i + 1, i + 2, i + 3, each under its own mask. Here such a group
// becomes one vector access through an alias of the buffer with a vector
// element type (the same binding), taken when all four masks hold and i is a
// multiple of four; otherwise the four scalar accesses run as before.
// 32-bit elements move as one 16-byte vector of four; 16-bit ones, where
// the target has 16-bit types, as two 32-bit words (8 bytes,
// `vector<2xi32>`), each bit cast to two elements, which keeps them packed
// two to a register.
//
// Where Triton's divisibility hints (`tt.divisibility` on arguments) prove i
// a multiple of four and the four masks equal (`i + k < n` with n a multiple
// of four), the group is one vector access under the first mask, as Triton's
// own backends emit it: no scalar fallback.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "triton-spirv/Conversion/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_VECTORIZEMEMORYACCESSES
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
constexpr int64_t kWidth = triton_spirv::kVectorAccessElements;

/// `value` with the index casts on it looked through.
Value skipIndexCasts(Value value) {
  while (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp>(
      value.getDefiningOp()))
    value = value.getDefiningOp()->getOperand(0);
  return value;
}

/// An index as a sum of terms plus a constant, through `arith.addi`,
/// constants and index casts: enough to see that two indices differ by a
/// constant. (Casts come from arith-int-range-narrowing, which narrows only
/// what provably fits, so a cast of a sum is the sum of the casts.)
struct IndexSum {
  SmallVector<Value> terms; // sorted
  int64_t constant = 0;

  static IndexSum of(Value index) {
    IndexSum sum;
    SmallVector<Value> pending = {index};
    while (!pending.empty()) {
      Value value = skipIndexCasts(pending.pop_back_val());
      if (auto constant = getConstantIntValue(value)) {
        sum.constant += *constant;
        continue;
      }
      if (auto add = value.getDefiningOp<arith::AddIOp>()) {
        pending.push_back(add.getLhs());
        pending.push_back(add.getRhs());
        continue;
      }
      sum.terms.push_back(value);
    }
    llvm::sort(sum.terms, [](Value a, Value b) {
      return a.getAsOpaquePointer() < b.getAsOpaquePointer();
    });
    return sum;
  }
};

/// The largest power of two (at most kMaxDivisor) that `value` is known to
/// be a multiple of, from constants, Triton's `tt.divisibility` hints on the
/// kernel's scalar arguments and pointers (the element offset of a pointer
/// argument: bindings start 16-byte aligned, KernelABI.td), and the integer
/// ops between them.
constexpr int64_t kMaxDivisor = 1 << 16;

int64_t powerOfTwoDivisor(int64_t value) {
  if (value == 0)
    return kMaxDivisor;
  return std::min<int64_t>(kMaxDivisor, value & -value);
}

/// Triton's divisibility hint on `function`'s argument `index` (1 without).
int64_t divisibilityHint(func::FuncOp function, unsigned index) {
  auto hint = function.getArgAttrOfType<IntegerAttr>(index, "tt.divisibility");
  return hint ? powerOfTwoDivisor(hint.getInt()) : 1;
}

int64_t knownDivisor(Value value, unsigned depth = 0) {
  if (depth > 16)
    return 1;
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return powerOfTwoDivisor(*constant);
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Operation *owner = argument.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner)) {
      if (argument != loop.getInductionVar())
        return 1;
      return std::min(knownDivisor(loop.getLowerBound(), depth + 1),
                      knownDivisor(loop.getStep(), depth + 1));
    }
    auto kernel = dyn_cast<func::FuncOp>(owner);
    if (!kernel)
      return 1;
    unsigned index = argument.getArgNumber();
    FailureOr<std::optional<triton_spirv::KernelArgRole>> role =
        triton_spirv::getArgRole(kernel, index);
    if (failed(role) || !*role)
      return 1;
    if (**role == triton_spirv::KernelArgRole::Scalar)
      return divisibilityHint(kernel, index);
    if (**role != triton_spirv::KernelArgRole::Offset)
      return 1;
    // The element offset of a pointer argument: its address hint, in
    // elements of its buffer (the first buffer of the same argument).
    auto argIndex = kernel.getArgAttrOfType<IntegerAttr>(
        index, triton_spirv::kArgIndexAttrName);
    for (BlockArgument buffer : kernel.getArguments()) {
      auto type = dyn_cast<MemRefType>(buffer.getType());
      auto bufferIndex = kernel.getArgAttrOfType<IntegerAttr>(
          buffer.getArgNumber(), triton_spirv::kArgIndexAttrName);
      if (!type || !bufferIndex || !argIndex ||
          bufferIndex.getInt() != argIndex.getInt() ||
          !type.getElementType().isIntOrFloat())
        continue;
      int64_t bytes = std::min<int64_t>(
          divisibilityHint(kernel, buffer.getArgNumber()), 16);
      int64_t elementBytes =
          std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
      return std::max<int64_t>(bytes / elementBytes, 1);
    }
    return 1;
  }
  Operation *op = value.getDefiningOp();
  auto operand = [&](unsigned index) {
    return knownDivisor(op->getOperand(index), depth + 1);
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(op))
    return operand(0);
  // x rem max(y, 1) (a remainder kept from dividing by zero; canonical
  // form puts the constant second) is x rem y, or 0 where the 1 is taken.
  if (isa<arith::RemUIOp, arith::RemSIOp>(op)) {
    Operation *divisor = skipIndexCasts(op->getOperand(1)).getDefiningOp();
    if (isa_and_nonnull<arith::MaxSIOp, arith::MaxUIOp>(divisor) &&
        getConstantIntValue(divisor->getOperand(1)) == 1)
      return std::min(operand(0),
                      knownDivisor(divisor->getOperand(0), depth + 1));
  }
  // (x rem c = x - q * c.)
  if (isa<arith::AddIOp, arith::SubIOp, arith::MinSIOp, arith::MaxSIOp,
          arith::MinUIOp, arith::MaxUIOp, arith::RemUIOp, arith::RemSIOp>(op))
    return std::min(operand(0), operand(1));
  if (isa<arith::MulIOp>(op))
    return std::min(kMaxDivisor, operand(0) * operand(1));
  if (isa<arith::SelectOp>(op))
    return std::min(operand(1), operand(2));
  return 1;
}

/// Whether `mask` (the mask of the run's element `lane`) holds exactly when
/// `first` (the mask of its element 0) does: the same value, a conjunction
/// of such, or `x + lane < n` against `x < n` with x and n multiples of
/// kWidth.
bool sameInRun(Value first, Value mask, int64_t lane) {
  if (first == mask)
    return true;
  auto firstAnd = first.getDefiningOp<arith::AndIOp>();
  auto maskAnd = mask.getDefiningOp<arith::AndIOp>();
  if (firstAnd && maskAnd)
    return sameInRun(firstAnd.getLhs(), maskAnd.getLhs(), lane) &&
           sameInRun(firstAnd.getRhs(), maskAnd.getRhs(), lane);
  auto firstCompare = first.getDefiningOp<arith::CmpIOp>();
  auto maskCompare = mask.getDefiningOp<arith::CmpIOp>();
  if (!firstCompare || !maskCompare ||
      firstCompare.getPredicate() != maskCompare.getPredicate() ||
      !llvm::is_contained({arith::CmpIPredicate::slt,
                           arith::CmpIPredicate::ult},
                          firstCompare.getPredicate()) ||
      firstCompare.getRhs() != maskCompare.getRhs())
    return false;
  IndexSum base = IndexSum::of(firstCompare.getLhs());
  IndexSum shifted = IndexSum::of(maskCompare.getLhs());
  return shifted.terms == base.terms &&
         shifted.constant == base.constant + lane &&
         knownDivisor(firstCompare.getLhs()) % kWidth == 0 &&
         knownDivisor(firstCompare.getRhs()) % kWidth == 0;
}

/// A scalar load or store of a kernel buffer, alone or as the only work of
/// an `scf.if` on its mask.
struct Access {
  Operation *op = nullptr;           // the load, the store or the scf.if
  Operation *access = nullptr;       // the memref.load or memref.store
  Value mask;                        // null when unmasked
  Value buffer, index, storedValue;  // storedValue: stores only

  /// The access `op` is, of a buffer whose elements the pass merges (16-bit
  /// ones with `sixteenBit`).
  static std::optional<Access> match(Operation *op, bool sixteenBit) {
    Access result;
    result.op = op;
    if (auto guard = dyn_cast<scf::IfOp>(op)) {
      Block *then = guard.thenBlock();
      if (then->getOperations().size() != 2)
        return std::nullopt;
      result.access = &then->front();
      result.mask = guard.getCondition();
      auto yield = cast<scf::YieldOp>(then->getTerminator());
      if (isa<memref::LoadOp>(result.access)) {
        // if (mask) load else fill: the load's value is the if's result.
        if (guard.getNumResults() != 1 || yield.getOperand(0) !=
                                              result.access->getResult(0) ||
            guard.elseBlock()->getOperations().size() != 1)
          return std::nullopt;
      } else if (!isa<memref::StoreOp>(result.access) ||
                 guard.getNumResults() != 0 || guard.elseBlock()) {
        return std::nullopt;
      }
    } else {
      result.access = op;
    }
    if (auto load = dyn_cast<memref::LoadOp>(result.access)) {
      result.buffer = load.getMemRef();
      if (load.getIndices().size() != 1)
        return std::nullopt;
      result.index = load.getIndices()[0];
    } else if (auto store = dyn_cast<memref::StoreOp>(result.access)) {
      result.buffer = store.getMemRef();
      if (store.getIndices().size() != 1)
        return std::nullopt;
      result.index = store.getIndices()[0];
      result.storedValue = store.getValueToStore();
    } else {
      return std::nullopt;
    }
    // Tensor arguments of 32- or 16-bit elements (not the debug buffer,
    // whose layout the runtime reads).
    auto type = cast<MemRefType>(result.buffer.getType());
    auto argument = dyn_cast<BlockArgument>(result.buffer);
    auto kernel = argument ? dyn_cast<func::FuncOp>(
                                 argument.getOwner()->getParentOp())
                           : func::FuncOp();
    Type element = type.getElementType();
    if (!kernel || type.getMemorySpace() || !element.isIntOrFloat())
      return std::nullopt;
    unsigned bits = element.getIntOrFloatBitWidth();
    if (bits != 32 && (bits != 16 || !sixteenBit))
      return std::nullopt;
    FailureOr<std::optional<triton_spirv::KernelArgRole>> role =
        triton_spirv::getArgRole(kernel, argument.getArgNumber());
    if (failed(role) || *role != triton_spirv::KernelArgRole::Buffer)
      return std::nullopt;
    return result;
  }

  bool isLoad() const { return isa<memref::LoadOp>(access); }
};

struct VectorizeMemoryAccessesPass
    : triton_spirv::impl::VectorizeMemoryAccessesBase<
          VectorizeMemoryAccessesPass> {
  using VectorizeMemoryAccessesBase::VectorizeMemoryAccessesBase;
  /// Whether runs of 16-bit elements merge too (set per run).
  bool sixteenBit = false;

  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> target =
        triton_spirv::lookupTarget(getOperation());
    if (failed(target))
      return signalPassFailure();
    // Runs of 16-bit elements too, where the target has 16-bit types.
    const triton_spirv::TargetFeatures &has = target->description.features;
    sixteenBit = has.float16 && has.int16;
    getOperation().walk([&](func::FuncOp kernel) {
      if (!kernel->hasAttr(triton_spirv::kKernelAttrName))
        return;
      Aliases aliases;
      SmallVector<Block *> blocks;
      kernel.walk([&](Block *block) { blocks.push_back(block); });
      for (Block *block : blocks)
        vectorizeBlock(kernel, block, aliases);
    });
  }

  /// A kernel's vector aliases of its buffer arguments, by argument and
  /// vector type.
  using Aliases = DenseMap<std::pair<Value, Type>, Value>;

  /// Groups of kWidth adjacent accesses of one kind to one buffer at
  /// consecutive indices.
  void vectorizeBlock(func::FuncOp kernel, Block *block, Aliases &aliases) {
    // Groups by their ops: merging one group replaces values that later
    // groups use, so their accesses are matched again when merged.
    SmallVector<SmallVector<Operation *>> groups;
    SmallVector<Access> run;
    for (Operation &op : *block) {
      std::optional<Access> access = Access::match(&op, sixteenBit);
      if (!access) {
        run.clear();
        continue;
      }
      if (!run.empty() && !continues(run, *access))
        run.clear();
      run.push_back(*access);
      if (static_cast<int64_t>(run.size()) == kWidth) {
        groups.push_back(llvm::map_to_vector(
            run, [](const Access &access) { return access.op; }));
        run.clear();
      }
    }
    for (ArrayRef<Operation *> ops : groups) {
      SmallVector<Access> group;
      for (Operation *op : ops)
        group.push_back(*Access::match(op, sixteenBit));
      vectorize(kernel, group, aliases);
    }
  }

  /// Whether `next` extends `run` (same kind, buffer and masking, the next
  /// index).
  static bool continues(ArrayRef<Access> run, const Access &next) {
    const Access &first = run.front();
    if (next.isLoad() != first.isLoad() || next.buffer != first.buffer ||
        static_cast<bool>(next.mask) != static_cast<bool>(first.mask))
      return false;
    IndexSum base = IndexSum::of(first.index), sum = IndexSum::of(next.index);
    return sum.terms == base.terms &&
           sum.constant == base.constant + static_cast<int64_t>(run.size());
  }

  /// The alias of `buffer` (a kernel argument) with elements of `type`:
  /// another argument bound to the same buffer.
  static Value aliasOf(func::FuncOp kernel, BlockArgument buffer,
                       VectorType type, Aliases &aliases) {
    auto key = std::make_pair(buffer, type);
    if (Value found = aliases.lookup(key))
      return found;
    unsigned position = kernel.getNumArguments();
    auto aliasType = MemRefType::get({ShapedType::kDynamic}, type);
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute attr : cast<FunctionOpInterface>(*kernel).getArgAttrs(
             buffer.getArgNumber()))
      if (attr.getName() == triton_spirv::kAbiAttrName ||
          attr.getName() == triton_spirv::kArgIndexAttrName)
        attrs.push_back(attr);
    if (failed(kernel.insertArgument(position, aliasType,
                                     DictionaryAttr::get(kernel.getContext(),
                                                         attrs),
                                     buffer.getLoc())))
      return Value();
    Value alias = kernel.getArgument(position);
    aliases[key] = alias;
    return alias;
  }

  static void vectorize(func::FuncOp kernel, ArrayRef<Access> group,
                        Aliases &aliases) {
    const Access &first = group.front();
    Operation *last = group.back().op;
    Location loc = first.op->getLoc();
    OpBuilder builder(last);
    builder.setInsertionPointAfter(last);
    Type element = cast<MemRefType>(first.buffer.getType()).getElementType();
    // Lanes of 32 bits: the elements, or pairs of 16-bit ones.
    unsigned bits = element.getIntOrFloatBitWidth();
    auto vectorType = VectorType::get(
        {kWidth * bits / 32}, bits == 32 ? element : builder.getI32Type());
    Value alias = aliasOf(kernel, cast<BlockArgument>(first.buffer),
                          vectorType, aliases);
    if (!alias)
      return;
    Value width = arith::ConstantIndexOp::create(builder, loc, kWidth);
    Value slot = arith::DivUIOp::create(builder, loc, first.index, width);
    // Proven aligned with equal masks: the vector access under the first
    // mask (masked-off loads give the fills, as each scalar load did).
    // Otherwise it is taken when all four masks hold and the index is a
    // multiple of kWidth, and the scalar accesses run as they were.
    bool proven = knownDivisor(first.index) % kWidth == 0 &&
                  llvm::all_of(llvm::enumerate(group), [&](auto lane) {
                    return sameInRun(first.mask, lane.value().mask,
                                     lane.index());
                  });
    Value condition = first.mask;
    if (!proven) {
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      condition = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq,
          arith::RemUIOp::create(builder, loc, first.index, width), zero);
      for (const Access &access : group)
        if (access.mask)
          condition =
              arith::AndIOp::create(builder, loc, condition, access.mask);
    }
    SmallVector<Value> results;
    if (!condition) {
      results = vectorAccess(builder, group, alias, slot);
    } else {
      SmallVector<Type> resultTypes;
      if (first.isLoad())
        resultTypes.assign(kWidth, element);
      auto branch =
          scf::IfOp::create(builder, loc, resultTypes, condition,
                            /*withElseRegion=*/first.isLoad() || !proven);
      // scf.if builds the terminators of result-less branches itself.
      auto startOf = [&](Block *block) {
        if (first.isLoad())
          builder.setInsertionPointToStart(block);
        else
          builder.setInsertionPoint(block->getTerminator());
      };
      auto yield = [&](ValueRange values) {
        if (first.isLoad())
          scf::YieldOp::create(builder, loc, values);
      };
      startOf(branch.thenBlock());
      yield(vectorAccess(builder, group, alias, slot));
      if (branch.elseBlock()) {
        startOf(branch.elseBlock());
        SmallVector<Value> others;
        for (const Access &access : group) {
          if (proven) { // the fill of a masked load
            others.push_back(cast<scf::IfOp>(access.op)
                                 .elseBlock()
                                 ->getTerminator()
                                 ->getOperand(0));
            continue;
          }
          Operation *moved = builder.clone(*access.op);
          llvm::append_range(others, moved->getResults());
        }
        yield(others);
      }
      llvm::append_range(results, branch.getResults());
    }
    if (first.isLoad())
      for (auto [access, result] : llvm::zip(group, results))
        access.op->getResult(0).replaceAllUsesWith(result);
    for (const Access &access : llvm::reverse(group))
      access.op->erase();
  }

  /// One vector access of `alias` at `slot` for the group: a load gives its
  /// kWidth elements, a store writes the group's values. 16-bit elements are
  /// the halves of the vector's 32-bit lanes, the first the low one (SPIR-V's
  /// bit casts and Vulkan's memory are little-endian); bf16 halves go
  /// through i16, as the emulation of bf16 (SmallFloats) bit casts scalars
  /// only.
  static SmallVector<Value> vectorAccess(OpBuilder &builder,
                                         ArrayRef<Access> group, Value alias,
                                         Value slot) {
    const Access &first = group.front();
    Location loc = first.op->getLoc();
    auto vectorType =
        cast<VectorType>(cast<MemRefType>(alias.getType()).getElementType());
    int64_t lanes = vectorType.getNumElements();
    int64_t perLane = kWidth / lanes;
    Type element = cast<MemRefType>(first.buffer.getType()).getElementType();
    // The type of each half as a word's bit cast gives it.
    Type pairElement =
        isa<BFloat16Type>(element) ? builder.getI16Type() : element;
    auto pairType = VectorType::get({perLane}, pairElement);
    auto castTo = [&](Type type, Value value) -> Value {
      if (value.getType() == type)
        return value;
      return arith::BitcastOp::create(builder, loc, type, value);
    };
    auto wordType = VectorType::get({1}, vectorType.getElementType());
    if (!first.isLoad()) {
      SmallVector<Value> values =
          llvm::map_to_vector(group, [&](const Access &access) {
            return castTo(pairElement, access.storedValue);
          });
      if (perLane > 1) {
        SmallVector<Value> words;
        for (int64_t lane = 0; lane < lanes; ++lane) {
          Value pair = vector::FromElementsOp::create(
              builder, loc, pairType,
              ArrayRef(values).slice(lane * perLane, perLane));
          Value word = vector::BitCastOp::create(builder, loc, wordType, pair);
          words.push_back(vector::ExtractOp::create(builder, loc, word, 0));
        }
        values = std::move(words);
      }
      Value vector =
          vector::FromElementsOp::create(builder, loc, vectorType, values);
      memref::StoreOp::create(builder, loc, vector, alias, slot);
      return {};
    }
    Value vector = memref::LoadOp::create(builder, loc, alias, slot);
    SmallVector<Value> elements;
    for (int64_t lane = 0; lane < lanes; ++lane) {
      Value value = vector::ExtractOp::create(builder, loc, vector, lane);
      if (perLane == 1) {
        elements.push_back(value);
        continue;
      }
      Value word =
          vector::FromElementsOp::create(builder, loc, wordType, value);
      Value pair = vector::BitCastOp::create(builder, loc, pairType, word);
      for (int64_t position = 0; position < perLane; ++position)
        elements.push_back(castTo(
            element, vector::ExtractOp::create(builder, loc, pair, position)));
    }
    return elements;
  }
};
} // namespace
