//===- Target.cpp - Vulkan target presets ---------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"

using namespace mlir;

namespace {
// Capabilities every preset has: compute shaders, 8/16-bit storage and
// arithmetic, 64-bit integers and subgroup operations.
#define COMMON_CAPABILITIES                                                    \
  "Shader, Int8, Int16, Int64, Float16, StorageBuffer8BitAccess, "             \
  "StorageBuffer16BitAccess, "                    \
  "GroupNonUniform, "                     \
  "GroupNonUniformArithmetic, GroupNonUniformBallot, GroupNonUniformShuffle, " \
  "GroupNonUniformVote"
#define COMMON_EXTENSIONS                                                      \
  "SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, "               \
  "SPV_KHR_16bit_storage"

// Numbers measured on the machines (DESIGN.md): lavapipe on Debian 12 and the
// NVIDIA H200 driver; generic uses Vulkan 1.2's required minimums.
const triton_spirv::TargetDescription kTargets[] = {
    {"lavapipe",
     "#spirv.target_env<#spirv.vce<v1.5, [" COMMON_CAPABILITIES
     ", Float64, Int64Atomics, AtomicFloat32AddEXT, AtomicFloat64AddEXT], [" COMMON_EXTENSIONS
     ", SPV_EXT_shader_atomic_float_add]>, api=Vulkan, "
     "#spirv.resource_limits<max_compute_shared_memory_size = 32768, "
     "max_compute_workgroup_invocations = 1024, subgroup_size = 8>>",
     32768, 1024, 128, 8},
    {"nvidia",
     "#spirv.target_env<#spirv.vce<v1.5, [" COMMON_CAPABILITIES
     ", Float64, Int64Atomics, AtomicFloat32AddEXT, AtomicFloat64AddEXT], [" COMMON_EXTENSIONS
     ", SPV_EXT_shader_atomic_float_add]>, api=Vulkan, NVIDIA:DiscreteGPU, "
     "#spirv.resource_limits<max_compute_shared_memory_size = 49152, "
     "max_compute_workgroup_invocations = 1024, subgroup_size = 32>>",
     49152, 1024, 256, 32},
    {"generic",
     "#spirv.target_env<#spirv.vce<v1.5, [" COMMON_CAPABILITIES
     "], [" COMMON_EXTENSIONS "]>, api=Vulkan, "
     "#spirv.resource_limits<max_compute_shared_memory_size = 16384, "
     "max_compute_workgroup_invocations = 128, subgroup_size = 32>>",
     16384, 128, 128, 32},
};
} // namespace

std::optional<triton_spirv::TargetDescription>
triton_spirv::lookupTarget(StringRef name) {
  for (const TargetDescription &target : kTargets)
    if (target.name == name)
      return target;
  return std::nullopt;
}

StringRef triton_spirv::targetNames() { return "lavapipe, nvidia, generic"; }

spirv::TargetEnvAttr
triton_spirv::getTargetEnv(MLIRContext *context,
                           const TargetDescription &target) {
  return dyn_cast_or_null<spirv::TargetEnvAttr>(
      parseAttribute(target.targetEnv, context));
}
