//===- KernelABI.td - Roles of kernel arguments and launch slots -*- tablegen -*-===//
//
// The one definition of the kernel ABI's roles, shared by the passes that
// give a kernel its ABI (--triton-func-to-kernel-abi), those that read it
// and the SPIR-V stage that lays it out and writes it to the kernel's
// metadata, where the launcher (python/triton_spirv/backend/kernel_abi.py,
// checked against this file by test_kernel_abi.py) reads the same names.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_KERNEL_ABI
#define TRITON_SPIRV_KERNEL_ABI

include "mlir/IR/EnumAttr.td"

def KernelArgRole : I32EnumAttr<"KernelArgRole",
    "role of a kernel argument, or of a slot of the launch constants", [
  // A tensor's whole storage buffer, and the element offset of its data in it.
  // Bindings start 16-byte aligned, so the offset of a tensor whose data
  // Triton marks 16-byte aligned (tt.divisibility = 16 on the pointer) is a
  // multiple of 16 bytes.
  I32EnumAttrCase<"Buffer", 0, "buffer">,
  I32EnumAttrCase<"Offset", 1, "offset">,
  // A scalar argument.
  I32EnumAttrCase<"Scalar", 2, "scalar">,
  // The device_print/device_assert buffer (DebugBuffer.h), bound last.
  I32EnumAttrCase<"Debug", 3, "debug">,
  // The x, y, z roles of each kind are consecutive values (KernelABI.cpp
  // maps axes to roles by adding them).
  // tl.program_id(axis): the workgroup id plus the dispatch's first
  // workgroup id, which the runtime writes into the program id base slots
  // of each dispatch of a split grid.
  I32EnumAttrCase<"ProgramIdX", 4, "program_id_x">,
  I32EnumAttrCase<"ProgramIdY", 5, "program_id_y">,
  I32EnumAttrCase<"ProgramIdZ", 6, "program_id_z">,
  // tl.num_programs(axis): the launch's grid, written by the launcher.
  I32EnumAttrCase<"NumProgramsX", 7, "num_programs_x">,
  I32EnumAttrCase<"NumProgramsY", 8, "num_programs_y">,
  I32EnumAttrCase<"NumProgramsZ", 9, "num_programs_z">,
  I32EnumAttrCase<"ProgramIdBaseX", 10, "program_id_base_x">,
  I32EnumAttrCase<"ProgramIdBaseY", 11, "program_id_base_y">,
  I32EnumAttrCase<"ProgramIdBaseZ", 12, "program_id_base_z">,
  // With bounds checks (debug): the byte range [begin, end) of a tensor's
  // storage within its buffer binding.
  I32EnumAttrCase<"BoundsBegin", 13, "bounds_begin">,
  I32EnumAttrCase<"BoundsEnd", 14, "bounds_end">,
  // A pointer argument passed as the device address (i64) of the range a
  // buffer would bind, instead of a binding: for tensors larger than one
  // binding spans (maxStorageBufferRange). Its Offset (and bounds) follow
  // as for a buffer.
  I32EnumAttrCase<"Address", 15, "address">
]> {
  let cppNamespace = "::mlir::triton_spirv";
  let genSpecializedAttr = 0;
}

#endif // TRITON_SPIRV_KERNEL_ABI
