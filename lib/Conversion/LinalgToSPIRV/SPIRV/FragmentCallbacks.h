//===- FragmentCallbacks.h - Fragment ops as SPIR-V callbacks ---*- C++ -*-===//
//
// `triton_spirv.reduce_fragment_rows` and `triton_spirv.map_fragments` become
// VK_NV_cooperative_matrix2's OpCooperativeMatrixReduceNV and
// OpCooperativeMatrixPerElementOpNV, which take a function to call per
// element, and `triton_spirv.convert_fragment` an OpFConvert between uses,
// which only that extension allows. MLIR's SPIR-V dialect has none of them,
// so the lowering is in two steps: before the SPIR-V conversion each op's
// body becomes a function (its callback) and the op a call of a placeholder
// function named after the callback; after serialization the binary's calls
// of placeholders are rewritten into the NV instructions, with their
// capabilities and extension.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_FRAGMENTCALLBACKS_H
#define TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_FRAGMENTCALLBACKS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Support/LLVM.h"

namespace mlir::triton_spirv {

/// Outlines the bodies of `kernel`'s fragment ops into functions of `module`
/// and replaces each op by a call of its placeholder. Fails (with an error
/// naming the op) where the target lacks `cooperativeMatrix2`.
LogicalResult outlineFragmentCallbacks(func::FuncOp kernel, ModuleOp module,
                                       bool cooperativeMatrix2);

/// Rewrites the calls of placeholders in a serialized module into
/// OpCooperativeMatrixReduceNV, OpCooperativeMatrixPerElementOpNV and
/// OpFConvert, and declares what they need. A module without placeholders
/// is left as it is.
/// Fails on a malformed binary or one older than SPIR-V 1.6.
LogicalResult rewriteFragmentCallbackCalls(SmallVectorImpl<uint32_t> &binary,
                                           Operation *anchor);

/// Converts fragment variables to Function-storage pointers to cooperative
/// matrices (`typeConverter` must already convert `!gpu.mma_matrix`).
void addFragmentVariableConversion(SPIRVTypeConverter &typeConverter);

/// Fragment variables' allocation, reads and writes as spirv.Variable, Load
/// and Store, and an accumulator converted to another element type (of the
/// same use) as FConvert.
void populateFragmentVariablePatterns(const SPIRVTypeConverter &typeConverter,
                                      RewritePatternSet &patterns);

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_FRAGMENTCALLBACKS_H
