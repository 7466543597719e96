//===- InitAll.h - Register everything triton-spirv-opt knows ---*- C++ -*-===//

#ifndef TRITON_SPIRV_INITALL_H
#define TRITON_SPIRV_INITALL_H

namespace mlir {
class DialectRegistry;

namespace triton_spirv {
/// The tt dialect and every upstream dialect the pipeline goes through.
void registerAllDialects(DialectRegistry &registry);
/// This project's passes and the upstream passes its pipelines use.
void registerAllPasses();
} // namespace triton_spirv
} // namespace mlir

#endif // TRITON_SPIRV_INITALL_H
