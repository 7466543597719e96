//===- DiagnosticsFile.cpp - Diagnostics as JSON lines --------------------===//

#include "DiagnosticsFile.h"
#include "triton-spirv/Conversion/AttributeJSON.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace mlir;

namespace {
llvm::StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  return "error";
}

/// The first dictionary attribute among `diagnostic`'s arguments.
DictionaryAttr dataOf(const Diagnostic &diagnostic) {
  using Kind = DiagnosticArgument::DiagnosticArgumentKind;
  for (const DiagnosticArgument &argument : diagnostic.getArguments())
    if (argument.getKind() == Kind::Attribute)
      if (auto data = dyn_cast<DictionaryAttr>(argument.getAsAttribute()))
        return data;
  return {};
}

std::string locationText(Location location) {
  std::string text;
  llvm::raw_string_ostream os(text);
  location.print(os);
  return text;
}
} // namespace

std::shared_ptr<llvm::raw_fd_ostream>
mlir::triton_spirv::openDiagnosticsFile(llvm::StringRef path) {
  std::error_code error;
  auto file = std::make_shared<llvm::raw_fd_ostream>(path, error,
                                                     llvm::sys::fs::OF_Text);
  if (!error)
    return file;
  llvm::errs() << "cannot write '" << path << "': " << error.message() << "\n";
  return nullptr;
}

void mlir::triton_spirv::recordDiagnostics(
    MLIRContext *context, std::shared_ptr<llvm::raw_fd_ostream> file) {
  context->getDiagEngine().registerHandler(
      [file](Diagnostic &diagnostic) -> LogicalResult {
        llvm::json::Object record{
            {"severity", severityName(diagnostic.getSeverity())},
            {"location", locationText(diagnostic.getLocation())},
            {"message", diagnostic.str()}};
        llvm::json::Array notes;
        DictionaryAttr data = dataOf(diagnostic);
        for (const Diagnostic &note : diagnostic.getNotes()) {
          notes.push_back(note.str());
          if (!data)
            data = dataOf(note);
        }
        record["notes"] = std::move(notes);
        if (data)
          record["data"] = triton_spirv::attributeToJSON(data);
        *file << llvm::json::Value(std::move(record)) << "\n";
        file->flush();
        // The text still goes to the next handler (stderr).
        return failure();
      });
}
