//===- Pipeline.cpp - The --triton-to-spirv pipeline ----------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"
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

LogicalResult mlir::triton_spirv::buildLinalgToSPIRVPipeline(
    OpPassManager &pm, const TritonToSPIRVOptions &options) {
  // (MLIR 22's const ListOption cannot be read as an ArrayRef.)
  SmallVector<std::string> features = llvm::to_vector(options.features);
  TargetOverrides overrides{features, options.maxWorkgroupMemory,
                            options.maxWorkgroupSize, options.subgroupSize};
  std::string error;
  FailureOr<TargetDescription> target =
      resolveTarget(options.target, overrides, error);
  if (failed(target)) {
    llvm::errs() << error << "\n";
    return failure();
  }
  unsigned workgroupSize = options.numWarps * 32;
  unsigned maxWorkgroupMemory = target->maxWorkgroupMemoryBytes;

  unsigned subgroupSize = target->subgroupSize;
  // Cooperative matrices are used with NVIDIA's 32-wide subgroups.
  bool cooperativeMatrix = options.cooperativeMatrix &&
                           target->features.cooperativeMatrix &&
                           subgroupSize == 32;
  bool bfloat16CooperativeMatrix =
      cooperativeMatrix && target->features.bfloat16CooperativeMatrix;
  if (bfloat16CooperativeMatrix)
    pm.addPass(
        createBFloat16CooperativeOperands({workgroupSize, subgroupSize}));
  pm.addPass(createFoldBlockCopies());
  pm.addPass(createFuseElementwise());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  bool cooperativeMatrix2 =
      cooperativeMatrix && target->features.cooperativeMatrix2;
  pm.addPass(createChunkMatmulReduction(
      {maxWorkgroupMemory, cooperativeMatrix2, workgroupSize, subgroupSize}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createBufferizeToWorkgroup());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSeedReductions());
  pm.addPass(createSplitRowReductions({workgroupSize}));
  pm.addPass(createAssignLayouts({workgroupSize, subgroupSize,
                                  cooperativeMatrix, maxWorkgroupMemory,
                                  bfloat16CooperativeMatrix,
                                  cooperativeMatrix2}));
  pm.addPass(createCoalesceTransposedStagings({maxWorkgroupMemory}));
  pm.addPass(createHoistOperandLoads());
  pm.addPass(createDistributeToWorkgroup({workgroupSize, subgroupSize,
                                          cooperativeMatrix, maxWorkgroupMemory,
                                          bfloat16CooperativeMatrix}));
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
  pm.addPass(createVectorizeMemoryAccesses(
      {/*sixteenBit=*/target->features.float16 && target->features.int16}));
  KernelToSPIRVOptions lowering;
  lowering.target = options.target;
  lowering.workgroupSize = workgroupSize;
  lowering.subgroupSize = subgroupSize;
  lowering.features = features;
  lowering.maxWorkgroupMemory = options.maxWorkgroupMemory;
  lowering.maxWorkgroupSize = options.maxWorkgroupSize;
  lowering.fpFusion = options.fpFusion;
  pm.addPass(createKernelToSPIRV(lowering));
  OpPassManager &spirvModule = pm.nest<spirv::ModuleOp>();
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
  spirvModule.addPass(createSetTargetVersion());
  spirvModule.addPass(createDeclareImpliedCapabilities());
  spirvModule.addPass(createDeclareReadOnlyBuffers());
  spirvModule.addPass(createCanonicalizerPass());
  spirvModule.addPass(createCSEPass());
  pm.addPass(createWriteBinary({options.output}));
  return success();
}

void mlir::triton_spirv::registerTritonToSPIRVPipeline() {
  registerLinalgToSPIRVPasses();
  // Registered directly rather than through PassPipelineRegistration, whose
  // builders return nothing: an unknown target or feature must fail the
  // pipeline (and the tool's exit status), not leave it empty.
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
        return buildLinalgToSPIRVPipeline(pm, options);
      },
      [](function_ref<void(const detail::PassOptions &)> handler) {
        handler(TritonToSPIRVOptions());
      });
}
