//===- DistributeKernel.h - One kernel, spread ------------------*- C++ -*-===//
//
// KernelDistributor spreads a bufferized kernel's block-level work over the
// invocations of its workgroup (--triton-spirv-distribute). Its methods live
// by concern: Distribute.cpp (the driver, element-wise loops, the scalar
// code's writes), DistributeRegisters.cpp (private buffers, pair swaps),
// DistributeReductions.cpp (reductions over invocations and grid rows) and
// DistributeLayouts.cpp (grid, slice and fragments layouts); matmuls and
// fragment families are DistributeMatmul.cpp's and DistributeFragments.cpp's.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEKERNEL_H
#define TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEKERNEL_H

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "DistributeFragments.h"
#include "DistributeMatmul.h"
#include "triton-spirv/Analysis/BufferLayouts.h"
#include "triton-spirv/Analysis/FragmentFamilies.h"
#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Conversion/InlineBlock.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_spirv::distribution {
/// A buffer kept in registers in a grid or slice layout: invocation
/// (t_0, ..., t_n) of the grid holds the elements x with x_d mod G_d = t_d
/// (over the slice's dimensions), at the row-major position of (x_d / G_d)
/// in its private buffer.
struct LayoutBuffer {
  Attribute layout;
  Value registers;
};

/// A matmul accumulator kept as cooperative-matrix fragments: the scalar it
/// is filled with and where (until its matmul takes them), then the
/// fragments its matmul computed.
struct FragmentBuffer {
  triton_spirv::FragmentsLayoutAttr layout;
  Value fill;
  Block *fillBlock = nullptr;
  SmallVector<Value> fragments;
};

class KernelDistributor {
public:
  KernelDistributor(func::FuncOp kernel,
                    const triton_spirv::WorkgroupShape &shape)
      : kernel(kernel), shape(shape), workgroupSize(shape.workgroupSize),
        subgroupSize(shape.subgroupSize), rewriter(kernel.getContext()) {}

  LogicalResult run();

private:
  Value indexConstant(Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  void barrier(Location loc) { gpu::BarrierOp::create(rewriter, loc); }
  LogicalResult distributeLinalgOp(linalg::LinalgOp op);
  bool distributeReduction(linalg::ReduceOp op,
                           MutableArrayRef<linalg::FillOp> seeds);
  bool forwardResults(linalg::ReduceOp op, ValueRange results);
  SmallVector<Value> combinePartials(linalg::ReduceOp op, ValueRange elements,
                                     ValueRange accumulators);
  SmallVector<Value> xorButterfly(linalg::ReduceOp op,
                                  SmallVector<Value> partial, int64_t first,
                                  int64_t end);
  SmallVector<Value> delinearize(Location loc, Value linear,
                                 ArrayRef<OpFoldResult> extents);
  Value partialsBuffer(Location loc, Type type, unsigned position);
  /// A new workgroup buffer of the whole kernel (allocated at its start).
  Value kernelWorkgroupBuffer(Location loc, ArrayRef<int64_t> shape,
                              Type element);
  LogicalResult findPrivateBuffers();
  LogicalResult rewritePrivateAccesses();
  LogicalResult distributeParallelLoop(scf::ParallelOp loop,
                                       int64_t vectorWidth);
  /// The registers of the private buffer that `memref` is, or reshapes
  /// (null if none). A reshape of a private buffer keeps each element's
  /// linear position, so it reaches the buffer's registers as the buffer does.
  Value privateRegistersOf(Value memref);
  bool accessesRegistersThroughViews(Operation *op);
  /// Where `input` is a private buffer held in runs, or the view of one
  /// that leaves out fewer than a run of its first elements (a reduction
  /// seeded with its first element reads such a view): how many it leaves
  /// out.
  std::optional<int64_t> skippedRunElements(Value input);
  Operation *needsSingleElements(Value privateBuffer);
  int64_t vectorWidthOf(linalg::LinalgOp op, bool privateInRuns);
  LogicalResult distributeOnLayout(scf::ParallelOp loop, Attribute layout);
  void leaderOnly(Operation *atomic, Value leader, Value leaderLane);
  scf::IfOp runAloneAndShare(Operation *op, Value condition,
                             ArrayRef<Value> slots, Value position,
                             bool barrierAfter);
  Value shuffleFrom(Value value, Value lane);
  LogicalResult distributeOnFragments(linalg::LinalgOp op, Value buffer,
                                      const FragmentBuffer &fragments);
  Value fragmentScratch(Location loc, Type element);
  /// The distributor of the kernel's fragment families, made at its first
  /// member.
  void createFragmentFamilyDistributor();
  bool distributeGridReduction(linalg::ReduceOp op);
  /// The grid or slice layout an element-wise op iterates in, if any.
  Attribute iterationLayout(linalg::LinalgOp op);
  LogicalResult readPairPartners(scf::ForOp loop, ValueRange ivs,
                                 Value iteration, bool guarded);
  void usePrivateRegisters(Operation *root, ValueRange ivs,
                           function_ref<Value(Value memref)> registersOf,
                           function_ref<Value(Value memref)> slotOf);
  void runOnInvocationZero(Operation *op);

  func::FuncOp kernel;
  triton_spirv::WorkgroupShape shape;
  // Shorthands for the shape's fields.
  const unsigned workgroupSize, subgroupSize;
  IRRewriter rewriter;
  Value invocationId;
  Value isInvocationZero;
  /// Workgroup buffers of one slot per invocation for reduction partials,
  /// keyed by element type, operand position and parity: consecutive
  /// reductions alternate between two, so that one's publishing need not
  /// wait for the previous one's reads (triton-spirv-remove-redundant-
  /// barriers then drops the barrier between them).
  DenseMap<std::tuple<Type, unsigned, unsigned>, Value> partials;
  unsigned oddReduction = 0;
  /// Workgroup buffers whose element q is only ever touched by invocation
  /// q mod W, mapped to the private buffer of ceil(N / W) elements that
  /// replaces them (element q is private element q / W of its owner).
  DenseMap<Value, Value> privateBuffers;
  /// Workgroup copies of private buffers, by element type, size and how
  /// many other such copies one loop reads, through which pair swaps reach
  /// elements of invocations outside their subgroup.
  DenseMap<std::tuple<Type, int64_t, unsigned>, Value> exchangeBuffers;
  /// Workgroup buffers in a grid or slice layout, and their registers.
  DenseMap<Value, LayoutBuffer> layoutBuffers;
  /// Workgroup buffers in a fragments layout.
  DenseMap<Value, FragmentBuffer> fragmentBuffers;
  /// One 16x16 tile per subgroup, by element type, through which epilogues
  /// read fragments.
  DenseMap<Type, Value> fragmentScratches;
  /// The subgroup's index, for the fragment families' tiles.
  Value fragmentSubgroupId;
  /// The buffers of fragment families, in variables (DistributeFragments);
  /// none in a kernel without them.
  std::optional<triton_spirv::FragmentFamilyDistributor> fragmentFamily;
  /// The families' epilogue scratch tiles, by element type and slot.
  DenseMap<std::pair<Type, unsigned>, Value> familyScratches;
  /// Whether the private (cyclic) buffers are held kVectorWidth elements at
  /// a time: element q by invocation (q / V) mod W, as register
  /// (q / VW) V + q mod V, so that each invocation's elements come in
  /// contiguous runs that one vector access can move.
  bool vectorPrivate = false;
};

/// Elements an invocation takes at a time in element-wise loops that allow
/// it.
inline constexpr int64_t kVectorWidth = triton_spirv::kVectorAccessElements;

// Helpers the files of the distribution share (each defined, and described,
// where its main user lives).
bool startsWithBarrier(Operation *op);
void markSpread(Operation *op, ArrayRef<OpFoldResult> tripCounts, int64_t run,
                Attribute layout = {});
Value lookThroughDimApply(Value v);
Value mirroredIndex(Value index);
void replaceAccess(RewriterBase &rewriter, Operation *access, Value memref,
                   Value index);
Value linearize(RewriterBase &rewriter, Location loc, ValueRange steps,
                ArrayRef<int64_t> extents,
                std::optional<unsigned> skip = std::nullopt);
std::optional<int64_t> constantIndex(Value v);
SmallVector<int64_t> heldBy(Attribute layout);
void hoistReductionLoop(RewriterBase &rewriter, scf::ForOp iterations);

} // namespace mlir::triton_spirv::distribution

#endif // TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEKERNEL_H
