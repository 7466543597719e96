//===- Dialect.cpp - The ttg ops TTIR may hold ----------------------------===//

#include "triton-spirv/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::triton::ttg;

#include "triton-spirv/Dialect/TritonGPU/IR/TritonGPUDialect.cpp.inc"
#include "triton-spirv/Dialect/TritonGPU/IR/TritonGPUEnums.cpp.inc"

#define GET_OP_CLASSES
#include "triton-spirv/Dialect/TritonGPU/IR/TritonGPUOps.cpp.inc"

void TritonGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "triton-spirv/Dialect/TritonGPU/IR/TritonGPUOps.cpp.inc"
      >();
}

// `ttg.barrier local|global_read`: keywords joined by `|`, each an address
// space or `all` / `none`.
ParseResult BarrierOp::parse(OpAsmParser &parser, OperationState &result) {
  uint32_t spaces = 0;
  do {
    SMLoc at = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<AddressSpaces> space = symbolizeAddressSpaces(keyword);
    if (!space)
      return parser.emitError(at)
             << "unknown address space '" << keyword << "' of ttg.barrier";
    spaces |= static_cast<uint32_t>(*space);
  } while (succeeded(parser.parseOptionalVerticalBar()));
  result.addAttribute(
      getAddrSpaceAttrName(result.name),
      AddressSpacesAttr::get(parser.getContext(),
                             static_cast<AddressSpaces>(spaces)));
  return parser.parseOptionalAttrDict(result.attributes);
}

void BarrierOp::print(OpAsmPrinter &printer) {
  printer << ' ' << stringifyAddressSpaces(getAddrSpace());
  printer.printOptionalAttrDict((*this)->getAttrs(),
                                {getAddrSpaceAttrName().getValue()});
}
