//===- Pipeline.cpp - The --triton-to-spirv pipeline ----------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::triton_spirv::buildLinalgToSPIRVPipeline(
    OpPassManager &pm, const TritonToSPIRVOptions &options) {
  // Every later pass reads the target's facts from the module; an unknown
  // target or feature fails this first pass (and the tool's exit status).
  ResolveTargetOptions target;
  target.target = options.target;
  target.features = llvm::to_vector(options.features);
  target.subgroupSize = options.subgroupSize;
  target.maxWorkgroupMemory = options.maxWorkgroupMemory;
  target.maxWorkgroupSize = options.maxWorkgroupSize;
  target.workgroupSize = options.numWarps * 32;
  target.cooperativeMatrix = options.cooperativeMatrix;
  pm.addPass(createResolveTarget(target));
  pm.addPass(createBFloat16CooperativeOperands());
  pm.addPass(createFoldBlockCopies());
  pm.addPass(createFuseElementwise());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createChunkMatmulReduction());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createBufferizeToWorkgroup());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSeedReductions());
  pm.addPass(createSplitRowReductions());
  pm.addPass(createPlanMatmuls());
  pm.addPass(createAssignLayouts());
  pm.addPass(createCheckMatmulStagings());
  pm.addPass(createCoalesceTransposedStagings());
  pm.addPass(createHoistOperandLoads());
  pm.addPass(createDistributeToWorkgroup());
  pm.addPass(createRemoveRedundantBarriers());
  pm.addPass(createReuseWorkgroupMemory());
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createUnrollRegisterLoops());
  // 64-bit integer math where the values provably fit 32 bits (Triton's
  // int64 offsets, most often) is done in 32 bits: GPUs emulate 64-bit
  // integers, and Mesa 22.3's lavapipe miscompiles the range check
  // `sext(x) >= 0 && sext(x) < n` that descriptor loads and stores emit,
  // and 64-bit loops over sign-extended bounds (loops go first).
  pm.addPass(createNarrowLoopIndices());
  pm.addPass(
      arith::createArithIntRangeNarrowing({/*bitwidthsSupported=*/{32}}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createVectorizeMemoryAccesses());
  // What SPIR-V cannot express directly, rewritten kernel by kernel.
  pm.addPass(createAssignStorageClasses());
  pm.addPass(createCheckWorkgroupMemory());
  pm.addPass(createUnrollForLoopLimit());
  pm.addPass(createCheckLoopIterations());
  pm.addPass(createRoundCorrectly());
  // Compare-and-swap updates first: their bodies are ordinary arithmetic,
  // which bf16 and fp8 emulation then computes in f32.
  pm.addPass(createAtomicsToCompareAndSwap());
  pm.addPass(createEmulateSmallFloats());
  pm.addPass(createExpandDoubleMath());
  pm.addPass(createLegalizeForSPIRV());
  pm.addPass(createExpandRemainders());
  if (options.fpFusion)
    pm.addPass(createFuseMultiplyAdds());
  // One spirv.module per kernel, its ABI, then the conversion and what
  // the converted module still needs.
  pm.addPass(createCreateShaderModules());
  pm.addPass(createOutlineFragmentCallbacks());
  pm.addPass(createLowerKernelABI());
  pm.addPass(createConvertToSPIRV());
  pm.addPass(createRetypeBFloat16Matrices());
  pm.addPass(createOrderAtomics());
  pm.addPass(createForbidContraction());
  OpPassManager &spirvModule = pm.nest<spirv::ModuleOp>();
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(createPreserveDenormals());
  spirvModule.addPass(createComputeElementAddresses());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
  spirvModule.addPass(createSetTargetVersion());
  spirvModule.addPass(createDeclareImpliedCapabilities());
  spirvModule.addPass(createDeclareReadOnlyBuffers());
  spirvModule.addPass(createCanonicalizerPass());
  spirvModule.addPass(createCSEPass());
  pm.addPass(createWriteBinary({options.output}));
}

void mlir::triton_spirv::registerTritonToSPIRVPipeline() {
  registerLinalgToSPIRVPasses();
  // Registered directly rather than through PassPipelineRegistration: options
  // that do not parse must fail the pipeline (and the tool's exit status),
  // not leave it empty.
  registerPassPipeline(
      "triton-to-spirv",
      "Compile TTIR to a Vulkan compute shader (see --triton-spirv-write-"
      "binary for the files written with output=)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)>) -> LogicalResult {
        TritonToSPIRVOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        buildTritonToLinalgPipeline(
            pm, options.boundsChecks,
            llvm::to_vector(options.addressArguments));
        buildLinalgToSPIRVPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const ::mlir::detail::PassOptions &)> handler) {
        handler(TritonToSPIRVOptions());
      });
}
