//===- InitAll.cpp - Register dialects and passes -------------------------===//

#include "triton-spirv/InitAll.h"

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"
#include "triton-spirv/Dialect/TritonGPU/IR/Dialect.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mlir::triton_spirv::registerAllDialects(DialectRegistry &registry) {
  // TTIR uses `llvm.intr.assume` for tl.assume and, from Triton 3.8 on,
  // `ttg.barrier`; the rest are pipeline stages.
  registry
      .insert<triton::TritonDialect, triton::ttg::TritonGPUDialect,
              TritonSPIRVDialect, affine::AffineDialect, arith::ArithDialect,
              bufferization::BufferizationDialect, cf::ControlFlowDialect,
              func::FuncDialect, gpu::GPUDialect, index::IndexDialect,
              linalg::LinalgDialect, LLVM::LLVMDialect, math::MathDialect,
              memref::MemRefDialect, scf::SCFDialect, spirv::SPIRVDialect,
              tensor::TensorDialect, ub::UBDialect, vector::VectorDialect>();
  // Bufferization of the tensor program (--triton-spirv-bufferize).
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  // Tiles of linalg ops (--triton-spirv-chunk-matmul-reduction).
  linalg::registerTilingInterfaceExternalModels(registry);
}

void mlir::triton_spirv::registerAllPasses() {
  // Generic clean-up passes (canonicalize, cse, inline, symbol-dce, ...).
  registerTransformsPasses();
  registerLinalgPasses();
  // The upstream SPIR-V passes the pipeline runs on the spirv.module, so
  // that its tail can be run (and tested) from SPIR-V-ready IR.
  spirv::registerSPIRVPasses();
  triton_spirv::registerTritonToLinalgPipeline();
  triton_spirv::registerTritonToSPIRVPipeline();
}
