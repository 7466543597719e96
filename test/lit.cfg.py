# lit configuration for triton-spirv's FileCheck tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "triton-spirv"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "kernels"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.triton_spirv_obj_root, "test")

llvm_config.with_system_environment(["HOME", "XDG_RUNTIME_DIR"])
llvm_config.use_default_substitutions()

tool_dirs = [config.triton_spirv_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["triton-spirv-opt", "FileCheck", "not"],
                                   tool_dirs)

config.suffixes.append(".test")
config.substitutions.append(
    ("%triton_spirv_opt_path",
     os.path.join(config.triton_spirv_tools_dir, "triton-spirv-opt")))

# The passes between the distributed kernel and SPIR-V, as the pipeline runs
# them (lib/Conversion/LinalgToSPIRV/Pipeline.cpp), for the tests of passes
# whose effect is best seen in the converted module. utils/pass_map.py reads
# this table to list those tests under each pass.
PASS_CHAINS = {
    "%prepare-for-spirv": " ".join([
        "--triton-spirv-assign-storage-classes",
        "--triton-spirv-check-workgroup-memory",
        "--triton-spirv-round-correctly",
        "--triton-spirv-atomics-to-compare-and-swap",
        "--triton-spirv-emulate-small-floats",
        "--triton-spirv-expand-double-math",
        "--triton-spirv-legalize-for-spirv",
        "--triton-spirv-expand-remainders",
    ]),
    "%convert-to-spirv": " ".join([
        "--triton-spirv-create-shader-modules",
        "--triton-spirv-outline-fragment-callbacks",
        "--triton-spirv-lower-kernel-abi",
        "--triton-spirv-convert-to-spirv",
        "--triton-spirv-retype-bfloat16-matrices",
        "--triton-spirv-order-atomics",
        "--triton-spirv-forbid-contraction",
    ]),
}
config.substitutions.extend(PASS_CHAINS.items())
