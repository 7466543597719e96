//===- TritonDialect.td - The Triton IR dialect ------------*- tablegen -*-===//
//
// triton-spirv's own definition of the `tt` dialect: it parses and prints the
// TTIR text that Triton emits after its TTIR passes (3.6; 3.9's cache
// policies too).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_DIALECT_TRITON_IR_TRITONDIALECT_TD
#define TRITON_SPIRV_DIALECT_TRITON_IR_TRITONDIALECT_TD

include "mlir/IR/OpBase.td"

def Triton_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::mlir::triton";
  let summary = "Block-level tensor programs as produced by Triton's front end";
  let description = [{
    A Triton program computes on whole blocks (tensors) at once and addresses
    global memory through tensors of pointers. One program instance runs per
    point of a launch grid; `tt.get_program_id` tells which.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::ub::UBDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

#endif // TRITON_SPIRV_DIALECT_TRITON_IR_TRITONDIALECT_TD
