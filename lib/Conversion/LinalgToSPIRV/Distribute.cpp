//===- Distribute.cpp - One Triton program per workgroup ------------------===//
//
// After bufferization a kernel is scalar code around linalg ops on buffers.
// Every invocation of the workgroup runs the scalar code; the linalg ops are
// the block-level work and get spread over the invocations here.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"

#include "WorkgroupMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_DISTRIBUTETOWORKGROUP
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

bool triton_spirv::isWorkgroupMemory(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  auto storageClass = dyn_cast_or_null<spirv::StorageClassAttr>(space);
  return storageClass &&
         storageClass.getValue() == spirv::StorageClass::Workgroup;
}

int64_t triton_spirv::workgroupMemoryBytes(func::FuncOp kernel) {
  int64_t bytes = 0;
  kernel.walk([&](memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    if (!isWorkgroupMemory(type) || !type.hasStaticShape())
      return;
    Type element = type.getElementType();
    int64_t elementBytes =
        isa<IndexType>(element)
            ? 4
            : std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
    bytes += type.getNumElements() * elementBytes;
  });
  return bytes;
}

namespace {
class KernelDistributor {
public:
  KernelDistributor(func::FuncOp kernel, unsigned workgroupSize)
      : kernel(kernel), workgroupSize(workgroupSize),
        rewriter(kernel.getContext()) {}

  LogicalResult run();

private:
  Value indexConstant(Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  void barrier(Location loc) { gpu::BarrierOp::create(rewriter, loc); }
  LogicalResult distributeLinalgOp(linalg::LinalgOp op);
  LogicalResult distributeParallelLoop(scf::ParallelOp loop);
  void runOnInvocationZero(Operation *op);
  void removeRedundantBarriers();

  func::FuncOp kernel;
  unsigned workgroupSize;
  IRRewriter rewriter;
  Value invocationId;
  Value isInvocationZero;
};

LogicalResult KernelDistributor::run() {
  Block &entry = kernel.getBody().front();
  Location loc = kernel.getLoc();
  rewriter.setInsertionPointToStart(&entry);
  invocationId = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  isInvocationZero =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                            invocationId, indexConstant(loc, 0));

  // Block-level work (linalg ops, with their bodies) and memory writes made
  // by the scalar code, in program order.
  SmallVector<Operation *> work;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<linalg::LinalgOp, memref::CopyOp>(op)) {
      work.push_back(op);
      return WalkResult::skip();
    }
    if (isa<memref::StoreOp, memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(
            op)) {
      work.push_back(op);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });

  for (Operation *op : work) {
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      rewriter.setInsertionPoint(copy);
      op = linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                                  copy.getTarget());
      rewriter.eraseOp(copy);
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (failed(distributeLinalgOp(linalgOp)))
        return failure();
      continue;
    }
    runOnInvocationZero(op);
  }
  removeRedundantBarriers();
  return success();
}

LogicalResult KernelDistributor::distributeLinalgOp(linalg::LinalgOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generalized))
      return op->emitError("cannot distribute this op over a workgroup");
    generic = *generalized;
  }
  // Parallel dimensions outermost, so that they form one scf.parallel.
  SmallVector<unsigned> order;
  for (auto [dim, type] : llvm::enumerate(generic.getIteratorTypesArray()))
    if (type == utils::IteratorType::parallel)
      order.push_back(dim);
  bool hasParallelDims = !order.empty();
  for (auto [dim, type] : llvm::enumerate(generic.getIteratorTypesArray()))
    if (type != utils::IteratorType::parallel)
      order.push_back(dim);
  if (!llvm::equal(order, llvm::seq<unsigned>(0, order.size()))) {
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rewriter, generic, order);
    if (failed(interchanged))
      return op->emitError("cannot reorder the loops of this op");
    generic = *interchanged;
  }

  barrier(loc);
  if (!hasParallelDims) {
    // A pure reduction (or a 0-d op): one invocation does it.
    auto guard = scf::IfOp::create(rewriter, loc, isInvocationZero,
                                   /*withElseRegion=*/false);
    rewriter.moveOpBefore(generic, guard.thenBlock()->getTerminator());
    rewriter.setInsertionPoint(generic);
    if (failed(linalg::linalgOpToLoops(rewriter, generic)))
      return op->emitError("cannot lower this op to loops");
    rewriter.eraseOp(generic);
    rewriter.setInsertionPointAfter(guard);
    barrier(loc);
    return success();
  }
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, generic);
  if (failed(loops) || loops->empty())
    return op->emitError("cannot lower this op to parallel loops");
  rewriter.eraseOp(generic);
  auto parallel = dyn_cast<scf::ParallelOp>(loops->front());
  if (!parallel)
    return op->emitError("expected the parallel dimensions outermost");
  return distributeParallelLoop(parallel);
}

/// `scf.parallel` over an N-d space becomes `for (l = id; l < total; l += W)`
/// with the N indices recovered from `l` (last dimension fastest), so that
/// consecutive invocations touch consecutive elements.
LogicalResult KernelDistributor::distributeParallelLoop(scf::ParallelOp loop) {
  if (loop.getNumResults() != 0)
    return loop.emitError("parallel loops with reductions are not expected");
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> tripCounts;
  Value total = indexConstant(loc, 1);
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    Value extent = arith::SubIOp::create(rewriter, loc, ub, lb);
    Value trips = arith::CeilDivUIOp::create(rewriter, loc, extent, step);
    tripCounts.push_back(trips);
    total = arith::MulIOp::create(rewriter, loc, total, trips);
  }
  auto forOp = scf::ForOp::create(rewriter, loc, invocationId, total,
                                  indexConstant(loc, workgroupSize));
  rewriter.setInsertionPointToStart(forOp.getBody());
  Value remaining = forOp.getInductionVar();
  SmallVector<Value> ivs(tripCounts.size());
  for (int64_t dim = tripCounts.size() - 1; dim >= 0; --dim) {
    Value position = remaining;
    if (dim > 0) {
      position =
          arith::RemUIOp::create(rewriter, loc, remaining, tripCounts[dim]);
      remaining =
          arith::DivUIOp::create(rewriter, loc, remaining, tripCounts[dim]);
    }
    Value scaled =
        arith::MulIOp::create(rewriter, loc, position, loop.getStep()[dim]);
    ivs[dim] =
        arith::AddIOp::create(rewriter, loc, loop.getLowerBound()[dim], scaled);
  }
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, forOp.getBody()->getTerminator(), ivs);
  rewriter.eraseOp(loop);
  rewriter.setInsertionPointAfter(forOp);
  barrier(loc);
  return success();
}

/// A write made by the scalar code happens once per program, not once per
/// invocation: invocation 0 does it and shares its results (atomics return
/// the old value) through workgroup memory.
void KernelDistributor::runOnInvocationZero(Operation *op) {
  Location loc = op->getLoc();
  SmallVector<Value> slots;
  rewriter.setInsertionPointToStart(&kernel.getBody().front());
  auto workgroup = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                              gpu::AddressSpace::Workgroup);
  for (Type type : op->getResultTypes())
    slots.push_back(memref::AllocOp::create(
        rewriter, loc, MemRefType::get({1}, type, nullptr, workgroup)));

  rewriter.setInsertionPoint(op);
  Value zero = indexConstant(loc, 0);
  barrier(loc);
  auto guard = scf::IfOp::create(rewriter, loc, isInvocationZero,
                                 /*withElseRegion=*/false);
  rewriter.moveOpBefore(op, guard.thenBlock()->getTerminator());
  rewriter.setInsertionPointAfter(op);
  for (auto [result, slot] : llvm::zip(op->getResults(), slots))
    memref::StoreOp::create(rewriter, loc, result, slot, zero);
  rewriter.setInsertionPointAfter(guard);
  barrier(loc);
  for (auto [result, slot] : llvm::zip(op->getResults(), slots)) {
    Value shared = memref::LoadOp::create(rewriter, loc, slot, zero);
    rewriter.replaceUsesWithIf(result, shared, [&](OpOperand &use) {
      return !guard->isAncestor(use.getOwner());
    });
  }
}

/// A barrier with only side-effect-free ops since the previous one is
/// redundant.
void KernelDistributor::removeRedundantBarriers() {
  SmallVector<gpu::BarrierOp> redundant;
  kernel.walk([&](gpu::BarrierOp barrier) {
    for (Operation *prev = barrier->getPrevNode(); prev;
         prev = prev->getPrevNode()) {
      if (isa<gpu::BarrierOp>(prev)) {
        redundant.push_back(barrier);
        return;
      }
      if (prev->getNumRegions() != 0 || !isPure(prev))
        return;
    }
  });
  for (gpu::BarrierOp barrier : redundant)
    rewriter.eraseOp(barrier);
}

struct DistributeToWorkgroupPass
    : triton_spirv::impl::DistributeToWorkgroupBase<DistributeToWorkgroupPass> {
  using Base::Base;
  void runOnOperation() override {
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (kernel.isExternal())
        continue;
      if (failed(KernelDistributor(kernel, workgroupSize).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
