//===- Passes.h - TTIR to linalg/tensor/memref passes -----------*- C++ -*-===//

#ifndef TRITON_SPIRV_CONVERSION_TRITONTOLINALG_PASSES_H
#define TRITON_SPIRV_CONVERSION_TRITONTOLINALG_PASSES_H

#include "mlir/Pass/Pass.h"

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
/// The kernel ABI the passes leave for the SPIR-V stage: `kKernelAttrName` on
/// each kernel; on each argument its role in `kAbiAttrName` ("buffer",
/// "offset", "scalar", "program_id_x", ...) and, for buffers, offsets and
/// scalars, the Triton argument position in `kArgIndexAttrName`. The SPIR-V
/// stage records the lowered layout under `kAbiAttrName` on the spirv.module.
inline constexpr StringLiteral kKernelAttrName = "triton_spirv.kernel";
inline constexpr StringLiteral kAbiAttrName = "triton_spirv.abi";
inline constexpr StringLiteral kArgIndexAttrName = "triton_spirv.arg_index";

#define GEN_PASS_DECL
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"

/// The whole TTIR -> linalg/tensor/memref pipeline (--triton-to-linalg).
void buildTritonToLinalgPipeline(OpPassManager &pm);
/// Registers the passes above and the --triton-to-linalg pipeline.
void registerTritonToLinalgPipeline();

#define GEN_PASS_REGISTRATION
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace triton_spirv
} // namespace mlir

#endif // TRITON_SPIRV_CONVERSION_TRITONTOLINALG_PASSES_H
