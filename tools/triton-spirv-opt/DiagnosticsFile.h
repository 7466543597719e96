//===- DiagnosticsFile.h - Diagnostics as JSON lines -------------*- C++ -*-===//
//
// --diagnostics-file=PATH: every diagnostic the passes emit is also written
// to PATH as one JSON object per line (severity, location, message, notes,
// and `data`: the dictionary attribute a diagnostic or its note carries), so
// that callers read structured failures (a resource overrun's bytes) instead
// of matching text. The text still goes to stderr.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_TOOLS_DIAGNOSTICSFILE_H
#define TRITON_SPIRV_TOOLS_DIAGNOSTICSFILE_H

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace mlir::triton_spirv {

/// The file the diagnostics go to (truncated), or null with the reason on
/// stderr.
std::shared_ptr<llvm::raw_fd_ostream> openDiagnosticsFile(llvm::StringRef path);

/// Records the diagnostics of `context` (one per input split) to `file`.
void recordDiagnostics(MLIRContext *context,
                       std::shared_ptr<llvm::raw_fd_ostream> file);

} // namespace mlir::triton_spirv

#endif // TRITON_SPIRV_TOOLS_DIAGNOSTICSFILE_H
