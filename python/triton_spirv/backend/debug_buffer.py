"""What kernels with tl.device_print / tl.device_assert write to their debug
buffer (layout: include/triton-spirv/Conversion/DebugBuffer.h, repeated in the
kernel's ABI metadata), turned into printed lines and an AssertionError after
the launch."""

from __future__ import annotations

import ctypes
import struct
import sys

from .kernel_metadata import AssertSite, DebugBufferLayout, PrintOperand, PrintSite


class DebugBuffer:

    def __init__(self, record: DebugBufferLayout, kernel_name: str, threads: int) -> None:
        self.size = record["bytes"]
        self.header_bytes = 4 * record["header_words"]
        self.layout = record
        self.asserts: list[AssertSite] = record["asserts"]
        self.prints: list[PrintSite] = record["prints"]
        self.kernel_name = kernel_name
        # A scalar is printed once per thread of the program (num_warps * 32),
        # as on CUDA; the kernel records it once.
        self.threads = threads

    def report(self, address: int) -> None:
        """Prints the records of the launch whose buffer is at `address`, then
        raises if an assertion failed."""
        layout = self.layout
        header = struct.unpack(f"<{layout['header_words']}I",
                               ctypes.string_at(address, 4 * layout["header_words"]))
        count = header[layout["record_count_word"]]
        if count:
            self._print_records(address, count)
        failed = header[layout["failed_assert_word"]]
        if failed:
            first = layout["failed_program_word"]
            program = ", ".join(str(header[first + axis]) for axis in range(3))
            where = self.asserts[failed - 1]
            raise AssertionError(
                f"{where['location']}: device-side assertion failed in {self.kernel_name}, "
                f"program ({program}), element {header[layout['failed_index_word']]}: "
                f"{where['message']}")

    def _print_records(self, address: int, count: int) -> None:
        layout = self.layout
        words, capacity = layout["record_words"], layout["capacity"]
        kept = min(count, capacity)
        start = address + 4 * layout["header_words"]
        raw = struct.unpack(f"<{kept * words}I", ctypes.string_at(start, 4 * kept * words))
        records = [raw[i * words:(i + 1) * words] for i in range(kept)]
        # By program, then print, operand and element; a print in a loop keeps
        # its iterations in order (the sort is stable).
        records.sort(key=lambda r: (r[4], r[3], r[2], r[0], r[1], r[5]))
        lines = []
        for record in records:
            operands = self.prints[record[0]]["operands"]
            scalar = not operands or not operands[record[1]]["shape"]
            lines += [self._format(record)] * (self.threads if scalar else 1)
        if count > capacity:
            lines.append(f"({count - capacity} more device_print values of {self.kernel_name} "
                         f"were dropped: the buffer holds {capacity})")
        sys.stdout.write("".join(line + "\n" for line in lines))
        sys.stdout.flush()

    def _format(self, record: tuple[int, ...]) -> str:
        print_id, operand, x, y, z, index, low, high = record[:8]
        form = self.prints[print_id]
        if not form["operands"]:  # print("text")
            return f"pid ({x}, {y}, {z})" + form["prefix"]
        description = form["operands"][operand]
        # As Triton's CUDA backend prints: each index right-aligned to the
        # digits of its dimension's largest, `idx ()` for scalars.
        shape = description["shape"]
        position = ", ".join(f"{i:{len(str(size - 1))}}" for i, size in zip(_unravel(index, shape), shape))
        line = f"pid ({x}, {y}, {z}) idx ({position})" + form["prefix"]
        if len(form["operands"]) > 1:
            line += f"(operand {operand}) "
        return line + _format_value(description, low, high, form["hex"])


def _unravel(index: int, shape: list[int]) -> list[int]:
    position = []
    for size in reversed(shape):
        position.append(index % size)
        index //= size
    return position[::-1]


def _format_value(description: PrintOperand, low: int, high: int, hex_: bool) -> str:
    """The value as CUDA's printf formats it: %f for floats, hex digits for
    the type's width, pointers (their element offsets here) as %p."""
    type_name = description["type"]
    bits = low | (high << 32)
    if type_name == "ptr":
        return f"0x{bits:x}"
    if type_name.startswith(("f", "bf")):
        if type_name == "f64":
            value = struct.unpack("<d", struct.pack("<Q", bits))[0]
            width = 64
        else:  # narrower floats arrive widened to f32
            value = struct.unpack("<f", struct.pack("<I", low))[0]
            width = 32
        if hex_:
            return f"0x{bits & ((1 << width) - 1):0{width // 4}x}"
        return f"{value:f}"
    width = 64 if type_name in ("i64", "index") else 32
    bits &= (1 << width) - 1
    if hex_:
        digits = max(int(type_name[1:]) // 4, 1) if type_name[1:].isdigit() else width // 4
        return f"0x{bits & ((1 << (4 * digits)) - 1):0{digits}x}"
    if description["signed"] and bits >> (width - 1):
        bits -= 1 << width
    return str(bits)
