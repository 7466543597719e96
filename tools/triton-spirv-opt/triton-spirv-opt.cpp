//===- triton-spirv-opt.cpp - mlir-opt style driver -----------------------===//
//
// Parses TTIR (and every upstream dialect the pipeline produces), runs the
// requested passes and prints the result.
//
//===----------------------------------------------------------------------===//

#include "DiagnosticsFile.h"
#include "RestoreSSANames.h"
#include "triton-spirv/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

static llvm::cl::opt<std::string> diagnosticsFile(
    "diagnostics-file",
    llvm::cl::desc("Also write the passes' diagnostics to this file as JSON "
                   "lines, with the data they carry"),
    llvm::cl::value_desc("path"), llvm::cl::init(""));

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv); // stack traces on crashes
  DialectRegistry registry;
  triton_spirv::registerAllDialects(registry);
  triton_spirv::registerAllPasses();

  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "triton-spirv optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    for (StringRef name : registry.getDialectNames())
      llvm::outs() << name << "\n";
    return EXIT_SUCCESS;
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return EXIT_SUCCESS;
  }

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return EXIT_FAILURE;
  }

  // When names are printed from name locations, first give location-less
  // block arguments the names they have in the input text.
  std::string bufferName = input->getBufferIdentifier().str();
  std::string sourceText = input->getBuffer().str();
  MlirOptMainConfig cliConfig = config;
  std::shared_ptr<llvm::raw_fd_ostream> diagnostics;
  if (!diagnosticsFile.empty() &&
      !(diagnostics = triton_spirv::openDiagnosticsFile(diagnosticsFile)))
    return EXIT_FAILURE;
  config.setPassPipelineSetupFn([&](PassManager &pm) -> LogicalResult {
    if (diagnostics)
      triton_spirv::recordDiagnostics(pm.getContext(), diagnostics);
    if (OpPrintingFlags().shouldUseNameLocAsPrefix())
      pm.addPass(
          triton_spirv::createRestoreSSANamesPass(bufferName, sourceText));
    return cliConfig.setupPassPipeline(pm);
  });

  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
