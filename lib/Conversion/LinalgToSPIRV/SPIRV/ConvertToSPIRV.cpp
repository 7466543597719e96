//===- ConvertToSPIRV.cpp - Kernel bodies to SPIR-V -----------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Conversion/KernelABI.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "FragmentCallbacks.h"
#include "Legalization.h"
#include "ShaderModule.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/ControlFlowToSPIRV/ControlFlowToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/UBToSPIRV/UBToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_CONVERTTOSPIRV
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Converts the ops of `spirvModule` (its kernel, whose workgroup buffers
/// with vector accesses are `vectorWidths`, and its callbacks).
LogicalResult
convertModule(spirv::ModuleOp spirvModule, spirv::TargetEnvAttr targetEnv,
              const SPIRVTypeConverter &typeConverter,
              const triton_spirv::WorkgroupVectorWidths &vectorWidths) {
  MLIRContext *context = spirvModule.getContext();
  std::unique_ptr<ConversionTarget> conversionTarget =
      SPIRVConversionTarget::get(targetEnv);
  // Argument casts meet their inverse casts and are folded afterwards.
  conversionTarget->addLegalOp<UnrealizedConversionCastOp>();
  RewritePatternSet patterns(context);
  ScfToSPIRVContext scfContext;
  arith::populateArithToSPIRVPatterns(typeConverter, patterns);
  populateMathToSPIRVPatterns(typeConverter, patterns);
  populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
  cf::populateControlFlowToSPIRVPatterns(typeConverter, patterns);
  populateMemRefToSPIRVPatterns(typeConverter, patterns);
  populateGPUToSPIRVPatterns(typeConverter, patterns);
  populateGpuWMMAToSPIRVCoopMatrixKHRConversionPatterns(typeConverter,
                                                        patterns);
  populateFuncToSPIRVPatterns(typeConverter, patterns);
  populateBuiltinFuncToSPIRVPatterns(typeConverter, patterns);
  index::populateIndexToSPIRVPatterns(typeConverter, patterns);
  ub::populateUBToSPIRVConversionPatterns(typeConverter, patterns);
  populateVectorToSPIRVPatterns(typeConverter, patterns);
  triton_spirv::populateConvertToSPIRVPatterns(typeConverter, patterns);
  triton_spirv::populateFragmentVariablePatterns(typeConverter, patterns);
  triton_spirv::populateWorkgroupVectorPatterns(typeConverter, vectorWidths,
                                                patterns);
  // Compare-and-swap loops first: they create scf.while loops, which the
  // main conversion then lowers with everything else.
  ConversionTarget atomicsTarget(*context);
  atomicsTarget.addIllegalOp<memref::GenericAtomicRMWOp>();
  atomicsTarget.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  RewritePatternSet atomicPatterns(context);
  triton_spirv::populateAtomicToSPIRVPatterns(typeConverter, atomicPatterns);
  if (failed(applyPartialConversion(spirvModule, atomicsTarget,
                                    std::move(atomicPatterns))))
    return failure();
  if (failed(applyFullConversion(spirvModule, *conversionTarget,
                                 std::move(patterns))))
    return failure();
  SmallVector<UnrealizedConversionCastOp> casts, remaining;
  spirvModule.walk(
      [&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
  reconcileUnrealizedCasts(casts, &remaining);
  for (UnrealizedConversionCastOp cast : remaining)
    return cast.emitError("value of type ")
           << cast.getOperandTypes().front() << " has no SPIR-V equivalent";
  return success();
}

/// Replaces the shader module `shader` by a spirv.module of its addressing
/// model, with its ops and attributes.
spirv::ModuleOp createSPIRVModule(ModuleOp shader) {
  auto addressing = shader->getAttrOfType<spirv::AddressingModelAttr>(
      triton_spirv::kShaderAddressingAttrName);
  OpBuilder builder(shader);
  auto spirvModule =
      spirv::ModuleOp::create(builder, shader.getLoc(), addressing.getValue(),
                              spirv::MemoryModel::GLSL450);
  for (NamedAttribute attribute : shader->getDiscardableAttrs())
    if (attribute.getName() != triton_spirv::kShaderAddressingAttrName)
      spirvModule->setAttr(attribute.getName(), attribute.getValue());
  Block *body = spirvModule.getBody();
  body->getOperations().splice(body->end(), shader.getBody()->getOperations());
  shader.erase();
  return spirvModule;
}

struct ConvertToSPIRVPass
    : triton_spirv::impl::ConvertToSPIRVBase<ConvertToSPIRVPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<triton_spirv::ModuleTarget> resolved =
        triton_spirv::lookupTarget(module);
    if (failed(resolved))
      return signalPassFailure();
    SPIRVConversionOptions options;
    SPIRVTypeConverter typeConverter(resolved->env, options);
    populateMMAToSPIRVCoopMatrixTypeConversion(typeConverter);
    triton_spirv::addFragmentVariableConversion(typeConverter);
    SmallVector<ModuleOp> shaders;
    for (auto shader : module.getOps<ModuleOp>())
      if (shader->hasAttr(triton_spirv::kShaderAddressingAttrName))
        shaders.push_back(shader);
    for (ModuleOp shader : shaders) {
      spirv::ModuleOp spirvModule = createSPIRVModule(shader);
      SmallVector<func::FuncOp> kernels;
      for (auto func : spirvModule.getOps<func::FuncOp>())
        if (func->hasAttr(triton_spirv::kKernelAttrName))
          kernels.push_back(func);
      triton_spirv::WorkgroupVectorWidths vectorWidths;
      SmallVector<std::string> names;
      for (func::FuncOp kernel : kernels) {
        names.push_back(kernel.getName().str());
        FailureOr<triton_spirv::WorkgroupVectorWidths> found =
            triton_spirv::findWorkgroupVectorBuffers(kernel);
        if (failed(found))
          return signalPassFailure();
        vectorWidths.insert(found->begin(), found->end());
      }
      if (failed(convertModule(spirvModule, resolved->env, typeConverter,
                               vectorWidths)))
        return signalPassFailure();
      for (StringRef name : names) {
        if (!spirvModule.lookupSymbol<spirv::FuncOp>(name)) {
          spirvModule.emitError("kernel '") << name << "' was not converted";
          return signalPassFailure();
        }
      }
    }
  }
};
} // namespace
