//===- KernelABI.h - The kernel ABI between the passes and the launcher ---===//
//
// A kernel (a func.func marked kKernelAttrName) carries on each argument its
// role (kAbiAttrName, a KernelArgRole by name) and, for buffers, offsets and
// scalars, the Triton argument position (kArgIndexAttrName). The SPIR-V
// stage lays the roles out as bindings and launch-constant slots and records
// that layout under kAbiAttrName on the spirv.module.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_CONVERSION_KERNELABI_H
#define TRITON_SPIRV_CONVERSION_KERNELABI_H

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>

#include "triton-spirv/Conversion/KernelABIEnums.h.inc"

namespace mlir::triton_spirv {
inline constexpr StringLiteral kKernelAttrName = "triton_spirv.kernel";
inline constexpr StringLiteral kAbiAttrName = "triton_spirv.abi";
inline constexpr StringLiteral kArgIndexAttrName = "triton_spirv.arg_index";
/// On a kernel: the Triton arguments whose elements are addresses (dense
/// i64 array). The launcher binds a copy of each with device addresses in
/// place of host ones; the metadata lists them as `address_tables`.
inline constexpr StringLiteral kAddressTablesAttrName =
    "triton_spirv.address_tables";

/// The roles of grid axis `dim` (0: x, 1: y, 2: z).
KernelArgRole programIdRole(unsigned dim);
KernelArgRole numProgramsRole(unsigned dim);
KernelArgRole programIdBaseRole(unsigned dim);
/// The grid axis of a program id role, if it is one.
std::optional<unsigned> programIdAxis(KernelArgRole role);

/// The role of `function`'s argument `index`: none when it has no role
/// attribute, failure (with an error at the function) when it names no role.
FailureOr<std::optional<KernelArgRole>> getArgRole(FunctionOpInterface function,
                                                   unsigned index);
/// The role attribute for `role`.
NamedAttribute roleAttr(Builder &builder, KernelArgRole role);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_CONVERSION_KERNELABI_H
