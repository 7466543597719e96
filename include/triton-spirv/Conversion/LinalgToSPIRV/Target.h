//===- Target.h - Vulkan target presets -------------------------*- C++ -*-===//

#ifndef TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_TARGET_H
#define TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_TARGET_H

#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::triton_spirv {

/// What the pipeline needs to know about a Vulkan device.
struct TargetDescription {
  llvm::StringRef name;
  /// `#spirv.vce<...>`: SPIR-V version, capabilities and extensions.
  llvm::StringRef vce;
  /// `vendor:device-type` of the target environment, or empty.
  llvm::StringRef device;
  unsigned maxWorkgroupMemoryBytes;
  unsigned maxWorkgroupInvocations;
  unsigned maxPushConstantBytes;
  unsigned subgroupSize;
  /// The driver mishandles atomics with acquire/release semantics in loops
  /// whose trip count differs between invocations (Mesa 22.3 lavapipe): emit
  /// them relaxed.
  bool relaxedAtomicsOnly;
  /// The device has KHR cooperative matrices of 16x16x16 fp16 with fp16 and
  /// fp32 accumulators in subgroup scope.
  bool cooperativeMatrix;
};

/// The presets: "lavapipe" (Mesa's CPU driver), "nvidia" (Hopper-class
/// desktop driver) and "generic" (Vulkan 1.2 with its required limits).
std::optional<TargetDescription> lookupTarget(llvm::StringRef name);

/// The names accepted by lookupTarget, for diagnostics.
llvm::StringRef targetNames();

/// The preset's `#spirv.target_env` (its VCE triple and limits).
spirv::TargetEnvAttr getTargetEnv(MLIRContext *context,
                                  const TargetDescription &target);

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_TARGET_H
