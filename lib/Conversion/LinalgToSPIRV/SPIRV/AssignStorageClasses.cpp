//===- AssignStorageClasses.cpp - Memory spaces as storage classes --------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_ASSIGNSTORAGECLASSES
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
struct AssignStorageClassesPass
    : triton_spirv::impl::AssignStorageClassesBase<AssignStorageClassesPass> {
  void runOnOperation() override {
    // Kernel buffers are storage buffers; temporaries are in workgroup memory
    // or private to an invocation.
    spirv::MemorySpaceToStorageClassConverter storageClasses(
        [](Attribute space) -> std::optional<spirv::StorageClass> {
          if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space)) {
            switch (gpuSpace.getValue()) {
            case gpu::AddressSpace::Workgroup:
              return spirv::StorageClass::Workgroup;
            case gpu::AddressSpace::Private:
              return spirv::StorageClass::Function;
            case gpu::AddressSpace::Global:
              return spirv::StorageClass::StorageBuffer;
            }
          }
          if (auto storageClass =
                  dyn_cast_or_null<spirv::StorageClassAttr>(space))
            return storageClass.getValue(); // buffers at device addresses
          return spirv::mapMemorySpaceToVulkanStorageClass(space);
        });
    spirv::convertMemRefTypesAndAttrs(getOperation(), storageClasses);
  }
};
} // namespace
