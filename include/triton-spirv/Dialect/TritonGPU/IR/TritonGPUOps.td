//===- TritonGPUOps.td - The ttg ops TTIR may hold ---------*- tablegen -*-===//
//
// Triton's `ttg` dialect describes GPU layouts and memories; TTIR, which this
// project compiles, holds one of its ops: from Triton 3.8 on,
// `tl.debug_barrier()` emits `ttg.barrier` (3.6 emitted `gpu.barrier`).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_DIALECT_TRITONGPU_IR_TRITONGPUOPS_TD
#define TRITON_SPIRV_DIALECT_TRITONGPU_IR_TRITONGPUOPS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def TritonGPU_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::mlir::triton::ttg";
  let summary = "The TritonGPU ops that TTIR may hold (ttg.barrier)";
}

def TTG_NoSpace : I32BitEnumAttrCaseNone<"None", "none">;
def TTG_Local : I32BitEnumAttrCaseBit<"Local", 0, "local">;
def TTG_GlobalRead : I32BitEnumAttrCaseBit<"GlobalRead", 1, "global_read">;
def TTG_GlobalWrite : I32BitEnumAttrCaseBit<"GlobalWrite", 2, "global_write">;
def TTG_TensorRead : I32BitEnumAttrCaseBit<"TensorRead", 3, "tensor_read">;
def TTG_TensorWrite : I32BitEnumAttrCaseBit<"TensorWrite", 4, "tensor_write">;

def TTG_AddressSpaces : I32BitEnumAttr<"AddressSpaces",
    "the memories whose accesses a barrier orders", [
  TTG_NoSpace, TTG_Local, TTG_GlobalRead, TTG_GlobalWrite, TTG_TensorRead,
  TTG_TensorWrite,
  I32BitEnumAttrCaseGroup<"All", [TTG_Local, TTG_GlobalRead, TTG_GlobalWrite,
                                  TTG_TensorRead, TTG_TensorWrite], "all">
]> {
  let cppNamespace = "::mlir::triton::ttg";
  let printBitEnumPrimaryGroups = 1;
}

def TTG_BarrierOp : Op<TritonGPU_Dialect, "barrier"> {
  let summary = "all invocations of a workgroup meet; the named memories' "
                "accesses before are seen after";
  let description = [{
    Printed as `ttg.barrier` followed by the address spaces joined by `|`
    (`none`, `local`, `global_read`, `global_write`, `tensor_read`,
    `tensor_write`, or `all`). --triton-lower-ttg-barriers makes it a
    `gpu.barrier`, which orders every memory: a stronger barrier than any
    of these, as Triton 3.6's `tl.debug_barrier()` was.
  }];
  let arguments = (ins TTG_AddressSpaces:$addrSpace);
  let hasCustomAssemblyFormat = 1;
}

#endif // TRITON_SPIRV_DIALECT_TRITONGPU_IR_TRITONGPUOPS_TD
