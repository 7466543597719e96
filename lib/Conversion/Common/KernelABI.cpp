//===- KernelABI.cpp - Kernel argument roles ------------------------------===//

#include "triton-spirv/Conversion/KernelABI.h"

#include "triton-spirv/Conversion/KernelABIEnums.cpp.inc"

using namespace mlir;
using namespace mlir::triton_spirv;

KernelArgRole triton_spirv::programIdRole(unsigned dim) {
  return static_cast<KernelArgRole>(
      static_cast<uint32_t>(KernelArgRole::ProgramIdX) + dim);
}

KernelArgRole triton_spirv::numProgramsRole(unsigned dim) {
  return static_cast<KernelArgRole>(
      static_cast<uint32_t>(KernelArgRole::NumProgramsX) + dim);
}

KernelArgRole triton_spirv::programIdBaseRole(unsigned dim) {
  return static_cast<KernelArgRole>(
      static_cast<uint32_t>(KernelArgRole::ProgramIdBaseX) + dim);
}

std::optional<unsigned> triton_spirv::programIdAxis(KernelArgRole role) {
  auto offset = static_cast<uint32_t>(role) -
                static_cast<uint32_t>(KernelArgRole::ProgramIdX);
  if (offset < 3)
    return offset;
  return std::nullopt;
}

FailureOr<std::optional<KernelArgRole>>
triton_spirv::getArgRole(FunctionOpInterface function, unsigned index) {
  auto name = function.getArgAttrOfType<StringAttr>(index, kAbiAttrName);
  if (!name)
    return std::optional<KernelArgRole>();
  std::optional<KernelArgRole> role = symbolizeKernelArgRole(name.getValue());
  if (!role)
    return function.emitError("kernel argument #")
           << index << " has an unknown role '" << name.getValue() << "'";
  return role;
}

NamedAttribute triton_spirv::roleAttr(Builder &builder, KernelArgRole role) {
  return builder.getNamedAttr(
      kAbiAttrName, builder.getStringAttr(stringifyKernelArgRole(role)));
}
