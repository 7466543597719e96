"""What FlagGems asks of a vendor, for the spirv device. FlagGems knows a
fixed list of vendors and imports the chosen one as `_<vendor_name>`: this
package stands in for `_nvidia` (NVIDIA's tuning lists and heuristics,
Triton's CUDA libdevice names, which this backend implements), with the
device `spirv` and the dispatch key PrivateUse1."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class VendorInfo:
    """The fields of FlagGems' VendorInfoBase."""

    vendor_name: str
    device_name: str
    device_query_cmd: str
    dispatch_key: str | None = None
    triton_extra_name: str | None = None


vendor_info = VendorInfo(vendor_name="nvidia", device_name="spirv", device_query_cmd="true",
                         dispatch_key="PrivateUse1", triton_extra_name="cuda")

CUSTOMIZED_UNUSED_OPS: tuple[str, ...] = ()
