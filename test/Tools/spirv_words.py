"""Prints a SPIR-V binary one instruction per line, as its opcode number and
operand words, with string literals decoded, for FileCheck: Debian 12's
spirv-dis predates the instructions of SPV_NV_cooperative_matrix2."""

import struct
import sys

# Opcodes whose operands end in a string literal, with its first word.
STRING_OPERANDS = {5: 1, 10: 0}  # OpName (target, name), OpExtension (name)


def main() -> None:
    data = open(sys.argv[1], "rb").read()
    words = struct.unpack(f"<{len(data) // 4}I", data)
    print(f"version 0x{words[1]:08x}")
    at = 5
    while at < len(words):
        count, opcode = words[at] >> 16, words[at] & 0xFFFF
        operands = list(words[at + 1:at + count])
        if opcode in STRING_OPERANDS:
            first = STRING_OPERANDS[opcode]
            raw = struct.pack(f"<{len(operands) - first}I", *operands[first:])
            operands = operands[:first] + [raw.split(b"\0")[0].decode()]
        print(opcode, *operands)
        at += count


if __name__ == "__main__":
    main()
