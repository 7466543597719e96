"""How many workgroups a multiprocessor holds at once for the workgroup memory
each one declares, on this Vulkan device, measured without this compiler:
a hand-written SPIR-V shader (generated here as MLIR, serialized by
`triton-spirv-opt`, launched through the runtime) declares W bytes of
workgroup memory and has each of its 128 invocations chase indices through
it (each load's address is the previous load's value), a loop bound by the
loads' latency, so that the launch's rate grows with the workgroups that
run at once. Swept over W, the rate falls in steps where one workgroup
fewer fits a multiprocessor: with C bytes per multiprocessor, W = C / k
is where k workgroups stop fitting (less what the driver keeps per
workgroup).

    bash scripts/gpu_machine.sh python3 utils/workgroup_memory_probe.py OUT.json
    python3 utils/workgroup_memory_probe.py OUT.json --small   # lavapipe: a few sizes

Prints, per size, the chase steps per nanosecond and that rate relative to
the smallest size's; writes them to OUT.json.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import raw_shader  # noqa: E402

INVOCATIONS = 128
# The chase runs through the first INVOCATIONS words; the rest of the
# declared memory is reserved only (one word of it is written, at an index
# the driver cannot see, so that it cannot shrink the variable).
CHASE_WORDS = INVOCATIONS


def shader(words: int) -> str:
    """The probe for a workgroup variable of `words` 32-bit words."""
    wg = f"!spirv.ptr<!spirv.struct<(!spirv.array<{words} x i32>)>, Workgroup>"
    out = "!spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>"
    pc = "!spirv.ptr<!spirv.struct<(i32 [0], i32 [4], i32 [8], i32 [12], i32 [16])>, PushConstant>"
    # SPIR-V 1.5: what Vulkan 1.2 devices (lavapipe) take; from 1.4 on an
    # entry point lists every global it uses.
    vce = "#spirv.vce<v1.5, [Shader], [SPV_KHR_storage_buffer_storage_class]>"
    return f"""module {{
  spirv.module Logical GLSL450 requires {vce} attributes {{triton_spirv.abi = {{entry_point = "probe"}}}} {{
    spirv.GlobalVariable @memory : {wg}
    spirv.GlobalVariable @out bind(0, 0) : {out}
    // The chase's length, the last word's index, then the runtime's first
    // workgroup id.
    spirv.GlobalVariable @constants : {pc}
    spirv.GlobalVariable @local_id built_in("LocalInvocationIndex") : !spirv.ptr<i32, Input>
    spirv.GlobalVariable @workgroup_id built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.func @probe() "None" {{
      %c0 = spirv.Constant 0 : i32
      %c1 = spirv.Constant 1 : i32
      %mask = spirv.Constant {CHASE_WORDS - 1} : i32
      %invocations = spirv.Constant {INVOCATIONS} : i32
      %memory = spirv.mlir.addressof @memory : {wg}
      %constants = spirv.mlir.addressof @constants : {pc}
      %steps_ptr = spirv.AccessChain %constants[%c0] : {pc}, i32 -> !spirv.ptr<i32, PushConstant>
      %steps = spirv.Load "PushConstant" %steps_ptr : i32
      %last_ptr = spirv.AccessChain %constants[%c1] : {pc}, i32 -> !spirv.ptr<i32, PushConstant>
      %last = spirv.Load "PushConstant" %last_ptr : i32
      %local_ptr = spirv.mlir.addressof @local_id : !spirv.ptr<i32, Input>
      %local = spirv.Load "Input" %local_ptr : i32
      %next = spirv.IAdd %local, %c1 : i32
      %wrapped = spirv.BitwiseAnd %next, %mask : i32
      %own = spirv.AccessChain %memory[%c0, %local] : {wg}, i32, i32 -> !spirv.ptr<i32, Workgroup>
      spirv.Store "Workgroup" %own, %wrapped : i32
      %far = spirv.AccessChain %memory[%c0, %last] : {wg}, i32, i32 -> !spirv.ptr<i32, Workgroup>
      spirv.Store "Workgroup" %far, %c0 : i32
      spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
      %at = spirv.Variable : !spirv.ptr<i32, Function>
      spirv.mlir.loop {{
        spirv.Branch ^header(%c0, %local : i32, i32)
      ^header(%i: i32, %index: i32):
        %more = spirv.SLessThan %i, %steps : i32
        spirv.BranchConditional %more, ^body, ^merge
      ^body:
        %ptr = spirv.AccessChain %memory[%c0, %index] : {wg}, i32, i32 -> !spirv.ptr<i32, Workgroup>
        %value = spirv.Load "Workgroup" %ptr : i32
        spirv.Store "Function" %at, %value : i32
        %i_next = spirv.IAdd %i, %c1 : i32
        spirv.Branch ^header(%i_next, %value : i32, i32)
      ^merge:
        spirv.mlir.merge
      }}
      %result = spirv.Load "Function" %at : i32
      %workgroup_ptr = spirv.mlir.addressof @workgroup_id : !spirv.ptr<vector<3xi32>, Input>
      %workgroups = spirv.Load "Input" %workgroup_ptr : vector<3xi32>
      %workgroup = spirv.CompositeExtract %workgroups[0 : i32] : vector<3xi32>
      %base = spirv.IMul %workgroup, %invocations : i32
      %slot = spirv.IAdd %base, %local : i32
      %out = spirv.mlir.addressof @out : {out}
      %out_ptr = spirv.AccessChain %out[%c0, %slot] : {out}, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
      spirv.Store "StorageBuffer" %out_ptr, %result : i32
      spirv.Return
    }}
    spirv.EntryPoint "GLCompute" @probe, @memory, @out, @constants, @local_id, @workgroup_id
    spirv.ExecutionMode @probe "LocalSize", {INVOCATIONS}, 1, 1
  }}
}}
"""


def measure(sizes: list[int], steps: int, waves: int) -> list[dict[str, float | bool]]:
    """Chase steps per ns for each size in `sizes` (bytes, each holding the
    chase's CHASE_WORDS words at least)."""
    from triton_spirv import vulkan

    if min(sizes) < 4 * CHASE_WORDS:
        raise ValueError(f"sizes below {4 * CHASE_WORDS} bytes cannot hold the chase")

    device = vulkan.device()
    # (CPU devices report no compute units.)
    workgroups = (device.properties.compute_units or os.cpu_count() or 1) * waves
    ends = raw_shader.Buffer(device, workgroups * INVOCATIONS * 4)
    results = []
    try:
        for nbytes in sizes:
            words = nbytes // 4
            kernel = vulkan.Kernel(device, raw_shader.serialize(shader(words)), "probe", num_bindings=1,
                                   push_constant_bytes=20)
            # The chase's length, the last word's index, room for the first
            # workgroup's id.
            constants = steps.to_bytes(4, "little") + (words - 1).to_bytes(4, "little") + bytes(12)
            ms = statistics.median(raw_shader.steady_launch_times(kernel, (workgroups, 1, 1), [ends], constants, 8,
                                                                  launches=10))
            # Every invocation ends where its chase does: (start + steps) mod 128.
            values = (ctypes.c_int32 * (workgroups * INVOCATIONS)).from_buffer_copy(
                ends.read(workgroups * INVOCATIONS * 4))
            correct = all(values[t] == (t % INVOCATIONS + steps) % CHASE_WORDS
                          for t in range(0, workgroups * INVOCATIONS, 997))
            rate = workgroups * INVOCATIONS * steps / (ms * 1e6)
            results.append({"bytes": nbytes, "steps_per_ns": rate, "correct": correct})
            relative = rate / results[0]["steps_per_ns"]
            print(f"{nbytes:6d} bytes  {rate:9.2f} steps/ns  {relative:5.2f}"
                  f"{'' if correct else '  WRONG RESULT'}", flush=True)
            del kernel
    finally:
        ends.free()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", type=Path)
    parser.add_argument("--small", action="store_true", help="a few sizes and short chases, for a CPU device")
    args = parser.parse_args()
    from triton_spirv.run import activate
    activate()
    from triton_spirv import vulkan
    device = vulkan.device()
    if args.small:
        sizes, steps, waves = [1024, 4096], 64, 1
    else:
        # Every 512 bytes up to the device's limit.
        sizes = list(range(512, device.properties.max_shared_memory + 1, 512))
        steps, waves = 2048, 32
    results = measure(sizes, steps, waves)
    args.output.write_text(json.dumps({"device": device.properties.name, "invocations": INVOCATIONS,
                                       "steps": steps, "results": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
