//===- Target.h - Vulkan target presets -------------------------*- C++ -*-===//

#ifndef TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_TARGET_H
#define TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_TARGET_H

#include "triton-spirv/Analysis/MatmulPlan.h"

#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::triton_spirv {

/// Optional device features the generated SPIR-V may use.
struct TargetFeatures {
  bool int8 = true;    // Int8, 8-bit storage buffers
  bool int16 = true;   // Int16, 16-bit storage buffers
  bool int64 = true;   // Int64, 64-bit atomics
  bool float16 = true; // Float16
  bool float64 = false;
  /// SPV_EXT_shader_atomic_float_add (float atomic add without a CAS loop).
  bool atomicFloatAdd = false;
  /// KHR cooperative matrices of 16x16x16 fp16 with fp16 and fp32
  /// accumulators in subgroup scope (needs SPIR-V 1.6).
  bool cooperativeMatrix = false;
  /// The same for bf16 operands (SPV_KHR_bfloat16's BFloat16TypeKHR and
  /// BFloat16CooperativeMatrixKHR, VK_KHR_shader_bfloat16).
  bool bfloat16CooperativeMatrix = false;
  /// VK_NV_cooperative_matrix2's row reductions and per-element functions
  /// of cooperative matrices (SPV_NV_cooperative_matrix2).
  bool cooperativeMatrix2 = false;
  /// Buffer device addresses (PhysicalStorageBuffer64): pointers read from
  /// memory as integers reach the memory they address.
  bool bufferDeviceAddress = false;
  /// The DenormPreserve execution mode for f32 (shaderDenormPreserveFloat32):
  /// f32 denormals are kept, as CUDA keeps them, where drivers would flush
  /// them. No preset has it (the H200's NVIDIA driver lacks it and flushes);
  /// the backend adds it for devices that report it.
  bool denormPreserveFloat32 = false;
};

/// What the pipeline needs to know about a Vulkan device.
struct TargetDescription {
  llvm::StringRef name;
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
  /// GLSL.std.450 FMin/FMax return the operand that is not NaN (IEEE 754
  /// minNum/maxNum), as NVIDIA's FMNMX instruction does: arith.minnumf and
  /// maxnumf become one instruction instead of compares, NaN tests and
  /// selects (the SPIR-V specification leaves NaN operands undefined).
  bool nativeMinMaxNum;
  TargetFeatures features;
  /// Iterations after which the driver ends a loop, whatever its condition,
  /// counted per invocation over all the loop's entries (Mesa's llvmpipe:
  /// 65,535, its loop limiter); 0: none.
  unsigned maxLoopIterations = 0;
};

/// Changes to a preset (0 or empty: keep the preset's). Features are named
/// `int8`, `int16`, `int64`, `float16`, `float64`, `atomic-float-add`,
/// `cooperative-matrix`, `bfloat16-cooperative-matrix`, `cooperative-matrix2`,
/// `buffer-device-address` and `denorm-preserve-float32`; `+name` (or `name`)
/// enables one, `-name` disables it.
struct TargetOverrides {
  ArrayRef<std::string> features;
  unsigned maxWorkgroupMemoryBytes = 0;
  unsigned maxWorkgroupInvocations = 0;
  unsigned subgroupSize = 0;
};

/// The preset `name` ("lavapipe": Mesa's CPU driver, "nvidia": Hopper-class
/// desktop driver, "generic": Vulkan 1.2 with its required limits) with the
/// overrides applied; fails with a message in `error`.
FailureOr<TargetDescription> resolveTarget(llvm::StringRef name,
                                           const TargetOverrides &overrides,
                                           std::string &error);

/// The target's `#spirv.target_env` (SPIR-V version, capabilities and
/// extensions from its features, and its limits).
spirv::TargetEnvAttr getTargetEnv(MLIRContext *context,
                                  const TargetDescription &target);

/// The module attributes --triton-spirv-resolve-target attaches (beside
/// `spirv.target_env`).
inline constexpr llvm::StringLiteral kTargetAttrName = "triton_spirv.target";
inline constexpr llvm::StringLiteral kWorkgroupAttrName =
    "triton_spirv.workgroup";

/// The target facts of a module, as --triton-spirv-resolve-target attached
/// them: the device, the workgroup one program runs on, and the SPIR-V
/// target environment.
struct ModuleTarget {
  TargetDescription description;
  WorkgroupShape workgroup;
  spirv::TargetEnvAttr env;
};

/// The target facts of the module holding `op` (or `op` itself); an error
/// on `op` where they are missing.
FailureOr<ModuleTarget> lookupTarget(Operation *op);

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_TARGET_H
