//===- Passes.h - linalg/memref to SPIR-V passes ----------------*- C++ -*-===//

#ifndef TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_PASSES_H
#define TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace affine {
class AffineDialect;
}
namespace arith {
class ArithDialect;
}
namespace bufferization {
class BufferizationDialect;
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
namespace spirv {
class SPIRVDialect;
}

namespace tensor {
class TensorDialect;
}
namespace vector {
class VectorDialect;
}

namespace triton_spirv {
class TritonSPIRVDialect;

/// Elements one 16-byte access moves (32-bit ones): the runs that
/// triton-spirv-distribute gives each invocation in element-wise loops, and
/// the groups triton-spirv-vectorize-memory-accesses merges.
inline constexpr int64_t kVectorAccessElements = 4;

#define GEN_PASS_DECL
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"

/// Options of the whole TTIR -> SPIR-V pipeline (--triton-to-spirv).
struct TritonToSPIRVOptions : PassPipelineOptions<TritonToSPIRVOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("Target preset: lavapipe, nvidia "
                                            "or generic"),
                             llvm::cl::init("generic")};
  Option<unsigned> numWarps{
      *this, "num-warps",
      llvm::cl::desc("Warps of 32 invocations per program (workgroup)"),
      llvm::cl::init(4)};
  Option<unsigned> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("Invocations per subgroup of the device the kernel will "
                     "run on (0: the target preset's)"),
      llvm::cl::init(0)};
  ListOption<std::string> features{
      *this, "features",
      llvm::cl::desc("Target features to enable (+name) or disable (-name): "
                     "int8, int16, int64, float16, float64, atomic-float-add, "
                     "cooperative-matrix")};
  Option<unsigned> maxWorkgroupMemory{
      *this, "max-workgroup-memory",
      llvm::cl::desc("Workgroup memory of the device in bytes (0: the "
                     "target preset's)"),
      llvm::cl::init(0)};
  Option<unsigned> maxWorkgroupSize{
      *this, "max-workgroup-size",
      llvm::cl::desc("Most invocations per workgroup (0: the target "
                     "preset's)"),
      llvm::cl::init(0)};
  Option<bool> cooperativeMatrix{
      *this, "cooperative-matrix",
      llvm::cl::desc("Compute fp16 tt.dot with cooperative-matrix "
                     "instructions where the target has them"),
      llvm::cl::init(true)};
  Option<bool> fpFusion{
      *this, "fp-fusion",
      llvm::cl::desc("Fuse float multiplies into the adds that alone use "
                     "them (Triton's enable_fp_fusion)"),
      llvm::cl::init(true)};
  Option<bool> boundsChecks{
      *this, "bounds-checks",
      llvm::cl::desc("Assert that every load, store and atomic stays in its "
                     "tensor's storage (Triton's debug=True)"),
      llvm::cl::init(false)};
  ListOption<unsigned> addressArguments{
      *this, "address-arguments",
      llvm::cl::desc("Pointer arguments (by position) passed as buffer device "
                     "addresses rather than bound: tensors larger than one "
                     "binding spans")};
  Option<std::string> output{
      *this, "output",
      llvm::cl::desc("Write the SPIR-V binary here, and its metadata to the "
                     "same path with .json appended"),
      llvm::cl::init("")};
};

/// Builds the linalg -> SPIR-V half of the pipeline (its first pass,
/// --triton-spirv-resolve-target, refuses an unknown target or feature).
void buildLinalgToSPIRVPipeline(OpPassManager &pm,
                                const TritonToSPIRVOptions &options);
/// Registers the passes above and the --triton-to-spirv pipeline.
void registerTritonToSPIRVPipeline();

#define GEN_PASS_REGISTRATION
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace triton_spirv
} // namespace mlir

#endif // TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_PASSES_H
