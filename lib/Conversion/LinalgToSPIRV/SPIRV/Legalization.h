//===- Legalization.h - Steps before and patterns of SPIR-V conversion ----===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_LEGALIZATION_H
#define TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_LEGALIZATION_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class Operation;
class RewritePatternSet;
class SPIRVTypeConverter;
namespace func {
class FuncOp;
}

namespace triton_spirv {
/// The kernels of `module` (func.func marked kKernelAttrName), each given
/// to `step` in turn; stops at the first that fails.
LogicalResult forEachKernel(Operation *module,
                            function_ref<LogicalResult(func::FuncOp)> step);

/// Float atomics (and others without a SPIR-V instruction) as
/// compare-and-swap updates.
void atomicsToCompareAndSwap(func::FuncOp kernel);

/// Guards loops that may not run, makes `index` temporaries i32, expands
/// arith ops without a SPIR-V instruction and math functions without a
/// GLSL.std.450 one. With `nativeMinMaxNum` (TargetDescription), f16/f32
/// arith.minnumf/maxnumf become GLSL FMin/FMax. Fails, with a diagnostic,
/// on what the backend does not support.
LogicalResult legalizeForSPIRV(func::FuncOp kernel, bool nativeMinMaxNum);

/// f32 math.sqrt and arith.divf marked kCorrectlyRoundedAttrName, computed
/// in f64 and rounded once (CorrectlyRounded.cpp); without `float64`, a
/// remark says they are not.
void roundCorrectly(func::FuncOp kernel, bool float64);

/// bf16, f8E5M2, f8E4M3FN, f8E5M2FNUZ and f8E4M3FNUZ values become their
/// bits (i16, i8): arithmetic in f32, conversions as integer bit operations
/// (SmallFloats.cpp). Fails, with a diagnostic, on other fp8 formats and on
/// ops that cannot be emulated.
LogicalResult emulateSmallFloats(func::FuncOp kernel);

/// Fuses each float multiply into the add or subtract that alone uses it
/// (math.fma): Triton's enable_fp_fusion, where the driver may not.
LogicalResult fuseMultiplyAdds(func::FuncOp kernel);

/// Writes f64 exp, exp2, expm1, log, log2, tanh and erf with f64 arithmetic
/// (GLSL.std.450 has only 16/32-bit transcendental functions); fails, with a
/// diagnostic, on other f64 functions without a lowering.
LogicalResult expandDoublePrecisionMath(func::FuncOp kernel);

/// On math.fma ops whose rounding must not change: the SPIR-V Fma is
/// decorated NoContraction, which stops drivers from refactoring it
/// (NVIDIA's and Mesa's compilers turn a*b + a*c into a*(b + c)).
inline constexpr llvm::StringLiteral kExactAttrName = "triton_spirv.exact";

/// Patterns for what upstream SPIR-V conversions lack: GLSL exp2/log2,
/// population counts, exact FMAs, buffers at device addresses, the
/// cooperative multiply-adds of bf16 bits (marked kBFloat16MatrixAttrName,
/// lowered as f16 with the mark kept).
void populateConvertToSPIRVPatterns(const SPIRVTypeConverter &typeConverter,
                                    RewritePatternSet &patterns);

/// The vector width of each workgroup buffer (memref.alloc) that has vector
/// accesses (vector.load, vector.store).
using WorkgroupVectorWidths = llvm::DenseMap<Operation *, int64_t>;

/// The workgroup buffers of `kernel` with vector accesses; fails, with a
/// diagnostic, on one that the patterns below cannot lower (views, mixed
/// widths, dynamic shapes).
FailureOr<WorkgroupVectorWidths>
findWorkgroupVectorBuffers(func::FuncOp kernel);

/// Those buffers as arrays of vectors, their scalar accesses as components
/// (WorkgroupVectors.cpp). Vector accesses must start at multiples of their
/// width: the pass that emits them guarantees it.
void populateWorkgroupVectorPatterns(const SPIRVTypeConverter &typeConverter,
                                     const WorkgroupVectorWidths &widths,
                                     RewritePatternSet &patterns);

/// memref.generic_atomic_rmw as compare-and-swap loops (scf.while around
/// SPIR-V atomics), applied before the main conversion.
void populateAtomicToSPIRVPatterns(const SPIRVTypeConverter &typeConverter,
                                   RewritePatternSet &patterns);
} // namespace triton_spirv
} // namespace mlir

#endif // TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_LEGALIZATION_H
