//===- Dialect.h - The tt dialect -------------------------------*- C++ -*-===//
//
// triton-spirv's definition of Triton's `tt` dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_DIALECT_TRITON_IR_DIALECT_H
#define TRITON_SPIRV_DIALECT_TRITON_IR_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "triton-spirv/Dialect/Triton/IR/TritonDialect.h.inc"
#include "triton-spirv/Dialect/Triton/IR/TritonEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "triton-spirv/Dialect/Triton/IR/TritonTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "triton-spirv/Dialect/Triton/IR/TritonAttrs.h.inc"

namespace mlir::triton {

/// The side-effect resource of global memory accesses.
struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  StringRef getName() final { return "<GlobalMemory>"; }
};

/// `!tt.ptr<T>` -> `T`; `tensor<...x!tt.ptr<T>>` -> `tensor<...xT>`;
/// `!tt.ptr<tensor<...>>` -> `tensor<...>`. Any other type maps to itself.
Type getPointeeType(Type type);
/// A type of i1 with the shape of `type` (i1 for scalars).
Type getI1SameShape(Type type);
/// For a block pointer `!tt.ptr<tensor<...xT>, as>`: `!tt.ptr<T, as>`.
Type getBlockPointerBaseType(Type type);

namespace OpTrait {
LogicalResult verifyTensorsHaveNoEncoding(Operation *op);

template <typename ConcreteType>
class TensorsHaveNoEncoding
    : public mlir::OpTrait::TraitBase<ConcreteType, TensorsHaveNoEncoding> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyTensorsHaveNoEncoding(op);
  }
};
} // namespace OpTrait

} // namespace mlir::triton

#define GET_OP_CLASSES
#include "triton-spirv/Dialect/Triton/IR/TritonOps.h.inc"

#endif // TRITON_SPIRV_DIALECT_TRITON_IR_DIALECT_H
