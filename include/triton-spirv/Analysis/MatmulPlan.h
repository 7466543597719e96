//===- MatmulPlan.h - How a matmul is spread over a workgroup ---*- C++ -*-===//
//
// The decision, separate from the rewrite (triton-spirv-distribute), of how
// the invocations of a workgroup compute one block-level matmul: a register
// tile per invocation, or 16x16 cooperative-matrix tiles per subgroup. The
// layout analysis reads the same plan to place the accumulator.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_ANALYSIS_MATMULPLAN_H
#define TRITON_SPIRV_ANALYSIS_MATMULPLAN_H

#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::triton_spirv {
/// The cooperative-matrix shape used: 16x16 tiles, 16 deep (fp16 on NVIDIA).
inline constexpr int64_t kCooperativeMatrixSize = kFragmentSize;

/// What the planning needs to know of the target and the launch.
struct WorkgroupShape {
  unsigned workgroupSize = 128;
  unsigned subgroupSize = 32;
  bool cooperativeMatrix = false;
  /// Bytes of workgroup memory the target has (0: unknown, no limit).
  int64_t maxWorkgroupMemory = 0;
  /// Cooperative matrices also take bf16 operands (held as f16 bits).
  bool bfloat16CooperativeMatrix = false;
  /// Fragments can be reduced by rows and mapped per element
  /// (VK_NV_cooperative_matrix2).
  bool cooperativeMatrix2 = false;
};

/// The workers (invocations, or subgroups for cooperative matrices) form a
/// gridM x gridN grid; worker (i, j) owns the outputs (i + gridM * r,
/// j + gridN * c) for r < tileM, c < tileN (in 16x16 tiles for cooperative
/// matrices).
struct MatmulTiling {
  int64_t gridM, gridN, tileM, tileN;
};

struct MatmulPlan {
  /// The invocations' register tiles (a plan always has them).
  MatmulTiling registerTiling;
  /// The subgroups' cooperative-matrix tiles, where the matmul has their
  /// form. An accumulator kept in registers as fragments
  /// (triton_spirv.fragments) takes no workgroup memory; one in workgroup
  /// memory needs `cooperativeFitsWorkgroupMemory`.
  std::optional<MatmulTiling> cooperativeTiling;
  /// The accumulator and both operands would take over a quarter of the
  /// target's workgroup memory: subgroups compute the matmul only with its
  /// accumulator kept as fragments.
  bool cooperativeNeedsFragments = false;

  /// Whether subgroups may compute the matmul with its accumulator in
  /// workgroup memory.
  bool cooperativeFitsWorkgroupMemory() const {
    return cooperativeTiling && !cooperativeNeedsFragments;
  }
};

/// Whether `op` has matmul indexing, no index semantics and static shapes
/// (buffers or tensors).
bool isStaticMatmul(linalg::LinalgOp op);

/// The type of the values a matmul body `acc + ext(a) * ext(b)` multiplies
/// (each factor the block argument, its extension to the accumulator's
/// type, or the extension of its bits read as another type); none for
/// other bodies.
std::optional<Type> multiplyAddOperandType(linalg::LinalgOp op);

/// How the subgroups of `shape` tile the m x n accumulator of a matmul k
/// deep in whole 16x16x16 cooperative-matrix steps; none where it does not
/// split so.
std::optional<MatmulTiling> cooperativeTiling(int64_t m, int64_t n, int64_t k,
                                              const WorkgroupShape &shape);

/// Whether `op` is a matmul of bf16 values held as f16 bits
/// (--triton-spirv-bfloat16-cooperative-operands).
bool multipliesBFloat16Bits(linalg::LinalgOp op);

/// On the gpu.subgroup_mma_compute ops of a matmul of bf16 values held as
/// f16 bits, and on the triton_spirv.convert_fragment ops that round an
/// accumulator to such bits: --triton-spirv-retype-bfloat16-matrices gives the
/// matrices they multiply or make bf16 types (gpu.mma_matrix has no bf16
/// element type).
inline constexpr llvm::StringLiteral kBFloat16MatrixAttrName =
    "triton_spirv.bfloat16";

/// The distance between rows of a 2-D buffer with unit column stride.
std::optional<int64_t> rowStride(Value buffer);

/// How `op` can be distributed over a workgroup of `shape`; none when it is
/// not a static matmul or its outputs are too few to give every invocation
/// one. Cooperative matrices keep their accumulator in registers as
/// fragments or in workgroup memory (which element a lane holds is the
/// driver's choice); the latter only where the accumulator and both operands
/// take at most a quarter of the target's workgroup memory. The layout
/// analysis chooses: an accumulator in a grid layout means register tiles.
/// --triton-spirv-plan-matmuls makes it once and attaches it to the op.
std::optional<MatmulPlan> planMatmul(linalg::LinalgOp op,
                                     const WorkgroupShape &shape);

/// Whether --triton-spirv-plan-matmuls gives `op` a plan: a static matmul
/// on buffers.
bool needsMatmulPlan(linalg::LinalgOp op);
/// `plan` (or none) as the attribute --triton-spirv-plan-matmuls attaches.
MatmulPlanAttr getMatmulPlanAttr(MLIRContext *context,
                                 const std::optional<MatmulPlan> &plan);
/// The plan attached to `op` by --triton-spirv-plan-matmuls; none where it
/// has none, or its plan says it is no workgroup matmul.
std::optional<MatmulPlan> lookupMatmulPlan(linalg::LinalgOp op);
/// An error on the first matmul under `root` that needs a plan and has none
/// (--triton-spirv-plan-matmuls has not run), naming `pass`.
LogicalResult checkMatmulsPlanned(Operation *root, StringRef pass);
/// The remark where subgroups cannot compute `op` (whose plan says
/// cooperativeNeedsFragments) because its accumulator is not kept as
/// fragments.
std::string describeWorkgroupMemoryMiss(linalg::LinalgOp op,
                                        const WorkgroupShape &shape);

/// The `scf.for` loops around `matmul` below `block`, outermost first,
/// across which an accumulator kept as fragments is carried; none when an
/// op other than an `scf.for` is in between, or `matmul` is not in `block`.
std::optional<SmallVector<Operation *>> fragmentLoops(Operation *matmul,
                                                      Block *block);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_ANALYSIS_MATMULPLAN_H
