//===- FragmentCallbacks.cpp - Fragment ops as SPIR-V callbacks -----------===//

#include "FragmentCallbacks.h"
#include "Legalization.h"
#include "ShaderModule.h"

#include "triton-spirv/Analysis/MatmulPlan.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_OUTLINEFRAGMENTCALLBACKS
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
// A placeholder's name is its kind's prefix and its callback's name (a
// conversion has none: its placeholder is named after the kernel).
constexpr StringLiteral kReduceRowsPrefix = "__triton_spirv_reduce_rows__";
constexpr StringLiteral kPerElementPrefix = "__triton_spirv_per_element__";
constexpr StringLiteral kConvertPrefix = "__triton_spirv_convert__";

/// What a placeholder stands for.
enum class Placeholder { ReduceRows, PerElement, Convert };

// SPIR-V numbers (SPIRV-Headers' unified1 grammar; docs/notes/
// cooperative-matrix2.md).
constexpr uint32_t kOpName = 5;
constexpr uint32_t kOpExtension = 10;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kOpFunctionCall = 57;
constexpr uint32_t kOpFConvert = 115;
constexpr uint32_t kOpCooperativeMatrixReduceNV = 5366;
constexpr uint32_t kOpCooperativeMatrixPerElementOpNV = 5369;
constexpr uint32_t kCapabilityReductionsNV = 5430;
constexpr uint32_t kCapabilityConversionsNV = 5431;
constexpr uint32_t kCapabilityPerElementOperationsNV = 5432;
constexpr uint32_t kReduceRow = 1;
constexpr uint32_t kSpirv16 = 0x00010600;
constexpr StringLiteral kExtension = "SPV_NV_cooperative_matrix2";

/// Moves a fragment op's single-block body into a new private function
/// `name` of `module` that returns what the body yields.
func::FuncOp outlineBody(OpBuilder &builder, ModuleOp module, Region &body,
                         StringRef name, Location loc) {
  Block &block = body.front();
  builder.setInsertionPointToEnd(module.getBody());
  auto yield = cast<triton_spirv::YieldOp>(block.getTerminator());
  auto callback = func::FuncOp::create(
      builder, loc, name,
      builder.getFunctionType(block.getArgumentTypes(),
                              yield.getValue().getType()));
  callback.setPrivate();
  callback.getBody().takeBody(body);
  builder.setInsertionPoint(yield);
  func::ReturnOp::create(builder, loc, yield.getValue());
  yield.erase();
  return callback;
}

/// A private function `name` of `type` that returns its first argument (a
/// zero matrix where the result's type differs): a call of it stands for the
/// NV instruction until the binary is rewritten.
func::FuncOp createPlaceholder(OpBuilder &builder, ModuleOp module,
                               StringRef name, FunctionType type,
                               Location loc) {
  builder.setInsertionPointToEnd(module.getBody());
  auto placeholder = func::FuncOp::create(builder, loc, name, type);
  placeholder.setPrivate();
  Block *entry = placeholder.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  Value result = entry->getArgument(0);
  if (result.getType() != type.getResult(0)) {
    auto matrix = cast<gpu::MMAMatrixType>(type.getResult(0));
    Value zero = arith::ConstantOp::create(
        builder, loc, builder.getZeroAttr(matrix.getElementType()));
    result =
        gpu::SubgroupMmaConstantMatrixOp::create(builder, loc, matrix, zero);
  }
  func::ReturnOp::create(builder, loc, result);
  return placeholder;
}

/// The words of a string literal operand: UTF-8 bytes, NUL-terminated,
/// padded to whole words.
SmallVector<uint32_t> stringWords(StringRef text) {
  SmallVector<uint32_t> words(text.size() / 4 + 1, 0);
  for (auto [index, character] : llvm::enumerate(text))
    words[index / 4] |= uint32_t(uint8_t(character)) << (8 * (index % 4));
  return words;
}

/// The string literal at the start of `words`.
StringRef decodeString(ArrayRef<uint32_t> words) {
  const char *bytes = reinterpret_cast<const char *>(words.data());
  return StringRef(bytes, strnlen(bytes, words.size() * 4));
}

/// Whether `op` converts an accumulator to an accumulator.
bool keepsUse(triton_spirv::ConvertFragmentOp op) {
  return cast<gpu::MMAMatrixType>(op.getType()).getOperand() ==
         cast<gpu::MMAMatrixType>(op.getFragment().getType()).getOperand();
}

struct FragmentVariableToSPIRV
    : OpConversionPattern<triton_spirv::FragmentVariableOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(triton_spirv::FragmentVariableOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "unconvertible fragment type");
    rewriter.replaceOpWithNewOp<spirv::VariableOp>(
        op, type, spirv::StorageClass::Function, Value());
    return success();
  }
};

struct ReadFragmentToSPIRV : OpConversionPattern<triton_spirv::ReadFragmentOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(triton_spirv::ReadFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<spirv::LoadOp>(op, adaptor.getVariable());
    return success();
  }
};

/// A conversion that keeps the use (an accumulator of another element
/// type) is a plain `OpFConvert` (conversions between uses are outlined:
/// outlineFragmentCallbacks).
struct ConvertAccumulatorToSPIRV
    : OpConversionPattern<triton_spirv::ConvertFragmentOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(triton_spirv::ConvertFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!keepsUse(op))
      return rewriter.notifyMatchFailure(op, "converts between uses");
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "unconvertible fragment type");
    auto convert = rewriter.replaceOpWithNewOp<spirv::FConvertOp>(
        op, type, adaptor.getFragment());
    // To bf16 bits held as f16: retypeBFloat16Matrices gives it bf16.
    if (op->hasAttr(triton_spirv::kBFloat16MatrixAttrName))
      convert->setAttr(triton_spirv::kBFloat16MatrixAttrName,
                       rewriter.getUnitAttr());
    return success();
  }
};

struct WriteFragmentToSPIRV
    : OpConversionPattern<triton_spirv::WriteFragmentOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(triton_spirv::WriteFragmentOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<spirv::StoreOp>(op, adaptor.getVariable(),
                                                adaptor.getFragment());
    return success();
  }
};
} // namespace

void triton_spirv::addFragmentVariableConversion(
    SPIRVTypeConverter &typeConverter) {
  typeConverter.addConversion(
      [&typeConverter](FragmentVariableType type) -> std::optional<Type> {
        Type fragment = typeConverter.convertType(type.getFragment());
        if (!fragment)
          return std::nullopt;
        return spirv::PointerType::get(fragment,
                                       spirv::StorageClass::Function);
      });
}

void triton_spirv::populateFragmentVariablePatterns(
    const SPIRVTypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<FragmentVariableToSPIRV, ReadFragmentToSPIRV,
               WriteFragmentToSPIRV, ConvertAccumulatorToSPIRV>(
      typeConverter, patterns.getContext());
}

LogicalResult triton_spirv::outlineFragmentCallbacks(func::FuncOp kernel,
                                                     ModuleOp module,
                                                     bool cooperativeMatrix2) {
  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    auto convert = dyn_cast<ConvertFragmentOp>(op);
    if (isa<ReduceFragmentRowsOp, MapFragmentsOp>(op) ||
        (convert && !keepsUse(convert)))
      ops.push_back(op);
  });
  if (ops.empty())
    return success();
  if (!cooperativeMatrix2)
    return ops.front()->emitError("'")
           << ops.front()->getName()
           << "' needs the target's cooperative-matrix2 feature "
              "(VK_NV_cooperative_matrix2)";
  OpBuilder builder(kernel.getContext());
  for (auto [index, op] : llvm::enumerate(ops)) {
    Location loc = op->getLoc();
    std::string name;
    if (isa<ConvertFragmentOp>(op)) {
      name = (kConvertPrefix + kernel.getName() + "_" + Twine(index)).str();
    } else {
      bool reduce = isa<ReduceFragmentRowsOp>(op);
      std::string callbackName =
          (kernel.getName() + (reduce ? "_combine_rows_" : "_per_element_") +
           Twine(index))
              .str();
      outlineBody(builder, module, op->getRegion(0), callbackName, loc);
      name = ((reduce ? kReduceRowsPrefix : kPerElementPrefix) + callbackName)
                 .str();
    }
    func::FuncOp placeholder = createPlaceholder(
        builder, module, name,
        builder.getFunctionType(op->getOperandTypes(), op->getResultTypes()),
        loc);
    builder.setInsertionPoint(op);
    auto call =
        func::CallOp::create(builder, loc, placeholder, op->getOperands());
    op->replaceAllUsesWith(call);
    op->erase();
  }
  return success();
}

LogicalResult
triton_spirv::rewriteFragmentCallbackCalls(SmallVectorImpl<uint32_t> &binary,
                                           Operation *anchor) {
  constexpr size_t kHeaderWords = 5;
  auto malformed = [&] {
    return anchor->emitError("malformed SPIR-V binary after serialization");
  };
  if (binary.size() < kHeaderWords)
    return malformed();
  // Pass 1: the instructions' positions, and the functions' names.
  SmallVector<size_t> starts;
  llvm::StringMap<uint32_t> idsByName;
  for (size_t at = kHeaderWords; at < binary.size();) {
    uint32_t count = binary[at] >> 16;
    if (count == 0 || at + count > binary.size())
      return malformed();
    if ((binary[at] & 0xffff) == kOpName && count >= 3)
      idsByName[decodeString(ArrayRef(binary).slice(at + 2, count - 2))] =
          binary[at + 1];
    starts.push_back(at);
    at += count;
  }
  // Each placeholder's id: its kind and its callback's id.
  llvm::DenseMap<uint32_t, std::pair<Placeholder, uint32_t>> placeholders;
  for (const auto &entry : idsByName) {
    StringRef name = entry.getKey();
    if (name.starts_with(kConvertPrefix)) {
      placeholders[entry.getValue()] = {Placeholder::Convert, 0};
      continue;
    }
    Placeholder kind = name.consume_front(kReduceRowsPrefix)
                           ? Placeholder::ReduceRows
                           : Placeholder::PerElement;
    if (kind == Placeholder::PerElement &&
        !name.consume_front(kPerElementPrefix))
      continue;
    auto callback = idsByName.find(name);
    if (callback == idsByName.end())
      return anchor->emitError("no callback '") << name << "' in the binary";
    placeholders[entry.getValue()] = {kind, callback->getValue()};
  }
  if (placeholders.empty())
    return success();
  if (binary[1] < kSpirv16)
    return anchor->emitError(
        "VK_NV_cooperative_matrix2's instructions need SPIR-V 1.6");

  SmallVector<uint32_t> rewritten(binary.begin(),
                                  binary.begin() + kHeaderWords);
  bool reduces = false, mapsElements = false, converts = false;
  size_t afterCapabilities = kHeaderWords;
  for (size_t start : starts) {
    ArrayRef<uint32_t> inst(binary.data() + start, binary[start] >> 16);
    uint32_t opcode = inst[0] & 0xffff;
    auto found = opcode == kOpFunctionCall && inst.size() >= 5
                     ? placeholders.find(inst[3])
                     : placeholders.end();
    if (found == placeholders.end()) {
      rewritten.append(inst.begin(), inst.end());
      if (opcode == kOpCapability)
        afterCapabilities = rewritten.size();
      continue;
    }
    // OpFunctionCall: type, result, function, arguments (the fragment
    // first).
    auto [kind, callback] = found->second;
    if (kind == Placeholder::ReduceRows) {
      reduces = true;
      rewritten.append({(6u << 16) | kOpCooperativeMatrixReduceNV, inst[1],
                        inst[2], inst[4], kReduceRow, callback});
      continue;
    }
    if (kind == Placeholder::Convert) {
      converts = true;
      rewritten.append({(4u << 16) | kOpFConvert, inst[1], inst[2], inst[4]});
      continue;
    }
    // Matrix, function, then the extra operands: as many words as the call.
    mapsElements = true;
    rewritten.append({(uint32_t(inst.size()) << 16) |
                          kOpCooperativeMatrixPerElementOpNV,
                      inst[1], inst[2], inst[4], callback});
    rewritten.append(inst.begin() + 5, inst.end());
  }
  SmallVector<uint32_t> declarations;
  for (auto [used, capability] :
       {std::pair{reduces, kCapabilityReductionsNV},
        std::pair{converts, kCapabilityConversionsNV},
        std::pair{mapsElements, kCapabilityPerElementOperationsNV}})
    if (used)
      declarations.append({(2u << 16) | kOpCapability, capability});
  SmallVector<uint32_t> name = stringWords(kExtension);
  declarations.push_back((uint32_t(name.size() + 1) << 16) | kOpExtension);
  declarations.append(name);
  rewritten.insert(rewritten.begin() + afterCapabilities, declarations.begin(),
                   declarations.end());
  binary = std::move(rewritten);
  return success();
}

namespace {
struct OutlineFragmentCallbacksPass
    : triton_spirv::impl::OutlineFragmentCallbacksBase<
          OutlineFragmentCallbacksPass> {
  void runOnOperation() override {
    FailureOr<triton_spirv::ModuleTarget> resolved =
        triton_spirv::lookupTarget(getOperation());
    if (failed(resolved))
      return signalPassFailure();
    const triton_spirv::TargetFeatures &features =
        resolved->description.features;
    auto outline = [&](func::FuncOp kernel) -> LogicalResult {
      FailureOr<ModuleOp> shader = triton_spirv::getShaderModule(kernel);
      if (failed(shader))
        return failure();
      return triton_spirv::outlineFragmentCallbacks(
          kernel, *shader,
          features.cooperativeMatrix && features.cooperativeMatrix2);
    };
    if (failed(triton_spirv::forEachKernel(getOperation(), outline)))
      signalPassFailure();
  }
};
} // namespace
