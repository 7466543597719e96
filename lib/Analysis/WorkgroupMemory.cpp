//===- WorkgroupMemory.cpp - Workgroup memory a kernel uses ---------------===//

#include "triton-spirv/Analysis/WorkgroupMemory.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value triton_spirv::bufferUnderViews(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

Value triton_spirv::bufferUnderReshapes(Value memref) {
  while (isa_and_present<memref::ExpandShapeOp, memref::CollapseShapeOp>(
      memref.getDefiningOp()))
    memref = memref.getDefiningOp()->getOperand(0);
  return memref;
}

void triton_spirv::forEachUserThroughViews(
    Value buffer, function_ref<void(Operation *, bool)> visit) {
  for (Operation *user : buffer.getUsers()) {
    auto view = dyn_cast<ViewLikeOpInterface>(user);
    bool isView = view && view.getViewSource() == buffer;
    visit(user, isView);
    if (isView)
      for (Value result : user->getResults())
        forEachUserThroughViews(result, visit);
  }
}

bool triton_spirv::usesBuffer(Operation *op, Value buffer) {
  return op
      ->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          if (isa<MemRefType>(operand.getType()) &&
              bufferUnderViews(operand) == buffer)
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

bool triton_spirv::isGlobalMemory(MemRefType type) {
  return !isWorkgroupMemory(type) && !isPrivateMemory(type);
}

bool triton_spirv::isWorkgroupMemory(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (gpu::GPUDialect::isWorkgroupMemoryAddressSpace(space))
    return true;
  auto storageClass = dyn_cast_or_null<spirv::StorageClassAttr>(space);
  return storageClass &&
         storageClass.getValue() == spirv::StorageClass::Workgroup;
}

bool triton_spirv::isPrivateMemory(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Private;
}

int64_t triton_spirv::elementBytes(Type type) {
  return isa<IndexType>(type)
             ? 4
             : std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

int64_t triton_spirv::bufferBytes(MemRefType type) {
  return type.getNumElements() * elementBytes(type.getElementType());
}

int64_t triton_spirv::workgroupMemoryBytes(func::FuncOp kernel,
                                           bool withLayoutBuffers) {
  int64_t bytes = 0;
  kernel.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (!isWorkgroupMemory(type) || !type.hasStaticShape() ||
        (!withLayoutBuffers && alloc->hasAttr(kLayoutAttrName)))
      return;
    bytes += bufferBytes(type);
  });
  return bytes;
}

bool triton_spirv::fitsWorkgroupMemory(Operation *op, int64_t extraBytes,
                                       int64_t maxBytes) {
  auto kernel = op->getParentOfType<func::FuncOp>();
  return !maxBytes || workgroupMemoryBytes(kernel,
                                           /*withLayoutBuffers=*/false) +
                              extraBytes <=
                          maxBytes;
}

InFlightDiagnostic triton_spirv::emitWorkgroupMemoryOverrun(Operation *at,
                                                            int64_t needed,
                                                            int64_t limit,
                                                            StringRef what) {
  InFlightDiagnostic overrun =
      at->emitError() << "out of resources: the kernel needs "
                      << (what.empty() ? "" : "at least ") << needed
                      << " bytes of workgroup memory"
                      << (what.empty() ? "" : " (") << what
                      << (what.empty() ? "" : ")") << ", the target has "
                      << limit << "; use smaller blocks or fewer live tensors";
  Builder builder(at->getContext());
  overrun.attachNote()
      << "overrun: "
      << builder.getDictionaryAttr(
             {builder.getNamedAttr("resource",
                                   builder.getStringAttr("workgroup-memory")),
              builder.getNamedAttr("needed", builder.getI64IntegerAttr(needed)),
              builder.getNamedAttr("limit", builder.getI64IntegerAttr(limit))});
  return overrun;
}
