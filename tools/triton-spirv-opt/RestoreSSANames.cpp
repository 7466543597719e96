//===- RestoreSSANames.cpp - Keep source SSA names of block args ----------===//

#include "RestoreSSANames.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringExtras.h"

#include <vector>

using namespace mlir;

namespace {
bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

class RestoreSSANamesPass
    : public PassWrapper<RestoreSSANamesPass, OperationPass<>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RestoreSSANamesPass)

  RestoreSSANamesPass(std::string bufferName, std::string sourceText)
      : bufferName(std::move(bufferName)), sourceText(std::move(sourceText)) {
    lineStarts.push_back(0);
    for (size_t i = 0; i < this->sourceText.size(); ++i)
      if (this->sourceText[i] == '\n')
        lineStarts.push_back(i + 1);
  }

  StringRef getArgument() const final { return "restore-ssa-names"; }
  StringRef getDescription() const final {
    return "Turn SSA names of location-less block arguments into NameLocs";
  }

  void runOnOperation() final {
    getOperation()->walk([&](Block *block) {
      for (BlockArgument arg : block->getArguments())
        if (std::optional<std::string> name = sourceName(arg.getLoc()))
          arg.setLoc(NameLoc::get(StringAttr::get(&getContext(), *name),
                                  arg.getLoc()));
    });
  }

private:
  /// The name written at `loc` in the input when `loc` points at an SSA
  /// identifier there, without the suffix the printer adds to repeated names.
  std::optional<std::string> sourceName(Location loc) const {
    auto fileLoc = dyn_cast<FileLineColLoc>(loc);
    if (!fileLoc || fileLoc.getFilename() != bufferName)
      return std::nullopt;
    unsigned line = fileLoc.getLine(), column = fileLoc.getColumn();
    if (line == 0 || line > lineStarts.size() || column == 0)
      return std::nullopt;
    size_t begin = lineStarts[line - 1] + column - 1;
    if (begin >= sourceText.size() || sourceText[begin] != '%')
      return std::nullopt;
    size_t end = begin + 1;
    while (end < sourceText.size() && isIdentifierChar(sourceText[end]))
      ++end;
    StringRef name = StringRef(sourceText).slice(begin + 1, end);
    // Numbered and `argN` names are the printer's own: leave them to it.
    if (name.empty() || llvm::all_of(name, llvm::isDigit) ||
        (name.starts_with("arg") && name.size() > 3 &&
         llvm::all_of(name.drop_front(3), llvm::isDigit)))
      return std::nullopt;
    return withoutUniquingSuffix(name, begin).str();
  }

  /// The printer makes a repeated name unique as `name_N`. When `name` was
  /// already defined earlier in the text, `name_N` is such a copy: return the
  /// base name so that printing derives the same suffix again.
  StringRef withoutUniquingSuffix(StringRef name, size_t position) const {
    auto [base, suffix] = name.rsplit('_');
    if (suffix.empty() || base.empty() || !llvm::all_of(suffix, llvm::isDigit))
      return name;
    std::string needle = ("%" + base).str();
    StringRef before = StringRef(sourceText).take_front(position);
    for (size_t at = before.find(needle); at != StringRef::npos;
         at = before.find(needle, at + 1)) {
      size_t next = at + needle.size();
      if (next >= before.size() || !isIdentifierChar(before[next]))
        return base;
    }
    return name;
  }

  std::string bufferName;
  std::string sourceText;
  std::vector<size_t> lineStarts;
};
} // namespace

std::unique_ptr<Pass>
mlir::triton_spirv::createRestoreSSANamesPass(std::string bufferName,
                                              std::string sourceText) {
  return std::make_unique<RestoreSSANamesPass>(std::move(bufferName),
                                               std::move(sourceText));
}
