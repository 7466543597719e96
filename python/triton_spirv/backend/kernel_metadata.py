"""The metadata triton-spirv-opt writes next to each kernel's .spv
(`kernel.spv.json`, made by LowerKernelABI.cpp and WriteBinary.cpp): its one
description on the Python side. The backend keeps it as
`metadata.spirv_abi`; the launcher, the debug-buffer reader and the compiler
read it through these types. test_kernel_metadata.py checks that kernels'
metadata has exactly these keys and that every key is read."""

# (No `from __future__ import annotations`: TypedDict reads NotRequired from
# evaluated annotations.)
from typing import NotRequired, TypedDict


class Slot(TypedDict):
    """One 32- or 64-bit launch constant (push constant or argument-block
    word): an element offset, a scalar argument, a grid size, a program id
    base, a storage's bounds or a device address."""
    role: str  # a KernelArgRole (kernel_abi.Role)
    offset: int  # bytes into the block
    type: str  # i32, i64, f32, f64
    arg_index: NotRequired[int]  # the Triton argument it comes from


class Binding(TypedDict):
    """A storage buffer the kernel binds: one per pointer argument and
    element type."""
    binding: int
    arg_index: int
    element_type: str


class ArgumentBuffer(TypedDict):
    """The launch constants that did not fit in push constants, bound as a
    storage buffer after the tensors."""
    binding: int
    bytes: int
    slots: list[Slot]


class AssertSite(TypedDict):
    location: str  # file:line:column of the tl.device_assert (or access)
    message: str


class PrintOperand(TypedDict):
    type: str  # the element type, before widening to 32 or 64 bits
    signed: bool
    shape: list[int]


class PrintSite(TypedDict):
    prefix: str
    hex: bool
    operands: list[PrintOperand]


class DebugBufferLayout(TypedDict):
    """The buffer kernels with prints or assertions write (layout:
    include/triton-spirv/Conversion/DebugBuffer.h), bound last."""
    binding: int
    bytes: int
    header_words: int
    record_words: int
    capacity: int  # print records it holds (0 without prints)
    failed_assert_word: int
    failed_program_word: int
    failed_index_word: int
    record_count_word: int
    asserts: list[AssertSite]
    prints: list[PrintSite]


class KernelMetadata(TypedDict):
    entry_point: str
    workgroup_size: list[int]  # for tools and tests: the pipeline declares it
    bindings: list[Binding]
    push_constants: list[Slot]
    push_constant_bytes: int
    workgroup_memory_bytes: int
    address_tables: NotRequired[list[int]]  # arguments whose elements are addresses
    argument_buffer: NotRequired[ArgumentBuffer]
    debug_buffer: NotRequired[DebugBufferLayout]
