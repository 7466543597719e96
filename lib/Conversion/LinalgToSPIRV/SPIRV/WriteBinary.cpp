//===- WriteBinary.cpp - Write the .spv binary and its metadata -----------===//

#include "FragmentCallbacks.h"

#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h"
#include "triton-spirv/Conversion/AttributeJSON.h"
#include "triton-spirv/Conversion/KernelABI.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::triton_spirv {
#define GEN_PASS_DEF_WRITEBINARY
#include "triton-spirv/Conversion/LinalgToSPIRV/Passes.h.inc"
} // namespace mlir::triton_spirv

using namespace mlir;

namespace {
LogicalResult writeFile(Operation *anchor, StringRef path,
                        function_ref<void(llvm::raw_ostream &)> write) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (error)
    return anchor->emitError("cannot write '")
           << path << "': " << error.message();
  write(os);
  return success();
}

/// SPIR-V's universal limit on structured control flow nested in one
/// function (loops and selections).
constexpr unsigned kMaxControlFlowNesting = 1023;

/// Fails, naming the deepest construct, where loops and ifs nest deeper
/// than SPIR-V allows (drivers may reject or crash on such a module).
LogicalResult checkControlFlowNesting(spirv::ModuleOp module) {
  Operation *deepest = nullptr;
  unsigned deepestDepth = 0;
  module.walk([&](Operation *op) {
    if (!isa<spirv::LoopOp, spirv::SelectionOp>(op))
      return;
    unsigned depth = 1;
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp())
      depth += isa<spirv::LoopOp, spirv::SelectionOp>(parent);
    if (depth > deepestDepth) {
      deepest = op;
      deepestDepth = depth;
    }
  });
  if (deepestDepth <= kMaxControlFlowNesting)
    return success();
  return deepest->emitError("loops and ifs nest ")
         << deepestDepth << " deep here; SPIR-V allows at most "
         << kMaxControlFlowNesting;
}

struct WriteBinaryPass : triton_spirv::impl::WriteBinaryBase<WriteBinaryPass> {
  using Base::Base;
  void runOnOperation() override {
    if (output.empty())
      return;
    ModuleOp module = getOperation();
    auto spirvModules = llvm::to_vector(module.getOps<spirv::ModuleOp>());
    if (spirvModules.size() != 1) {
      module.emitError("expected exactly one spirv.module to write, found ")
          << spirvModules.size();
      return signalPassFailure();
    }
    spirv::ModuleOp spirvModule = spirvModules.front();
    SmallVector<uint32_t> binary;
    if (failed(checkControlFlowNesting(spirvModule)) ||
        failed(spirv::serialize(spirvModule, binary)) ||
        failed(triton_spirv::rewriteFragmentCallbackCalls(binary,
                                                          spirvModule)))
      return signalPassFailure();
    auto abi =
        spirvModule->getAttrOfType<DictionaryAttr>(triton_spirv::kAbiAttrName);
    if (!abi) {
      spirvModule.emitError("missing triton_spirv.abi metadata");
      return signalPassFailure();
    }
    if (failed(writeFile(spirvModule, output,
                         [&](llvm::raw_ostream &os) {
                           os.write(
                               reinterpret_cast<const char *>(binary.data()),
                               binary.size() * sizeof(uint32_t));
                         })) ||
        failed(writeFile(spirvModule, output + ".json",
                         [&](llvm::raw_ostream &os) {
                           os << llvm::formatv(
                                     "{0:2}",
                                     triton_spirv::attributeToJSON(abi))
                              << "\n";
                         })))
      return signalPassFailure();
  }
};
} // namespace
