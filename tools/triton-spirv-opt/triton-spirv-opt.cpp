//===- triton-spirv-opt.cpp - mlir-opt style driver -----------------------===//
//
// Parses TTIR (and every upstream dialect the pipeline produces), runs the
// requested passes and prints the result.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::triton_spirv::registerAllDialects(registry);
  mlir::triton_spirv::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "triton-spirv optimizer driver\n", registry));
}
