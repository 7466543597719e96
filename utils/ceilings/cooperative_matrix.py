"""The cooperative-matrix ceiling shaders, as MLIR's spirv dialect (for
`raw_shader.serialize`): the tensor cores' multiply-add rate through
Vulkan's KHR cooperative matrices, without this compiler's code generation.

Each subgroup (4 per workgroup of 128 invocations) loads two A and four B
fragments from binding 0 (six row-major tiles, A's first: A is M x K, B is
K x N), then runs `iterations` (push constant 0) steps, each multiplying
every A with every B into eight accumulators (independent, so that their
multiply-adds overlap; accumulator 4 i + j takes A_i B_j), and stores them
to binding 1 (M x N tiles; subgroup s of workgroup g writes tiles
8 (4 g + s) .. 8 (4 g + s) + 7). With `feed` "registers" the fragments stay
loaded; with "workgroup" each subgroup stores its six to workgroup memory
once and loads them again before every step's multiply-adds, as a matmul
loads its operands.

    python3 utils/ceilings/cooperative_matrix.py KIND FEED   # prints the MLIR
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

SUBGROUPS = 4
TILES_OUT = 8  # per subgroup: the products of its 2 A and 4 B tiles
FEEDS = ("registers", "workgroup")


@dataclass(frozen=True)
class Kind:
    """Element types and fragment shape of one kind of multiply-add."""

    name: str
    storage: str  # the storage buffer's element type for the operands
    operand: str  # the fragments' element type
    accumulator: str
    m: int
    n: int
    k: int
    capabilities: tuple[str, ...]
    extensions: tuple[str, ...]
    operands: str = ""  # the multiply-add's operands attribute

    @property
    def storage_bytes(self) -> int:
        return 1 if self.storage == "i8" else 2

    def tile_elements(self, role: str) -> int:
        return {"a": self.m * self.k, "b": self.k * self.n, "c": self.m * self.n}[role]


KINDS = {
    "f16": Kind("f16", "f16", "f16", "f32", 16, 16, 16,
                ("Float16", "StorageBuffer16BitAccess"), ("SPV_KHR_16bit_storage",)),
    # bf16 fragments load their bits from 16-bit words, as this compiler's do.
    "bf16": Kind("bf16", "f16", "bf16", "f32", 16, 16, 16,
                 ("Float16", "StorageBuffer16BitAccess", "BFloat16TypeKHR", "BFloat16CooperativeMatrixKHR"),
                 ("SPV_KHR_16bit_storage", "SPV_KHR_bfloat16")),
    "i8": Kind("i8", "i8", "i8", "i32", 16, 16, 32,
               ("Int8", "StorageBuffer8BitAccess"), ("SPV_KHR_8bit_storage",),
               ", <ASigned|BSigned|CSigned|ResultSigned>"),
}


def shader(kind: Kind, feed: str) -> str:
    """The MLIR of the `kind` shader fed from `feed` (one of FEEDS); its
    entry point is named by `entry_point(kind, feed)`."""
    if feed not in FEEDS:
        raise ValueError(f"feed {feed!r}: expected one of {', '.join(FEEDS)}")
    name = entry_point(kind, feed)
    s, o = kind.storage, kind.operand
    ma = f"!spirv.coopmatrix<{kind.m}x{kind.k}x{o}, Subgroup, MatrixA>"
    mb = f"!spirv.coopmatrix<{kind.k}x{kind.n}x{o}, Subgroup, MatrixB>"
    acc = f"!spirv.coopmatrix<{kind.m}x{kind.n}x{kind.accumulator}, Subgroup, MatrixAcc>"
    tiles = f"!spirv.ptr<!spirv.struct<(!spirv.rtarray<{s}, stride={kind.storage_bytes}> [0])>, StorageBuffer>"
    sums = (f"!spirv.ptr<!spirv.struct<(!spirv.rtarray<{kind.accumulator}, stride=4> [0])>, "
            "StorageBuffer>")
    pc = "!spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8], i32 [12])>, PushConstant>"
    a_elems, b_elems, c_elems = (kind.tile_elements(r) for r in "abc")
    own_elems = 2 * a_elems + 4 * b_elems
    staged = f"!spirv.ptr<!spirv.struct<(!spirv.array<{SUBGROUPS * own_elems} x {s}>)>, Workgroup>"
    capabilities = ", ".join(("Shader", "CooperativeMatrixKHR", "GroupNonUniform") + kind.capabilities)
    extensions = ", ".join(("SPV_KHR_storage_buffer_storage_class", "SPV_KHR_cooperative_matrix")
                           + kind.extensions)
    zero = "0.0 : f32" if kind.accumulator == "f32" else "0 : i32"
    # (tile, fragment type, offset in elements, row stride) of the six inputs.
    inputs = ([(f"a{i}", ma, i * a_elems, kind.k) for i in range(2)]
              + [(f"b{j}", mb, 2 * a_elems + j * b_elems, kind.n) for j in range(4)])
    lines = [
        "module {",
        f"  spirv.module Logical GLSL450 requires #spirv.vce<v1.6, [{capabilities}], [{extensions}]> "
        f'attributes {{triton_spirv.abi = {{entry_point = "{name}"}}}} {{',
        f"    spirv.GlobalVariable @tiles bind(0, 0) : {tiles}",
        f"    spirv.GlobalVariable @sums bind(0, 1) : {sums}",
        "    // The iterations, then the first workgroup's id, which the runtime writes.",
        f"    spirv.GlobalVariable @constants : {pc}",
        '    spirv.GlobalVariable @workgroup_id built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>',
        '    spirv.GlobalVariable @subgroup_id built_in("SubgroupId") : !spirv.ptr<i32, Input>',
    ]
    interface = ["@tiles", "@sums", "@constants", "@workgroup_id", "@subgroup_id"]
    if feed == "workgroup":
        lines.append(f"    spirv.GlobalVariable @staged : {staged}")
        interface.append("@staged")
    lines += [
        f'    spirv.func @{name}() "None" {{',
        "      // The accumulators: Function variables, which the driver keeps in registers.",
    ]
    lines += [f"      %acc{k} = spirv.Variable : !spirv.ptr<{acc}, Function>" for k in range(TILES_OUT)]
    lines += [
        "      %c0 = spirv.Constant 0 : i32",
        "      %c1 = spirv.Constant 1 : i32",
        f"      %zero = spirv.Constant {zero}",
        f"      %tiles = spirv.mlir.addressof @tiles : {tiles}",
        f"      %sums = spirv.mlir.addressof @sums : {sums}",
        f"      %constants = spirv.mlir.addressof @constants : {pc}",
        f"      %iterations_ptr = spirv.AccessChain %constants[%c0] : {pc}, i32 -> !spirv.ptr<i32, PushConstant>",
        '      %iterations = spirv.Load "PushConstant" %iterations_ptr : i32',
        "      %subgroup_id_ptr = spirv.mlir.addressof @subgroup_id : !spirv.ptr<i32, Input>",
        '      %subgroup = spirv.Load "Input" %subgroup_id_ptr : i32',
    ]
    for tile, fragment, offset, stride in inputs:
        lines += [
            f"      %stride_{tile} = spirv.Constant {stride} : i32",
            f"      %offset_{tile} = spirv.Constant {offset} : i32",
            f"      %ptr_{tile} = spirv.AccessChain %tiles[%c0, %offset_{tile}] : {tiles}, i32, i32 -> "
            f"!spirv.ptr<{s}, StorageBuffer>",
            f"      %{tile} = spirv.KHR.CooperativeMatrixLoad %ptr_{tile}, %stride_{tile}, <RowMajor> : "
            f"!spirv.ptr<{s}, StorageBuffer>, i32 -> {fragment}",
        ]
    if feed == "workgroup":
        lines += [
            f"      %staged = spirv.mlir.addressof @staged : {staged}",
            f"      %own_elements = spirv.Constant {own_elems} : i32",
            "      %own = spirv.IMul %subgroup, %own_elements : i32",
        ]
        for tile, fragment, offset, stride in inputs:
            lines += [
                f"      %staged_at_{tile} = spirv.IAdd %own, %offset_{tile} : i32",
                f"      %staged_ptr_{tile} = spirv.AccessChain %staged[%c0, %staged_at_{tile}] : {staged}, i32, i32 "
                f"-> !spirv.ptr<{s}, Workgroup>",
                f"      spirv.KHR.CooperativeMatrixStore %staged_ptr_{tile}, %{tile}, %stride_{tile}, <RowMajor> : "
                f"!spirv.ptr<{s}, Workgroup>, {fragment}, i32",
            ]
        lines.append("      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>")
    lines.append(f"      %init = spirv.CompositeConstruct %zero : ({kind.accumulator}) -> {acc}")
    lines += [f'      spirv.Store "Function" %acc{k}, %init : {acc}' for k in range(TILES_OUT)]
    lines += [
        "      spirv.mlir.loop {",
        "        spirv.Branch ^header(%c0 : i32)",
        "      ^header(%i: i32):",
        "        %more = spirv.SLessThan %i, %iterations : i32",
        "        spirv.BranchConditional %more, ^body, ^merge",
        "      ^body:",
    ]
    step = {tile: f"%{tile}" for tile, *_ in inputs}
    if feed == "workgroup":
        for tile, fragment, offset, stride in inputs:
            lines.append(f"        %{tile}_step = spirv.KHR.CooperativeMatrixLoad %staged_ptr_{tile}, %stride_{tile}, "
                         f"<RowMajor> : !spirv.ptr<{s}, Workgroup>, i32 -> {fragment}")
            step[tile] = f"%{tile}_step"
    for i in range(2):
        for j in range(4):
            k = 4 * i + j
            lines += [
                f'        %acc{k}_in = spirv.Load "Function" %acc{k} : {acc}',
                f"        %acc{k}_out = spirv.KHR.CooperativeMatrixMulAdd {step[f'a{i}']}, {step[f'b{j}']}, "
                f"%acc{k}_in{kind.operands} : {ma}, {mb} -> {acc}",
                f'        spirv.Store "Function" %acc{k}, %acc{k}_out : {acc}',
            ]
    lines += [
        "        %next = spirv.IAdd %i, %c1 : i32",
        "        spirv.Branch ^header(%next : i32)",
        "      ^merge:",
        "        spirv.mlir.merge",
        "      }",
        "      %workgroup_id_ptr = spirv.mlir.addressof @workgroup_id : !spirv.ptr<vector<3xi32>, Input>",
        '      %workgroup_ids = spirv.Load "Input" %workgroup_id_ptr : vector<3xi32>',
        "      %workgroup = spirv.CompositeExtract %workgroup_ids[0 : i32] : vector<3xi32>",
        f"      %subgroups = spirv.Constant {SUBGROUPS} : i32",
        f"      %sums_per_subgroup = spirv.Constant {TILES_OUT * c_elems} : i32",
        f"      %c_stride = spirv.Constant {kind.n} : i32",
        "      %scaled = spirv.IMul %workgroup, %subgroups : i32",
        "      %global_subgroup = spirv.IAdd %scaled, %subgroup : i32",
        "      %base = spirv.IMul %global_subgroup, %sums_per_subgroup : i32",
    ]
    for k in range(TILES_OUT):
        lines += [
            f"      %out_offset{k} = spirv.Constant {k * c_elems} : i32",
            f"      %out_at{k} = spirv.IAdd %base, %out_offset{k} : i32",
            f"      %out_ptr{k} = spirv.AccessChain %sums[%c0, %out_at{k}] : {sums}, i32, i32 -> "
            f"!spirv.ptr<{kind.accumulator}, StorageBuffer>",
            f'      %result{k} = spirv.Load "Function" %acc{k} : {acc}',
            f"      spirv.KHR.CooperativeMatrixStore %out_ptr{k}, %result{k}, %c_stride, <RowMajor> : "
            f"!spirv.ptr<{kind.accumulator}, StorageBuffer>, {acc}, i32",
        ]
    lines += [
        "      spirv.Return",
        "    }",
        f'    spirv.EntryPoint "GLCompute" @{name}, {", ".join(interface)}',
        f'    spirv.ExecutionMode @{name} "LocalSize", {32 * SUBGROUPS}, 1, 1',
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def entry_point(kind: Kind, feed: str) -> str:
    return f"cooperative_matrix_{kind.name}_{feed}"


def main() -> None:
    parser = argparse.ArgumentParser(description="Prints a cooperative-matrix ceiling shader's MLIR.")
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("feed", choices=FEEDS)
    args = parser.parse_args()
    print(shader(KINDS[args.kind], args.feed), end="")


if __name__ == "__main__":
    main()
