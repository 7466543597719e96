//===- Bufferize.cpp - Bufferization into workgroup memory ----------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_BUFFERIZETOWORKGROUP
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
/// Tensor constants would bufferize to memref.global, which has no SPIR-V
/// lowering; rebuild them from scalars instead.
void materializeTensorConstants(Operation *root) {
  IRRewriter rewriter(root->getContext());
  root->walk([&](arith::ConstantOp constant) {
    auto type = dyn_cast<RankedTensorType>(constant.getType());
    auto elements = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!type || !elements)
      return;
    rewriter.setInsertionPoint(constant);
    Location loc = constant.getLoc();
    Value replacement;
    if (elements.isSplat()) {
      Value scalar = arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(elements.getSplatValue<Attribute>()));
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      replacement =
          linalg::FillOp::create(rewriter, loc, scalar, empty).getResult(0);
    } else {
      SmallVector<Value> scalars;
      for (Attribute element : elements.getValues<Attribute>())
        scalars.push_back(arith::ConstantOp::create(
            rewriter, loc, cast<TypedAttr>(element)));
      replacement = tensor::FromElementsOp::create(rewriter, loc, type, scalars);
    }
    rewriter.replaceOp(constant, replacement);
  });
}

/// An element-wise generic that writes into a fresh tensor while reading a
/// loop-carried tensor of the same type element by element can write into
/// that tensor instead: its output block argument is unused, so this changes
/// nothing but lets bufferization keep the loop-carried value in one buffer.
void reuseLoopCarriedDestinations(Operation *root) {
  root->walk([](linalg::GenericOp generic) {
    if (generic.getNumDpsInits() != 1 ||
        generic.getNumParallelLoops() != generic.getNumLoops())
      return;
    OpOperand *init = generic.getDpsInitOperand(0);
    if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
        !generic.getMatchingBlockArgument(init).use_empty() ||
        !generic.getMatchingIndexingMap(init).isIdentity())
      return;
    for (OpOperand *input : generic.getDpsInputOperands()) {
      auto carried = dyn_cast<BlockArgument>(input->get());
      if (!carried || !isa<LoopLikeOpInterface>(carried.getOwner()->getParentOp()) ||
          carried.getType() != init->get().getType() ||
          !generic.getMatchingIndexingMap(input).isIdentity())
        continue;
      init->set(carried);
      return;
    }
  });
}

/// SPIR-V has no 0-d arrays: a 0-d buffer is a 1-element buffer collapsed to
/// rank 0, a view that later folds into its loads and stores.
void allocateScalarsAsVectors(Operation *root) {
  IRRewriter rewriter(root->getContext());
  root->walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (type.getRank() != 0)
      return;
    rewriter.setInsertionPoint(alloc);
    auto vectorAlloc = memref::AllocOp::create(
        rewriter, alloc.getLoc(),
        MemRefType::get({1}, type.getElementType(), nullptr,
                        type.getMemorySpace()));
    rewriter.replaceOpWithNewOp<memref::CollapseShapeOp>(
        alloc, vectorAlloc, ArrayRef<ReassociationIndices>{});
  });
}

/// Every allocation becomes one module-level variable, so it can live at the
/// kernel entry; all shapes are static.
void hoistAllocations(func::FuncOp func) {
  Block &entry = func.getBody().front();
  func.walk([&](memref::AllocOp alloc) {
    if (alloc->getBlock() != &entry && alloc.getDynamicSizes().empty())
      alloc->moveBefore(&entry, entry.begin());
  });
}

struct BufferizeToWorkgroupPass
    : triton_spirv::impl::BufferizeToWorkgroupBase<BufferizeToWorkgroupPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    materializeTensorConstants(module);
    reuseLoopCarriedDestinations(module);

    bufferization::OneShotBufferizationOptions options;
    Attribute workgroup =
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
    options.defaultMemorySpaceFn =
        [workgroup](TensorType) -> std::optional<Attribute> {
      return workgroup;
    };
    // Copies are linalg ops so that they are distributed like any other.
    options.memCpyFn = [](OpBuilder &b, Location loc, Value from, Value to) {
      linalg::CopyOp::create(b, loc, from, to);
      return success();
    };
    bufferization::BufferizationState state;
    if (failed(bufferization::runOneShotBufferize(module, options, state)))
      return signalPassFailure();
    allocateScalarsAsVectors(module);
    module.walk([](func::FuncOp func) {
      if (!func.isExternal())
        hoistAllocations(func);
    });
  }
};
} // namespace
