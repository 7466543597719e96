//===- Target.cpp - Vulkan target presets ---------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using triton_spirv::TargetDescription;
using triton_spirv::TargetFeatures;

namespace {
// Numbers measured on the machines (DESIGN.md): lavapipe on Debian 12 and the
// NVIDIA H200 driver; generic uses Vulkan 1.2's required minimums.
constexpr TargetFeatures kDesktopFeatures{/*int8=*/true,
                                          /*int16=*/true,
                                          /*int64=*/true,
                                          /*float16=*/true,
                                          /*float64=*/true,
                                          /*atomicFloatAdd=*/true,
                                          /*cooperativeMatrix=*/false,
                                          /*bfloat16CooperativeMatrix=*/false,
                                          /*cooperativeMatrix2=*/false,
                                          /*bufferDeviceAddress=*/true,
                                          /*denormPreserveFloat32=*/false};
const TargetDescription kTargets[] = {
    {"lavapipe", "", 32768, 1024, 128, 8, true, false, kDesktopFeatures,
     /*maxLoopIterations=*/65535},
    {"nvidia", "NVIDIA:DiscreteGPU", 49152, 1024, 256, 32, false, true,
     [] {
       TargetFeatures features = kDesktopFeatures;
       features.cooperativeMatrix = true;
       features.bfloat16CooperativeMatrix = true;
       features.cooperativeMatrix2 = true;
       return features;
     }()},
    {"generic", "", 16384, 128, 128, 32, false, false, TargetFeatures{}},
};

/// Each feature's name and flag.
SmallVector<std::pair<StringRef, bool *>> featureFlags(TargetFeatures &f) {
  return {{"int8", &f.int8},
          {"int16", &f.int16},
          {"int64", &f.int64},
          {"float16", &f.float16},
          {"float64", &f.float64},
          {"atomic-float-add", &f.atomicFloatAdd},
          {"cooperative-matrix", &f.cooperativeMatrix},
          {"bfloat16-cooperative-matrix", &f.bfloat16CooperativeMatrix},
          {"cooperative-matrix2", &f.cooperativeMatrix2},
          {"buffer-device-address", &f.bufferDeviceAddress},
          {"denorm-preserve-float32", &f.denormPreserveFloat32}};
}
} // namespace

FailureOr<TargetDescription>
triton_spirv::resolveTarget(StringRef name, const TargetOverrides &overrides,
                            std::string &error) {
  const TargetDescription *preset = llvm::find_if(
      kTargets, [&](const TargetDescription &t) { return t.name == name; });
  if (preset == std::end(kTargets)) {
    error = ("unknown target '" + name + "'; expected one of " +
             llvm::join(llvm::map_range(
                            kTargets,
                            [](const TargetDescription &t) { return t.name; }),
                        ", "))
                .str();
    return failure();
  }
  TargetDescription target = *preset;
  if (overrides.maxWorkgroupMemoryBytes)
    target.maxWorkgroupMemoryBytes = overrides.maxWorkgroupMemoryBytes;
  if (overrides.maxWorkgroupInvocations)
    target.maxWorkgroupInvocations = overrides.maxWorkgroupInvocations;
  if (overrides.subgroupSize)
    target.subgroupSize = overrides.subgroupSize;
  auto flags = featureFlags(target.features);
  for (StringRef feature : overrides.features) {
    bool enable = !feature.consume_front("-");
    feature.consume_front("+");
    auto *flag =
        llvm::find_if(flags, [&](auto &f) { return f.first == feature; });
    if (flag == flags.end()) {
      SmallVector<StringRef> names =
          llvm::map_to_vector(flags, [](auto &f) { return f.first; });
      StringRef last = names.pop_back_val();
      error = ("unknown target feature '" + feature + "'; expected " +
               llvm::join(names, ", ") + " or " + last)
                  .str();
      return failure();
    }
    *flag->second = enable;
  }
  return target;
}

spirv::TargetEnvAttr
triton_spirv::getTargetEnv(MLIRContext *context,
                           const TargetDescription &target) {
  const TargetFeatures &f = target.features;
  // Compute shaders and subgroup operations are always there.
  SmallVector<StringRef> capabilities{"Shader",
                                      "GroupNonUniform",
                                      "GroupNonUniformArithmetic",
                                      "GroupNonUniformBallot",
                                      "GroupNonUniformShuffle",
                                      "GroupNonUniformVote"};
  SmallVector<StringRef> extensions{"SPV_KHR_storage_buffer_storage_class"};
  if (f.int8) {
    capabilities.append({"Int8", "StorageBuffer8BitAccess"});
    extensions.push_back("SPV_KHR_8bit_storage");
  }
  if (f.int16 || f.float16) {
    capabilities.push_back("StorageBuffer16BitAccess");
    extensions.push_back("SPV_KHR_16bit_storage");
  }
  if (f.int16)
    capabilities.push_back("Int16");
  if (f.float16)
    capabilities.push_back("Float16");
  if (f.int64)
    capabilities.append({"Int64", "Int64Atomics"});
  if (f.float64)
    capabilities.push_back("Float64");
  if (f.atomicFloatAdd) {
    capabilities.push_back("AtomicFloat32AddEXT");
    if (f.float64)
      capabilities.push_back("AtomicFloat64AddEXT");
    extensions.push_back("SPV_EXT_shader_atomic_float_add");
  }
  if (f.cooperativeMatrix) {
    capabilities.push_back("CooperativeMatrixKHR");
    extensions.push_back("SPV_KHR_cooperative_matrix");
    if (f.bfloat16CooperativeMatrix) {
      capabilities.append({"BFloat16TypeKHR", "BFloat16CooperativeMatrixKHR"});
      extensions.push_back("SPV_KHR_bfloat16");
    }
  }
  if (f.bufferDeviceAddress) {
    capabilities.push_back("PhysicalStorageBufferAddresses");
    extensions.push_back("SPV_KHR_physical_storage_buffer");
  }
  if (f.denormPreserveFloat32) {
    capabilities.push_back("DenormPreserve");
    extensions.push_back("SPV_KHR_float_controls");
  }
  // Cooperative matrices need SPIR-V 1.6 (Vulkan 1.3).
  StringRef version = f.cooperativeMatrix ? "v1.6" : "v1.5";
  std::string device = target.device.empty() ? "" : target.device.str() + ", ";
  std::string text = llvm::formatv(
      "#spirv.target_env<#spirv.vce<{0}, [{1}], [{2}]>, api=Vulkan, "
      "{3}#spirv.resource_limits<max_compute_shared_memory_size = {4}, "
      "max_compute_workgroup_invocations = {5}, subgroup_size = {6}>>",
      version, llvm::join(capabilities, ", "), llvm::join(extensions, ", "),
      device, target.maxWorkgroupMemoryBytes, target.maxWorkgroupInvocations,
      target.subgroupSize);
  return dyn_cast_or_null<spirv::TargetEnvAttr>(parseAttribute(text, context));
}

FailureOr<triton_spirv::ModuleTarget>
triton_spirv::lookupTarget(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  TargetAttr target;
  WorkgroupAttr workgroup;
  spirv::TargetEnvAttr env;
  if (module) {
    target = module->getAttrOfType<TargetAttr>(kTargetAttrName);
    workgroup = module->getAttrOfType<WorkgroupAttr>(kWorkgroupAttrName);
    env = module->getAttrOfType<spirv::TargetEnvAttr>(
        spirv::getTargetEnvAttrName());
  }
  if (!target || !workgroup || !env)
    return op->emitError("the module has no target: run "
                         "--triton-spirv-resolve-target first");
  SmallVector<std::string> features;
  if (ArrayAttr names = target.getFeatures())
    for (Attribute name : names) {
      auto text = dyn_cast<StringAttr>(name);
      if (!text)
        return op->emitError("target features must be strings, not ") << name;
      features.push_back(text.str());
    }
  std::string error;
  FailureOr<TargetDescription> description = resolveTarget(
      target.getPreset(),
      {features, target.getWorkgroupMemory(), target.getMaxWorkgroupSize(),
       target.getSubgroupSize()},
      error);
  if (failed(description))
    return op->emitError(error);
  WorkgroupShape shape;
  shape.workgroupSize = workgroup.getSize();
  shape.subgroupSize = workgroup.getSubgroupSize();
  shape.cooperativeMatrix = workgroup.getCooperativeMatrix();
  shape.maxWorkgroupMemory = workgroup.getMemory();
  shape.bfloat16CooperativeMatrix = workgroup.getBfloat16CooperativeMatrix();
  shape.cooperativeMatrix2 = workgroup.getCooperativeMatrix2();
  return ModuleTarget{*description, shape, env};
}
