//===- Passes.td - linalg/memref to SPIR-V passes ----------*- tablegen -*-===//

#ifndef TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_PASSES_TD
#define TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_PASSES_TD

include "mlir/Pass/PassBase.td"

def ResolveTarget : Pass<"triton-spirv-resolve-target", "ModuleOp"> {
  let summary = "Attach the target's facts to the module, for every later pass";
  let description = [{
    Resolves a target preset (Target.cpp: lavapipe, nvidia, generic) with the
    device's limits and features and attaches what the later passes read
    through `triton_spirv::lookupTarget`: `triton_spirv.target` (the
    device), `spirv.target_env` (the SPIR-V version, capabilities,
    extensions and limits it implies) and `triton_spirv.workgroup` (the
    workgroup one program runs on: its size, subgroup size, workgroup memory
    and the cooperative-matrix forms its matmuls may take). No other pass
    takes a target fact as an option. An unknown preset or feature, or a
    workgroup larger than the device's, is an error.
  }];
  let options = [
    Option<"target", "target", "std::string", "\"generic\"",
           "Target preset: lavapipe, nvidia or generic">,
    ListOption<"features", "features", "std::string",
               "Target features to enable (+name) or disable (-name)">,
    Option<"subgroupSize", "subgroup-size", "unsigned", "0",
           "Invocations per subgroup of the device (0: the preset's)">,
    Option<"maxWorkgroupMemory", "max-workgroup-memory", "unsigned", "0",
           "Workgroup memory of the device in bytes (0: the preset's)">,
    Option<"maxWorkgroupSize", "max-workgroup-size", "unsigned", "0",
           "Most invocations per workgroup (0: the preset's)">,
    Option<"workgroupSize", "workgroup-size", "unsigned", "128",
           "Invocations per workgroup (num_warps * 32)">,
    Option<"cooperativeMatrix", "cooperative-matrix", "bool", "true",
           "Let matmuls use cooperative matrices where the target has them "
           "(and its subgroups are 32 wide)">,
  ];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect",
                           "::mlir::triton_spirv::TritonSPIRVDialect"];
}

def FoldBlockCopies : Pass<"triton-spirv-fold-block-copies", "ModuleOp"> {
  let summary = "Read and write structured blocks element by element";
  let description = [{
    A block loaded by --triton-structured-memory (`memref.copy`s of strided
    views, or of their leading subviews, into regions of a fresh buffer read
    with `bufferization.to_tensor`) becomes an element-wise `linalg.generic`
    that loads each element from the kernel buffer at offset +
    sum(i_d * stride_d) of the copy whose region holds it, and takes the
    fill value (or zero) outside them. A
    `bufferization.materialize_in_destination` into such a view becomes a
    result-less generic that stores the elements inside the extents. No
    block is staged in workgroup memory; the reads fuse into their consumers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FuseElementwise : Pass<"triton-spirv-fuse-elementwise", "ModuleOp"> {
  let summary = "Fuse element-wise linalg producers into their consumers";
  let description = [{
    Like upstream elementwise fusion, but a producer with several consumers is
    also fused (recomputed) when its body is cheap: index and integer
    arithmetic, comparisons, casts and selects. Producers that read memory or
    do floating-point math are only fused into a single consumer, so a global
    load is never duplicated. A tensor carried by an `scf.for` that every
    iteration advances by one scalar for all elements (Triton's
    `ptrs += BLOCK_K * stride`) is carried as that accumulated scalar
    instead, so the loop-invariant tensor fuses into its users rather than
    living in workgroup memory. An element-wise bit cast of the result of
    an `scf.if` that only it uses moves into both branches, where it fuses
    with what each yields (a bf16 matmul operand's cast to f16 bits joins
    the run-time versions of its load).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def BFloat16CooperativeOperands
    : Pass<"triton-spirv-bfloat16-cooperative-operands", "ModuleOp"> {
  let summary = "Hand the bf16 operands of matmuls to cooperative matrices "
                "as f16-typed bits";
  let description = [{
    MLIR's `gpu.mma_matrix`, which the distribution's cooperative-matrix ops
    use, has no bf16 element type, and `gpu.subgroup_mma_load_matrix` reads
    no bf16 buffer. A matmul (on tensors) of static bf16 blocks with sizes
    that are multiples of 16 into an f32 accumulator therefore reads
    f16-typed blocks holding the same bits (an element-wise `arith.bitcast`
    of each operand, which fuses into the operand's load) and bit-casts
    them back in its body, so it computes the same products. Its operand
    buffers are then f16 buffers, which cooperative matrices load;
    --triton-spirv-distribute marks the ops `triton_spirv.bfloat16` and
    --triton-spirv-retype-bfloat16-matrices gives them bf16 cooperative
    matrices (SPV_KHR_bfloat16). Only matmuls whose accumulator splits into
    whole 16x16 tiles over the workgroup's subgroups change, and only where
    the module's workgroup takes bf16 cooperative matrices.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def ChunkMatmulReduction : Pass<"triton-spirv-chunk-matmul-reduction",
                                 "ModuleOp"> {
  let summary = "Stage large matmul operands a chunk of the reduction at a time";
  let description = [{
    A block-level matmul reads its operands from workgroup memory, where
    they take (M + N) * K elements. When that exceeds its share of a third
    of the workgroup's memory (shared with the other matmuls of the same
    loop body), the matmul (on tensors, before bufferization)
    becomes a loop over chunks of K, the largest power of two (at least 16)
    whose operands fit, and the element-wise producers of the operands (the
    loads of the A and B tiles, also inside `scf.if`s) are computed a chunk
    at a time inside it: the operand buffers shrink to (M + N) * chunk
    elements. Chains of such producers, and of reshapes between them
    (collapse_shape of a chunk of whole inner rows or of part of one row;
    expand_shape adding unit dimensions), are chunked whole where each link
    feeds the next alone. Producers that other ops also use are computed
    again per chunk only when they are loads (a read more, no work
    repeated); others, and producers that reduce, are not duplicated: their
    chunk is sliced from the whole result instead.

    Where the workgroup keeps fragments (VK_NV_cooperative_matrix2), an f16
    left operand computed element-wise from another matmul's result in the
    same block (attention's weights), with rows the workgroup's subgroups
    can own whole, takes no workgroup memory: it stays fragments
    (lib/Analysis/FragmentFamilies.cpp), so only the right operand counts.
    An f16 left operand defined before a loop around the matmul and used by
    it alone (attention's queries), whose result is reduced by rows, is
    held as A fragments across the loop where each subgroup's share is at
    most 8 of them and 4 of the result: a loop right after the operand assembles a block of its
    own from chunks of at most 8 of its columns, each computed by the
    operand's producer (the fragment family loads each chunk into
    fragments, so only a chunk is ever staged), and the matmul reads that
    block, or views of it, with nothing of A staged in the loop. B's chunks
    then take no more than A's and B's did (workgroups of up to 4
    subgroups: on NVIDIA two of them run on a multiprocessor only within 24
    KiB of workgroup memory each) or the whole share (larger workgroups).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def BufferizeToWorkgroup : Pass<"triton-spirv-bufferize", "ModuleOp"> {
  let summary = "One-shot bufferization with workgroup-memory temporaries";
  let description = [{
    Bufferizes the tensor program of each kernel. Every temporary buffer is
    allocated in workgroup memory (`#gpu.address_space<workgroup>`), copies
    are `linalg.copy`, and all allocations are hoisted to the kernel entry
    (their shapes are static), since each becomes one module-level variable.
    An op computing a matmul operand into a `tensor.empty` that other ops
    write too gets an empty of its own: blocks that CSE happened to give one
    destination (a staged operand, and a later block of the same shape) are
    not one buffer.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def SeedReductions : Pass<"triton-spirv-seed-reductions", "ModuleOp"> {
  let summary = "Start reductions from the scalar their output buffer holds";
  let description = [{
    Where a `linalg.reduce`'s output buffer (one the kernel allocated) holds
    one scalar everywhere, because the last write of it in the reduction's
    block is a fill, or a copy of a buffer so filled, the pass fills the
    output with that scalar right before the reduction.
    `triton-spirv-distribute` then takes the fill as the reduction's initial
    value instead of reading it from workgroup memory. Whole-buffer writes
    (fills, copies) of kernel buffers that the next use overwrites, or that
    nothing later uses, are removed.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def SplitRowReductions : Pass<"triton-spirv-split-row-reductions", "ModuleOp"> {
  let summary = "Reduce each row of a block of a few long rows on its own";
  let description = [{
    A `linalg.reduce` of the innermost dimension of a 2-D block with a few
    rows (at most 8), each at least as long as the workgroup (Inductor's
    XBLOCK 2 x R0_BLOCK 2048 Welford accumulators), becomes one reduction
    per row, of a row view into an element of the output. Each is then a
    full reduction that all invocations share, which reads its input from
    the registers of a cyclic layout (triton-spirv-assign-layouts); the
    block as a whole would have to stay in workgroup memory. Every row
    still uses the whole workgroup.

    Reductions without a known identity (`tt.reduce` seeds each row with
    its first element) copy the first column into the output first: that
    copy becomes one single-element copy per row, and the views of the
    rest (column 1 on) are composed into one view of the block per row.
    Splat inputs, buffers filled with one scalar, are re-made in the shape
    of the first input's buffer so that all row views start alike. A
    one-row block gets only these rewrites, where it has a seed copy or a
    splat input.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def PlanMatmuls : Pass<"triton-spirv-plan-matmuls", "ModuleOp"> {
  let summary = "Choose for each matmul: register tiles of invocations (CUDA "
                "cores) or cooperative-matrix tiles of subgroups (tensor "
                "cores)";
  let description = [{
    This is where a `tt.dot` is decided to become cooperative matrices.
    Attaches to each static matmul on buffers its
    `#triton_spirv.matmul_plan` (lib/Analysis/MatmulPlan.cpp) for the
    module's workgroup (`triton_spirv.workgroup`): the register tiles that
    spread its outputs over the invocations and, where the target has
    cooperative matrices, the matmul multiplies fp16 (or bf16 held as f16
    bits) in whole 16x16x16 steps on rows of unit stride, the 16x16 tiles
    that spread them over the subgroups. `triton-spirv-assign-layouts` then
    keeps the accumulator as fragments or in a grid of registers, and
    `triton-spirv-distribute` emits the tiles the plan and that layout
    name; both refuse matmuls without a plan.
  }];
  let dependentDialects = ["::mlir::triton_spirv::TritonSPIRVDialect"];
}

def AssignLayouts : Pass<"triton-spirv-assign-layouts", "ModuleOp"> {
  let summary = "Give block buffers that can live in registers a layout";
  let description = [{
    Marks each workgroup allocation whose elements can each stay with one
    invocation with `triton_spirv.layout`: `#triton_spirv.cyclic` (element
    q with invocation q mod W: element-wise work, shared reductions) or
    `#triton_spirv.grid<[GM, GN]>` (the register tile of a matmul computed
    by invocations, and the element-wise work on its outputs).
    `triton-spirv-distribute` keeps those buffers in registers; the others
    stay in workgroup memory. Reads the matmuls' plans
    (`triton-spirv-plan-matmuls`). Emits a remark where a matmul of
    cooperative-matrix form is computed by invocations instead because its
    accumulator would not fit in workgroup memory.

    With `cooperative-matrix2`, matmul accumulators come first that stay
    fragments through the element-wise ops, row reductions and matmuls that
    use them (lib/Analysis/FragmentFamilies.cpp): their blocks get
    `#triton_spirv.fragments<[S, 1]>`, their vectors of rows
    `#triton_spirv.fragment_rows<S>`, and the loops of static trip count
    that view them at their induction variable (chunks of K) are unrolled.
  }];
  let dependentDialects = ["::mlir::triton_spirv::TritonSPIRVDialect"];
}

def CheckMatmulStagings : Pass<"triton-spirv-check-matmul-stagings",
                                 "ModuleOp"> {
  let summary = "Refuse matmuls whose operands staged together exceed the "
                "workgroup memory, before the distribution";
  let description = [{
    After `triton-spirv-assign-layouts`. A matmul's operands and accumulator
    that stay in workgroup memory (no layout) are live together, so their
    sum is a lower bound on what the kernel needs. Where it passes the
    target's workgroup memory, the kernel is refused here, at the matmul's
    source line, with the out-of-resources error and data note of
    `triton-spirv-check-workgroup-memory`: that later, exact check would
    refuse it too, after the distribution and clean-up of blocks that large
    (thousands of loop-carried registers) had taken minutes.
  }];
}

def CoalesceTransposedStagings
    : Pass<"triton-spirv-coalesce-transposed-stagings", "ModuleOp"> {
  let summary = "Iterate ops that stage transposed blocks of global memory "
                "along its rows";
  let description = [{
    After `triton-spirv-assign-layouts`. An op that fills workgroup buffers
    without a layout from global loads (a `linalg.generic` of parallel loops
    whose outputs it only writes, at identity maps), whose loads all step by
    one element along a loop other than the last and by more along the
    last (attention's `tl.trans(k)` staged for its first dot), has its loops
    interchanged so that the unit-stride loop is the last: the distribution
    spreads the last loop fastest, so neighbouring invocations then load
    neighbouring elements. Done where the buffers are 2-D and only matmuls
    computed in register tiles (accumulators in a grid layout) read them, as
    their B operand: rows of an even number of 32-bit words get one word of
    padding, since the stores now step a row per invocation, where that fits
    the workgroup's memory (else the op stays as it is).
  }];
}

def HoistOperandLoads : Pass<"triton-spirv-hoist-operand-loads", "ModuleOp"> {
  let summary = "Issue the global loads of all staged matmul operands before "
                "any of them is stored to workgroup memory";
  let description = [{
    After `triton-spirv-assign-layouts`. In an `scf.for` around a matmul,
    each operand staged by `scf.if %whole { G; linalg.copy R -> S } else
    { ... }` (the run-time version of a load wholly in bounds: G, a
    `linalg.generic`, reads global memory into R, a buffer in registers,
    which is then copied to S, the workgroup buffer the matmul reads;
    operands copied to more registers instead already store after both
    loads and are left alone) has its G moved, under its own `scf.if
    %whole`, before the first such staging, with the computation it needs
    (ops without memory effects). The loads of all operands are then in
    flight together, instead of the second operand's waiting for the first
    operand's stores. Loops that may write global memory are left alone.
  }];
}

def DistributeToWorkgroup : Pass<"triton-spirv-distribute", "ModuleOp"> {
  let summary = "Run one Triton program on one workgroup of invocations";
  let description = [{
    Turns the bufferized kernel body into code executed by every invocation
    of the module's workgroup (`triton_spirv.workgroup`). Scalar code runs
    uniformly on all of them. Each linalg op becomes a loop nest whose
    parallel iteration space is spread cyclically over the invocations
    (invocation `t` takes linear indices `t, t + size, ...`, so neighbouring
    invocations touch neighbouring elements); its reduction dimensions stay
    sequential. A linalg op without parallel dimensions, and every memory
    write outside such loops, is executed by invocation 0, with results
    broadcast through workgroup memory. Workgroup barriers separate the
    steps. The workgroup memory used is checked against the target later, by
    `triton-spirv-check-workgroup-memory`, once clean-up has removed dead
    buffers.

    Shared reductions combine the partials of neighbouring invocations with
    subgroup shuffles (a butterfly within each subgroup) and only the rest
    through workgroup memory. Subgroups are taken to be consecutive blocks
    of `subgroup-size` invocations, as on all known drivers.

    Buffers with a `triton_spirv.layout` (from `triton-spirv-assign-layouts`)
    become private arrays of the elements each invocation holds, and the
    ops on them iterate in their layout: cyclically, over an invocation's
    tile of a grid, or over a slice of one (every holder computes, one
    writes memory). Reductions of one dimension of a grid buffer combine
    the lanes of a row with subgroup shuffles.

    Matmuls are tiled instead, as their `triton_spirv.matmul_plan` and
    their accumulator's layout say: each invocation computes a strided tile of
    outputs in registers, loading a row of A and a column of B per step for
    all of them; an accumulator in a grid layout stays in registers from its
    fill to its epilogue. Where enough lanes of a subgroup share the rows of
    A (16 of 32 for fp32, 8 for fp16), A, staged in workgroup memory, is
    laid out tile-major (each invocation's rows of a step adjacent, the
    tiles' stride an odd number of vectors) and read with `vector.load`s of
    4 elements. With `cooperative-matrix`, fp16 matmuls (and, with
    `bfloat16-cooperative-matrix`, bf16 ones held as f16 bits, whose
    cooperative-matrix ops are marked `triton_spirv.bfloat16`) whose
    sizes are multiples of 16 and whose accumulator has no layout or a
    fragments one are computed by subgroups in 16x16 tiles with
    `gpu.subgroup_mma_*` ops (cooperative-matrix instructions in SPIR-V);
    their operands staged in workgroup memory get rows padded by 16 bytes
    against bank conflicts where a row is longer than a fragment's. An
    accumulator in a fragments layout stays in registers as those tiles'
    matrices from its fill to its epilogue, which reads them one tile at a
    time through a 16x16 scratch tile per subgroup in workgroup memory.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::triton_spirv::TritonSPIRVDialect",
                           "::mlir::ub::UBDialect",
                           "::mlir::vector::VectorDialect"];
}

def RemoveRedundantBarriers : Pass<"triton-spirv-remove-redundant-barriers",
                                    "ModuleOp"> {
  let summary = "Drop the workgroup barriers that order nothing";
  let description = [{
    `triton-spirv-distribute` puts a barrier before and after each step
    that other invocations may see. This pass removes a barrier when no op
    on one side of it (up to the barriers next to it) writes memory that an
    op on the other side reads or writes: the same workgroup buffer (views
    included), or global memory (arguments may alias) where the two
    accesses' `triton_spirv.spread`s call for it: not between loops of one
    spread (each invocation accesses global memory at the same iterations
    on both sides), nor between the scalar code's writes (invocation 0's)
    and loops, as Triton's GPU backends do not order a program's threads'
    global accesses either; always where an access is outside any spread.
    Computation, private memory and reads on both sides need no ordering.
    Paths follow `scf.for` back edges and leave `scf.if` branches; a path
    that meets an `scf.if` goes through each branch up to a barrier there
    (and ends where every branch has one); the kernel's entry and exit end
    them. Accesses are the memory effects ops declare (cooperative-matrix
    loads and stores included); ops with unknown effects count as
    accessing everything. Barriers are judged in program order, each on
    what the earlier removals left. The program's own barriers
    (`tl.debug_barrier()`, marked `triton_spirv.requested_barrier` by
    `triton-spirv-distribute`) always stay.
  }];
}

def ReuseWorkgroupMemory : Pass<"triton-spirv-reuse-workgroup-memory",
                                 "ModuleOp"> {
  let summary = "Let workgroup buffers with disjoint live ranges share memory";
  let description = [{
    After `triton-spirv-distribute`, workgroup buffers of the same type whose
    live ranges (the spans of top-level ops of the kernel that use them, or
    views of them) do not overlap become one allocation, so that the
    kernel's workgroup memory is closer to the peak of what is live at once
    than to the sum of all its temporaries. Buffers of one element type and
    other shapes share too where they are accessed only element by element
    or by cooperative-matrix loads and stores (directly or through static
    views): the allocation becomes a flat array of the largest size, each
    access at the row-major position of its indices. A buffer used only
    before the top-level op that first uses another of a different shape
    gets a barrier before that op if none separates them.
  }];
}

def NarrowLoopIndices : Pass<"triton-spirv-narrow-loop-indices", "ModuleOp"> {
  let summary = "Run scf.for loops on 32-bit induction variables where their "
                "values provably fit";
  let description = [{
    An `scf.for` over integers wider than 32 bits (Triton's int64 loop
    bounds) whose bounds and step integer range analysis proves to fit 32
    bits, and whose increment past the last value cannot overflow them,
    becomes a loop over `i32` bounds (truncated) whose body sign-extends
    the induction variable. arith's range narrowing then shortens the body's
    integer math; the loop's own compare and increment are 32-bit. GPUs
    emulate 64-bit integers, and Mesa 22.3's lavapipe miscompiles a 64-bit
    loop from a sign-extended program id to a constant bound. Loops the
    analysis cannot bound keep their type.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def UnrollRegisterLoops : Pass<"triton-spirv-unroll-register-loops",
                                "ModuleOp"> {
  let summary = "Unroll the loops that index private arrays, so they stay in "
                "registers";
  let description = [{
    After `triton-spirv-distribute`, each invocation's share of a block is a
    private array indexed by loops of a constant trip count. Drivers keep a
    private array in registers only when every index into it is a constant;
    one loop they do not unroll puts the whole array in local memory (on
    NVIDIA, per-thread memory in the L1/L2 path). This pass fully unrolls
    `scf.for` loops of a constant trip count, innermost first, whose bodies
    index a private array with values computed inside the loop, as long as
    the unrolled body stays within `max-unrolled-ops`. A remark names each
    such loop that is left rolled.
  }];
  let options = [
    Option<"maxUnrolledOps", "max-unrolled-ops", "int64_t", "4096",
           "The largest number of ops a loop may unroll to">,
  ];
}

def VectorizeMemoryAccesses : Pass<"triton-spirv-vectorize-memory-accesses",
                                    "ModuleOp"> {
  let summary = "Merge runs of four scalar accesses to a buffer into one "
                "vector access";
  let description = [{
    After `triton-spirv-distribute` (which gives invocations runs of four
    consecutive elements and computes each op for the four in turn) and
    `triton-spirv-unroll-register-loops`, a kernel's loads and stores of a
    buffer of 32-bit elements come as four adjacent accesses at indices i to
    i + 3, each alone or under its own mask (`scf.if`). Each such group
    becomes one access of a `vector<4xT>` (16 bytes) through an alias of the
    buffer (a kernel argument with the same `triton_spirv.arg_index`, bound
    to the same binding), taken when every mask holds and i is a multiple
    of 4; otherwise the four scalar accesses run as before. With
    `sixteen-bit`, four 16-bit elements likewise move as one
    `vector<2xi32>` (8 bytes), each word bit cast to two elements (the
    first the low half); that needs the target's Float16 and Int16.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def AssignStorageClasses : Pass<"triton-spirv-assign-storage-classes",
                                 "ModuleOp"> {
  let summary = "Give memrefs the SPIR-V storage classes of their memory spaces";
  let description = [{
    Kernel buffers become StorageBuffer, temporaries Workgroup (workgroup
    memory) or Function (private to an invocation); buffers at device
    addresses keep their PhysicalStorageBuffer class. The first of the steps
    that make a distributed kernel ready for --triton-spirv-convert-to-spirv.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def CheckWorkgroupMemory : Pass<"triton-spirv-check-workgroup-memory",
                                 "ModuleOp"> {
  let summary = "Refuse kernels whose workgroup memory exceeds the target's";
  let description = [{
    An error names the bytes the kernel needs and the target's; a note
    carries both as a dictionary (`resource`, `needed`, `limit`), which
    triton-spirv-opt --diagnostics-file writes as data and the backend turns
    into Triton's OutOfResources.
  }];
}

def UnrollForLoopLimit : Pass<"triton-spirv-unroll-for-loop-limit",
                               "ModuleOp"> {
  let summary = "Unroll the distribution's loops just enough to stay within "
                "the driver's loop iteration limit";
  let description = [{
    Each invocation's share of a large block is a loop of the distribution
    (`triton_spirv.spread`); inside a long loop of the program its
    iterations add up over every entry, and past the target's limit
    (lavapipe's 65,535 per invocation) the driver ends it early. Such a
    loop, of a constant trip count n inside loops of constant counts T, is
    unrolled by the smallest factor u dividing n for which T n / u fits;
    where none does, it is left to triton-spirv-check-loop-iterations.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def CheckLoopIterations : Pass<"triton-spirv-check-loop-iterations",
                                "ModuleOp"> {
  let summary = "Refuse loops that run past the driver's loop iteration limit";
  let description = [{
    Mesa's llvmpipe (lavapipe) ends every loop after 65,535 iterations per
    invocation, counted over all of the loop's entries, whatever its
    condition: past that a kernel would silently compute a wrong answer. A
    loop whose trip count, times those of the loops around it, is known and
    exceeds the target's limit is an error at its source line. Loops of
    counts known only at run time are not checked.
  }];
}

def RoundCorrectly : Pass<"triton-spirv-round-correctly", "ModuleOp"> {
  let summary = "Compute f32 roots and quotients marked correctly rounded in "
                "f64";
  let description = [{
    f32 math.sqrt and arith.divf marked correctly rounded (Triton's
    div_rn/sqrt_rn) are computed in f64 and rounded once, where the target
    has float64; elsewhere a remark says they are not (CorrectlyRounded.cpp).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def AtomicsToCompareAndSwap : Pass<"triton-spirv-atomics-to-compare-and-swap",
                                   "ModuleOp"> {
  let summary = "Atomics SPIR-V has no instruction for as compare-and-swap "
                "loops";
  let description = [{
    Float and other atomic read-modify-writes without a SPIR-V instruction
    become compare-and-swap loops whose bodies are ordinary arithmetic (which
    the small-float emulation then computes in f32).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def EmulateSmallFloats : Pass<"triton-spirv-emulate-small-floats",
                              "ModuleOp"> {
  let summary = "bf16 and fp8 values as their bits, computed in f32";
  let description = [{
    bf16, f8E5M2, f8E4M3FN, f8E5M2FNUZ and f8E4M3FNUZ values become their
    bits (i16, i8): arithmetic in f32, conversions as integer bit operations
    (SmallFloats.cpp). Other fp8 formats, and ops that cannot be emulated,
    are errors.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def ExpandDoubleMath : Pass<"triton-spirv-expand-double-math", "ModuleOp"> {
  let summary = "f64 transcendental functions in f64 arithmetic";
  let description = [{
    GLSL.std.450 has only 16/32-bit transcendental functions: f64 exp, exp2,
    expm1, log, log2, tanh, erf, sin and cos are written with f64 arithmetic
    (DoubleMath.cpp). Other f64 functions are errors that say so.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def LegalizeForSPIRV : Pass<"triton-spirv-legalize-for-spirv", "ModuleOp"> {
  let summary = "Rewrite the arith and math ops SPIR-V cannot express "
                "directly";
  let description = [{
    Loops that may not run get a guard, `index` temporaries become i32,
    arith ops without a SPIR-V instruction are expanded (booleans'
    arithmetic as logic), and math functions without a GLSL.std.450 one are
    approximated. Where the target's FMin/FMax return the operand that is
    not NaN (NVIDIA), arith.minnumf/maxnumf become them. Remainders are
    `triton-spirv-expand-remainders`'s, after this pass.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::spirv::SPIRVDialect"];
}

def ExpandRemainders : Pass<"triton-spirv-expand-remainders", "ModuleOp"> {
  let summary = "Compute float remainders exactly, by long division, and "
                "signed ones from the magnitudes";
  let description = [{
    SPIR-V's OpFRem is only as exact as x - y * trunc(x / y), while Triton's
    `%` on floats is C's fmod, always exact: `arith.remf` (f16, f32, f64)
    becomes a loop that subtracts from |x| the largest |y| * 2^k not above
    it, then takes x's sign. Upstream's lowering of `arith.remsi` gets
    INT_MIN % y wrong: it becomes the unsigned remainder of the magnitudes,
    negated where x is negative (ExpandRemainders.cpp). Runs after
    `triton-spirv-legalize-for-spirv`, which turns boolean remainders into
    logic; what it emits needs no further legalization.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect"];
}

def FuseMultiplyAdds : Pass<"triton-spirv-fuse-multiply-adds", "ModuleOp"> {
  let summary = "Fuse each float multiply into the add or subtract that alone "
                "uses it";
  let description = [{
    Triton's enable_fp_fusion: a single-use arith.mulf feeding an addf or
    subf becomes math.fma. The pipeline runs it with `fp-fusion` (its
    default); float arithmetic is decorated NoContraction either way, so
    drivers fuse nothing themselves.
  }];
  let dependentDialects = ["::mlir::math::MathDialect"];
}

def CreateShaderModules
    : Pass<"triton-spirv-create-shader-modules", "ModuleOp"> {
  let summary = "Move each kernel into a shader module of its own";
  let description = [{
    The first step of the conversion to SPIR-V: each kernel (a `func.func`
    marked `triton_spirv.kernel`) moves into a `builtin.module` of its own,
    where the passes up to --triton-spirv-convert-to-spirv add its
    callbacks and interface variables, and which that pass turns into a
    `spirv.module` (one cannot hold the kernel before its conversion). The
    module's `triton_spirv.addressing_model` is Logical, or
    PhysicalStorageBuffer64 where the kernel reaches memory through device
    addresses (`triton_spirv.address_buffer`), which is an error on a
    target without buffer device addresses.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def OutlineFragmentCallbacks
    : Pass<"triton-spirv-outline-fragment-callbacks", "ModuleOp"> {
  let summary = "Outline the bodies of fragment ops into cooperative-matrix2 "
                "callbacks";
  let description = [{
    `triton_spirv.reduce_fragment_rows` and `triton_spirv.map_fragments`
    (and a `triton_spirv.convert_fragment` between uses) have no op in
    MLIR's SPIR-V dialect. Each op's body becomes a function of the kernel's
    shader module (its callback) and the op a call of a placeholder named
    after it; --triton-spirv-write-binary rewrites those calls into
    VK_NV_cooperative_matrix2's instructions (FragmentCallbacks.h). Fragment
    ops on a target without `cooperative-matrix2` are errors.
  }];
}

def LowerKernelABI : Pass<"triton-spirv-lower-kernel-abi", "ModuleOp"> {
  let summary = "Replace kernel arguments by the Vulkan kernel ABI";
  let description = [{
    After --triton-spirv-create-shader-modules. Pointer arguments become
    storage buffers (descriptor set 0, binding = position among the pointer
    arguments; aliases of one argument share its binding), element offsets,
    scalars and the grid become push constants, program ids are
    `WorkgroupId` plus a base pushed by the runtime for grids split across
    several dispatches. Offsets and scalars that do not fit in the target's
    push constants go to an argument buffer (a storage buffer bound after
    the tensors) instead; the debug buffer is bound last. The layout is
    recorded in the `triton_spirv.abi` attribute of the shader module (and
    then of its `spirv.module`, which --triton-spirv-write-binary writes as
    JSON), the workgroup size the kernel uses in its
    `spirv.entry_point_abi`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::spirv::SPIRVDialect"];
}

def ConvertToSPIRV : Pass<"triton-spirv-convert-to-spirv", "ModuleOp"> {
  let summary = "Convert the kernels' arith, math, scf, cf, memref, gpu and "
                "func ops to SPIR-V";
  let description = [{
    After --triton-spirv-lower-kernel-abi. Each shader module becomes a
    `spirv.module` of its addressing model, whose ops are converted for the
    module's `spirv.target_env`: upstream's conversion patterns, and this project's
    for what they lack (GLSL exp2/log2, population counts, exact FMAs,
    buffers at device addresses, compare-and-swap loops, fragment
    variables). `gpu.subgroup_mma_*` ops become KHR cooperative-matrix
    instructions. A workgroup buffer with vector loads or stores becomes an
    array of vectors (logical addressing has no pointer casts), its scalar
    accesses components of them (WorkgroupVectors.cpp). It expects the
    kernel prepared by the passes before it (storage classes, emulations,
    legalization); a value of a type SPIR-V cannot hold is an error.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def RetypeBFloat16Matrices
    : Pass<"triton-spirv-retype-bfloat16-matrices", "ModuleOp"> {
  let summary = "Give the cooperative matrices of bf16 bits bf16 types";
  let description = [{
    After --triton-spirv-convert-to-spirv. bf16 matmul operands travel as
    f16-typed bits (--triton-spirv-bfloat16-cooperative-operands); the
    cooperative-matrix loads of the marked multiply-adds, and the marked
    conversions of accumulators to bf16 bits, get bf16 matrix types here,
    and the marks go. Such a matrix with another use is an error.
  }];
}

def OrderAtomics : Pass<"triton-spirv-order-atomics", "ModuleOp"> {
  let summary = "Give ordered atomics the memory semantics the target needs";
  let description = [{
    Upstream's ordered atomics name no storage class, so they order no
    memory: here they order storage-buffer memory (UniformMemory), as
    Triton's `sem` asks, and the storage buffers of a kernel with ordered
    atomics are Coherent. On targets that take relaxed atomics only
    (lavapipe, whose LLVM 15 drops the effects of ordered atomics in loops
    of varying trip count) every atomic is made relaxed instead.
  }];
}

def ForbidContraction : Pass<"triton-spirv-forbid-contraction", "ModuleOp"> {
  let summary = "Decorate float adds, subtracts and multiplies "
                "NoContraction";
  let description = [{
    Every float add, subtract and multiply rounds on its own: drivers may
    neither fuse them into FMAs (--triton-spirv-fuse-multiply-adds does what
    Triton's enable_fp_fusion allows) nor reassociate them.
  }];
}

def SetTargetVersion : Pass<"triton-spirv-set-target-version",
                             "::mlir::spirv::ModuleOp"> {
  let summary = "Declare the target's SPIR-V version on the module";
  let description = [{
    spirv-update-vce declares the lowest SPIR-V version the module's ops need,
    but the entry point's interface list was built for the target's version
    (since SPIR-V 1.4 it names every global variable, not only inputs and
    outputs), so the module must declare that version. Physical storage
    buffers are declared through SPV_KHR_physical_storage_buffer, the
    extension Vulkan 1.2's core buffer device addresses satisfy (upstream
    names the EXT one, which needs VK_EXT_buffer_device_address).
  }];
}

def PreserveDenormals : Pass<"triton-spirv-preserve-denormals",
                              "::mlir::spirv::ModuleOp"> {
  let summary = "Keep f32 denormals where the target can, as CUDA does";
  let description = [{
    After spirv-lower-abi-attrs, where the target has
    `denorm-preserve-float32`: each entry point gets the DenormPreserve
    execution mode for 32-bit floats. Without it drivers may flush f32
    denormal operands and results to zero (NVIDIA's does), where Triton's
    CUDA backend keeps them.
  }];
}

def ComputeElementAddresses
    : Pass<"triton-spirv-compute-element-addresses", "::mlir::spirv::ModuleOp"> {
  let summary = "Compute the addresses of elements reached through device "
                "addresses in 64-bit integer arithmetic";
  let description = [{
    An access chain through a PhysicalStorageBuffer pointer (a tensor taken
    by device address, a pointer loaded from memory) becomes the pointer's
    address plus the byte offset of the element, in 64-bit integers, made a
    pointer again. NVIDIA's driver computes access chains' offsets in 32
    bits, even with 64-bit indices: elements 4 GiB or more past the pointer
    wrapped around to its start. Struct members and array elements are
    folded in; vector components stay an access chain of the result.
  }];
}

def DeclareReadOnlyBuffers
    : Pass<"triton-spirv-declare-read-only-buffers", "::mlir::spirv::ModuleOp"> {
  let summary = "Decorate the storage buffers the shader never writes "
                "NonWritable";
  let description = [{
    A storage buffer variable whose every use (through access chains) is a
    load, and no other variable of whose binding is written (a buffer and
    its vector view share one), gets the NonWritable decoration: drivers
    may then read it through their read-only data paths.
  }];
}

def DeclareImpliedCapabilities
    : Pass<"triton-spirv-declare-implied-capabilities",
           "::mlir::spirv::ModuleOp"> {
  let summary = "Declare the capabilities spirv-update-vce does not derive";
  let description = [{
    spirv-update-vce derives capabilities from the ops' declared requirements,
    which do not say that an atomic on a 64-bit integer needs Int64Atomics,
    nor that a cooperative matrix of bf16 components needs
    BFloat16CooperativeMatrixKHR. Without them the module is invalid for
    Vulkan (NVIDIA's driver ran a 64-bit compare-and-swap without effect).
    Adds each to the module's VCE triple where an op needs it.
  }];
}

def WriteBinary : Pass<"triton-spirv-write-binary", "ModuleOp"> {
  let summary = "Serialize the spirv.module and write the kernel metadata";
  let description = [{
    Writes the single `spirv.module` as a SPIR-V binary to `output` and its
    kernel metadata (entry point, workgroup size, bindings, push-constant
    layout, workgroup memory) as JSON to `output` with `.json` appended.
    A module whose loops and ifs nest deeper than SPIR-V's limit (1023) is
    rejected with an error at the deepest one. The IR is left unchanged.
  }];
  let options = [
    Option<"output", "output", "std::string", "\"\"",
           "Path of the .spv file to write">,
  ];
}

#endif // TRITON_SPIRV_CONVERSION_LINALGTOSPIRV_PASSES_TD
