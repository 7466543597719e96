//===- Dialect.h - The triton_spirv dialect ---------------------*- C++ -*-===//
//
// The attributes triton-spirv's passes exchange in the IR (layouts, spreads).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_DIALECT_H
#define TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_DIALECT_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"

#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVTypes.h.inc"

namespace mlir::triton_spirv {
/// The discardable attribute naming a buffer's layout (on its allocation).
inline constexpr StringLiteral kLayoutAttrName = "triton_spirv.layout";
/// The discardable attribute on a distributed loop saying which iterations
/// each invocation runs (a SpreadAttr).
inline constexpr StringLiteral kSpreadAttrName = "triton_spirv.spread";
/// The discardable attribute on a distributed kernel whose work needs fewer
/// invocations than the pass's workgroup size (an IntegerAttr): a kernel
/// without block work needs one subgroup, and its workgroups are that small.
inline constexpr StringLiteral kWorkgroupSizeAttrName =
    "triton_spirv.workgroup_size";
/// The discardable unit attribute on a barrier the program itself asked for
/// (`tl.debug_barrier()`): it fences what Triton does not otherwise order
/// (a program's global accesses, atomics), so no pass removes it.
inline constexpr StringLiteral kRequestedBarrierAttrName =
    "triton_spirv.requested_barrier";
/// The discardable unit attribute on the allocation of a member of a
/// fragment family (lib/Analysis/FragmentFamilies.cpp): its fragments live
/// in variables that maps, row reductions and matmuls update in place.
inline constexpr StringLiteral kFragmentFamilyAttrName =
    "triton_spirv.fragment_family";
/// The discardable attribute on a static matmul on buffers saying how the
/// workgroup computes it (a MatmulPlanAttr, from
/// --triton-spirv-plan-matmuls).
inline constexpr StringLiteral kMatmulPlanAttrName = "triton_spirv.matmul_plan";
/// The side of the square cooperative-matrix tiles of a fragments layout
/// (16x16 fp16 operands, 16 deep: what NVIDIA's devices offer).
inline constexpr int64_t kFragmentSize = 16;
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_DIALECT_H
