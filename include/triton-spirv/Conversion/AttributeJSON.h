//===- AttributeJSON.h - Attributes as JSON values --------------*- C++ -*-===//
//
// The one mapping from attributes to JSON, for what leaves the tool as JSON
// (the kernel metadata, the data of diagnostics).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_CONVERSION_ATTRIBUTEJSON_H
#define TRITON_SPIRV_CONVERSION_ATTRIBUTEJSON_H

#include "mlir/IR/Attributes.h"
#include "llvm/Support/JSON.h"

namespace mlir::triton_spirv {

/// Strings, integers (i1 ones as booleans), arrays and dictionaries as
/// their JSON counterparts; any other attribute as its printed form.
llvm::json::Value attributeToJSON(Attribute attr);

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_CONVERSION_ATTRIBUTEJSON_H
