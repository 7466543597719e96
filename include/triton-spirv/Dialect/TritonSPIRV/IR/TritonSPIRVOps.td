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

def TritonSPIRV_AddressBufferOp
    : Op<TritonSPIRV_Dialect, "address_buffer", [Pure]> {
  let summary = "The memory at a device address, as a buffer";
  let description = [{
    A pointer made by `tt.int_to_ptr` from an integer the kernel read from a
    kernel argument (a table of addresses, as the grouped-GEMM tutorial
    passes) names no kernel argument's buffer: it addresses memory through
    Vulkan buffer device addresses. The result views the memory from
    `address` on as elements of the memref's element type, in the
    `PhysicalStorageBuffer` storage class. `root` numbers the address roots
    of the kernel: the accesses through this buffer carry the same number
    (`triton_spirv.root_address`), as those through argument buffers carry
    their argument's.

    The launcher replaces the host addresses in such a table by device
    addresses before the launch (the kernel metadata's `address_tables`).
    --triton-spirv-kernel-to-spirv lowers the op to `spirv.ConvertUToPtr`.

    ```mlir
    %a = triton_spirv.address_buffer %address root 0 : memref<?xf16, #spirv.storage_class<PhysicalStorageBuffer>>
    ```
  }];
  let arguments = (ins I64:$address, I64Attr:$root);
  let results = (outs AnyMemRef:$buffer);
  let assemblyFormat = "$address `root` $root attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

#endif // TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_TRITONSPIRVOPS_TD
