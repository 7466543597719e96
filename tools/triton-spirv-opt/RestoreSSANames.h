//===- RestoreSSANames.h - Keep source SSA names of block args --*- C++ -*-===//
//
// Triton prints SSA names from name locations (`--mlir-use-nameloc-as-prefix`).
// Custom op forms such as `scf.for %row = ...` print no location for their
// region arguments, so the parser only sees the name `%row` in the text. This
// pass turns such source names back into name locations, which makes parsing
// and printing TTIR an exact round trip.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_TOOLS_RESTORESSANAMES_H
#define TRITON_SPIRV_TOOLS_RESTORESSANAMES_H

#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>

namespace mlir::triton_spirv {
/// `bufferName` and `sourceText` describe the parsed input file.
std::unique_ptr<Pass> createRestoreSSANamesPass(std::string bufferName,
                                                std::string sourceText);
} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_TOOLS_RESTORESSANAMES_H
