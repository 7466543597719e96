//===- Patterns.h - Pattern sets of the TTIR -> linalg passes ---*- C++ -*-===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_PATTERNS_H
#define TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_PATTERNS_H

#include "mlir/Transforms/DialectConversion.h"

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"

namespace mlir::triton_spirv {
/// On memory ops and pointer bitcasts: the kernel argument their pointer
/// derives from.
inline constexpr StringLiteral kRootArgAttrName = "triton_spirv.root_arg";
/// On memory ops through a pointer with an address root: the number of its
/// triton_spirv.address_buffer.
inline constexpr StringLiteral kRootAddressAttrName =
    "triton_spirv.root_address";

/// The kernel argument of `role` that stands for the Triton argument behind
/// `op`'s pointer (marked with `kRootArgAttrName` by the ABI pass), for
/// buffers the one with elements of `elementType`. For a pointer with an
/// address root (`kRootAddressAttrName`), its triton_spirv.address_buffer of
/// `elementType`; such buffers have no other roles. The buffer of an
/// argument passed by address (role Address) is its address buffer.
FailureOr<Value> lookupRootArg(Operation *op, KernelArgRole role,
                               Type elementType = {});
/// The buffer argument through which memory op `op` accesses elements of
/// `elementType`.
FailureOr<Value> lookupBuffer(Operation *op, Type elementType);

/// The ABI pass rebuilds each pointer argument as a cast of (buffer, offset),
/// and each address root as a cast of (address buffers..., offset).
bool isPointerRootCast(UnrealizedConversionCastOp op);

/// make_range, splat, broadcast, expand_dims, reshape, trans, cat, join,
/// split, unsplat (any element type, pointers included).
void populateShapeOpsToLinalgPatterns(RewritePatternSet &patterns);
/// reduce, scan, dot, histogram, gather.
void populateComputeOpsToLinalgPatterns(RewritePatternSet &patterns);
/// clampf, precise_sqrt/divf, mulhiui, fp_to_fp, bitcast of values,
/// extern_elementwise (device-library calls).
void populateElementwiseOpsToArithPatterns(RewritePatternSet &patterns);
/// tt.assert and tt.print as writes to the kernel's debug buffer
/// (DebugBuffer.h); operands are already converted by `converter`.
void populateDebugOpsToMemRefPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
/// Whether tt.extern_elementwise of `symbol` has an arith/math equivalent.
bool isSupportedLibraryFunction(StringRef symbol);

/// Emits `unsupported(op)` as an error at every op under `root` for which it
/// returns a message, so users see all problems with their source lines at
/// once; fails if there was any.
LogicalResult reportUnsupportedOps(
    Operation *root,
    function_ref<std::optional<std::string>(Operation *)> unsupported);

/// applyPartialConversion for pattern sets that check everything before they
/// change the IR, so no rollback is needed.
LogicalResult applyConversionWithoutRollback(Operation *root,
                                             const ConversionTarget &target,
                                             RewritePatternSet &&patterns);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_TRITONTOLINALG_PATTERNS_H
