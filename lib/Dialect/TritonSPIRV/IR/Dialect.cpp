//===- Dialect.cpp - The triton_spirv dialect and its layouts -------------===//

#include "triton-spirv/Dialect/TritonSPIRV/IR/Dialect.h"
#include "triton-spirv/Dialect/TritonSPIRV/IR/Ops.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::triton_spirv;

#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVTypes.cpp.inc"

void TritonSPIRVDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVOps.cpp.inc"
      >();
}

LogicalResult
GridLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> invocations) {
  if (invocations.empty())
    return emitError() << "a grid layout needs at least one dimension";
  if (llvm::any_of(invocations, [](int64_t count) { return count <= 0; }))
    return emitError() << "a grid layout needs positive invocation counts";
  return success();
}

/// Whether `invocations` per dimension tile `shape` exactly.
static bool tilesShape(ArrayRef<int64_t> invocations, ArrayRef<int64_t> shape) {
  return shape.size() == invocations.size() &&
         llvm::all_of(llvm::zip(shape, invocations), [](auto pair) {
           auto [size, count] = pair;
           return size >= 0 && size % count == 0;
         });
}

int64_t GridLayoutAttr::getNumInvocations() const {
  return computeProduct(getInvocations());
}

bool GridLayoutAttr::tiles(ArrayRef<int64_t> shape) const {
  return tilesShape(getInvocations(), shape);
}

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, GridLayoutAttr parent) {
  if (!parent)
    return emitError() << "a slice layout needs a grid parent";
  if (dim >= parent.getInvocations().size() ||
      parent.getInvocations().size() < 2)
    return emitError() << "a slice layout removes one of its parent's "
                          "dimensions, and leaves at least one";
  return success();
}

SmallVector<int64_t> SliceLayoutAttr::getInvocations() const {
  SmallVector<int64_t> invocations(getParent().getInvocations());
  invocations.erase(invocations.begin() + getDim());
  return invocations;
}

bool SliceLayoutAttr::tiles(ArrayRef<int64_t> shape) const {
  return tilesShape(getInvocations(), shape);
}

LogicalResult
FragmentsLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayRef<int64_t> subgroups) {
  if (subgroups.size() != 2 ||
      llvm::any_of(subgroups, [](int64_t count) { return count <= 0; }))
    return emitError() << "a fragments layout needs a grid of two positive "
                          "subgroup counts";
  return success();
}

int64_t FragmentsLayoutAttr::getNumSubgroups() const {
  return computeProduct(getSubgroups());
}

bool FragmentsLayoutAttr::tiles(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> tileCounts = llvm::map_to_vector(
      getSubgroups(), [](int64_t count) { return count * kFragmentSize; });
  return shape.size() == 2 && tilesShape(tileCounts, shape) &&
         llvm::all_of(shape, [](int64_t size) { return size > 0; });
}
