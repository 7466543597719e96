//===- Bufferize.cpp - Bufferization into workgroup memory ----------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "triton-spirv/Analysis/MatmulPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
        scalars.push_back(
            arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(element)));
      replacement =
          tensor::FromElementsOp::create(rewriter, loc, type, scalars);
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
    if (generic.getNumParallelLoops() != generic.getNumLoops())
      return;
    llvm::SmallPtrSet<Value, 4> taken;
    for (OpOperand &init : generic.getDpsInitsMutable()) {
      if (!init.get().getDefiningOp<tensor::EmptyOp>() ||
          !generic.getMatchingBlockArgument(&init).use_empty() ||
          !generic.getMatchingIndexingMap(&init).isIdentity())
        continue;
      for (OpOperand *input : generic.getDpsInputOperands()) {
        auto carried = dyn_cast<BlockArgument>(input->get());
        if (!carried || taken.contains(carried) || !carried.hasOneUse() ||
            !isa<LoopLikeOpInterface>(carried.getOwner()->getParentOp()) ||
            carried.getType() != init.get().getType() ||
            !generic.getMatchingIndexingMap(input).isIdentity())
          continue;
        taken.insert(carried);
        init.set(carried);
        break;
      }
    }
  });
}

/// An op computing a matmul operand into a tensor.empty gets an empty of
/// its own. CSE merges equal empties, and bufferization would then give
/// unrelated blocks one buffer where their lives do not overlap: a staged
/// operand and a block of the same shape computed later (attention's keys,
/// staged, and its weights, a matmul's fragments), which ties both to one
/// layout. Workgroup buffers that end up apart share memory again later
/// (--triton-spirv-reuse-workgroup-memory).
void separateOperandDestinations(Operation *root) {
  IRRewriter rewriter(root->getContext());
  auto computesOperand = [](Operation *op) {
    return llvm::any_of(op->getUsers(), [&](Operation *user) {
      auto matmul = dyn_cast<linalg::LinalgOp>(user);
      return matmul && triton_spirv::isStaticMatmul(matmul) &&
             llvm::any_of(matmul.getDpsInputs(), [&](Value input) {
               return input.getDefiningOp() == op;
             });
    });
  };
  root->walk([&](tensor::EmptyOp empty) {
    if (empty->hasOneUse())
      return;
    // The first use keeps the original.
    for (OpOperand &use :
         llvm::make_early_inc_range(llvm::drop_begin(empty->getUses()))) {
      if (!computesOperand(use.getOwner()))
        continue;
      rewriter.setInsertionPoint(use.getOwner());
      Operation *copy = rewriter.clone(*empty);
      rewriter.modifyOpInPlace(use.getOwner(),
                               [&] { use.set(copy->getResult(0)); });
    }
  });
}

/// A select between whole tensors would bufferize to a select between
/// buffers, which Vulkan's logical addressing cannot express; select element
/// by element instead.
void selectTensorsElementwise(Operation *root) {
  IRRewriter rewriter(root->getContext());
  root->walk([&](arith::SelectOp select) {
    auto type = dyn_cast<RankedTensorType>(select.getType());
    if (!type || isa<ShapedType>(select.getCondition().getType()))
      return;
    rewriter.setInsertionPoint(select);
    Location loc = select.getLoc();
    unsigned rank = type.getRank();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap scalar = AffineMap::get(rank, 0, rewriter.getContext());
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type},
        ValueRange{select.getCondition(), select.getTrueValue(),
                   select.getFalseValue()},
        ValueRange{init}, {scalar, identity, identity, identity},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l,
              arith::SelectOp::create(b, l, args[0], args[1], args[2])
                  .getResult());
        });
    rewriter.replaceOp(select, generic.getResult(0));
  });
}

/// Makes the terminator operand `yielded` a copy of its value into
/// `destination`, made just before the terminator.
void yieldCopyInto(IRRewriter &rewriter, OpOperand &yielded,
                   Value destination) {
  Operation *terminator = yielded.getOwner();
  rewriter.setInsertionPoint(terminator);
  auto copy = linalg::CopyOp::create(rewriter, terminator->getLoc(),
                                     ValueRange{yielded.get()},
                                     ValueRange{destination});
  yielded.set(copy.getResult(0));
}

/// Both branches of an scf.if yielding a tensor write it into one
/// shared destination, so that the result is one buffer.
void yieldBranchTensorsIntoOneBuffer(Operation *root) {
  IRRewriter rewriter(root->getContext());
  root->walk([&](scf::IfOp ifOp) {
    for (auto [index, result] : llvm::enumerate(ifOp.getResults())) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || ifOp.getElseRegion().empty())
        continue;
      rewriter.setInsertionPoint(ifOp);
      Value destination = tensor::EmptyOp::create(
          rewriter, ifOp.getLoc(), type.getShape(), type.getElementType());
      for (scf::YieldOp yield : {ifOp.thenYield(), ifOp.elseYield()})
        yieldCopyInto(rewriter, yield->getOpOperand(index), destination);
    }
  });
}

/// Whether `value` is computed in place into `destination` (following the
/// destination operands of destination-style ops, and the initial values of
/// inner loops, whose own iterations are computed in place by then: loops
/// are visited innermost first).
bool isComputedInto(Value value, Value destination) {
  while (value != destination) {
    auto result = dyn_cast<OpResult>(value);
    if (!result)
      return false;
    if (auto loop = dyn_cast<scf::ForOp>(result.getOwner())) {
      value = loop.getInitArgs()[result.getResultNumber()];
      continue;
    }
    auto dps = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
    if (!dps)
      return false;
    value = dps.getTiedOpOperand(result)->get();
  }
  return true;
}

/// A loop-carried tensor must stay in one buffer across iterations. When the
/// new value is not computed in place into the iteration's argument (because
/// the old value is still read after the new one is made), copy it there at
/// the end of the iteration.
void copyYieldedValuesIntoIterArgs(Operation *root) {
  IRRewriter rewriter(root->getContext());
  root->walk([&](scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [operand, iterArg] :
         llvm::zip(yield->getOpOperands(), loop.getRegionIterArgs())) {
      if (isa<RankedTensorType>(iterArg.getType()) &&
          !isComputedInto(operand.get(), iterArg))
        yieldCopyInto(rewriter, operand, iterArg);
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
    separateOperandDestinations(module);
    selectTensorsElementwise(module);
    yieldBranchTensorsIntoOneBuffer(module);
    reuseLoopCarriedDestinations(module);
    copyYieldedValuesIntoIterArgs(module);

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
