//===- ElementTypes.h - Types with another element type ---------*- C++ -*-===//
//
// Both conversion libraries build values of the shape of another value with
// another element type (a widened float, an i32 count, an i1 mask).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_CONVERSION_ELEMENTTYPES_H
#define TRITON_SPIRV_CONVERSION_ELEMENTTYPES_H

#include "mlir/IR/BuiltinTypes.h"

namespace mlir::triton_spirv {
/// `type` (a scalar type or a shape of one) with elements of `element`.
inline Type withElementType(Type type, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_CONVERSION_ELEMENTTYPES_H
