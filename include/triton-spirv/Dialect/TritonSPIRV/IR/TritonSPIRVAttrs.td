//===- TritonSPIRVAttrs.td - This project's dialect and layouts -*- tablegen -*-===//
//
// The `triton_spirv` dialect holds what the pipeline's own passes say to each
// other in the IR: the layouts that tell which invocation of a workgroup
// holds which element of a block value.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_TRITONSPIRVATTRS_TD
#define TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_TRITONSPIRVATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"

def TritonSPIRV_Dialect : Dialect {
  let name = "triton_spirv";
  let cppNamespace = "::mlir::triton_spirv";
  let summary = "Attributes and ops shared by triton-spirv's passes";
  let description = [{
    Block values of one Triton program are spread over the invocations of one
    workgroup. A layout attribute on a block's buffer says how: which
    invocation holds each element, and at which position of its private
    registers. A buffer without a layout lives in workgroup memory, where
    every invocation can reach every element.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // Buffers at device addresses are in SPIR-V's PhysicalStorageBuffer class.
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

class TritonSPIRV_Attr<string name, string attrMnemonic>
    : AttrDef<TritonSPIRV_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def TritonSPIRV_CyclicLayoutAttr : TritonSPIRV_Attr<"CyclicLayout", "cyclic"> {
  let summary = "Elements dealt out to the invocations in turn";
  let description = [{
    Over a workgroup of W invocations, the element at row-major position q of
    the buffer is held by invocation q mod W, as its register q / W. Element-
    wise work over the buffer then touches neighbouring addresses from
    neighbouring invocations, and each invocation holds ceil(N / W) of the N
    elements.

    ```mlir
    %row = memref.alloc() {triton_spirv.layout = #triton_spirv.cyclic}
        : memref<1024xf32, #gpu.address_space<workgroup>>
    ```
  }];
}

def TritonSPIRV_GridLayoutAttr : TritonSPIRV_Attr<"GridLayout", "grid"> {
  let summary = "Invocations laid out as a grid over the dimensions";
  let description = [{
    The workgroup's invocations form a grid of `invocations[d]` along each
    dimension d, numbered row-major (the last dimension fastest): invocation
    (t_0, ..., t_n) holds every element (x_0, ..., x_n) with
    x_d mod invocations[d] = t_d, as its register whose row-major position in
    the per-invocation tile of shape[d] / invocations[d] is
    (x_0 / invocations[0], ..., x_n / invocations[n]). Neighbouring
    invocations along the last dimension hold neighbouring elements.

    This is the register tile of a matmul computed by invocations (each
    invocation accumulates its strided tile of outputs) and of the element-
    wise work that reads or writes those outputs.

    ```mlir
    %acc = memref.alloc() {triton_spirv.layout = #triton_spirv.grid<[16, 8]>}
        : memref<128x128xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$invocations);
  let assemblyFormat = "`<` `[` $invocations `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Invocations the grid spans.
    int64_t getNumInvocations() const;
    /// Whether the grid tiles `shape` exactly: same rank, each dimension a
    /// multiple of its invocations.
    bool tiles(ArrayRef<int64_t> shape) const;
  }];
}

def TritonSPIRV_SliceLayoutAttr : TritonSPIRV_Attr<"SliceLayout", "slice"> {
  let summary = "A grid layout with one dimension reduced away";
  let description = [{
    The layout of the result of reducing dimension `dim` of a buffer in grid
    layout `parent`: the buffer has the parent's other dimensions, and its
    element y is held by every invocation of the parent grid whose
    coordinates along those dimensions are y_k mod invocations[k], whatever
    its coordinate along `dim` (the invocations that shared the reduced row
    all hold its result), as the register at the row-major position of
    (y_k / invocations[k]). A grid-layout element-wise op that reads the
    slice broadcast along `dim` finds each element in its own registers.

    ```mlir
    %row_max = memref.alloc() {triton_spirv.layout =
        #triton_spirv.slice<dim = 1, parent = #triton_spirv.grid<[16, 8]>>}
        : memref<128xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "GridLayoutAttr":$parent);
  let assemblyFormat =
      "`<` `dim` `=` $dim `,` `parent` `=` qualified($parent) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Invocations along each dimension of the sliced buffer.
    SmallVector<int64_t> getInvocations() const;
    /// Whether the slice tiles `shape` exactly (as GridLayoutAttr::tiles).
    bool tiles(ArrayRef<int64_t> shape) const;
  }];
}

def TritonSPIRV_FragmentsLayoutAttr
    : TritonSPIRV_Attr<"FragmentsLayout", "fragments"> {
  let summary = "16x16 tiles held by subgroups as cooperative matrices";
  let description = [{
    The accumulator of a matmul computed with cooperative matrices (tensor
    cores), kept in registers: the subgroups form a grid of `subgroups[0]` x
    `subgroups[1]`, numbered row-major, and subgroup (s_0, s_1) holds the
    16x16 tiles whose tile coordinates (x_0 / 16, x_1 / 16) are congruent to
    (s_0, s_1) modulo the grid, each as one cooperative-matrix value (tile
    (s_0 + subgroups[0] * r, s_1 + subgroups[1] * c) is its fragment
    r * tilesPerSubgroup[1] + c). Which lane holds which element of a
    fragment is the driver's choice, so element-wise work on the buffer goes
    through a 16x16 scratch tile per subgroup in workgroup memory, one
    fragment at a time.

    ```mlir
    %acc = memref.alloc()
        {triton_spirv.layout = #triton_spirv.fragments<[2, 2]>}
        : memref<128x128xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$subgroups);
  let assemblyFormat = "`<` `[` $subgroups `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Subgroups the grid spans.
    int64_t getNumSubgroups() const;
    /// Whether the grid's 16x16 tiles cover `shape` exactly: two dimensions,
    /// each a multiple of 16 times its subgroups.
    bool tiles(ArrayRef<int64_t> shape) const;
  }];
}

def TritonSPIRV_SpreadAttr : TritonSPIRV_Attr<"Spread", "spread"> {
  let summary = "Which iterations of a distributed loop each invocation runs";
  let description = [{
    `triton-spirv-distribute` marks each loop it spreads over the
    invocations with how it did so (as the loop's `triton_spirv.spread`
    attribute): over a static iteration space of `shape`, runs of `run`
    consecutive row-major iterations dealt out to the invocations in turn
    (run 1: the cyclic spread), or, where `layout` is given, the iterations
    that the grid or slice layout gives each invocation. A 0-d space
    (`#triton_spirv.spread<run = 1>`) marks the `scf.if` around what
    invocation 0 runs for the scalar code (its writes). Two loops of the
    same kernel with equal spreads give every invocation the same
    iterations, which later passes use to tell what needs no ordering
    between invocations.

    ```mlir
    scf.for %run = %c0 to %c4 step %c1 {
      ...
    } {triton_spirv.spread = #triton_spirv.spread<[4096], run = 4>}
    ```
  }];
  let parameters = (ins OptionalArrayRefParameter<"int64_t">:$shape,
                        "int64_t":$run,
                        OptionalParameter<"Attribute">:$layout);
  // A 0-d space prints without its shape: #triton_spirv.spread<run = 1>.
  let assemblyFormat =
      "`<` (`[` $shape^ `]` `,` ` `)? `run` `=` $run (`,` $layout^)? `>`";
}

def TritonSPIRV_FragmentRowsLayoutAttr
    : TritonSPIRV_Attr<"FragmentRowsLayout", "fragment_rows"> {
  let summary = "A vector of rows held by subgroups as smeared fragments";
  let description = [{
    A vector with one element per row of a block in layout
    `#triton_spirv.fragments<[subgroups, 1]>` (a row maximum, a row sum):
    subgroup s holds the elements of its rows, 16 at a time, each 16 as one
    accumulator fragment whose row i holds element i in every column, so
    that it scales or shifts the rows of the block's fragments element by
    element (fragment r is the rows of tile s + subgroups * r).

    ```mlir
    %max = memref.alloc()
        {triton_spirv.layout = #triton_spirv.fragment_rows<4>}
        : memref<64xf32, #gpu.address_space<workgroup>>
    ```
  }];
  let parameters = (ins "int64_t":$subgroups);
  let assemblyFormat = "`<` $subgroups `>`";
}

def TritonSPIRV_MatmulTilingAttr
    : TritonSPIRV_Attr<"MatmulTiling", "matmul_tiling"> {
  let summary = "Workers in a grid over a matmul's outputs, a tile each";
  let description = [{
    The workers (invocations, or subgroups for cooperative matrices) form a
    `grid_m` x `grid_n` grid; worker (i, j) owns the outputs
    (i + grid_m * r, j + grid_n * c) for r < `tile_m`, c < `tile_n`, in
    16x16 tiles for subgroups.
  }];
  let parameters = (ins "int64_t":$grid_m, "int64_t":$grid_n,
                        "int64_t":$tile_m, "int64_t":$tile_n);
  let assemblyFormat = "`<` `grid` `=` `[` $grid_m `,` $grid_n `]` `,` "
                       "`tile` `=` `[` $tile_m `,` $tile_n `]` `>`";
}

def TritonSPIRV_MatmulPlanAttr
    : TritonSPIRV_Attr<"MatmulPlan", "matmul_plan"> {
  let summary = "How a matmul is spread over the workgroup";
  let description = [{
    Attached to each static matmul on buffers by
    `triton-spirv-plan-matmuls` as `triton_spirv.matmul_plan`, and read by
    `triton-spirv-assign-layouts` and `triton-spirv-distribute`:
    `invocations`, the register tiles of invocations (CUDA cores), and,
    where the matmul has the cooperative-matrix form, `subgroups`, the
    16x16 cooperative-matrix tiles of subgroups (tensor cores). With
    `fragments_only`, its accumulator and operands would take over a
    quarter of the workgroup memory, so subgroups compute it only where the
    accumulator stays in registers as fragments. A plan without
    `invocations` says the matmul has too few outputs to give each
    invocation one: it is distributed as any other linalg op.

    ```mlir
    linalg.matmul {triton_spirv.matmul_plan = #triton_spirv.matmul_plan<
        invocations = <grid = [8, 16], tile = [8, 4]>,
        subgroups = <grid = [2, 2], tile = [2, 2]>>} ...
    ```
  }];
  let parameters = (ins OptionalParameter<"MatmulTilingAttr">:$invocations,
                        OptionalParameter<"MatmulTilingAttr">:$subgroups,
                        DefaultValuedParameter<"bool", "false">:$fragments_only);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TritonSPIRV_TargetAttr : TritonSPIRV_Attr<"Target", "target"> {
  let summary = "The Vulkan device a module is compiled for";
  let description = [{
    A preset of Target.cpp (`lavapipe`, `nvidia`, `generic`) with the
    device's subgroup size, workgroup memory in bytes, largest workgroup and
    the features turned on (`+name`) or off (`-name`) against the preset.
    --triton-spirv-resolve-target attaches it as `triton_spirv.target`
    (with the `spirv.target_env` it implies and a `triton_spirv.workgroup`);
    passes read the description it stands for through
    `triton_spirv::lookupTarget`.
  }];
  let parameters = (ins StringRefParameter<"the preset">:$preset,
                        "unsigned":$subgroup_size,
                        "unsigned":$workgroup_memory,
                        "unsigned":$max_workgroup_size,
                        OptionalParameter<"::mlir::ArrayAttr">:$features);
  let assemblyFormat = "`<` $preset `,` struct($subgroup_size, $workgroup_memory, "
                       "$max_workgroup_size, $features) `>`";
}

def TritonSPIRV_WorkgroupAttr : TritonSPIRV_Attr<"Workgroup", "workgroup"> {
  let summary = "The workgroup one Triton program runs on";
  let description = [{
    Its invocations (num_warps * 32), the device's subgroup size, the bytes
    of workgroup memory its buffers may take, and whether its matmuls may
    use cooperative matrices (of fp16, and of bf16 held as f16 bits) and
    keep blocks computed from them as fragments (VK_NV_cooperative_matrix2).
    Attached by --triton-spirv-resolve-target as `triton_spirv.workgroup`.
  }];
  let parameters = (ins "unsigned":$size,
                        "unsigned":$subgroup_size,
                        "unsigned":$memory,
                        "bool":$cooperative_matrix,
                        "bool":$bfloat16_cooperative_matrix,
                        "bool":$cooperative_matrix2);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TritonSPIRV_FragmentVariableType
    : TypeDef<TritonSPIRV_Dialect, "FragmentVariable"> {
  let mnemonic = "fragment_var";
  let summary = "A subgroup's variable holding one cooperative-matrix fragment";
  let description = [{
    Where a buffer in a fragments layout keeps each tile of a subgroup:
    written and read whole (`triton_spirv.write_fragment`,
    `read_fragment`), lowered to a Function-storage variable, which the
    driver keeps in registers. Variables rather than SSA values let the
    buffer's element-wise writers, reductions and matmuls in any loops
    update it in place.
  }];
  let parameters = (ins "::mlir::gpu::MMAMatrixType":$fragment);
  let assemblyFormat = "`<` $fragment `>`";
}

#endif // TRITON_SPIRV_DIALECT_TRITONSPIRV_IR_TRITONSPIRVATTRS_TD
