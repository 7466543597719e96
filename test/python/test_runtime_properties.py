"""tsr_properties crosses the C/Python boundary through a ctypes mirror
(vulkan._Properties): the runtime checks the size the caller passes, so a
mirror out of date fails with a message instead of reading shifted fields."""

from __future__ import annotations

import ctypes

import pytest

from triton_spirv import vulkan


def test_the_mirror_has_the_runtime_size() -> None:
    properties = vulkan.device().properties
    assert properties.name and properties.subgroup_size > 0


def test_a_struct_of_another_size_is_refused() -> None:
    raw = vulkan._Properties(struct_size=ctypes.sizeof(vulkan._Properties) - 8)
    with pytest.raises(vulkan.VulkanError, match=r"tsr_properties of \d+ bytes given; this runtime's has"):
        vulkan._check(vulkan._lib().tsr_get_properties(vulkan.device().handle, ctypes.byref(raw)))
