//===- SpirvDevice.cpp - Device guard, hooks and C API of the spirv device ===//
//
// PyTorch's PrivateUse1 device, which the Python package renames `spirv`:
// one device (the Vulkan device the Triton driver uses) with one stream,
// the device's queue, on which kernel launches and copies run in order.
// The C API (tsd_*) is what the Python package calls through ctypes, so
// this library has no CPython dependency.
//
//===----------------------------------------------------------------------===//

#include "SpirvAllocator.h"

#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

namespace triton_spirv {
namespace {

constexpr c10::DeviceType kSpirv = c10::DeviceType::PrivateUse1;

struct SpirvGuardImpl final : public c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return kSpirv; }
  c10::Device exchangeDevice(c10::Device device) const override {
    setDevice(device);
    return c10::Device(kSpirv, 0);
  }
  c10::Device getDevice() const override { return c10::Device(kSpirv, 0); }
  void setDevice(c10::Device device) const override {
    TORCH_CHECK(device.type() == kSpirv && device.index() <= 0,
                "spirv: only device 0 exists in this process (got ", device,
                ")");
  }
  void uncheckedSetDevice(c10::Device) const noexcept override {}
  c10::Stream getStream(c10::Device device) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, c10::Device(kSpirv, 0));
  }
  c10::Stream exchangeStream(c10::Stream) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, c10::Device(kSpirv, 0));
  }
  // Every stream is the device's one queue: work runs in submission order,
  // which keeps whatever order streams and events would have asked for.
  c10::Stream getDefaultStream(c10::Device device) const override {
    return getStream(device);
  }
  c10::Stream getStreamFromGlobalPool(c10::Device device,
                                      bool) const override {
    return getStream(device);
  }
  c10::Stream getNewStream(c10::Device device, int) const override {
    return getStream(device);
  }

  // An event is the number of the latest launch (or queued copy) when it
  // was recorded; it has happened once that launch is done.
  void record(void **event, const c10::Stream &, const c10::DeviceIndex,
              const c10::EventFlag flag) const override {
    tsr_device *device = activeDevice();
    if (flag == c10::EventFlag::BACKEND_DEFAULT)
      tsr_enable_timing(device); // launches from now on are timed
    if (!*event)
      *event = new uint64_t(0);
    *static_cast<uint64_t *>(*event) = tsr_submitted_launch(device);
  }
  void block(void *, const c10::Stream &) const override {}
  bool queryEvent(void *event) const override {
    return !event || !deviceInitialized() ||
           tsr_finished_launch(activeDevice()) >=
               *static_cast<uint64_t *>(event);
  }
  void synchronizeEvent(void *event) const override {
    if (!queryEvent(event))
      checkRuntime(tsr_synchronize(activeDevice()), "synchronize");
  }
  void destroyEvent(void *event, const c10::DeviceIndex) const noexcept override {
    delete static_cast<uint64_t *>(event);
  }
  /// Milliseconds of GPU time of the launches between the two events (as
  /// their timestamps measure them: launches made before timing was on
  /// count nothing).
  double elapsedTime(void *start, void *end,
                     const c10::DeviceIndex) const override {
    TORCH_CHECK(start && end, "spirv: both events must be recorded");
    uint64_t nanoseconds = 0;
    checkRuntime(tsr_elapsed_between(activeDevice(),
                                     *static_cast<uint64_t *>(start),
                                     *static_cast<uint64_t *>(end),
                                     &nanoseconds),
                 "timing events");
    return nanoseconds / 1e6;
  }
  c10::DeviceIndex deviceCount() const noexcept override { return 1; }
  bool queryStream(const c10::Stream &) const override {
    if (!deviceInitialized())
      return true;
    // Launches and copies are numbered in submission order.
    return tsr_finished_launch(activeDevice()) ==
           tsr_submitted_launch(activeDevice());
  }
  void synchronizeStream(const c10::Stream &) const override {
    synchronizeDevice(0);
  }
  void synchronizeDevice(const c10::DeviceIndex) const override {
    if (deviceInitialized())
      checkRuntime(tsr_synchronize(activeDevice()), "synchronize");
  }
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, SpirvGuardImpl);

struct SpirvHooks final : public at::PrivateUse1HooksInterface {
  bool isBuilt() const override { return true; }
  bool isAvailable() const override { return true; }
  bool hasPrimaryContext(c10::DeviceIndex) const override {
    return deviceInitialized();
  }
  c10::DeviceIndex deviceCount() const override { return 1; }
  c10::Device getDeviceFromPtr(void *) const override {
    return c10::Device(kSpirv, 0);
  }
  const at::Generator &getDefaultGenerator(c10::DeviceIndex) const override {
    TORCH_CHECK_NOT_IMPLEMENTED(
        false, "spirv: random numbers of spirv tensors are drawn by the CPU's "
               "generator (torch.manual_seed seeds it); the device has none "
               "of its own");
  }
  bool isPinnedPtr(const void *data) const override {
    return pinnedHostAllocator().isPinned(data);
  }
  c10::Allocator *getPinnedMemoryAllocator() const override {
    return &pinnedHostAllocator();
  }
  void resizePrivateUse1Bytes(const c10::Storage &storage,
                              size_t bytes) const override {
    resizeStorageBytes(storage, bytes);
  }
};

struct RegisterHooks {
  RegisterHooks() { at::RegisterPrivateUse1HooksInterface(new SpirvHooks); }
} registerHooks;

} // namespace
} // namespace triton_spirv

extern "C" {

/// Binds the spirv device to the Vulkan device Python opened; 0 or
/// TSR_ERROR (with tsr_last_error unchanged: the text is in the exception).
int tsd_initialize(tsr_device *device) {
  try {
    triton_spirv::initializeDevice(device);
    return 0;
  } catch (const std::exception &) {
    return TSR_ERROR;
  }
}

/// Bytes in use, their peak, bytes held from Vulkan, their peak.
void tsd_memory_stats(uint64_t stats[4]) {
  triton_spirv::MemoryStats s = triton_spirv::deviceAllocator().stats();
  stats[0] = s.allocated;
  stats[1] = s.maxAllocated;
  stats[2] = s.reserved;
  stats[3] = s.maxReserved;
}

void tsd_reset_peak_memory_stats(void) {
  triton_spirv::deviceAllocator().resetPeakStats();
}

void tsd_empty_cache(void) { triton_spirv::deviceAllocator().emptyCache(); }

} // extern "C"
