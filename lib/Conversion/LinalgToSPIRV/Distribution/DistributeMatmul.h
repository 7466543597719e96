//===- DistributeMatmul.h - Matmuls spread over a workgroup -----*- C++ -*-===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEMATMUL_H
#define TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEMATMUL_H

#include "triton-spirv/Analysis/MatmulPlan.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_spirv {
/// Erases the allocation of `buffer`, a buffer in `layout` whose uses the
/// distribution has all rewritten; a use left is one the layout analysis
/// should not have admitted: an error naming the layout and what it admits
/// (`admitted`, completing "accesses a buffer in layout L ...").
LogicalResult eraseDistributedBuffer(RewriterBase &rewriter, Value buffer,
                                     Attribute layout, StringRef admitted);

/// `op` as a linalg.generic: itself, or a named op generalized in its place.
FailureOr<linalg::GenericOp> asGeneric(RewriterBase &rewriter,
                                       linalg::LinalgOp op);

/// Replaces a 2-D matmul on buffers of static shape (linalg.matmul or a
/// generic of the same form) by the code of its plan (planMatmul): each
/// subgroup computes 16x16 cooperative-matrix tiles where the plan has them,
/// else each invocation a tile of outputs in registers. With
/// `accumulatorRegisters`, the private buffer of an accumulator in
/// `accumulatorLayout` (a grid that tiles it), invocations compute it in
/// register tiles of that grid, read from and written to that buffer.
/// Returns false, leaving the op untouched, when the op has no plan; fails
/// when the accumulator's layout is not a grid.
FailureOr<bool> distributeMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                                 Value invocationId,
                                 const WorkgroupShape &shape,
                                 GridLayoutAttr accumulatorLayout,
                                 Value accumulatorRegisters);

/// The first row and column of each 16x16 tile that subgroup `subgroupId`
/// holds in the subgroup grid of `tiling`: tile (r, c) starts at row
/// rows[r] = 16 (s_0 + gridM r) and column cols[c] = 16 (s_1 + gridN c).
struct FragmentOrigins {
  SmallVector<Value> rows, cols;
};
FragmentOrigins fragmentOrigins(RewriterBase &rewriter, Location loc,
                                const MatmulTiling &tiling, Value subgroupId);

/// Replaces a matmul whose accumulator is kept as cooperative-matrix
/// fragments in `layout` by its subgroups' tiles: the fragments start as
/// the scalar `fill` (the accumulator's fill in `fillBlock`), are carried
/// through the loops around the matmul below that block, and are returned
/// (fragment r * tilesPerSubgroup[1] + c of each subgroup), valid after the
/// outermost of those loops.
FailureOr<SmallVector<Value>>
distributeMatmulOnFragments(RewriterBase &rewriter, linalg::LinalgOp op,
                            const WorkgroupShape &shape,
                            FragmentsLayoutAttr layout, Value fill,
                            Block *fillBlock);

/// Replaces a matmul whose accumulator is held in `layout` by its
/// subgroups' multiply-adds from the fragments `initial` (tile r * tilesN +
/// c of each subgroup) to the returned ones, in place; A's tiles are
/// `lhsFragments` (row tile r, K step s at r * steps + s) where given, else
/// A is read from its buffer.
FailureOr<SmallVector<Value>> distributeMatmulOnFragmentValues(
    RewriterBase &rewriter, linalg::LinalgOp op, const WorkgroupShape &shape,
    FragmentsLayoutAttr layout, Value subgroupId, ArrayRef<Value> initial,
    ArrayRef<Value> lhsFragments);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEMATMUL_H
