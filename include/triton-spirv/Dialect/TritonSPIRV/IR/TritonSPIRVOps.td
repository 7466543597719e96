//===- TritonSPIRVOps.td - This project's ops -------------*- tablegen -*-===//
//
// The few ops the pipeline's own passes insert between Triton's ops before
// a later pass lowers them.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_TRITONSPIRVOPS_TD
#define TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_TRITONSPIRVOPS_TD

include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TritonSPIRV_PointerInBoundsOp
    : Op<TritonSPIRV_Dialect, "pointer_in_bounds", [Pure]> {
  let summary = "Whether pointers address their kernel argument's storage";
  let description = [{
    For a `!tt.ptr<T>` or a tensor of them: whether each pointer addresses a
    whole element of the storage of the kernel argument it derives from (the
    tensor the launcher passed, views included: the storage, not only the
    view). The kernel ABI gives each checked argument the byte range of its
    storage within its binding (`bounds_begin`, `bounds_end`);
    --triton-pointers-to-memref compares each element offset with it.
    Inserted by --triton-insert-bounds-checks, which asserts it.

    ```mlir
    %ok = triton_spirv.pointer_in_bounds %ptrs : tensor<64x!tt.ptr<f32>> -> tensor<64xi1>
    ```
  }];
  let arguments = (ins AnyType:$pointer);
  let results = (outs AnyType:$inBounds);
  let assemblyFormat = "$pointer attr-dict `:` type($pointer) `->` type($inBounds)";
  let builders = [OpBuilder<(ins "Value":$pointer)>];
  let hasVerifier = 1;
}

#endif // TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_TRITONSPIRVOPS_TD
