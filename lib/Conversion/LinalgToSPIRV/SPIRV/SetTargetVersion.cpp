//===- SetTargetVersion.cpp - Declare the target's SPIR-V version ---------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

#include <algorithm>

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_SETTARGETVERSION
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
struct SetTargetVersionPass
    : triton_spirv::impl::SetTargetVersionBase<SetTargetVersionPass> {
  void runOnOperation() override {
    spirv::ModuleOp module = getOperation();
    std::optional<spirv::VerCapExtAttr> declared = module.getVceTriple();
    if (!declared)
      return;
    spirv::TargetEnvAttr target = spirv::lookupTargetEnvOrDefault(module);
    SmallVector<spirv::Capability> capabilities(declared->getCapabilities());
    SmallVector<spirv::Extension> extensions(declared->getExtensions());
    // spirv-update-vce names the EXT extension for physical storage buffers,
    // which Vulkan ties to VK_EXT_buffer_device_address; the KHR one is what
    // Vulkan 1.2's bufferDeviceAddress feature provides.
    bool renamed = false;
    for (spirv::Extension &extension : extensions)
      if (extension == spirv::Extension::SPV_EXT_physical_storage_buffer) {
        extension = spirv::Extension::SPV_KHR_physical_storage_buffer;
        renamed = true;
      }
    if (declared->getVersion() >= target.getVersion() && !renamed)
      return;
    module.setVceTripleAttr(spirv::VerCapExtAttr::get(
        std::max(declared->getVersion(), target.getVersion()), capabilities,
        extensions, module.getContext()));
  }
};
} // namespace
