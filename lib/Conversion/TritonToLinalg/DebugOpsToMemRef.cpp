//===- DebugOpsToMemRef.cpp - tt.print and tt.assert ----------------------===//
//
// Vulkan has no printf and no trap. A failed assertion and each printed
// element are written to the kernel's debug buffer (DebugBuffer.h); the
// launcher reads it after the launch, prints the records and raises for a
// failed assertion.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "triton-spirv/Conversion/DebugBuffer.h"
#include "triton-spirv/Conversion/ParallelGeneric.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::triton;
namespace layout = mlir::triton_spirv::debug_buffer;

namespace {
/// The op's number among the kernel's prints or assertions, the debug
/// buffer and the program ids (from the kernel's arguments).
struct DebugTarget {
  int64_t id;
  Value buffer;
  Value programIds[3];
};

FailureOr<DebugTarget> lookupDebugTarget(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  auto id = op->getAttrOfType<IntegerAttr>(layout::kIdAttrName);
  if (!func || !id)
    return failure();
  DebugTarget target;
  target.id = id.getInt();
  for (BlockArgument arg : func.getArguments()) {
    FailureOr<std::optional<triton_spirv::KernelArgRole>> role =
        triton_spirv::getArgRole(func, arg.getArgNumber());
    if (failed(role))
      return failure();
    if (!*role)
      continue;
    if (**role == triton_spirv::KernelArgRole::Debug)
      target.buffer = arg;
    else if (std::optional<unsigned> axis = triton_spirv::programIdAxis(**role))
      target.programIds[*axis] = arg;
  }
  if (!target.buffer ||
      !llvm::all_of(target.programIds, [](Value id) { return bool(id); }))
    return op->emitError("no debug buffer: run --triton-func-to-kernel-abi "
                         "first");
  return target;
}

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

/// Linear index (row-major) of the current element of a linalg.generic.
Value linearIndex(OpBuilder &b, Location loc, ArrayRef<int64_t> shape) {
  Value linear = indexConstant(b, loc, 0);
  for (auto [dim, size] : llvm::enumerate(shape)) {
    linear = arith::MulIOp::create(b, loc, linear, indexConstant(b, loc, size));
    linear = arith::AddIOp::create(b, loc, linear,
                                   linalg::IndexOp::create(b, loc, dim));
  }
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), linear);
}

/// Runs `body(builder, loc, element, linear index)` for a scalar, or for each
/// element of a tensor inside a result-less linalg.generic (which later
/// stages spread over the workgroup, like stores).
void forEachElement(
    OpBuilder &b, Location loc, Value value,
    function_ref<void(OpBuilder &, Location, Value, Value)> body) {
  auto tensorType = dyn_cast<RankedTensorType>(value.getType());
  if (!tensorType) {
    body(b, loc, value, i32Constant(b, loc, 0));
    return;
  }
  triton_spirv::createParallelGeneric(
      b, loc, TypeRange{}, ValueRange{value},
      [&](OpBuilder &nested, Location l, ValueRange args) {
        body(nested, l, args[0], linearIndex(nested, l, tensorType.getShape()));
        linalg::YieldOp::create(nested, l);
      });
}

/// The first failing assertion claims the header (compare-and-swap from 0)
/// and records where it failed.
struct AssertLowering : OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<DebugTarget> target = lookupDebugTarget(op);
    if (failed(target))
      return failure();
    forEachElement(
        rewriter, op.getLoc(), adaptor.getCondition(),
        [&](OpBuilder &b, Location loc, Value holds, Value index) {
          Value fails = arith::XOrIOp::create(
              b, loc, holds,
              arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
          auto ifFails = scf::IfOp::create(b, loc, fails);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(ifFails.thenBlock());
          Value zero = i32Constant(b, loc, 0);
          auto claim = memref::GenericAtomicRMWOp::create(
              b, loc, target->buffer,
              ValueRange{indexConstant(b, loc, layout::kFailedAssertWord)});
          {
            OpBuilder::InsertionGuard bodyGuard(b);
            b.setInsertionPointToStart(claim.getBody());
            Value current = claim.getCurrentValue();
            Value unclaimed = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::eq, current, zero);
            memref::AtomicYieldOp::create(
                b, loc,
                arith::SelectOp::create(b, loc, unclaimed,
                                        i32Constant(b, loc, target->id + 1),
                                        current));
          }
          Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              claim.getResult(), zero);
          auto ifFirst = scf::IfOp::create(b, loc, first);
          b.setInsertionPointToStart(ifFirst.thenBlock());
          for (auto [axis, programId] : llvm::enumerate(target->programIds))
            memref::StoreOp::create(
                b, loc, programId, target->buffer,
                indexConstant(b, loc, layout::kFailedProgramWord + axis));
          memref::StoreOp::create(
              b, loc, index, target->buffer,
              indexConstant(b, loc, layout::kFailedIndexWord));
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// The value's bits as two 32-bit words (low, high): floats of 32 bits or
/// fewer widened to f32, integers extended by their signedness, wider
/// values split.
std::pair<Value, Value> valueWords(OpBuilder &b, Location loc, Value value,
                                   bool isSigned) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Type type = value.getType();
  if (isa<IndexType>(type))
    value = arith::IndexCastOp::create(b, loc, i64, value);
  else if (auto floatType = dyn_cast<FloatType>(type)) {
    if (floatType.getWidth() < 32)
      value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    value = arith::BitcastOp::create(
        b, loc, floatType.getWidth() > 32 ? i64 : i32, value);
  }
  unsigned width = value.getType().getIntOrFloatBitWidth();
  if (width < 32)
    value = isSigned ? arith::ExtSIOp::create(b, loc, i32, value).getResult()
                     : arith::ExtUIOp::create(b, loc, i32, value).getResult();
  if (width <= 32)
    return {value, i32Constant(b, loc, 0)};
  Value high = arith::ShRUIOp::create(
      b, loc, value,
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(32)));
  return {arith::TruncIOp::create(b, loc, i32, value),
          arith::TruncIOp::create(b, loc, i32, high)};
}

/// Each element takes the next record (an atomic counter); records past the
/// capacity are counted but not written.
struct PrintLowering : OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<DebugTarget> target = lookupDebugTarget(op);
    if (failed(target))
      return failure();
    // Writes one record: the print, its operand, the program, the element's
    // index and value (none for a print without operands).
    auto record = [&](OpBuilder &b, Location loc, int64_t position, Value index,
                      Value element, bool isSigned) {
      Value slot = memref::AtomicRMWOp::create(
          b, loc, arith::AtomicRMWKind::addi, i32Constant(b, loc, 1),
          target->buffer,
          ValueRange{indexConstant(b, loc, layout::kRecordCountWord)});
      Value fits =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, slot,
                                i32Constant(b, loc, layout::kRecordCapacity));
      auto ifFits = scf::IfOp::create(b, loc, fits);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifFits.thenBlock());
      Value first = arith::AddIOp::create(
          b, loc, indexConstant(b, loc, layout::kHeaderWords),
          arith::MulIOp::create(
              b, loc,
              arith::IndexCastOp::create(b, loc, b.getIndexType(), slot),
              indexConstant(b, loc, layout::kRecordWords)));
      auto [low, high] =
          element ? valueWords(b, loc, element, isSigned)
                  : std::pair(i32Constant(b, loc, 0), i32Constant(b, loc, 0));
      Value words[] = {i32Constant(b, loc, target->id),
                       i32Constant(b, loc, position),
                       target->programIds[0],
                       target->programIds[1],
                       target->programIds[2],
                       index,
                       low,
                       high};
      for (auto [offset, word] : llvm::enumerate(words))
        memref::StoreOp::create(
            b, loc, word, target->buffer,
            ValueRange{arith::AddIOp::create(b, loc, first,
                                             indexConstant(b, loc, offset))});
    };
    // A print without operands (`print("text")`) prints its text alone.
    if (adaptor.getArgs().empty())
      record(rewriter, op.getLoc(), 0, i32Constant(rewriter, op.getLoc(), 0),
             Value(), false);
    for (auto [position, operand] : llvm::enumerate(adaptor.getArgs())) {
      bool isSigned = op.isSignedOperand(position);
      forEachElement(
          rewriter, op.getLoc(), operand,
          [&](OpBuilder &b, Location loc, Value element, Value index) {
            record(b, loc, position, index, element, isSigned);
          });
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::triton_spirv::populateDebugOpsToMemRefPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AssertLowering, PrintLowering>(converter, patterns.getContext());
}
