//===- Target.cpp - Vulkan target presets ---------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace {
// Capabilities every preset has: compute shaders, 8/16-bit storage and
// arithmetic, 64-bit integers and subgroup operations.
#define COMMON_CAPABILITIES                                                    \
  "Shader, Int8, Int16, Int64, Float16, StorageBuffer8BitAccess, "             \
  "StorageBuffer16BitAccess, "                                                 \
  "GroupNonUniform, "                                                          \
  "GroupNonUniformArithmetic, GroupNonUniformBallot, GroupNonUniformShuffle, " \
  "GroupNonUniformVote"
#define COMMON_EXTENSIONS                                                      \
  "SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, "               \
  "SPV_KHR_16bit_storage"

// Desktop drivers (lavapipe, NVIDIA): 64-bit floats and atomics, float atomic
// add.
#define DESKTOP_CAPABILITIES                                                   \
  COMMON_CAPABILITIES                                                          \
  ", Float64, Int64Atomics, AtomicFloat32AddEXT, AtomicFloat64AddEXT"
#define DESKTOP_EXTENSIONS COMMON_EXTENSIONS ", SPV_EXT_shader_atomic_float_add"

// Numbers measured on the machines (DESIGN.md): lavapipe on Debian 12 and the
// NVIDIA H200 driver; generic uses Vulkan 1.2's required minimums.
const triton_spirv::TargetDescription kTargets[] = {
    {"lavapipe",
     "#spirv.vce<v1.5, [" DESKTOP_CAPABILITIES "], [" DESKTOP_EXTENSIONS "]>",
     "", 32768, 1024, 128, 8, true, false},
    // Cooperative matrices need SPIR-V 1.6 (Vulkan 1.3).
    {"nvidia",
     "#spirv.vce<v1.6, [" DESKTOP_CAPABILITIES ", CooperativeMatrixKHR], "
     "[" DESKTOP_EXTENSIONS ", SPV_KHR_cooperative_matrix]>",
     "NVIDIA:DiscreteGPU", 49152, 1024, 256, 32, false, true},
    {"generic",
     "#spirv.vce<v1.5, [" COMMON_CAPABILITIES "], [" COMMON_EXTENSIONS "]>", "",
     16384, 128, 128, 32, false, false},
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
  std::string device = target.device.empty() ? "" : target.device.str() + ", ";
  std::string text = llvm::formatv(
      "#spirv.target_env<{0}, api=Vulkan, {1}#spirv.resource_limits<"
      "max_compute_shared_memory_size = {2}, "
      "max_compute_workgroup_invocations = {3}, subgroup_size = {4}>>",
      target.vce, device, target.maxWorkgroupMemoryBytes,
      target.maxWorkgroupInvocations, target.subgroupSize);
  return dyn_cast_or_null<spirv::TargetEnvAttr>(parseAttribute(text, context));
}
