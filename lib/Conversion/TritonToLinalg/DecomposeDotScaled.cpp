//===- DecomposeDotScaled.cpp - tt.dot_scaled as upcasts and a tt.dot -----===//
//
// A microscaled (MX) matrix product is an ordinary one on upcast operands:
// every operand element becomes f32 (fp4 nibbles unpacked, fp8 widened, bf16
// and fp16 extended), is multiplied by its block's scale (e8m0, 2^(s-127),
// per 32 elements of K; or e4m3, per 16), and the f32 blocks meet in an
// ieee tt.dot. Vulkan has no scaled-matrix instructions, so this is the whole
// lowering; the rest of the pipeline sees only ops it already handles.
//
//===----------------------------------------------------------------------===//

#include "triton-spirv/Conversion/TritonToLinalg/Passes.h"
#include "triton-spirv/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/Builders.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_TRITONDECOMPOSEDOTSCALED
#include "triton-spirv/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;
using namespace mlir::triton;

namespace {
/// Builds the element-wise integer and float math of the upcasts on tensors
/// of one shape.
struct TensorMath {
  OpBuilder &b;
  Location loc;
  ArrayRef<int64_t> shape;

  RankedTensorType type(Type element) const {
    return RankedTensorType::get(shape, element);
  }
  Value i32(int64_t v) const {
    return createScalarOrSplatConstant(b, loc, type(b.getI32Type()), v);
  }
  Value widen(Value bytes) const {
    return arith::ExtUIOp::create(b, loc, type(b.getI32Type()), bytes);
  }
  Value andI(Value x, int64_t mask) const {
    return arith::AndIOp::create(b, loc, x, i32(mask));
  }
  Value shr(Value x, int64_t bits) const {
    return arith::ShRUIOp::create(b, loc, x, i32(bits));
  }
  Value shl(Value x, int64_t bits) const {
    return arith::ShLIOp::create(b, loc, x, i32(bits));
  }
  Value orI(Value x, Value y) const {
    return arith::OrIOp::create(b, loc, x, y);
  }
  Value isEqual(Value x, int64_t v) const {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, i32(v));
  }
  Value select(Value c, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value asF32(Value bits) const {
    return arith::BitcastOp::create(b, loc, type(b.getF32Type()), bits);
  }

  /// e2m1 nibbles (sign, 2 exponent bits with bias 1, 1 mantissa bit; all
  /// finite) as f32.
  Value fp4ToF32(Value nibble) const {
    Value exponent = andI(shr(nibble, 1), 3);
    Value mantissa = andI(nibble, 1);
    Value normal =
        orI(shl(arith::AddIOp::create(b, loc, exponent, i32(126)), 23),
            shl(mantissa, 22));
    // Exponent 0: 0 or the subnormal 0.5.
    Value subnormal = arith::MulIOp::create(b, loc, mantissa, i32(0x3F000000));
    Value magnitude = select(isEqual(exponent, 0), subnormal, normal);
    return asF32(orI(magnitude, shl(andI(nibble, 8), 28)));
  }

  /// e8m0 scale bytes as f32 powers of two: 2^(s-127), with s = 0 the
  /// subnormal 2^-127 and s = 255 NaN.
  Value e8m0ToF32(Value bytes) const {
    Value s = widen(bytes);
    Value bits = select(isEqual(s, 0), i32(0x00400000), shl(s, 23));
    return asF32(select(isEqual(s, 255), i32(0x7FC00000), bits));
  }
};

/// `value` repeated `times` along a new dimension after `dim`.
Value repeatAfter(OpBuilder &b, Location loc, Value value, unsigned dim,
                  int64_t times) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + dim + 1, 1);
  Value expanded = ExpandDimsOp::create(b, loc, type.clone(shape), value,
                                        b.getI32IntegerAttr(dim + 1));
  shape[dim + 1] = times;
  return BroadcastOp::create(b, loc, type.clone(shape), expanded);
}

/// `value` with dimension `dim` merged with the next one.
Value mergeWithNext(OpBuilder &b, Location loc, Value value, unsigned dim) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] *= shape[dim + 1];
  shape.erase(shape.begin() + dim + 1);
  return ReshapeOp::create(b, loc, type.clone(shape), value, false, false);
}

/// Unpacks a tensor of fp4 pairs (low nibble first) packed along `dim` into
/// f32 values. Each byte is broadcast over a new pair dimension after `dim`,
/// whose index picks the nibble (shift 0 or 4); merging `dim` with it gives
/// the unpacked order. Everything before the merge is element-wise, so the
/// matmul's chunking can compute the operand a chunk at a time.
Value unpackFp4(OpBuilder &b, Location loc, Value packed, unsigned dim) {
  Value bytes = repeatAfter(b, loc, packed, dim, 2);
  ArrayRef<int64_t> pairShape =
      cast<RankedTensorType>(bytes.getType()).getShape();
  // The nibble index along the pair dimension, broadcast like the bytes.
  SmallVector<int64_t> indexShape(pairShape.size(), 1);
  indexShape[dim + 1] = 2;
  Type i32 = b.getI32Type();
  Value index = MakeRangeOp::create(b, loc, RankedTensorType::get({2}, i32),
                                    /*start=*/0, /*end=*/2);
  index = ReshapeOp::create(b, loc, RankedTensorType::get(indexShape, i32),
                            index, false, false);
  index =
      BroadcastOp::create(b, loc, RankedTensorType::get(pairShape, i32), index);
  TensorMath math{b, loc, pairShape};
  Value shift = arith::MulIOp::create(b, loc, index, math.i32(4));
  Value nibble =
      math.andI(arith::ShRUIOp::create(b, loc, math.widen(bytes), shift), 15);
  return mergeWithNext(b, loc, math.fp4ToF32(nibble), dim);
}

/// The scale of every element of an operand as an f32 tensor laid out like
/// the operand ([.., M, K] for the lhs, [.., K, N] for the rhs). `scale` is
/// [.., M or N, K / group].
FailureOr<Value> expandScale(OpBuilder &b, DotScaledOp op, Value scale,
                             bool isLhs, int64_t k) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(scale.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t groups = shape.back();
  if (groups <= 0 || k % groups != 0)
    return op.emitError() << "tl.dot_scaled: a scale tensor of shape " << type
                          << " does not divide K = " << k
                          << " into equal groups";
  Value values;
  Type element = type.getElementType();
  if (element.isInteger(8)) {
    values = TensorMath{b, loc, shape}.e8m0ToF32(scale);
  } else if (isa<Float8E4M3FNType>(element)) {
    values = FpToFpOp::create(b, loc, type.clone(b.getF32Type()), scale,
                              RoundingModeAttr());
  } else {
    return op.emitError() << "tl.dot_scaled: scales of type " << element
                          << " are not supported (e8m0 as uint8, or e4m3)";
  }
  unsigned rank = shape.size();
  values = mergeWithNext(
      b, loc, repeatAfter(b, loc, values, rank - 1, k / groups), rank - 1);
  SmallVector<int64_t> perElement(shape);
  perElement.back() = k;
  if (isLhs)
    return values;
  SmallVector<int32_t> order;
  for (unsigned d = 0; d + 2 < rank; ++d)
    order.push_back(d);
  order.append({int32_t(rank - 1), int32_t(rank - 2)});
  std::swap(perElement[rank - 1], perElement[rank - 2]);
  return TransOp::create(b, loc, type.clone(perElement, b.getF32Type()), values,
                         b.getDenseI32ArrayAttr(order))
      .getResult();
}

/// One operand of the product as f32, scaled.
FailureOr<Value> upcastOperand(OpBuilder &b, DotScaledOp op, bool isLhs) {
  Location loc = op.getLoc();
  Value operand = isLhs ? op.getA() : op.getB();
  Value scale = isLhs ? op.getAScale() : op.getBScale();
  ScaleDotElemType format = isLhs ? op.getAElemType() : op.getBElemType();
  bool kPacked = isLhs ? op.getLhsKPack() : op.getRhsKPack();
  auto type = cast<RankedTensorType>(operand.getType());
  unsigned rank = type.getRank();
  unsigned kDim = isLhs ? rank - 1 : rank - 2;
  Type f32 = b.getF32Type();
  Value values;
  switch (format) {
  case ScaleDotElemType::BF16:
  case ScaleDotElemType::FP16:
    values = arith::ExtFOp::create(b, loc, type.clone(f32), operand);
    break;
  case ScaleDotElemType::E4M3:
  case ScaleDotElemType::E5M2: {
    Type fp8 = format == ScaleDotElemType::E4M3
                   ? Type(b.getType<Float8E4M3FNType>())
                   : Type(b.getType<Float8E5M2Type>());
    if (type.getElementType().isInteger(8))
      operand = BitcastOp::create(b, loc, type.clone(fp8), operand);
    values =
        FpToFpOp::create(b, loc, type.clone(f32), operand, RoundingModeAttr());
    break;
  }
  case ScaleDotElemType::E2M1: {
    // Packed along K unless k_pack is false, then along M (lhs) or N (rhs).
    unsigned packedDim = kPacked ? kDim : (isLhs ? rank - 2 : rank - 1);
    values = unpackFp4(b, loc, operand, packedDim);
    break;
  }
  default:
    return op.emitError() << "tl.dot_scaled: operand format "
                          << stringifyScaleDotElemType(format)
                          << " is not supported";
  }
  if (!scale)
    return values;
  int64_t k = cast<RankedTensorType>(values.getType()).getShape()[kDim];
  FailureOr<Value> scales = expandScale(b, op, scale, isLhs, k);
  if (failed(scales))
    return failure();
  return arith::MulFOp::create(b, loc, values, *scales).getResult();
}

/// Replaces `op` with the upcasts and a tt.dot; fails with a diagnostic on
/// formats it cannot upcast.
LogicalResult decompose(DotScaledOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  FailureOr<Value> lhs = upcastOperand(b, op, /*isLhs=*/true);
  if (failed(lhs))
    return failure();
  FailureOr<Value> rhs = upcastOperand(b, op, /*isLhs=*/false);
  if (failed(rhs))
    return failure();
  Value acc = op.getC();
  auto accType = cast<RankedTensorType>(acc.getType());
  if (!accType.getElementType().isF32())
    acc = arith::ExtFOp::create(b, loc, accType.clone(b.getF32Type()), acc);
  Value product = DotOp::create(b, loc, acc.getType(), *lhs, *rhs, acc,
                                InputPrecision::IEEE, /*maxNumImpreciseAcc=*/0);
  if (product.getType() != accType)
    product = arith::TruncFOp::create(b, loc, accType, product);
  op.replaceAllUsesWith(product);
  op.erase();
  return success();
}

struct TritonDecomposeDotScaledPass
    : public triton_spirv::impl::TritonDecomposeDotScaledBase<
          TritonDecomposeDotScaledPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([](DotScaledOp op) {
      return failed(decompose(op)) ? WalkResult::interrupt()
                                   : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
