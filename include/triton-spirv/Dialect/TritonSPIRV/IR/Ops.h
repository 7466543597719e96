//===- Ops.h - The triton_spirv dialect's ops -------------------*- C++ -*-===//

#ifndef TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_OPS_H
#define TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_OPS_H

#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVOps.h.inc"

#endif // TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_OPS_H
