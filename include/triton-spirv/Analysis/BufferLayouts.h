//===- BufferLayouts.h - Which block buffers live in registers --*- C++ -*-===//
//
// After bufferization every block temporary is a workgroup buffer. This
// analysis finds the buffers whose elements each stay with the invocations
// of a layout (triton_spirv.cyclic, triton_spirv.grid or triton_spirv.slice),
// so that the distribution keeps them in those invocations' registers. The
// rest stay in workgroup memory.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_ANALYSIS_BUFFERLAYOUTS_H
#define TRITON_SPIRV_ANALYSIS_BUFFERLAYOUTS_H

#include "triton-spirv/Analysis/MatmulPlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::triton_spirv {
/// Where a unit-stride view with static offsets and sizes of an
/// identity-layout buffer puts its elements: view element v is at buffer
/// position `offset + sum(v[i] * strides[i])`.
struct ViewPlacement {
  SmallVector<int64_t> strides;
  int64_t offset = 0;
};
std::optional<ViewPlacement> placeView(memref::SubViewOp view);

/// The buffer position o of element 0 of `input`, a contiguous view (its
/// elements in row-major order at consecutive buffer positions) or a buffer
/// (0); none for other views.
std::optional<int64_t> contiguousOffset(Value input);

/// For a full reduction of a contiguous view at offset o (its elements in
/// row-major order at consecutive buffer positions): o mod W, the shift by
/// which invocation t takes the view's positions that are its own elements
/// of the viewed buffer (member (t - o) mod W). 0 for anything else.
int64_t rotation(Value input, unsigned workgroupSize);

/// For a read through `map` of a buffer of static `shape` that is the
/// identity but for dimensions of size 2 read mirrored (`1 - d`, a pair swap
/// of --triton-recognize-pair-swaps), each at a power-of-two row-major
/// stride: the mask M such that element q reads element q ^ M. None for
/// other maps (0 for the identity).
std::optional<int64_t> pairSwapMask(AffineMap map, ArrayRef<int64_t> shape);

/// Whether subgroup shuffles move values of `element` (32- and 64-bit
/// integers and floats).
bool isShuffleType(Type element);

/// Whether the invocations that share a row of `grid` along `dim` (the
/// holders of an element of its slice) are lanes of one subgroup of
/// `subgroupSize`, in an aligned power-of-2 block that xor shuffles combine.
bool rowInOneSubgroup(GridLayoutAttr grid, unsigned dim, unsigned subgroupSize);

struct BufferLayouts {
  /// The layout attribute of each workgroup allocation (`memref.alloc`) of
  /// the kernel that can live in registers, in program order.
  llvm::MapVector<Value, Attribute> layouts;
  /// Loops to unroll so that the views of fragment families are static
  /// (FragmentFamilies::loopsToUnroll).
  SmallVector<scf::ForOp> loopsToUnroll;
  /// The buffers of fragment families (among `layouts`).
  SmallVector<Value> fragmentFamilyMembers;
};

BufferLayouts assignBufferLayouts(func::FuncOp kernel,
                                  const WorkgroupShape &shape);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_ANALYSIS_BUFFERLAYOUTS_H
