//===- LowerKernelABI.cpp - Kernel arguments as the Vulkan kernel ABI -----===//

#include "triton-spirv/Conversion/DebugBuffer.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Conversion/KernelABI.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "Legalization.h"
#include "ShaderModule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_LOWERKERNELABI
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using triton_spirv::KernelArgRole;

namespace {
std::string typeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}

/// One 32- or 64-bit push-constant member; narrower scalars are widened by
/// the runtime and narrowed back here.
Type pushConstantSlotType(Type type) {
  MLIRContext *context = type.getContext();
  if (isa<IndexType>(type))
    return IntegerType::get(context, 32);
  if (auto floatType = dyn_cast<FloatType>(type))
    return floatType.getWidth() == 64 ? type : Float32Type::get(context);
  return type.getIntOrFloatBitWidth() == 64 ? type
                                            : IntegerType::get(context, 32);
}

Value narrowFromSlot(OpBuilder &b, Location loc, Value slot, Type type) {
  if (slot.getType() == type)
    return slot;
  if (isa<IndexType>(type))
    return arith::IndexCastOp::create(b, loc, type, slot);
  if (isa<FloatType>(type))
    return arith::TruncFOp::create(b, loc, type, slot);
  if (type.isInteger(1)) {
    Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, slot, zero);
  }
  return arith::TruncIOp::create(b, loc, type, slot);
}

class KernelLowering {
public:
  KernelLowering(func::FuncOp kernel, ModuleOp shader,
                 const SPIRVTypeConverter &typeConverter,
                 const triton_spirv::TargetDescription &target,
                 unsigned workgroupSize, int64_t workgroupMemoryBytes)
      : kernel(kernel), shader(shader), typeConverter(typeConverter),
        target(target), workgroupSize(workgroupSize),
        workgroupMemoryBytes(workgroupMemoryBytes),
        builder(kernel.getContext()) {}

  /// Replaces the kernel's arguments by interface variables and records the
  /// layout in `triton_spirv.abi` on the shader module.
  LogicalResult lowerArguments();

private:
  /// A scalar the launcher writes: into the push-constant block, or, when
  /// the kernel has more than the target's push constants hold, its element
  /// offsets and scalar arguments into an argument buffer.
  struct PushConstant {
    triton_spirv::KernelArgRole role;
    int64_t argIndex;
    Type type;     // type in the kernel
    Type slotType; // type in the block
    unsigned offset = 0;
    bool inArgumentBuffer = false;
    SmallVector<Value> uses; // block arguments it replaces
  };

  PushConstant &addPushConstant(triton_spirv::KernelArgRole role,
                                int64_t argIndex, Type type);
  /// Replaces `arg` (a memref) by the storage buffer variable `name` at
  /// `binding`.
  LogicalResult bindStorageBuffer(BlockArgument arg, const Twine &name,
                                  unsigned binding);
  /// Lays out the slots of one block; returns its size in bytes.
  unsigned layOut(bool argumentBuffer);
  /// Declares the block (push constants or a storage buffer at `binding`)
  /// and loads its slots at the kernel entry; returns the loaded values (null
  /// for the other block's slots) and appends the slots' metadata records.
  SmallVector<Value> loadBlock(bool argumentBuffer, unsigned binding,
                               SmallVectorImpl<Attribute> &records);

  func::FuncOp kernel;
  ModuleOp shader;
  const SPIRVTypeConverter &typeConverter;
  const triton_spirv::TargetDescription &target;
  unsigned workgroupSize;
  int64_t workgroupMemoryBytes;
  OpBuilder builder;
  SmallVector<PushConstant> pushConstants;
};

KernelLowering::PushConstant &
KernelLowering::addPushConstant(triton_spirv::KernelArgRole role,
                                int64_t argIndex, Type type) {
  pushConstants.push_back({role, argIndex, type, pushConstantSlotType(type)});
  return pushConstants.back();
}

unsigned KernelLowering::layOut(bool argumentBuffer) {
  unsigned bytes = 0;
  for (PushConstant &member : pushConstants) {
    if (member.inArgumentBuffer != argumentBuffer)
      continue;
    unsigned size = member.slotType.getIntOrFloatBitWidth() / 8;
    member.offset = llvm::alignTo(bytes, size);
    bytes = member.offset + size;
  }
  return bytes;
}

SmallVector<Value>
KernelLowering::loadBlock(bool argumentBuffer, unsigned binding,
                          SmallVectorImpl<Attribute> &records) {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  SmallVector<Type> memberTypes;
  SmallVector<spirv::StructType::OffsetInfo> offsets;
  SmallVector<unsigned> positions(pushConstants.size());
  for (auto [position, member] : llvm::enumerate(pushConstants)) {
    if (member.inArgumentBuffer != argumentBuffer)
      continue;
    positions[position] = memberTypes.size();
    memberTypes.push_back(member.slotType);
    offsets.push_back(member.offset);
  }
  SmallVector<Value> loaded(pushConstants.size());
  if (memberTypes.empty())
    return loaded;
  auto blockType = spirv::PointerType::get(
      spirv::StructType::get(memberTypes, offsets),
      argumentBuffer ? spirv::StorageClass::StorageBuffer
                     : spirv::StorageClass::PushConstant);
  OpBuilder moduleBuilder(shader.getBody(), shader.getBody()->begin());
  spirv::GlobalVariableOp block =
      argumentBuffer
          ? spirv::GlobalVariableOp::create(moduleBuilder, loc, blockType,
                                            "__arguments",
                                            /*descriptorSet=*/0, binding)
          : spirv::GlobalVariableOp::create(
                moduleBuilder, loc, TypeAttr::get(blockType),
                builder.getStringAttr("__push_constants"), nullptr);
  Value blockAddress = spirv::AddressOfOp::create(builder, loc, block);
  for (auto [position, member] : llvm::enumerate(pushConstants)) {
    if (member.inArgumentBuffer != argumentBuffer)
      continue;
    Value memberIndex = spirv::ConstantOp::create(
        builder, loc, builder.getI32Type(),
        builder.getI32IntegerAttr(positions[position]));
    Value memberAddress =
        spirv::AccessChainOp::create(builder, loc, blockAddress, memberIndex);
    Value slot = spirv::LoadOp::create(builder, loc, memberAddress);
    loaded[position] = slot;
    for (Value use : member.uses)
      use.replaceAllUsesWith(narrowFromSlot(builder, loc, slot, member.type));
    SmallVector<NamedAttribute> fields{
        builder.getNamedAttr(
            "role", builder.getStringAttr(
                        triton_spirv::stringifyKernelArgRole(member.role))),
        builder.getNamedAttr("offset",
                             builder.getI64IntegerAttr(member.offset)),
        builder.getNamedAttr("type",
                             builder.getStringAttr(typeName(member.slotType)))};
    if (member.argIndex >= 0)
      fields.push_back(builder.getNamedAttr(
          "arg_index", builder.getI64IntegerAttr(member.argIndex)));
    records.push_back(DictionaryAttr::get(context, fields));
  }
  return loaded;
}

LogicalResult KernelLowering::lowerArguments() {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  Block &entry = kernel.getBody().front();
  builder.setInsertionPointToStart(&entry);

  // Storage buffers: binding = position of the pointer argument among the
  // pointer arguments; aliases (other element types) share the binding.
  SmallVector<Attribute> bindingRecords;
  DenseMap<int64_t, unsigned> bindingOfArg;
  std::optional<int64_t> programIdArgs[3];
  SmallVector<std::pair<KernelArgRole, BlockArgument>> gridArgs;
  BlockArgument debugBuffer;
  for (BlockArgument arg : entry.getArguments()) {
    unsigned index = arg.getArgNumber();
    FailureOr<std::optional<KernelArgRole>> role =
        triton_spirv::getArgRole(kernel, index);
    if (failed(role))
      return failure();
    auto argIndexAttr = kernel.getArgAttrOfType<IntegerAttr>(
        index, triton_spirv::kArgIndexAttrName);
    if (!*role)
      return kernel.emitError("kernel argument #")
             << index << " has no triton_spirv.abi role";
    int64_t argIndex = argIndexAttr ? argIndexAttr.getInt() : -1;
    switch (**role) {
    case KernelArgRole::Buffer: {
      auto memrefType = cast<MemRefType>(arg.getType());
      auto [it, inserted] =
          bindingOfArg.try_emplace(argIndex, bindingOfArg.size());
      unsigned binding = it->second;
      if (failed(bindStorageBuffer(arg,
                                   "__arg" + Twine(argIndex) + "_" +
                                       typeName(memrefType.getElementType()),
                                   binding)))
        return failure();
      bindingRecords.push_back(DictionaryAttr::get(
          context,
          {builder.getNamedAttr("binding", builder.getI64IntegerAttr(binding)),
           builder.getNamedAttr("arg_index",
                                builder.getI64IntegerAttr(argIndex)),
           builder.getNamedAttr(
               "element_type",
               builder.getStringAttr(typeName(memrefType.getElementType())))}));
      continue;
    }
    case KernelArgRole::Debug:
      debugBuffer = arg;
      continue;
    case KernelArgRole::Offset:
    case KernelArgRole::Scalar:
    case KernelArgRole::BoundsBegin:
    case KernelArgRole::BoundsEnd:
    case KernelArgRole::Address:
      addPushConstant(**role, argIndex, arg.getType()).uses.push_back(arg);
      continue;
    case KernelArgRole::NumProgramsX:
    case KernelArgRole::NumProgramsY:
    case KernelArgRole::NumProgramsZ:
      gridArgs.push_back({**role, arg});
      continue;
    case KernelArgRole::ProgramIdX:
    case KernelArgRole::ProgramIdY:
    case KernelArgRole::ProgramIdZ:
      programIdArgs[*triton_spirv::programIdAxis(**role)] = index;
      continue;
    case KernelArgRole::ProgramIdBaseX:
    case KernelArgRole::ProgramIdBaseY:
    case KernelArgRole::ProgramIdBaseZ:
      break;
    }
    return kernel.emitError("kernel argument #")
           << index << " has role '" << stringifyKernelArgRole(**role)
           << "', which only the SPIR-V stage assigns";
  }
  for (auto [role, arg] : gridArgs)
    addPushConstant(role, -1, arg.getType()).uses.push_back(arg);
  // Program ids: WorkgroupId plus a base, for grids split over dispatches.
  gpu::Dimension dims[] = {gpu::Dimension::x, gpu::Dimension::y,
                           gpu::Dimension::z};
  SmallVector<std::pair<unsigned, unsigned>> programIdBases;
  for (unsigned dim = 0; dim < 3; ++dim) {
    programIdBases.push_back({dim, pushConstants.size()});
    addPushConstant(triton_spirv::programIdBaseRole(dim), -1,
                    builder.getI32Type());
  }
  // Too many scalars for push constants: element offsets and scalar
  // arguments move to an argument buffer bound after the tensors; the grid
  // and the program id bases (written per dispatch) stay.
  unsigned pushConstantBytes = layOut(/*argumentBuffer=*/false);
  unsigned argumentBytes = 0;
  if (pushConstantBytes > target.maxPushConstantBytes) {
    for (PushConstant &member : pushConstants)
      member.inArgumentBuffer = member.role == KernelArgRole::Offset ||
                                member.role == KernelArgRole::Scalar ||
                                member.role == KernelArgRole::BoundsBegin ||
                                member.role == KernelArgRole::BoundsEnd ||
                                member.role == KernelArgRole::Address;
    argumentBytes = layOut(/*argumentBuffer=*/true);
    pushConstantBytes = layOut(/*argumentBuffer=*/false);
  }
  unsigned argumentBinding = bindingOfArg.size();
  SmallVector<Attribute> pushConstantRecords, argumentRecords;
  SmallVector<Value> loaded =
      loadBlock(/*argumentBuffer=*/false, 0, pushConstantRecords);
  SmallVector<Value> loadedArguments =
      loadBlock(/*argumentBuffer=*/true, argumentBinding, argumentRecords);
  for (auto [position, value] : llvm::enumerate(loadedArguments))
    if (value)
      loaded[position] = value;
  // The debug buffer (device_print/device_assert) is bound last.
  unsigned debugBinding = argumentBinding + (argumentBytes ? 1 : 0);
  if (debugBuffer &&
      failed(bindStorageBuffer(debugBuffer, "__debug", debugBinding)))
    return failure();
  for (auto [dim, position] : programIdBases) {
    std::optional<int64_t> argNumber = programIdArgs[dim];
    if (!argNumber)
      continue;
    Value workgroupId = gpu::BlockIdOp::create(builder, loc, dims[dim]);
    Value id = arith::IndexCastOp::create(builder, loc, builder.getI32Type(),
                                          workgroupId);
    Value programId = arith::AddIOp::create(builder, loc, id, loaded[position]);
    entry.getArgument(*argNumber).replaceAllUsesWith(programId);
  }

  // The kernel now takes no arguments.
  llvm::BitVector all(entry.getNumArguments(), true);
  if (failed(kernel.eraseArguments(all)))
    return failure();
  SmallVector<NamedAttribute> abi{
      builder.getNamedAttr("entry_point",
                           builder.getStringAttr(kernel.getName())),
      builder.getNamedAttr("workgroup_size",
                           builder.getI64ArrayAttr({workgroupSize, 1, 1})),
      builder.getNamedAttr("bindings", builder.getArrayAttr(bindingRecords)),
      builder.getNamedAttr("push_constants",
                           builder.getArrayAttr(pushConstantRecords)),
      builder.getNamedAttr("push_constant_bytes",
                           builder.getI64IntegerAttr(pushConstantBytes)),
      builder.getNamedAttr("workgroup_memory_bytes",
                           builder.getI64IntegerAttr(workgroupMemoryBytes))};
  if (auto tables = kernel->getAttrOfType<DenseI64ArrayAttr>(
          triton_spirv::kAddressTablesAttrName))
    abi.push_back(builder.getNamedAttr(
        "address_tables", builder.getI64ArrayAttr(tables.asArrayRef())));
  if (argumentBytes)
    abi.push_back(builder.getNamedAttr(
        "argument_buffer",
        builder.getDictionaryAttr(
            {builder.getNamedAttr("binding",
                                  builder.getI64IntegerAttr(argumentBinding)),
             builder.getNamedAttr("bytes",
                                  builder.getI64IntegerAttr(argumentBytes)),
             builder.getNamedAttr("slots",
                                  builder.getArrayAttr(argumentRecords))})));
  if (debugBuffer) {
    using namespace triton_spirv::debug_buffer;
    auto formats = kernel->getAttrOfType<DictionaryAttr>(kFormatsAttrName);
    if (!formats)
      return kernel.emitError("debug buffer without ") << kFormatsAttrName;
    NamedAttrList record(formats);
    auto number = [&](StringRef name, int64_t value) {
      record.set(name, builder.getI64IntegerAttr(value));
    };
    // Print records only where the kernel prints (assertions, bounds checks
    // among them, need the header alone).
    auto prints = formats.getAs<ArrayAttr>("prints");
    unsigned capacity = prints && !prints.empty() ? kRecordCapacity : 0;
    number("binding", debugBinding);
    number("bytes", (kHeaderWords + kRecordWords * capacity) * 4);
    number("header_words", kHeaderWords);
    number("record_words", kRecordWords);
    number("capacity", capacity);
    number("failed_assert_word", kFailedAssertWord);
    number("failed_program_word", kFailedProgramWord);
    number("failed_index_word", kFailedIndexWord);
    number("record_count_word", kRecordCountWord);
    abi.push_back(
        builder.getNamedAttr("debug_buffer", record.getDictionary(context)));
  }
  shader->setAttr(triton_spirv::kAbiAttrName,
                  DictionaryAttr::get(context, abi));
  return success();
}

LogicalResult KernelLowering::bindStorageBuffer(BlockArgument arg,
                                                const Twine &name,
                                                unsigned binding) {
  auto memrefType = cast<MemRefType>(arg.getType());
  Type pointerType = typeConverter.convertType(memrefType);
  if (!pointerType)
    return kernel.emitError("the target cannot hold buffers of ")
           << memrefType.getElementType();
  Location loc = kernel.getLoc();
  OpBuilder moduleBuilder(shader.getBody(), shader.getBody()->begin());
  auto variable =
      spirv::GlobalVariableOp::create(moduleBuilder, loc, pointerType,
                                      name.str(), /*descriptorSet=*/0, binding);
  Value address = spirv::AddressOfOp::create(builder, loc, variable);
  Value buffer =
      UnrealizedConversionCastOp::create(builder, loc, memrefType, address)
          .getResult(0);
  arg.replaceAllUsesWith(buffer);
  return success();
}

struct LowerKernelABIPass
    : triton_spirv::impl::LowerKernelABIBase<LowerKernelABIPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<triton_spirv::ModuleTarget> resolved =
        triton_spirv::lookupTarget(module);
    if (failed(resolved))
      return signalPassFailure();
    SPIRVConversionOptions options;
    SPIRVTypeConverter typeConverter(resolved->env, options);
    unsigned workgroupSize = resolved->workgroup.workgroupSize;
    auto lower = [&](func::FuncOp kernel) -> LogicalResult {
      FailureOr<ModuleOp> shader = triton_spirv::getShaderModule(kernel);
      if (failed(shader))
        return failure();
      // (Checked against the target by --triton-spirv-check-workgroup-memory.)
      int64_t bytes = triton_spirv::workgroupMemoryBytes(kernel);
      unsigned invocations = workgroupSize;
      if (auto used = kernel->getAttrOfType<IntegerAttr>(
              triton_spirv::kWorkgroupSizeAttrName))
        invocations = std::clamp<int64_t>(used.getInt(), 1, workgroupSize);
      if (failed(KernelLowering(kernel, *shader, typeConverter,
                                resolved->description, invocations, bytes)
                     .lowerArguments()))
        return failure();
      // The conversion keeps the attribute on the spirv.func, where
      // spirv-lower-abi-attrs makes it the entry point's execution mode.
      kernel->setAttr(
          spirv::getEntryPointABIAttrName(),
          spirv::getEntryPointABIAttr(
              &getContext(), {static_cast<int32_t>(invocations), 1, 1}));
      return success();
    };
    if (failed(triton_spirv::forEachKernel(module, lower)))
      signalPassFailure();
  }
};
} // namespace
