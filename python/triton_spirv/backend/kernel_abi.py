"""The kernel ABI's role names, as the launcher reads them from a kernel's
metadata. Their one definition is KernelArgRole in
include/triton-spirv/Conversion/KernelABI.td; test_kernel_abi.py checks this
twin against it."""

from __future__ import annotations

from enum import Enum


class Role(str, Enum):
    BUFFER = "buffer"
    OFFSET = "offset"
    SCALAR = "scalar"
    DEBUG = "debug"
    PROGRAM_ID_X = "program_id_x"
    PROGRAM_ID_Y = "program_id_y"
    PROGRAM_ID_Z = "program_id_z"
    NUM_PROGRAMS_X = "num_programs_x"
    NUM_PROGRAMS_Y = "num_programs_y"
    NUM_PROGRAMS_Z = "num_programs_z"
    PROGRAM_ID_BASE_X = "program_id_base_x"
    PROGRAM_ID_BASE_Y = "program_id_base_y"
    PROGRAM_ID_BASE_Z = "program_id_base_z"
    BOUNDS_BEGIN = "bounds_begin"
    BOUNDS_END = "bounds_end"
    ADDRESS = "address"


# The launch-constant slots the launcher fills with the grid, by axis.
NUM_PROGRAMS = (Role.NUM_PROGRAMS_X, Role.NUM_PROGRAMS_Y, Role.NUM_PROGRAMS_Z)
# The slots the runtime fills with each dispatch's first workgroup id: three
# consecutive 32-bit words (triton_spirv_runtime.h's program_id_base_offset).
PROGRAM_ID_BASES = (Role.PROGRAM_ID_BASE_X, Role.PROGRAM_ID_BASE_Y, Role.PROGRAM_ID_BASE_Z)
