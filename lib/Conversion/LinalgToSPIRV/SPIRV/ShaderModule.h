//===- ShaderModule.h - A kernel's module until its conversion --*- C++ -*-===//
//
// From --triton-spirv-create-shader-modules to --triton-spirv-convert-to-spirv
// each kernel lives in a builtin.module of its own, with the functions and
// interface variables the passes between add for it. (A spirv.module may hold
// only SPIR-V ops, so it cannot hold the kernel before its conversion.) The
// module carries the addressing model its spirv.module will have.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_SHADERMODULE_H
#define TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_SHADERMODULE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::triton_spirv {

/// The `spirv::AddressingModelAttr` of a shader module.
inline constexpr llvm::StringLiteral kShaderAddressingAttrName =
    "triton_spirv.addressing_model";

/// The shader module of `kernel`; fails, with an error, where the kernel is
/// not in one.
FailureOr<ModuleOp> getShaderModule(func::FuncOp kernel);

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_LIB_CONVERSION_LINALGTOSPIRV_SHADERMODULE_H
