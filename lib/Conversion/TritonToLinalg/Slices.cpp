//===- Slices.cpp - Tensor slices the patterns share ----------------------===//

#include "Slices.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;

namespace {
struct SliceBounds {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};

SliceBounds boundsAlong(OpBuilder &b, ArrayRef<int64_t> shape, unsigned dim,
                        OpFoldResult offset, int64_t size) {
  SliceBounds bounds;
  for (auto [index, extent] : llvm::enumerate(shape)) {
    bool along = index == dim;
    bounds.offsets.push_back(along ? offset : b.getIndexAttr(0));
    bounds.sizes.push_back(b.getIndexAttr(along ? size : extent));
    bounds.strides.push_back(b.getIndexAttr(1));
  }
  return bounds;
}
} // namespace

Value mlir::triton_spirv::extractAlong(OpBuilder &b, Location loc, Value src,
                                       unsigned dim, OpFoldResult offset,
                                       int64_t size, bool dropDim) {
  auto type = cast<RankedTensorType>(src.getType());
  SliceBounds bounds = boundsAlong(b, type.getShape(), dim, offset, size);
  SmallVector<int64_t> shape(type.getShape());
  if (dropDim)
    shape.erase(shape.begin() + dim);
  else
    shape[dim] = size;
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), src,
      bounds.offsets, bounds.sizes, bounds.strides);
}

Value mlir::triton_spirv::insertAlong(OpBuilder &b, Location loc, Value part,
                                      Value dest, unsigned dim,
                                      OpFoldResult offset) {
  auto partType = cast<RankedTensorType>(part.getType());
  auto destType = cast<RankedTensorType>(dest.getType());
  int64_t size =
      partType.getRank() == destType.getRank() ? partType.getDimSize(dim) : 1;
  SliceBounds bounds = boundsAlong(b, destType.getShape(), dim, offset, size);
  return tensor::InsertSliceOp::create(b, loc, part, dest, bounds.offsets,
                                       bounds.sizes, bounds.strides);
}

/// A reshape that keeps the row-major element order: expand_shape,
/// collapse_shape, or a collapse to 1-D followed by an expand.
Value triton_spirv::reshapeInOrder(OpBuilder &b, Location loc, Value src,
                                   RankedTensorType dstType) {
  auto srcType = cast<RankedTensorType>(src.getType());
  if (srcType.getShape() == dstType.getShape())
    return src;
  if (auto reassociation =
          getReassociationIndicesForReshape(srcType, dstType)) {
    if (srcType.getRank() < dstType.getRank())
      return tensor::ExpandShapeOp::create(b, loc, dstType, src,
                                           *reassociation);
    return tensor::CollapseShapeOp::create(b, loc, dstType, src,
                                           *reassociation);
  }
  auto flatType = RankedTensorType::get({srcType.getNumElements()},
                                        srcType.getElementType());
  Value flat = reshapeInOrder(b, loc, src, flatType);
  return reshapeInOrder(b, loc, flat, dstType);
}
