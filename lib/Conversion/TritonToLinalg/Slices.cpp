//===- Slices.cpp - Tensor slices the patterns share ----------------------===//

#include "Slices.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
