//===- AttributeJSON.cpp - Attributes as JSON values ----------------------===//

#include "triton-spirv/Conversion/AttributeJSON.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

llvm::json::Value mlir::triton_spirv::attributeToJSON(Attribute attr) {
  if (auto string = dyn_cast<StringAttr>(attr))
    return string.getValue().str();
  if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    if (integer.getType().isInteger(1))
      return integer.getValue().getBoolValue();
    return integer.getInt();
  }
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array elements;
    for (Attribute element : array)
      elements.push_back(attributeToJSON(element));
    return elements;
  }
  if (auto dictionary = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object object;
    for (NamedAttribute field : dictionary)
      object[field.getName().getValue()] = attributeToJSON(field.getValue());
    return object;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}
