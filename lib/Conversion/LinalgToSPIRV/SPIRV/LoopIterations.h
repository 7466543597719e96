//===- LoopIterations.h - Loop trip counts per invocation ------*- C++ -*-===//
//
// Trip counts of loops with constant bounds, and of loops around an op: what
// a driver's loop iteration limit is checked against
// (triton-spirv-check-loop-iterations) and fitted to
// (triton-spirv-unroll-for-loop-limit).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_SPIRV_LOOPITERATIONS_H
#define TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_SPIRV_LOOPITERATIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cstdint>
#include <optional>

namespace mlir::triton_spirv {

/// The iterations `loop` runs each time it is entered, where its bounds are
/// constants.
inline std::optional<uint64_t> staticTripCount(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *step <= 0)
    return std::nullopt;
  if (*upper <= *lower)
    return 0;
  return llvm::divideCeil(static_cast<uint64_t>(*upper - *lower),
                          static_cast<uint64_t>(*step));
}

/// How many times `op` runs per invocation, where every loop around it has
/// constant bounds (and none is a while loop). Saturating: only comparisons
/// with a limit matter.
inline std::optional<uint64_t> iterationsAround(Operation *op) {
  uint64_t total = 1;
  for (Operation *parent = op->getParentOp();
       parent && !isa<func::FuncOp>(parent); parent = parent->getParentOp()) {
    if (isa<scf::WhileOp>(parent))
      return std::nullopt;
    auto around = dyn_cast<scf::ForOp>(parent);
    if (!around)
      continue;
    std::optional<uint64_t> trips = staticTripCount(around);
    if (!trips)
      return std::nullopt;
    if (*trips == 0)
      return 0;
    total = *trips > UINT64_MAX / total ? UINT64_MAX : total * *trips;
  }
  return total;
}

/// The iterations `loop` runs per invocation over all its entries, where it
/// and every loop around it have constant bounds.
inline std::optional<uint64_t> totalIterations(scf::ForOp loop) {
  std::optional<uint64_t> trips = staticTripCount(loop);
  std::optional<uint64_t> around = iterationsAround(loop);
  if (!trips || !around)
    return std::nullopt;
  if (*trips == 0 || *around == 0)
    return 0;
  return *trips > UINT64_MAX / *around ? UINT64_MAX : *trips * *around;
}

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_SPIRV_LOOPITERATIONS_H
