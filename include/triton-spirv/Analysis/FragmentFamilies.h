//===- FragmentFamilies.h - Blocks kept as cooperative matrices -*- C++ -*-===//
//
// With VK_NV_cooperative_matrix2 a matmul's accumulator need not leave its
// cooperative-matrix fragments for the element-wise work, row reductions and
// next matmul that follow it (attention's softmax between its two dots): a
// map runs per element of a fragment, a row reduction smears each row's
// result over the row, and an accumulator converts to a matmul operand; a
// matmul's left operand loaded before a loop is held as A fragments across
// it, loaded from its staging in workgroup memory. This
// analysis finds such families of buffers: each 2-D member is held as
// fragments by subgroups that own whole rows (#triton_spirv.fragments<[S,
// 1]>), each vector of rows as smeared fragments
// (#triton_spirv.fragment_rows<S>).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_ANALYSIS_FRAGMENTFAMILIES_H
#define TRITON_SPIRV_ANALYSIS_FRAGMENTFAMILIES_H

#include "triton-spirv/Analysis/MatmulPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::triton_spirv {

/// The rows of a family's blocks are a multiple of this: whole 16-row
/// tiles for every subgroup of `shape` (the subgroups own whole rows).
int64_t fragmentFamilyRowTile(const WorkgroupShape &shape);

/// The f32 to f16 `arith.truncf` whose result `op`'s body yields (a block
/// computed in f32 and converted for a matmul), or null.
arith::TruncFOp yieldedTruncation(linalg::GenericOp op);

/// The 16-bit float type (f16 or bf16) `op` rounds an f32 value to as
/// converting a cooperative matrix does: an `arith.truncf` of the default
/// rounding. Null for any other op.
Type halfRounding(Operation *op);

/// Whether `op` is such a rounding to f16.
bool isF16Rounding(Operation *op);

/// A 1-D block computed by one element-wise op from its index and scalars
/// alone (`start + tl.arange(...)`): family members read it by computing
/// its element again. The op that computes it, or null.
linalg::GenericOp indexVectorProducer(Value buffer);

struct FragmentFamilies {
  /// The layout of each member buffer (its `memref.alloc`).
  llvm::MapVector<Value, Attribute> layouts;
  /// Loops of a static trip count that view members at offsets of their
  /// induction variable (a matmul's chunks of K): unrolled, every view is at
  /// a static offset, as the fragments of a subgroup are separate values.
  SmallVector<scf::ForOp> loopsToUnroll;
};

/// The families of `kernel`'s workgroup buffers among `candidates` (static,
/// identity-layout workgroup allocations), each anchored at the accumulator
/// of a matmul whose plan (--triton-spirv-plan-matmuls) has cooperative
/// tiles.
FragmentFamilies
findFragmentFamilies(func::FuncOp kernel, const WorkgroupShape &shape,
                     const llvm::SmallDenseSet<Value> &candidates);

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_ANALYSIS_FRAGMENTFAMILIES_H
