//===- DebugBuffer.h - Layout of the device_print/device_assert buffer ----===//
//
// Kernels with tt.print or tt.assert get one more storage buffer of 32-bit
// words, zeroed before each launch and read by the launcher after it:
//
//   header: [0] 1 + id of a failed assertion (0: none); [1..3] that
//           program's id; [4] the failing element's linear index;
//           [5] number of print records written (may exceed the capacity:
//           the rest were dropped)
//   records, from word kHeaderWords, kRecordWords each:
//           print id, operand, program id x, y, z, element linear index,
//           value bits low word, high word
//
// The ABI metadata repeats these numbers, so the launcher does not hard-code
// them.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_CONVERSION_DEBUGBUFFER_H
#define TRITON_SPIRV_CONVERSION_DEBUGBUFFER_H

#include "llvm/ADT/StringRef.h"

namespace mlir::triton_spirv::debug_buffer {
inline constexpr unsigned kHeaderWords = 8;
inline constexpr unsigned kRecordWords = 8;
inline constexpr unsigned kRecordCapacity = 16384;
inline constexpr unsigned kFailedAssertWord = 0;
inline constexpr unsigned kFailedProgramWord = 1;
inline constexpr unsigned kFailedIndexWord = 4;
inline constexpr unsigned kRecordCountWord = 5;

/// The kernel attribute with the messages and print formats; the attribute
/// numbering each print/assert. (The buffer's argument role is
/// KernelArgRole::Debug.)
inline constexpr llvm::StringLiteral kFormatsAttrName = "triton_spirv.debug";
inline constexpr llvm::StringLiteral kIdAttrName = "triton_spirv.debug_id";
} // namespace mlir::triton_spirv::debug_buffer

#endif // TRITON_SPIRV_CONVERSION_DEBUGBUFFER_H
