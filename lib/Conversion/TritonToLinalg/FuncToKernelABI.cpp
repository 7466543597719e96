//===- FuncToKernelABI.cpp - tt.func kernels to the kernel ABI ------------===//

#include "Patterns.h"
#include "PointerRoots.h"
#include "triton-spirv/Conversion/DebugBuffer.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONFUNCTOKERNELABI
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
using triton_spirv::kArgIndexAttrName;
using triton_spirv::KernelArgRole;

/// What the kernel ABI gives each pointer argument: the element types
/// through which it is accessed (its own pointee type first, then those of
/// pointers reinterpreted by tt.bitcast or tt.int_to_ptr; each becomes one
/// aliasing buffer argument), and whether an access through it checks its
/// bounds.
struct PointerArgUses {
  llvm::SetVector<Type> accessTypes;
  bool boundsChecked = false;
};

/// The pointer roots of a kernel: how each pointer argument is used, and
/// the address roots (tt.int_to_ptr results, numbered in order of first
/// access) with the element types accessed through each.
struct PointerRootUses {
  SmallVector<PointerArgUses> args;
  llvm::MapVector<Value, llvm::SetVector<Type>> addresses;
};

/// Marks every memory op (and bounds check) with the kernel argument or the
/// address root its pointer derives from, and returns how each is used.
FailureOr<PointerRootUses> annotatePointerRoots(triton::FuncOp func) {
  PointerRootUses uses;
  uses.args.resize(func.getNumArguments());
  for (BlockArgument arg : func.getArguments())
    if (auto ptrType = dyn_cast<PointerType>(arg.getType()))
      uses.args[arg.getArgNumber()].accessTypes.insert(
          ptrType.getPointeeType());
  Builder builder(func.getContext());
  WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
    // Accesses through pointers, and the bounds checks of such accesses.
    Value pointer = isa<triton_spirv::PointerInBoundsOp>(op)
                        ? op->getOperand(0)
                        : triton_spirv::accessedPointer(op);
    if (!pointer)
      return WalkResult::advance();
    FailureOr<Value> root = triton_spirv::findPointerRoot(pointer, op);
    if (failed(root))
      return WalkResult::interrupt();
    Type accessType = cast<PointerType>(getElementTypeOrSelf(pointer.getType()))
                          .getPointeeType();
    llvm::SetVector<Type> *accessTypes;
    if (triton_spirv::isAddressRoot(*root)) {
      if (isa<triton_spirv::PointerInBoundsOp>(op)) {
        op->emitError("bounds of pointers with an address root are unknown");
        return WalkResult::interrupt();
      }
      auto [entry, inserted] = uses.addresses.try_emplace(*root);
      if (inserted)
        entry->second.insert(
            cast<PointerType>(root->getType()).getPointeeType());
      op->setAttr(triton_spirv::kRootAddressAttrName,
                  builder.getI64IntegerAttr(entry - uses.addresses.begin()));
      accessTypes = &entry->second;
    } else {
      unsigned argIndex = cast<BlockArgument>(*root).getArgNumber();
      op->setAttr(triton_spirv::kRootArgAttrName,
                  builder.getI64IntegerAttr(argIndex));
      if (isa<triton_spirv::PointerInBoundsOp>(op)) {
        uses.args[argIndex].boundsChecked = true;
        return WalkResult::advance();
      }
      accessTypes = &uses.args[argIndex].accessTypes;
    }
    // Block pointers are rejected by the memory lowering.
    if (!isa<ShapedType>(accessType))
      accessTypes->insert(accessType);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return uses;
}

/// Whether `value` is only used to make addresses: by tt.int_to_ptr, or by
/// integer arithmetic whose results are.
bool feedsOnlyAddresses(Value value) {
  return llvm::all_of(value.getUsers(), [](Operation *user) {
    if (isa<IntToPtrOp>(user))
      return true;
    return user->getNumRegions() == 0 && user->getNumResults() == 1 &&
           isa<arith::ArithDialect>(user->getDialect()) &&
           feedsOnlyAddresses(user->getResult(0));
  });
}

/// The pointer arguments whose elements address roots are read from (the
/// launcher gives them device addresses): each address must be loaded from
/// a pointer argument, then at most offset by integer arithmetic, and such
/// an argument is only read, and only for addresses.
FailureOr<llvm::SetVector<unsigned>>
findAddressTables(triton::FuncOp func, const PointerRootUses &uses) {
  llvm::SetVector<unsigned> tables;
  for (Value root : uses.addresses.keys()) {
    auto toPointer = root.getDefiningOp<IntToPtrOp>();
    SmallVector<Value> worklist{toPointer.getSrc()};
    llvm::SmallPtrSet<Value, 8> visited;
    bool loaded = false;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!visited.insert(value).second)
        continue;
      Operation *def = value.getDefiningOp();
      if (auto load = dyn_cast_or_null<LoadOp>(def)) {
        auto argIndex = load->getAttrOfType<IntegerAttr>(
            triton_spirv::kRootArgAttrName);
        if (!argIndex)
          return toPointer.emitError("unsupported pointer: its address is "
                                     "loaded through another address; "
                                     "only addresses read from a kernel "
                                     "argument reach device memory");
        tables.insert(argIndex.getInt());
        loaded = true;
        continue;
      }
      if (!def || def->getNumRegions() != 0 ||
          !isa<arith::ArithDialect>(def->getDialect()))
        return toPointer.emitError(
            "unsupported pointer: tt.int_to_ptr of an integer that is not "
            "read from a kernel pointer argument (an address table) and "
            "offset by arithmetic; the launcher gives device addresses only "
            "to the elements of such tables");
      worklist.append(def->operand_begin(), def->operand_end());
    }
    if (!loaded)
      return toPointer.emitError("unsupported pointer: tt.int_to_ptr of a "
                                 "constant address");
  }
  if (tables.empty())
    return tables;
  // The launcher binds each table's translated copy: its elements must not
  // be read as numbers, nor written.
  WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
    auto argIndex =
        op->getAttrOfType<IntegerAttr>(triton_spirv::kRootArgAttrName);
    if (!argIndex || !tables.contains(argIndex.getInt()) ||
        isa<triton_spirv::PointerInBoundsOp>(op))
      return WalkResult::advance();
    auto load = dyn_cast<LoadOp>(op);
    if (load && feedsOnlyAddresses(load.getResult()))
      return WalkResult::advance();
    op->emitError("kernel argument ")
        << argIndex.getInt()
        << " holds addresses (tt.int_to_ptr of its elements); it may "
           "only be read, and only for addresses";
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  return tables;
}

/// Views of `address` as buffers of each of `elementTypes`, for an address
/// root numbered `root` or (without one) a pointer argument passed by
/// address.
SmallVector<Value> addressBuffers(OpBuilder &b, Location loc, Value address,
                                  const llvm::SetVector<Type> &elementTypes,
                                  IntegerAttr root) {
  auto space = spirv::StorageClassAttr::get(
      b.getContext(), spirv::StorageClass::PhysicalStorageBuffer);
  return llvm::map_to_vector(elementTypes, [&](Type elementType) -> Value {
    return triton_spirv::AddressBufferOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic}, elementType,
                        MemRefLayoutAttrInterface(), space),
        address, root);
  });
}

/// Replaces each address root by a pointer cast of (address buffers..., 0),
/// as pointer arguments are rebuilt from (buffer, offset): one address
/// buffer per element type accessed through it, each kept by the cast until
/// the accesses are lowered.
void materializeAddressRoots(const PointerRootUses &uses) {
  for (auto [number, entry] : llvm::enumerate(uses.addresses)) {
    auto toPointer = entry.first.getDefiningOp<IntToPtrOp>();
    OpBuilder b(toPointer);
    Location loc = toPointer.getLoc();
    SmallVector<Value> buffers =
        addressBuffers(b, loc, toPointer.getSrc(), entry.second,
                       b.getI64IntegerAttr(number));
    buffers.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    toPointer.replaceAllUsesWith(
        UnrealizedConversionCastOp::create(b, loc, toPointer.getType(), buffers)
            .getResult(0));
    toPointer.erase();
  }
}

/// "file:line:col" of the first file location in `loc`.
std::string sourceLocation(Location loc) {
  auto file = loc->findInstanceOf<FileLineColLoc>();
  if (!file)
    return "unknown location";
  return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
          Twine(file.getColumn()))
      .str();
}

/// Numbers the kernel's tt.assert and tt.print ops and describes them for
/// the launcher, which reports them from the debug buffer: each assertion's
/// message and source location, each print's prefix, radix and operands
/// (element type, signedness, shape). Null when there are none.
DictionaryAttr describeDebugOps(triton::FuncOp func) {
  Builder b(func.getContext());
  SmallVector<Attribute> asserts, prints;
  func.walk([&](Operation *op) {
    if (auto assertOp = dyn_cast<AssertOp>(op)) {
      op->setAttr(triton_spirv::debug_buffer::kIdAttrName,
                  b.getI64IntegerAttr(asserts.size()));
      asserts.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("message", assertOp.getMessageAttr()),
           b.getNamedAttr("location",
                          b.getStringAttr(sourceLocation(op->getLoc())))}));
    } else if (auto print = dyn_cast<PrintOp>(op)) {
      op->setAttr(triton_spirv::debug_buffer::kIdAttrName,
                  b.getI64IntegerAttr(prints.size()));
      SmallVector<Attribute> operands;
      for (auto [position, value] : llvm::enumerate(print.getArgs())) {
        Type element = getElementTypeOrSelf(value.getType());
        std::string typeName;
        if (isa<PointerType>(element))
          typeName = "ptr"; // its element offset, printed as an address
        else
          llvm::raw_string_ostream(typeName) << element;
        SmallVector<int64_t> shape;
        if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
          shape.assign(tensor.getShape().begin(), tensor.getShape().end());
        operands.push_back(b.getDictionaryAttr(
            {b.getNamedAttr("type", b.getStringAttr(typeName)),
             b.getNamedAttr("signed",
                            b.getBoolAttr(print.isSignedOperand(position))),
             b.getNamedAttr("shape", b.getI64ArrayAttr(shape))}));
      }
      prints.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("prefix", print.getPrefixAttr()),
           b.getNamedAttr("hex", print.getHexAttr()),
           b.getNamedAttr("operands", b.getArrayAttr(operands))}));
    }
  });
  if (asserts.empty() && prints.empty())
    return {};
  return b.getDictionaryAttr(
      {b.getNamedAttr("asserts", b.getArrayAttr(asserts)),
       b.getNamedAttr("prints", b.getArrayAttr(prints))});
}

LogicalResult convertKernel(triton::FuncOp func,
                            ArrayRef<unsigned> addressArguments) {
  if (func.isExternal())
    return func.emitError("kernel '") << func.getName() << "' has no body";
  if (!func.getResultTypes().empty())
    return func.emitError("kernel '")
           << func.getName() << "' returns values; kernels return nothing";
  FailureOr<PointerRootUses> rootUses = annotatePointerRoots(func);
  if (failed(rootUses))
    return failure();
  FailureOr<llvm::SetVector<unsigned>> addressTables =
      findAddressTables(func, *rootUses);
  if (failed(addressTables))
    return failure();
  materializeAddressRoots(*rootUses);
  ArrayRef<PointerArgUses> pointerUses = rootUses->args;
  llvm::SmallDenseSet<unsigned> byAddress(addressArguments.begin(),
                                          addressArguments.end());
  for (unsigned index : byAddress) {
    if (index >= func.getNumArguments() ||
        !isa<PointerType>(func.getArgument(index).getType()))
      return func.emitError("address-arguments names argument ")
             << index << ", which is not a pointer argument";
    if (addressTables->contains(index))
      return func.emitError("kernel argument ")
             << index
             << " holds addresses (an address table, bound as a copy); it "
                "cannot be passed by address";
  }

  MLIRContext *ctx = func.getContext();
  Builder builder(ctx);
  SmallVector<Type> argTypes;
  SmallVector<Attribute> argAttrs;
  SmallVector<Location> argLocs;
  // `index`: the Triton argument the new argument stands for, if any.
  auto addArg = [&](Type type, KernelArgRole role,
                    std::optional<unsigned> index, DictionaryAttr original,
                    Location loc) {
    NamedAttrList attrs(original);
    NamedAttribute roleAttr = triton_spirv::roleAttr(builder, role);
    attrs.set(roleAttr.getName(), roleAttr.getValue());
    if (index)
      attrs.set(kArgIndexAttrName, builder.getI64IntegerAttr(*index));
    argTypes.push_back(type);
    argAttrs.push_back(attrs.getDictionary(ctx));
    argLocs.push_back(loc);
  };
  // Position of the first new argument of each original one.
  SmallVector<unsigned> firstNewArg;
  for (BlockArgument arg : func.getArguments()) {
    unsigned index = arg.getArgNumber();
    firstNewArg.push_back(argTypes.size());
    DictionaryAttr original = func.getArgAttrDict(index);
    auto ptrType = dyn_cast<PointerType>(arg.getType());
    if (!ptrType) {
      if (!arg.getType().isIntOrFloat())
        return func.emitError("kernel argument ")
               << index << " has unsupported type " << arg.getType();
      addArg(arg.getType(), KernelArgRole::Scalar, index, original,
             arg.getLoc());
      continue;
    }
    if (isa<ShapedType>(ptrType.getPointeeType()))
      return func.emitError("kernel argument ")
             << index << " is a block pointer; pass plain pointers";
    const PointerArgUses &uses = pointerUses[index];
    if (byAddress.contains(index))
      addArg(builder.getI64Type(), KernelArgRole::Address, index, original,
             arg.getLoc());
    else
      for (Type elementType : uses.accessTypes)
        addArg(MemRefType::get({ShapedType::kDynamic}, elementType),
               KernelArgRole::Buffer, index, original, arg.getLoc());
    addArg(builder.getIndexType(), KernelArgRole::Offset, index,
           DictionaryAttr(), arg.getLoc());
    if (uses.boundsChecked)
      for (KernelArgRole role :
           {KernelArgRole::BoundsBegin, KernelArgRole::BoundsEnd})
        addArg(builder.getIndexType(), role, index, DictionaryAttr(),
               arg.getLoc());
  }
  // Kernels that print or assert write to a debug buffer.
  DictionaryAttr debugFormats = describeDebugOps(func);
  if (debugFormats)
    addArg(MemRefType::get({ShapedType::kDynamic}, builder.getI32Type()),
           KernelArgRole::Debug, std::nullopt, DictionaryAttr(), func.getLoc());
  for (auto roleOfAxis :
       {triton_spirv::programIdRole, triton_spirv::numProgramsRole})
    for (unsigned axis = 0; axis < 3; ++axis)
      addArg(builder.getI32Type(), roleOfAxis(axis), std::nullopt,
             DictionaryAttr(), func.getLoc());

  IRRewriter rewriter(ctx);
  rewriter.setInsertionPoint(func);
  auto kernel = func::FuncOp::create(rewriter, func.getLoc(), func.getName(),
                                     builder.getFunctionType(argTypes, {}));
  kernel.setAllArgAttrs(argAttrs);
  kernel->setAttr(triton_spirv::kKernelAttrName, builder.getUnitAttr());
  if (debugFormats)
    kernel->setAttr(triton_spirv::debug_buffer::kFormatsAttrName, debugFormats);
  if (!addressTables->empty())
    kernel->setAttr(triton_spirv::kAddressTablesAttrName,
                    builder.getDenseI64ArrayAttr(llvm::to_vector_of<int64_t>(
                        addressTables->getArrayRef())));
  Block *entry = kernel.addEntryBlock();
  for (auto [arg, loc] : llvm::zip(entry->getArguments(), argLocs))
    arg.setLoc(loc);

  // Rebuild each pointer argument from its buffer and offset.
  rewriter.setInsertionPointToStart(entry);
  SmallVector<Value> replacements;
  for (BlockArgument arg : func.getArguments()) {
    unsigned first = firstNewArg[arg.getArgNumber()];
    if (!isa<PointerType>(arg.getType())) {
      replacements.push_back(entry->getArgument(first));
      continue;
    }
    // The buffers (one per accessed element type), then the offset; an
    // argument passed by address has its address in their place, and the
    // cast keeps its address buffers until the accesses are lowered.
    const PointerArgUses &uses = pointerUses[arg.getArgNumber()];
    SmallVector<Value> parts;
    if (byAddress.contains(arg.getArgNumber())) {
      parts = addressBuffers(rewriter, arg.getLoc(), entry->getArgument(first),
                             uses.accessTypes, IntegerAttr());
      parts.push_back(entry->getArgument(first + 1));
    } else {
      parts = {entry->getArgument(first),
               entry->getArgument(first + uses.accessTypes.size())};
    }
    replacements.push_back(UnrealizedConversionCastOp::create(
                               rewriter, arg.getLoc(), arg.getType(), parts)
                               .getResult(0));
  }
  // Program ids x, y, z, then the numbers of programs.
  ArrayRef<BlockArgument> grid = entry->getArguments().take_back(6);
  constexpr unsigned kNumProgramsFirst = 3;
  rewriter.inlineBlockBefore(&func.getBody().front(), entry, entry->end(),
                             replacements);
  rewriter.inlineRegionBefore(func.getBody(), kernel.getBody(),
                              kernel.getBody().end());

  kernel.walk([&](Operation *op) {
    rewriter.setInsertionPoint(op);
    if (auto pid = dyn_cast<GetProgramIdOp>(op))
      rewriter.replaceOp(op, grid[static_cast<unsigned>(pid.getAxis())]);
    else if (auto num = dyn_cast<GetNumProgramsOp>(op))
      rewriter.replaceOp(
          op, grid[kNumProgramsFirst + static_cast<unsigned>(num.getAxis())]);
    else if (auto ret = dyn_cast<ReturnOp>(op))
      rewriter.replaceOpWithNewOp<func::ReturnOp>(op, ret.getOperands());
    else if (isa<LLVM::AssumeOp>(op))
      rewriter.eraseOp(op); // tl.assume hints carry no semantics
  });
  rewriter.eraseOp(func);
  return success();
}

struct TritonFuncToKernelABIPass
    : public triton_spirv::impl::TritonFuncToKernelABIBase<
          TritonFuncToKernelABIPass> {
  using TritonFuncToKernelABIBase::TritonFuncToKernelABIBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(triton_spirv::reportUnsupportedOps(
            module, [](Operation *op) -> std::optional<std::string> {
              auto call = dyn_cast<CallOp>(op);
              if (!call)
                return std::nullopt;
              return ("call to '" + call.getCallee() +
                      "' remains after inlining; device function calls are "
                      "not supported")
                  .str();
            })))
      return signalPassFailure();
    for (auto func :
         llvm::make_early_inc_range(module.getOps<triton::FuncOp>())) {
      if (!func.isPublic()) {
        // Device functions are inlined by now; unused ones are dropped.
        func.erase();
        continue;
      }
      if (failed(convertKernel(func, llvm::to_vector(addressArguments))))
        return signalPassFailure();
    }
  }
};
} // namespace
