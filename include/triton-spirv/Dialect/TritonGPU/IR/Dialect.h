//===- Dialect.h - The ttg ops TTIR may hold --------------------*- C++ -*-===//
//
// triton-spirv's definition of the one op of Triton's `ttg` dialect that
// TTIR holds: `ttg.barrier` (Triton 3.8 and later).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_DIALECT_TRITONGPU_IR_DIALECT_H
#define TRITON_SPIRV_DIALECT_TRITONGPU_IR_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#include "triton-spirv/Dialect/TritonGPU/IR/TritonGPUDialect.h.inc"
#include "triton-spirv/Dialect/TritonGPU/IR/TritonGPUEnums.h.inc"

#define GET_OP_CLASSES
#include "triton-spirv/Dialect/TritonGPU/IR/TritonGPUOps.h.inc"

#endif // TRITON_SPIRV_DIALECT_TRITONGPU_IR_DIALECT_H
