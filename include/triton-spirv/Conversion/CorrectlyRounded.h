//===- CorrectlyRounded.h - Ops Triton asks correctly rounded ---*- C++ -*-===//
//
// Triton's tt.precise_sqrt and tt.precise_divf (tl.math.sqrt_rn, div_rn)
// must round correctly, which Vulkan does not promise of Sqrt and OpFDiv.
// --triton-to-linalg lowers them to math.sqrt and arith.divf marked with
// this attribute; --triton-spirv-round-correctly computes the marked f32
// ones so that they round correctly on any driver.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_CONVERSION_CORRECTLYROUNDED_H
#define TRITON_SPIRV_CONVERSION_CORRECTLYROUNDED_H

#include "llvm/ADT/StringRef.h"

namespace mlir::triton_spirv {
inline constexpr llvm::StringLiteral kCorrectlyRoundedAttrName =
    "triton_spirv.correctly_rounded";
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_CONVERSION_CORRECTLYROUNDED_H
