//===- Passes.h - TTIR to linalg/tensor/memref passes -----------*- C++ -*-===//

#ifndef TRITON_SPIRV_CONVERSION_TRITONTOLINALG_PASSES_H
#define TRITON_SPIRV_CONVERSION_TRITONTOLINALG_PASSES_H

#include "mlir/Pass/Pass.h"
#include "triton-spirv/Conversion/KernelABI.h"

namespace mlir {
class OpPassManager;
namespace arith {
class ArithDialect;
}
namespace bufferization {
class BufferizationDialect;
}
namespace func {
class FuncDialect;
}
namespace gpu {
class GPUDialect;
}
namespace linalg {
class LinalgDialect;
}
namespace math {
class MathDialect;
}
namespace memref {
class MemRefDialect;
}
namespace scf {
class SCFDialect;
}
namespace tensor {
class TensorDialect;
}

namespace triton_spirv {
class TritonSPIRVDialect;

#define GEN_PASS_DECL
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"

/// The whole TTIR -> linalg/tensor/memref pipeline (--triton-to-linalg);
/// with `boundsChecks`, every access asserts that it stays in its tensor;
/// `addressArguments` are passed by device address
/// (--triton-func-to-kernel-abi).
void buildTritonToLinalgPipeline(OpPassManager &pm, bool boundsChecks = false,
                                 ArrayRef<unsigned> addressArguments = {});
/// Registers the passes above and the --triton-to-linalg pipeline.
void registerTritonToLinalgPipeline();

#define GEN_PASS_REGISTRATION
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace triton_spirv
} // namespace mlir

#endif // TRITON_SPIRV_CONVERSION_TRITONTOLINALG_PASSES_H
