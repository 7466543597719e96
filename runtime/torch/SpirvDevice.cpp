//===- SpirvDevice.cpp - Device guard, hooks and C API of the spirv device ===//
//
// PyTorch's PrivateUse1 device, which the Python package renames `spirv`:
// spirv:i is one Vulkan device (spirv:0 the one the Triton driver picks by
// default), with one stream, its queue, on which kernel launches and copies
// run in order.
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

/// What an event records: the latest launch (or queued copy) of its
/// device; it has happened once that launch is done.
struct RecordedEvent {
  c10::DeviceIndex device = 0;
  uint64_t launch = 0;
};

struct SpirvGuardImpl final : public c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return kSpirv; }
  c10::Device exchangeDevice(c10::Device device) const override {
    c10::Device previous = getDevice();
    setDevice(device);
    return previous;
  }
  c10::Device getDevice() const override {
    return c10::Device(kSpirv, currentDevice());
  }
  void setDevice(c10::Device device) const override {
    TORCH_CHECK(device.type() == kSpirv, "spirv: not a spirv device: ", device);
    setCurrentDevice(device.index());
  }
  void uncheckedSetDevice(c10::Device device) const noexcept override {
    if (device.index() >= 0 && device.index() < deviceCount())
      setCurrentDevice(device.index());
  }
  // Each device has one stream, its queue: work runs in submission order,
  // which keeps whatever order streams and events would have asked for.
  c10::Stream getStream(c10::Device device) const noexcept override {
    return c10::Stream(c10::Stream::DEFAULT, device);
  }
  c10::Stream exchangeStream(c10::Stream stream) const noexcept override {
    return stream;
  }
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

  void record(void **event, const c10::Stream &stream,
              const c10::DeviceIndex index,
              const c10::EventFlag flag) const override {
    c10::DeviceIndex device = checkedDeviceIndex(stream.device_index());
    tsr_device *vulkan = vulkanDevice(device);
    if (flag == c10::EventFlag::BACKEND_DEFAULT)
      tsr_enable_timing(vulkan); // launches from now on are timed
    if (!*event)
      *event = new RecordedEvent;
    auto *recorded = static_cast<RecordedEvent *>(*event);
    recorded->device = device;
    recorded->launch = tsr_submitted_launch(vulkan);
  }
  void block(void *, const c10::Stream &) const override {}
  bool queryEvent(void *event) const override {
    auto *recorded = static_cast<RecordedEvent *>(event);
    return !recorded || !deviceRegistered(recorded->device) ||
           tsr_finished_launch(vulkanDevice(recorded->device)) >=
               recorded->launch;
  }
  void synchronizeEvent(void *event) const override {
    if (!queryEvent(event))
      checkRuntime(tsr_synchronize(vulkanDevice(
                       static_cast<RecordedEvent *>(event)->device)),
                   "synchronize");
  }
  void destroyEvent(void *event, const c10::DeviceIndex) const noexcept override {
    delete static_cast<RecordedEvent *>(event);
  }
  /// Milliseconds of GPU time of the launches between the two events (as
  /// their timestamps measure them: launches made before timing was on
  /// count nothing).
  double elapsedTime(void *start, void *end,
                     const c10::DeviceIndex) const override {
    TORCH_CHECK(start && end, "spirv: both events must be recorded");
    auto *first = static_cast<RecordedEvent *>(start);
    auto *last = static_cast<RecordedEvent *>(end);
    TORCH_CHECK(first->device == last->device,
                "spirv: the events were recorded on different devices");
    uint64_t nanoseconds = 0;
    checkRuntime(tsr_elapsed_between(vulkanDevice(first->device), first->launch,
                                     last->launch, &nanoseconds),
                 "timing events");
    return nanoseconds / 1e6;
  }
  c10::DeviceIndex deviceCount() const noexcept override {
    return triton_spirv::deviceCount();
  }
  bool queryStream(const c10::Stream &stream) const override {
    c10::DeviceIndex device = stream.device_index();
    if (!deviceRegistered(device))
      return true;
    // Launches and copies are numbered in submission order.
    return tsr_finished_launch(vulkanDevice(device)) ==
           tsr_submitted_launch(vulkanDevice(device));
  }
  void synchronizeStream(const c10::Stream &stream) const override {
    synchronizeDevice(stream.device_index());
  }
  void synchronizeDevice(const c10::DeviceIndex device) const override {
    if (deviceRegistered(device))
      checkRuntime(tsr_synchronize(vulkanDevice(device)), "synchronize");
  }
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, SpirvGuardImpl);

struct SpirvHooks final : public at::PrivateUse1HooksInterface {
  bool isBuilt() const override { return true; }
  bool isAvailable() const override { return true; }
  bool hasPrimaryContext(c10::DeviceIndex device) const override {
    return deviceRegistered(device);
  }
  c10::DeviceIndex deviceCount() const override {
    return triton_spirv::deviceCount();
  }
  c10::Device getDeviceFromPtr(void *address) const override {
    for (c10::DeviceIndex device = 0; device < triton_spirv::deviceCount();
         ++device) {
      void *start = nullptr;
      uint64_t bytes = 0;
      if (deviceRegistered(device) &&
          !tsr_allocation_range(vulkanDevice(device), address, 1, &start,
                                &bytes))
        return c10::Device(kSpirv, device);
    }
    return c10::Device(kSpirv, currentDevice());
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

/// 0, or TSR_ERROR where `call` throws (the C API's callers read the text
/// from torch's exception, not tsr_last_error).
template <typename Call> int statusOf(Call call) {
  try {
    call();
    return 0;
  } catch (const std::exception &) {
    return TSR_ERROR;
  }
}

} // namespace
} // namespace triton_spirv

extern "C" {

/// Makes spirv:0 .. spirv:count-1 exist (before they are registered).
int tsd_set_device_count(int count) {
  return triton_spirv::statusOf([&] {
    triton_spirv::setDeviceCount(static_cast<c10::DeviceIndex>(count));
  });
}

/// Binds spirv:index to the Vulkan device Python opened.
int tsd_register_device(int index, tsr_device *device) {
  return triton_spirv::statusOf([&] {
    triton_spirv::registerDevice(static_cast<c10::DeviceIndex>(index), device);
  });
}

int tsd_current_device(void) { return triton_spirv::currentDevice(); }

/// Makes spirv:index the calling thread's current device; TSR_ERROR for
/// one that does not exist.
int tsd_set_current_device(int index) {
  return triton_spirv::statusOf([&] {
    triton_spirv::setCurrentDevice(static_cast<c10::DeviceIndex>(index));
  });
}

/// Bytes in use, their peak, bytes held from Vulkan, their peak, of
/// spirv:index.
void tsd_memory_stats(int index, uint64_t stats[4]) {
  triton_spirv::MemoryStats s = triton_spirv::deviceAllocator(index).stats();
  stats[0] = s.allocated;
  stats[1] = s.maxAllocated;
  stats[2] = s.reserved;
  stats[3] = s.maxReserved;
}

void tsd_reset_peak_memory_stats(int index) {
  triton_spirv::deviceAllocator(index).resetPeakStats();
}

void tsd_empty_cache(int index) {
  triton_spirv::deviceAllocator(index).emptyCache();
}

} // extern "C"
