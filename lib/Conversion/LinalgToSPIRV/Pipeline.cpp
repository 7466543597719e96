//===- Pipeline.cpp - The --triton-to-spirv pipeline ----------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

LogicalResult mlir::triton_spirv::buildLinalgToSPIRVPipeline(
    OpPassManager &pm, const TritonToSPIRVOptions &options) {
  std::optional<TargetDescription> target = lookupTarget(options.target);
  if (!target) {
    llvm::errs() << "unknown target '" << options.target
                 << "'; expected one of " << targetNames() << "\n";
    return failure();
  }
  unsigned workgroupSize = options.numWarps * 32;

  pm.addPass(createFoldBlockCopies());
  pm.addPass(createFuseElementwise());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createBufferizeToWorkgroup());
  pm.addPass(createCanonicalizerPass());
  unsigned subgroupSize =
      options.subgroupSize ? options.subgroupSize : target->subgroupSize;
  // Cooperative matrices are sized for the preset's subgroups.
  bool cooperativeMatrix = options.cooperativeMatrix &&
                           target->cooperativeMatrix &&
                           subgroupSize == target->subgroupSize;
  pm.addPass(createDistributeToWorkgroup(
      {workgroupSize, subgroupSize, cooperativeMatrix}));
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createKernelToSPIRV(
      {options.target, workgroupSize, subgroupSize, options.fpFusion}));
  OpPassManager &spirvModule = pm.nest<spirv::ModuleOp>();
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
  spirvModule.addPass(createSetTargetVersion());
  spirvModule.addPass(createCanonicalizerPass());
  spirvModule.addPass(createCSEPass());
  pm.addPass(createWriteBinary({options.output}));
  return success();
}

void mlir::triton_spirv::registerTritonToSPIRVPipeline() {
  registerLinalgToSPIRVPasses();
  PassPipelineRegistration<TritonToSPIRVOptions>(
      "triton-to-spirv",
      "Compile TTIR to a Vulkan compute shader (see --triton-spirv-write-"
      "binary for the files written with output=)",
      [](OpPassManager &pm, const TritonToSPIRVOptions &options) {
        buildTritonToLinalgPipeline(pm);
        return buildLinalgToSPIRVPipeline(pm, options);
      });
}
