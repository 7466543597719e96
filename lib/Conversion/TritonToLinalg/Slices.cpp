//===- Slices.cpp - Tensor slices and builders the patterns share ---------===//

#include "Slices.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

Value triton_spirv::emptyLike(OpBuilder &b, Location loc,
                              RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

linalg::GenericOp triton_spirv::createParallelGeneric(
    OpBuilder &b, Location loc, TypeRange resultTypes, ValueRange inputs,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> inits;
  for (Type type : resultTypes)
    inits.push_back(emptyLike(b, loc, cast<RankedTensorType>(type)));
  unsigned rank =
      cast<ShapedType>(resultTypes.empty() ? inputs.front().getType()
                                           : resultTypes.front())
          .getRank();
  SmallVector<AffineMap> maps(inputs.size() + inits.size(),
                              b.getMultiDimIdentityMap(rank));
  return linalg::GenericOp::create(
      b, loc, resultTypes, inputs, inits, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      body);
}

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
