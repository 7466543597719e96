//===- CreateShaderModules.cpp - One spirv.module per kernel --------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "ShaderModule.h"

#include "triton-spirv/Conversion/KernelABI.h"
#include "triton-spirv/Conversion/LinalgToSPIRV/Target.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_CREATESHADERMODULES
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

FailureOr<ModuleOp> triton_spirv::getShaderModule(func::FuncOp kernel) {
  auto shader = dyn_cast_or_null<ModuleOp>(kernel->getParentOp());
  if (!shader || !shader->hasAttr(kShaderAddressingAttrName))
    return kernel.emitError("the kernel is not in a shader module: "
                            "--triton-spirv-create-shader-modules comes first");
  return shader;
}

namespace {
struct CreateShaderModulesPass
    : triton_spirv::impl::CreateShaderModulesBase<CreateShaderModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<triton_spirv::ModuleTarget> resolved =
        triton_spirv::lookupTarget(module);
    if (failed(resolved))
      return signalPassFailure();
    const triton_spirv::TargetDescription &target = resolved->description;
    SmallVector<func::FuncOp> kernels;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(triton_spirv::kKernelAttrName))
        kernels.push_back(func);
    for (func::FuncOp kernel : kernels) {
      // Buffers at device addresses need 64-bit physical addressing.
      bool usesAddresses = kernel
                               .walk([](triton_spirv::AddressBufferOp) {
                                 return WalkResult::interrupt();
                               })
                               .wasInterrupted();
      if (usesAddresses && !target.features.bufferDeviceAddress) {
        kernel.emitError("the kernel reaches memory through device "
                         "addresses (pointers read from memory, or arguments "
                         "passed by address), which needs buffer device "
                         "addresses; target '")
            << target.name << "' has none";
        return signalPassFailure();
      }
      OpBuilder builder(module.getBody(), module.getBody()->end());
      auto shader = ModuleOp::create(builder, kernel.getLoc());
      shader->setAttr(triton_spirv::kShaderAddressingAttrName,
                      spirv::AddressingModelAttr::get(
                          &getContext(),
                          usesAddresses
                              ? spirv::AddressingModel::PhysicalStorageBuffer64
                              : spirv::AddressingModel::Logical));
      kernel->moveBefore(shader.getBody(), shader.getBody()->end());
    }
  }
};
} // namespace
