#!/usr/bin/env python3
"""A variant compiler for one experiment (#13), used as TRITON_SPIRV_OPT:
runs the real triton-spirv-opt (TSV_REAL_OPT); for the fp16 matmul of
128x128x32 blocks at 4 warps, with TSV_VARIANT set, it edits the IR printed
before triton-spirv-kernel-to-spirv and runs the pipeline's tail on it.
Variants ('+'-joined), all in the main K loop:
  noglobal     global loads replaced by constants (stores, barriers kept)
  nostaging    the staging ifs removed (fragments read stale workgroup memory)
  nobarrier    the loop's barriers removed
  nofragloads  the fragment loads hoisted before the loop
  direct       fragments loaded from global memory (rows of 4096 elements:
               the square 4096 benchmark only), stagings and barriers removed
Only `direct` computes the right result; the others measure time only.
Text edits on one kernel's IR as 17d1109 compiles it (scalar fp16 staging
loads; `direct` needs those): not a tool for other kernels or versions."""
import os, re, subprocess, sys
from pathlib import Path

REAL = os.environ["TSV_REAL_OPT"]
variant = os.environ.get("TSV_VARIANT", "")
args = sys.argv[1:]
pipeline = args[0]
out = re.search(r"output=(\S+)", pipeline).group(1)
warps = int(re.search(r"num-warps=(\d+)", pipeline).group(1))
if not variant:
    os.execv(REAL, [REAL] + args)
proc = subprocess.run([REAL] + args + ["--mlir-print-ir-before=triton-spirv-kernel-to-spirv"], capture_output=True, text=True)
if proc.returncode:
    sys.stderr.write(proc.stderr); sys.exit(proc.returncode)
text = proc.stderr.split("\n", 1)[1] if "IR Dump Before" in proc.stderr else None
if text is None or "memref<128x40xf16" not in text or "memref<32x136xf16" not in text or warps != 4:
    sys.exit(0)
lines = text.split("\n")

def block_end(i):
    ind = len(lines[i]) - len(lines[i].lstrip())
    j = i + 1
    while not (lines[j].startswith(" " * ind + "}") and len(lines[j]) - len(lines[j].lstrip()) == ind):
        j += 1
    # include "} else {" continuation
    if lines[j].strip() == "} else {":
        return block_end(j)
    return j

parts = set(variant.split("+"))
# the main K loop: the scf.for with iter_args of 16 accumulators, at 4 spaces
loop = next(i for i, l in enumerate(lines) if l.startswith("    %") and "scf.for" in l and "COp" in l)
loop_end = block_end(loop)
body = list(range(loop + 1, loop_end))
drop = set()
if "noglobal" in parts:
    for i in body:
        m = re.match(r"(\s*)(%\w+) = memref.load %arg\d+\[[^\]]*\] : memref<\?xf16>$", lines[i])
        if m:
            lines[i] = f"{m.group(1)}{m.group(2)} = arith.constant 1.0 : f16"
        m = re.match(r"(\s*)(%\w+) = memref.load %arg\d+\[[^\]]*\] : memref<\?xvector<4xi32>>$", lines[i])
        if m:
            lines[i] = f"{m.group(1)}{m.group(2)} = arith.constant dense<15360> : vector<4xi32>"
def drop_stagings(barriers_too):
    """Drops the loop body's top-level scf.ifs (the stagings), and its
    barriers with `barriers_too`."""
    i = loop + 1
    while i < loop_end:
        l = lines[i]
        if l.startswith("      scf.if") and l.rstrip().endswith("{"):
            e = block_end(i)
            drop.update(range(i, e + 1)); i = e + 1; continue
        if barriers_too and l.strip() == "gpu.barrier":
            drop.add(i)
        i += 1
if "nostaging" in parts:
    drop_stagings(barriers_too=False)
if "nobarrier" in parts:
    for i in body:
        if lines[i].strip() == "gpu.barrier":
            drop.add(i)
if "direct" in parts:
    # Fragments straight from global memory (4096-element rows: the benchmark's
    # square 4096 matrices only): the stagings and barriers go.
    ifs = [i for i in body if lines[i].startswith("      scf.if") and lines[i].rstrip().endswith("{")]
    a_if, b_if = ifs[0], ifs[1]
    a0 = lines[a_if + 1].replace("%109 =", "%dA0 =").strip()
    a1 = lines[a_if + 2].replace("%110 =", "%dA =").replace("%109", "%dA0").strip()
    b0 = lines[b_if + 1].replace("%109 =", "%dB =").strip()
    assert a0.startswith("%dA0 = arith.muli") and a1.startswith("%dA = arith.addi") and b0.startswith("%dB = arith.addi"), (a0, a1, b0)
    f16_load = r"memref.load (%arg\d+)\[[^\]]*\] : memref<\?xf16>"
    a_buf = re.search(f16_load, "\n".join(lines[a_if:b_if])).group(1)
    b_buf = re.search(f16_load, "\n".join(lines[b_if:b_if + 2000])).group(1)
    drop_stagings(barriers_too=True)
    prefix = ["      " + a0, "      " + a1, "      " + b0, "      %c4096_d = arith.constant 4096 : index"]
    n = 0
    for j in body:
        l = lines[j]
        m = re.match(r"(\s*)(%\w+) = gpu.subgroup_mma_load_matrix (%\w+)\[(%\w+), (%\w+)\] \{leadDimension = \d+ : index\} : memref<.+> -> (!gpu.mma_matrix<.*)$", l)
        if not m:
            continue
        ind, name, buf, r, c, ty = m.groups()
        n += 1
        base, buffer = ("%dA", a_buf) if '"AOp"' in ty else ("%dB", b_buf)
        lines[j] = (f"{ind}%dr{n} = arith.muli {r}, %c4096_d : index\n{ind}%ds{n} = arith.addi {base}, %dr{n} : index\n"
                    f"{ind}%dt{n} = arith.addi %ds{n}, {c} : index\n"
                    f"{ind}{name} = gpu.subgroup_mma_load_matrix {buffer}[%dt{n}] {{leadDimension = 4096 : index}} : memref<?xf16> -> {ty}")
    # B's if (dropped but for its first line) gives way to the bases
    drop.discard(b_if)
    lines[b_if] = "\n".join(prefix)
hoisted = []
if "nofragloads" in parts:
    for i in body:
        if "gpu.subgroup_mma_load_matrix" in lines[i]:
            name = lines[i].split("=")[0].strip()
            line = re.sub(r"%arg3[0-9]\b", "%c0", lines[i]).replace("        ", "    ", 1)
            hoisted.append(line.replace(name + " =", "%h" + name[1:] + " =", 1))
            drop.add(i)
            for j in body:
                if "subgroup_mma_compute" in lines[j]:
                    lines[j] = re.sub(re.escape(name) + r"\b", "%h" + name[1:], lines[j])
lines = [l for i, l in enumerate(lines) if i not in drop]
if hoisted:
    loop = next(i for i, l in enumerate(lines) if l.startswith("    %") and "scf.for" in l and "COp" in l)
    lines[loop:loop] = hoisted
src = Path(out).with_suffix(".variant.mlir")
src.write_text("\n".join(lines))
tail = (f"builtin.module(triton-spirv-kernel-to-spirv{{target=nvidia workgroup-size={warps * 32}}},"
        "spirv.module(spirv-lower-abi-attrs,spirv-update-vce,triton-spirv-set-target-version,"
        "triton-spirv-declare-implied-capabilities,triton-spirv-declare-read-only-buffers,canonicalize,cse),"
        f"triton-spirv-write-binary{{output={out}}})")
proc = subprocess.run([REAL, str(src), "--pass-pipeline=" + tail, "-o", "/dev/null"], capture_output=True, text=True)
if proc.returncode:
    sys.stderr.write(proc.stderr); sys.exit(proc.returncode)
sys.stderr.write(f"[variant {variant}] applied\n")
if os.environ.get("TSV_LOG"):
    with open(os.environ["TSV_LOG"], "a") as log:
        log.write(f"variant {variant} applied ({warps} warps)\n")
