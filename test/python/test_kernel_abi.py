"""The kernel ABI's roles are defined once, in KernelABI.td; the launcher's
Python twin must name the same roles, and every role a compiled kernel's
metadata uses must be one of them."""

from __future__ import annotations

import re

from conftest import REPO

from triton_spirv.backend.kernel_abi import NUM_PROGRAMS, PROGRAM_ID_BASES, Role

_CASE = re.compile(r'I32EnumAttrCase<"(\w+)",\s*(\d+),\s*"(\w+)">')


def test_python_roles_match_the_tablegen_definition() -> None:
    text = (REPO / "include/triton-spirv/Conversion/KernelABI.td").read_text()
    cases = _CASE.findall(text)
    assert cases, "no roles found in KernelABI.td"
    assert [name for _, _, name in cases] == [role.value for role in Role]
    assert [int(value) for _, value, _ in cases] == list(range(len(cases)))
    assert [role.value for role in NUM_PROGRAMS] == [f"num_programs_{a}" for a in "xyz"]
    assert [role.value for role in PROGRAM_ID_BASES] == [f"program_id_base_{a}" for a in "xyz"]


def test_no_role_string_is_spelled_out_in_the_passes() -> None:
    """The C++ passes name roles through KernelArgRole only."""
    spelled = re.compile(r'"(buffer|offset|scalar|debug|program_id_\w*|num_programs_\w*)"')
    for source in (REPO / "lib").rglob("*.cpp"):
        for number, line in enumerate(source.read_text().splitlines(), 1):
            match = spelled.search(line)
            # "offset" is also a field name of the metadata's slot records.
            if match and not (match.group(1) == "offset" and "getNamedAttr" in line):
                raise AssertionError(f"{source.relative_to(REPO)}:{number}: {line.strip()}")
