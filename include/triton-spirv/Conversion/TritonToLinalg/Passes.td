//===- Passes.td - TTIR to linalg/tensor/memref passes -----*- tablegen -*-===//

#ifndef TRITON_SPIRV_CONVERSION_TRITONTOLINALG_PASSES_TD
#define TRITON_SPIRV_CONVERSION_TRITONTOLINALG_PASSES_TD

include "mlir/Pass/PassBase.td"

def TritonFuncToKernelABI : Pass<"triton-func-to-kernel-abi", "ModuleOp"> {
  let summary = "Give tt.func kernels the buffer/offset kernel ABI";
  let description = [{
    Rewrites each public `tt.func` into a `func.func` whose signature follows
    the kernel ABI: every `!tt.ptr<T>` argument becomes a `memref<?xT>` (the
    whole buffer) followed by an `index` element offset into it (and, where a
    `triton_spirv.pointer_in_bounds` checks accesses through it, two `index`
    byte bounds of its tensor's storage in the buffer); scalars stay;
    three `i32` program ids and three `i32` grid sizes are appended. Inside the
    body, each pointer argument is rebuilt as
    `unrealized_conversion_cast (buffer, offset) -> !tt.ptr<T>`, the root from
    which --triton-pointers-to-memref derives every address.
    `tt.get_program_id` and `tt.get_num_programs` become those arguments.
    Argument roles are recorded in `triton_spirv.abi` argument attributes.

    A `tt.int_to_ptr` of an address read from a pointer argument (a table
    of addresses) is a root of its own: it becomes the cast of
    (`triton_spirv.address_buffer`, 0), and the kernel lists the table in
    `triton_spirv.address_tables` for the launcher, which binds a copy
    holding device addresses. Such tables may only be read, for addresses.

    `address-arguments` lists pointer arguments (by position) that the
    launcher passes by device address, for tensors larger than one binding
    spans: such an argument becomes an `i64` address (role `address`) in
    place of its buffers, and inside the body each buffer is a
    `triton_spirv.address_buffer` of it; the offset and bounds stay.
  }];
  let options = [
    ListOption<"addressArguments", "address-arguments", "unsigned",
               "Pointer arguments passed as buffer device addresses">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::triton_spirv::TritonSPIRVDialect"];
}

def TritonInsertBoundsChecks
    : Pass<"triton-insert-bounds-checks", "ModuleOp"> {
  let summary = "Assert that every load, store and atomic stays in its "
                "tensor's storage (debug=True)";
  let description = [{
    Before each `tt.load`, `tt.store`, `tt.atomic_rmw` and `tt.atomic_cas`
    through a pointer or a block of pointers, a
    `triton_spirv.pointer_in_bounds` of its pointer and a `tt.assert` that
    it holds wherever the access's mask is set, with a message naming the
    access and the kernel argument (`out-of-bounds load through 'x_ptr'`) at
    the access's location. The assertion reaches the launcher like any
    `tl.device_assert`. Accesses through block pointers or tensor
    descriptors are not checked (a remark says so): their boundary checks
    are the user's. Runs on tt ops, after --triton-split-pointer-selects (so
    that one argument is behind each access) and before
    --triton-func-to-kernel-abi, which gives each checked argument its
    storage bounds.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::triton_spirv::TritonSPIRVDialect"];
}

def TritonVersionSingleIterationLoops
    : Pass<"triton-version-single-iteration-loops", "ModuleOp"> {
  let summary = "A kernel whose loops over a row run once: a version "
                "without the loops";
  let description = [{
    Row kernels walk a row in blocks several times (`for start in range(0,
    N, BLOCK)` for the mean, the variance, the output); users pick
    `BLOCK >= N` when a row fits, and then each loop runs once and re-reads
    the row. Where two top-level `scf.for` loops of a kernel share their
    iteration space (constant start and step, one upper bound known before
    them) and load through the same kernel argument, the kernel from the
    first of them on becomes `scf.if (lower < upper <= lower + step)`: the
    then-branch has those loops' bodies run once as straight-line code (for
    --triton-reuse-loads), the else-branch the original loops. Kernels with
    several blocks (early returns) or results are left alone. Runs on tt
    ops.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TritonReuseLoads : Pass<"triton-reuse-loads", "ModuleOp"> {
  let summary = "A tt.load repeated in one block reads once";
  let description = [{
    A `tt.load` with the same pointers, mask, `other` and attributes as an
    earlier one of the same block takes its result, unless an op between
    them may write the argument it reads: a store or atomic through that
    argument (or through a pointer of unknown origin), or an op with
    unknown writes. Stores through other kernel arguments do not count:
    each argument is its own storage buffer binding, which Vulkan lets
    drivers assume do not alias. Volatile loads stay. Runs on tt ops.
  }];
}

def TritonDecomposeDotScaled : Pass<"triton-decompose-dot-scaled", "ModuleOp"> {
  let summary = "Rewrite tt.dot_scaled as upcast, scaled operands and a tt.dot";
  let description = [{
    A microscaled product `dot_scaled(a, a_scale, b, b_scale, c)` becomes an
    ieee `tt.dot` of f32 operands: bf16/fp16 are extended, e4m3/e5m2 widened
    with `tt.fp_to_fp`, e2m1 pairs unpacked (low nibble first, along K or,
    with `k_pack = false`, along M/N) by integer arithmetic. Each element is
    multiplied by its group's scale: an e8m0 byte (2^(s-127); 0xFF is NaN)
    per 32 elements of K, or an e4m3 value per 16, broadcast along K with
    expand_dims/broadcast/reshape. Other operand or scale formats are
    rejected with a diagnostic. Runs on tt ops, before any lowering.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TritonFoldPointerRoundTrips
    : Pass<"triton-fold-pointer-round-trips", "ModuleOp"> {
  let summary = "Keep integers that are cast to pointers and back integers";
  let description = [{
    `tt.ptr_to_int(tt.int_to_ptr(x))` is `x`, also through `arith.select`s
    of such pointers (`tl.where` on pointers made from integers, stored back
    as integers). A pointer here is a buffer and an element offset, so the
    round trip through one would lose the integer's high bits and its byte
    remainder; folded, no pointer is made. Runs first, before the kernel
    ABI looks for the buffers behind pointers.
  }];
}

def TritonFoldNullPointerCompares
    : Pass<"triton-fold-null-pointer-compares", "ModuleOp"> {
  let summary = "Answer `ptr != 0` for pointers made from kernel arguments";
  let description = [{
    A pointer argument is never null (Triton makes a `None` argument a
    constexpr), so `arith.cmpi eq/ne` of `tt.ptr_to_int` of a pointer made
    from one (through addptr, splat, broadcast, expand_dims, reshape and
    selects of such pointers) with zero folds to false/true, as `if ptr:`
    means. Lowered, the address is the pointer's byte offset in its binding,
    which is zero for a tensor at the binding's start. Runs before the
    kernel ABI lowers pointers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TritonSplitPointerSelects
    : Pass<"triton-split-pointer-selects", "ModuleOp"> {
  let summary = "Accesses through a pointer selected between kernel "
                "arguments as one masked access of each";
  let description = [{
    A kernel argument is a buffer binding, so `tl.where(c, a_ptr, b_ptr)`
    has no single buffer. Address arithmetic and shape ops applied to the
    selected pointer (`tt.addptr`, `tt.splat`, and by a scalar condition
    `tt.broadcast`, `tt.expand_dims`) move into both sides of the select;
    a `tt.load`, `tt.store` or `tt.atomic_rmw` through a select of pointers
    of two different arguments becomes one access of each side, masked by
    the condition and its negation (and the access's mask), and loads and
    atomics select their results by the condition. Runs after
    `--triton-fold-pointer-round-trips` (selects of integers cast to
    pointers) and before the kernel ABI looks for the buffers behind
    pointers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TritonLowerTTGBarriers : Pass<"triton-lower-ttg-barriers", "ModuleOp"> {
  let summary = "ttg.barrier (Triton 3.8 and later) as gpu.barrier";
  let description = [{
    From Triton 3.8 on, `tl.debug_barrier()` emits `ttg.barrier` with the
    address spaces it orders; 3.6 emitted `gpu.barrier`, which the rest of
    the pipeline takes. Each `ttg.barrier` becomes a `gpu.barrier`: every
    invocation of the workgroup meets there and every memory access before
    it is seen after it, which orders at least the named spaces.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def TritonAccumulateBFloat16
    : Pass<"triton-accumulate-bf16-in-f32", "ModuleOp"> {
  let summary = "Scans and reductions that add or multiply bf16 compute in f32";
  let description = [{
    A `tt.scan` or `tt.reduce` of one bf16 tensor whose combiner is one
    `arith.addf` or `arith.mulf` (tl.cumsum, tl.sum and tl.cumprod of bf16,
    which Triton 3.8 and later compute in bf16) computes in f32 instead,
    and its results are rounded to bf16 once. This backend combines a row's
    elements one after another, where CUDA's combine in a tree: bf16
    rounding at every step lost more than Triton's tests allow. Other
    combiners and types are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TritonIndexSwitchToIf : Pass<"triton-index-switch-to-if", "ModuleOp"> {
  let summary = "scf.index_switch as a chain of scf.if";
  let description = [{
    Lifting early returns to structured control flow
    (`lift-cf-to-scf`) writes a region with several exits as an
    `scf.index_switch` on which exit was taken; the SPIR-V conversion has
    no pattern for it. Each case becomes an `scf.if` on `arg == case`, the
    default the innermost else.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TritonRecognizePairSwaps : Pass<"triton-recognize-pair-swaps", "ModuleOp"> {
  let summary = "x ^ xor_sum(x, axis, keep_dims) over a size-2 axis as a swap";
  let description = [{
    Triton's `tl.sort`, `tl.topk` and `tl.flip` reach each element's partner
    along a size-2 axis of a reshaped block by `x ^ xor_sum(x, axis,
    keep_dims=True)`: the xor of both elements, xored with one of them,
    leaves the other. Here that becomes what it computes, a `linalg.generic`
    reading `x` with the axis index mirrored (`1 - d`), so no reduction
    result is materialized and element-wise fusion composes successive
    swaps into one read (a whole `tl.flip` reads its input once, at the
    mirrored position). Runs on tt ops, before --triton-tensors-to-linalg.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TritonReshapePointersBeforeLoads
    : Pass<"triton-reshape-pointers-before-loads", "ModuleOp"> {
  let summary = "A reshape of a loaded block as a load through reshaped "
                "pointers";
  let description = [{
    `tt.reshape(tt.load(ptrs, mask, other))`, where the reshape is the
    load's only use, becomes a load through `tt.reshape(ptrs)`, with the
    mask and `other` reshaped alike. A load is element-wise and a reshape
    keeps linear positions, so it reads the same values, as contiguously.
    A mask or `other` computed from more than indices and uniform values
    would be a reshape of a computed block, which needs workgroup memory:
    such loads stay (the others' reshaped masks are computed in the new
    shape by --triton-reshape-index-computations).
    The pointers then describe the block in the shape it is used in:
    --triton-structured-memory sees a strided view, and the layouts keep
    it in registers where a reshape of a computed block reduced along an
    inner dimension (`tl.sum(tl.load(p + offs).reshape(M, N), 1)`) would
    need workgroup memory. Runs on tt ops, before
    --triton-structured-memory.
  }];
}

def TritonReshapeIndexComputations
    : Pass<"triton-reshape-index-computations", "ModuleOp"> {
  let summary = "Reshapes of blocks computed from indices alone, computed in "
                "the reshaped shape";
  let description = [{
    A reshape of a computed block keeps no layout, so a block reshaped and
    reduced along an inner dimension needs workgroup memory. Blocks
    computed from indices and uniform values alone (make_range, splats,
    splat constants, element-wise arith ops and addptr of those: offsets,
    masks, pointers) are computed in the reshaped shape instead: a reshape
    of an element-wise op or addptr reshapes its operands, of a splat or splat constant takes the new
    shape, and of `make_range(start, end)` becomes `start` plus one
    make_range per dimension (expanded and broadcast), each times the
    extent after it. Runs on tt ops, after
    --triton-reshape-pointers-before-loads.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TritonStructuredMemory : Pass<"triton-structured-memory", "ModuleOp"> {
  let summary = "Loads and stores through structured pointers as strided views";
  let description = [{
    Pointer analysis: a block of pointers that is an affine function of the
    element indices (splat, make_range, expand_dims, broadcast, trans,
    reshapes that split or merge dimensions whose strides nest, addptr,
    addi/subi, muli by a uniform value) addresses a strided box of its
    buffer. A tt.load or tt.store through it becomes a
    `memref.reinterpret_cast` view and a whole-block `memref.copy` into a
    fresh buffer (read as a tensor with `bufferization.to_tensor`), or a
    `bufferization.materialize_in_destination` of the stored tensor. A mask
    that is a conjunction of `index < bound` comparisons limits both to a
    rectangular `memref.subview`; `other` fills the rest of a loaded block.
    A block carried by an `scf.for` and advanced by the same uniform steps
    in every iteration is its entry block moved by (iterations so far) *
    step.
    A load whose block wraps around along one dimension (`(start + arange)
    % M`) is two copies split at the wrap, under a run-time check that it
    wraps at most once. Other accesses are left to
    --triton-pointers-to-memref. Runs after
    --triton-func-to-kernel-abi, on tt ops.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TritonPointersToMemRef : Pass<"triton-pointers-to-memref", "ModuleOp"> {
  let summary = "Lower pointers, loads, stores and atomics to memref accesses";
  let description = [{
    A pointer is represented by its element offset (`index`, or a tensor of
    `index` for a block of pointers) into the buffer it was derived from; the
    buffer is found by following the pointer's definition back to its root.
    Loads become gathers (`linalg.generic` reading `memref.load` under the
    mask, `other` elsewhere), stores become masked scatters. This path accepts
    any pointer arithmetic.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TritonTensorsToLinalg : Pass<"triton-tensors-to-linalg", "ModuleOp"> {
  let summary = "Lower tt block computations to linalg and tensor ops";
  let description = [{
    make_range, splat, broadcast, expand_dims, reshape, trans, reduce, dot and
    the remaining elementwise tt ops become linalg/tensor/arith/math ops.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // TRITON_SPIRV_CONVERSION_TRITONTOLINALG_PASSES_TD
