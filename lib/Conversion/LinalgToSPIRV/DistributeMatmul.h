//===- DistributeMatmul.h - Matmuls spread over a workgroup -----*- C++ -*-===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEMATMUL_H
#define TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEMATMUL_H

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::triton_spirv {
/// `op` as a linalg.generic: itself, or a named op generalized in its place.
FailureOr<linalg::GenericOp> asGeneric(RewriterBase &rewriter,
                                       linalg::LinalgOp op);

/// Replaces a 2-D matmul on buffers of static shape (linalg.matmul or a
/// generic of the same form) by code in which invocation `invocationId`
/// computes a tile of outputs in registers, or, with cooperative matrices,
/// its subgroup computes 16x16 tiles. Fails, leaving the op untouched, when
/// the op does not have that form or its outputs are too few to give every
/// invocation one. Cooperative matrices are used with
/// `options.cooperativeMatrix`, for fp16 operands.
LogicalResult distributeMatmul(RewriterBase &rewriter, linalg::LinalgOp op,
                               Value invocationId,
                               const DistributeToWorkgroupOptions &options);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_DISTRIBUTEMATMUL_H
