//===- Pipeline.cpp - The --triton-to-linalg pipeline ---------------------===//

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::triton_spirv::buildTritonToLinalgPipeline(
    OpPassManager &pm, bool boundsChecks, ArrayRef<unsigned> addressArguments) {
  // Device functions (tt.call) are inlined; kernels get the buffer ABI.
  pm.addPass(createTritonLowerTTGBarriers());
  pm.addPass(createTritonAccumulateBFloat16());
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createTritonFoldPointerRoundTrips());
  pm.addPass(createTritonFoldNullPointerCompares());
  pm.addPass(createTritonSplitPointerSelects());
  pm.addPass(createTritonDecomposeDotScaled());
  // A row read in several passes is read once where the passes run once.
  pm.addPass(createTritonVersionSingleIterationLoops());
  pm.addPass(createCSEPass());
  pm.addPass(createTritonReuseLoads());
  // Checked once each access has a single argument behind its pointer.
  if (boundsChecks)
    pm.addPass(createTritonInsertBoundsChecks());
  TritonFuncToKernelABIOptions abi;
  abi.addressArguments.assign(addressArguments.begin(),
                              addressArguments.end());
  pm.addPass(createTritonFuncToKernelABI(abi));
  // Early returns are cf branches; SPIR-V needs structured control flow.
  pm.addPass(createLiftControlFlowToSCFPass());
  pm.addPass(createTritonIndexSwitchToIf());
  pm.addPass(createTritonRecognizePairSwaps());
  pm.addPass(createTritonReshapePointersBeforeLoads());
  pm.addPass(createTritonReshapeIndexComputations());
  // Structured accesses first; the rest element by element.
  pm.addPass(createTritonStructuredMemory());
  pm.addPass(createTritonTensorsToLinalg());
  pm.addPass(createTritonPointersToMemRef());
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::triton_spirv::registerTritonToLinalgPipeline() {
  registerTritonToLinalgPasses();
  PassPipelineRegistration<>(
      "triton-to-linalg",
      "Lower TTIR to linalg/tensor/memref with the kernel buffer ABI",
      [](OpPassManager &pm) { buildTritonToLinalgPipeline(pm); });
}
