//===- DistributeFragments.h - Fragment families over subgroups -*- C++ -*-===//
//
// The distribution of the buffers of fragment families
// (lib/Analysis/FragmentFamilies.cpp): each subgroup keeps its tiles of a
// block, and its smeared rows of a vector, in fragment variables; fills,
// copies (also of a block staged in workgroup memory: fragment loads) and
// matmuls write them whole, element-wise ops become
// `triton_spirv.map_fragments` per tile, row reductions
// `triton_spirv.reduce_fragment_rows`, a block converted for a matmul
// `triton_spirv.convert_fragment`, and an epilogue reads the tiles through a
// scratch tile per subgroup in workgroup memory.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEFRAGMENTS_H
#define TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEFRAGMENTS_H

#include "triton-spirv/Analysis/MatmulPlan.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace mlir::triton_spirv {

/// A member's variables: tile (r, c) of a subgroup at r * tilesN + c (a
/// vector of rows has one column of tiles).
struct FragmentVariables {
  Attribute layout;
  int64_t gridM = 1, gridN = 1, tilesM = 0, tilesN = 1;
  SmallVector<Value> variables;
};

class FragmentFamilyDistributor {
public:
  /// `scratch(loc, element, slot)`: a workgroup buffer of one 16x16 tile
  /// per subgroup, one per element type and slot; `barrier(loc)` a
  /// workgroup barrier.
  FragmentFamilyDistributor(
      RewriterBase &rewriter, const WorkgroupShape &shape, Value subgroupId,
      std::function<Value(Location, Type, unsigned)> scratch,
      std::function<void(Location)> barrier)
      : rewriter(rewriter), shape(shape), subgroupId(subgroupId),
        scratch(std::move(scratch)), barrier(std::move(barrier)) {}

  ~FragmentFamilyDistributor();

  /// Creates the variables of a member at the insertion point.
  LogicalResult addMember(memref::AllocOp alloc);
  /// Keeps a copy of the op computing each index vector of `kernel`, which
  /// maps compute again after the distribution has replaced the op.
  void recordIndexVectors(Operation *kernel);
  /// Whether `op` touches a member (through views too).
  bool touches(Operation *op) const;
  LogicalResult distribute(linalg::LinalgOp op);
  /// Erases the members and their views, all their accesses distributed.
  LogicalResult eraseMembers();

private:
  /// The member under `value` (through a view), with the tile offsets of
  /// the view.
  struct Access {
    FragmentVariables *member = nullptr;
    int64_t rowTiles = 0, colTiles = 0;
  };
  Access memberAccess(Value value) const;
  /// Loads the tiles of `to` (a member, or a view of some of its columns)
  /// from `staged`, a block of that shape in workgroup memory.
  LogicalResult loadMember(Value staged, const Access &to);
  Value readTile(const Access &access, int64_t r, int64_t c);
  void writeTile(FragmentVariables &member, int64_t index, Value fragment);
  LogicalResult fillMembers(linalg::FillOp op);
  LogicalResult copyMembers(linalg::CopyOp op);
  LogicalResult multiplyMembers(linalg::LinalgOp op);
  LogicalResult mapMembers(linalg::GenericOp op);
  LogicalResult reduceMemberRows(linalg::ReduceOp op);
  LogicalResult storeMembers(linalg::GenericOp op);

  RewriterBase &rewriter;
  const WorkgroupShape &shape;
  Value subgroupId;
  std::function<Value(Location, Type, unsigned)> scratch;
  std::function<void(Location)> barrier;
  DenseMap<Value, FragmentVariables> members;
  /// Detached copies of the ops that compute index vectors, by buffer,
  /// their operands dropped (so that they use no buffer) and kept aside.
  struct IndexVector {
    linalg::GenericOp producer;
    SmallVector<Value> operands;
  };
  DenseMap<Value, IndexVector> indexVectors;
};

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEFRAGMENTS_H
