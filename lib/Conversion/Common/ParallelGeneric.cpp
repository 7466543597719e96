//===- ParallelGeneric.cpp - Element-wise linalg.generic builders ---------===//

#include "triton-spirv/Conversion/ParallelGeneric.h"

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
