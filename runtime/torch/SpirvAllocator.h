//===- SpirvAllocator.h - Tensor memory of the spirv torch device ---------===//
//
// The `spirv` torch device (PyTorch's PrivateUse1, renamed) keeps tensors in
// Vulkan device memory that the host maps. A tensor's data_ptr() is that
// mapping, so the Triton launcher finds its buffer with one lookup in the
// runtime and binds it in place; the host never reads it directly except on
// devices whose memory is the host's (lavapipe), copies go through
// tsr_copy. Tensors past one Vulkan allocation (NVIDIA's 4 GiB) span
// several (tsr_allocate_spanning): their data_ptr() is a reserved host
// range that stands for the device memory and is never touched.
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_TORCH_SPIRVALLOCATOR_H
#define TRITON_SPIRV_TORCH_SPIRVALLOCATOR_H

#include "triton_spirv_runtime.h"

#include <c10/core/Allocator.h>
#include <c10/core/Storage.h>

#include <cstdint>
#include <memory>

namespace triton_spirv {

/// spirv:i lives on one Vulkan device, which the Python package opens (for
/// the Triton driver too) and registers here at its lazy initialisation;
/// before that there is one device, unregistered.
constexpr c10::DeviceIndex kMaxDevices = 16; // vulkan.MAX_DEVICES
void registerDevice(c10::DeviceIndex index, tsr_device *device);
void setDeviceCount(c10::DeviceIndex count);
c10::DeviceIndex deviceCount();
bool deviceRegistered(c10::DeviceIndex index);
/// The Vulkan device of spirv:index; an error names what to call first.
tsr_device *vulkanDevice(c10::DeviceIndex index);
/// The calling thread's current device (torch.spirv.set_device).
c10::DeviceIndex currentDevice();
void setCurrentDevice(c10::DeviceIndex index);
/// `index`, or the current device for -1; an error for one that does not
/// exist.
c10::DeviceIndex checkedDeviceIndex(c10::DeviceIndex index);

/// Raises a torch error describing the runtime's last failure.
void checkRuntime(int status, const char *what);

/// Byte counts as torch.cuda names them.
struct MemoryStats {
  uint64_t allocated = 0;
  uint64_t maxAllocated = 0;
  uint64_t reserved = 0;
  uint64_t maxReserved = 0;
};

/// A caching allocator over device memory: requests are rounded to 512
/// bytes and carved best-fit from segments (2 MiB ones for requests up to
/// 1 MiB, 20 MiB ones up to 10 MiB, a segment of their own beyond), split
/// and merged again as blocks are freed. Freed blocks are reused at once:
/// every use of device memory is ordered on the device's one queue (kernel
/// launches and tsr_copy alike), as on one CUDA stream. Segments go back
/// to Vulkan on emptyCache() or when an allocation fails.
class CachingAllocator final : public c10::Allocator {
public:
  explicit CachingAllocator(c10::DeviceIndex device);
  ~CachingAllocator() override;
  c10::DataPtr allocate(size_t bytes) override;
  c10::DeleterFnPtr raw_deleter() const override { return nullptr; }
  void copy_data(void *destination, const void *source,
                 size_t bytes) const override;

  /// Gives back a block (the DataPtr deleter's context).
  void release(void *block);

  MemoryStats stats();
  void resetPeakStats();
  /// Frees every segment none of whose blocks is in use.
  void emptyCache();

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

/// The allocator of spirv:index (-1: the current device).
CachingAllocator &deviceAllocator(c10::DeviceIndex index);

/// Pinned host memory (`pin_memory=True`): page-aligned host allocations
/// the device imports once, at their first copy (tsr_import_host), so
/// copies to and from them run on the queue without importing pages each
/// time and may be asynchronous (freeing one waits for the copies using
/// it).
class PinnedHostAllocator final : public c10::Allocator {
public:
  c10::DataPtr allocate(size_t bytes) override;
  void copy_data(void *destination, const void *source,
                 size_t bytes) const override;
  /// Whether `address` lies in pinned memory this allocator gave.
  bool isPinned(const void *address);
  /// Imports the pinned memory holding `address` into `device` if it is
  /// not yet; whether it is pinned and imported (copies of it may then be
  /// left queued).
  bool prepareForCopy(const void *address, tsr_device *device);
};

PinnedHostAllocator &pinnedHostAllocator();

/// Grows (never shrinks) a spirv storage to `bytes`, keeping its contents.
void resizeStorageBytes(const c10::Storage &storage, size_t bytes);

} // namespace triton_spirv

#endif // TRITON_SPIRV_TORCH_SPIRVALLOCATOR_H
