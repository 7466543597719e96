//===- TritonSPIRVOps.td - This project's ops -------------*- tablegen -*-===//
//
// The few ops the pipeline's own passes insert between Triton's ops before
// a later pass lowers them.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_TRITONSPIRVOPS_TD
#define TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_TRITONSPIRVOPS_TD

include "triton-spirv/Dialect/TritonSPIRV/IR/TritonSPIRVAttrs.td"
include "mlir/Dialect/GPU/IR/GPUBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
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
    The memory from `address` on (a Vulkan buffer device address), viewed as
    elements of the memref's element type in the `PhysicalStorageBuffer`
    storage class. Two kinds of pointers name no binding:

    - A pointer made by `tt.int_to_ptr` from an integer the kernel read from
      a kernel argument (a table of addresses, as the grouped-GEMM tutorial
      passes). `root` numbers these address roots of the kernel: the
      accesses through the buffer carry the same number
      (`triton_spirv.root_address`). The launcher replaces the host
      addresses in such a table by device addresses before the launch (the
      kernel metadata's `address_tables`).
    - A pointer argument the kernel ABI passes by address (role `address`,
      for tensors larger than one binding spans). Such a buffer has no
      `root`: the accesses name their argument (`triton_spirv.root_arg`),
      and the buffer is found through the argument's address.

    --triton-spirv-convert-to-spirv lowers the op to `spirv.ConvertUToPtr`.

    ```mlir
    %a = triton_spirv.address_buffer %address root 0 : memref<?xf16, #spirv.storage_class<PhysicalStorageBuffer>>
    %b = triton_spirv.address_buffer %arg0 : memref<?xf32, #spirv.storage_class<PhysicalStorageBuffer>>
    ```
  }];
  let arguments = (ins I64:$address, OptionalAttr<I64Attr>:$root);
  let results = (outs AnyMemRef:$buffer);
  let assemblyFormat =
      "$address (`root` $root^)? attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

// Element-wise work on cooperative matrices whose lane-to-element mapping the
// driver chooses (VK_NV_cooperative_matrix2's reductions and per-element
// operations). Their bodies run on scalars and are isolated from above (what
// they need from outside comes as an operand);
// --triton-spirv-outline-fragment-callbacks
// outlines each body into a SPIR-V function that the instruction calls.

def TritonSPIRV_ReduceFragmentRowsOp
    : Op<TritonSPIRV_Dialect, "reduce_fragment_rows",
         [Pure, SameOperandsAndResultType, SingleBlock, IsolatedFromAbove]> {
  let summary = "Each element of a fragment replaced by its row's reduction";
  let description = [{
    Combines the elements of each row of an accumulator fragment with the
    body (a commutative, associative combiner of two elements) and gives
    every element of the row the result: the row is smeared over the
    fragment's columns, so that the result can scale or shift the rows of
    fragments of the same type element by element. Lowered to
    `OpCooperativeMatrixReduceNV` with the Row mask.

    ```mlir
    %max = triton_spirv.reduce_fragment_rows %f
        : !gpu.mma_matrix<16x16xf32, "COp"> {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      triton_spirv.yield %m : f32
    }
    ```
  }];
  let arguments = (ins GPU_MMAMatrix:$fragment);
  let results = (outs GPU_MMAMatrix:$result);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat =
      "$fragment attr-dict `:` type($fragment) $combiner";
  let hasVerifier = 1;
}

def TritonSPIRV_MapFragmentsOp
    : Op<TritonSPIRV_Dialect, "map_fragments",
         [Pure, AttrSizedOperandSegments, SingleBlock,
          IsolatedFromAbove]> {
  let summary = "An element-wise function of fragments of one type";
  let description = [{
    Computes each element of the result from the elements at the same
    position of `fragments` (all of the result's type, so that the lanes
    hold the same positions of each) and from the scalars `extras`. The
    body's arguments are the element's row and column within the fragment
    (i32), one element of each fragment, then the extras. Lowered to
    `OpCooperativeMatrixPerElementOpNV`.

    ```mlir
    %d = triton_spirv.map_fragments %x, %y args(%scale : f32)
        : !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">
          -> !gpu.mma_matrix<16x16xf32, "COp"> {
    ^bb0(%row: i32, %col: i32, %a: f32, %b: f32, %s: f32):
      %m = arith.mulf %a, %s : f32
      %d = arith.subf %m, %b : f32
      triton_spirv.yield %d : f32
    }
    ```
  }];
  let arguments = (ins Variadic<GPU_MMAMatrix>:$fragments,
                       Variadic<AnyTypeOf<[AnyInteger, AnyFloat, Index]>>
                           :$extras);
  let results = (outs GPU_MMAMatrix:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $fragments (`args` `(` $extras^ `:` type($extras) `)`)? attr-dict `:`
    type($fragments) `->` type($result) $body
  }];
  let hasVerifier = 1;
}

def TritonSPIRV_ConvertFragmentOp
    : Op<TritonSPIRV_Dialect, "convert_fragment", [Pure]> {
  let summary = "An accumulator fragment as an operand, of another type";
  let description = [{
    Converts each element of an accumulator (COp) fragment to the result's
    element type and gives the result the use of a matmul operand (AOp or
    BOp) of the same shape: a computed block (attention's weights) becomes
    the operand of the next matmul without leaving registers. Lowered to
    `OpFConvert`, which VK_NV_cooperative_matrix2's conversions allow
    between uses. An accumulator may also become an accumulator of another
    element type (an f16 epilogue's values, before they leave registers):
    `OpFConvert` of one use, which SPV_KHR_cooperative_matrix allows.

    ```mlir
    %a = triton_spirv.convert_fragment %p
        : !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf16, "AOp">
    ```
  }];
  let arguments = (ins GPU_MMAMatrix:$fragment);
  let results = (outs GPU_MMAMatrix:$result);
  let assemblyFormat =
      "$fragment attr-dict `:` type($fragment) `->` type($result)";
  let hasVerifier = 1;
}

def TritonSPIRV_FragmentVariableOp
    : Op<TritonSPIRV_Dialect, "fragment_variable",
         [MemoryEffects<[MemAlloc]>]> {
  let summary = "A new variable for one fragment (at the kernel's start)";
  let results = (outs TritonSPIRV_FragmentVariableType:$variable);
  let assemblyFormat = "attr-dict `:` qualified(type($variable))";
}

def TritonSPIRV_ReadFragmentOp
    : Op<TritonSPIRV_Dialect, "read_fragment", [MemoryEffects<[MemRead]>]> {
  let summary = "The fragment a variable holds";
  let arguments = (ins TritonSPIRV_FragmentVariableType:$variable);
  let results = (outs GPU_MMAMatrix:$fragment);
  let assemblyFormat =
      "$variable attr-dict `:` qualified(type($variable)) `->` type($fragment)";
  let hasVerifier = 1;
}

def TritonSPIRV_WriteFragmentOp
    : Op<TritonSPIRV_Dialect, "write_fragment", [MemoryEffects<[MemWrite]>]> {
  let summary = "Stores a fragment into a variable";
  let arguments = (ins GPU_MMAMatrix:$fragment,
                       TritonSPIRV_FragmentVariableType:$variable);
  let assemblyFormat = "$fragment `,` $variable attr-dict `:` type($fragment) "
                       "`,` qualified(type($variable))";
  let hasVerifier = 1;
}

def TritonSPIRV_YieldOp
    : Op<TritonSPIRV_Dialect, "yield",
         [Pure, Terminator,
          ParentOneOf<["ReduceFragmentRowsOp", "MapFragmentsOp"]>]> {
  let summary = "The element a fragment op's body computes";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_TRITONSPIRVOPS_TD
