//===- SpirvAllocator.cpp - Caching allocator over Vulkan device memory ---===//

#include "SpirvAllocator.h"

#include <c10/core/CPUAllocator.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

namespace triton_spirv {
namespace {

std::atomic<tsr_device *> vulkanDevices[kMaxDevices];
std::atomic<c10::DeviceIndex> registeredCount{1};
thread_local c10::DeviceIndex current = 0;

constexpr size_t kRound = 512;
constexpr size_t kSmallRequest = 1 << 20;      // served from small segments
constexpr size_t kSmallSegment = 2 << 20;
constexpr size_t kMediumRequest = 10 << 20;    // served from 20 MiB segments
constexpr size_t kMediumSegment = 20 << 20;
constexpr size_t kSegmentRound = 2 << 20;

/// A piece of a segment, free or in use; the pieces of one segment are a
/// list in address order so that freed neighbours merge.
struct Block {
  uint8_t *address = nullptr;
  size_t size = 0;
  bool inUse = false;
  bool small = false; // in a small segment (its free blocks stay there)
  Block *previous = nullptr;
  Block *next = nullptr;
  tsr_allocation *segment = nullptr; // the Vulkan allocation it is part of
  size_t segmentSize = 0;
  c10::DeviceIndex device = 0; // whose allocator it goes back to
};

struct BySizeThenAddress {
  bool operator()(const Block *a, const Block *b) const {
    return a->size != b->size ? a->size < b->size : a->address < b->address;
  }
};

void deleteBlock(void *context);

} // namespace

struct CachingAllocator::Impl {
  c10::DeviceIndex device = 0;
  std::mutex mutex;
  std::set<Block *, BySizeThenAddress> freeSmall, freeLarge;
  std::unordered_map<void *, Block *> inUse;
  MemoryStats stats;

  std::set<Block *, BySizeThenAddress> &freeBlocks(bool small) {
    return small ? freeSmall : freeLarge;
  }

  /// A new segment holding at least `bytes`, as one free block; null when
  /// Vulkan has no memory for it.
  Block *newSegment(size_t bytes, bool small) {
    size_t size = small ? kSmallSegment
                  : bytes <= kMediumRequest
                      ? kMediumSegment
                      : (bytes + kSegmentRound - 1) / kSegmentRound * kSegmentRound;
    void *mapped = nullptr;
    tsr_allocation *allocation = nullptr;
    if (tsr_allocate_spanning(vulkanDevice(device), size, &mapped, &allocation))
      return nullptr;
    auto *block = new Block;
    block->device = device;
    block->address = static_cast<uint8_t *>(mapped);
    block->size = size;
    block->small = small;
    block->segment = allocation;
    block->segmentSize = size;
    stats.reserved += size;
    stats.maxReserved = std::max(stats.maxReserved, stats.reserved);
    return block;
  }

  /// Frees the segments that are one free block; returns the bytes freed.
  size_t releaseFreeSegments() {
    size_t released = 0;
    for (auto *pool : {&freeSmall, &freeLarge})
      for (auto it = pool->begin(); it != pool->end();) {
        Block *block = *it;
        if (block->previous || block->next) {
          ++it;
          continue;
        }
        it = pool->erase(it);
        tsr_free(block->segment);
        stats.reserved -= block->segmentSize;
        released += block->segmentSize;
        delete block;
      }
    return released;
  }

  Block *take(size_t requested) {
    size_t bytes = std::max<size_t>(kRound, (requested + kRound - 1) / kRound * kRound);
    bool small = bytes <= kSmallRequest;
    auto &pool = freeBlocks(small);
    Block key;
    key.size = bytes;
    auto found = pool.lower_bound(&key);
    Block *block = nullptr;
    if (found != pool.end()) {
      block = *found;
      pool.erase(found);
    } else {
      block = newSegment(bytes, small);
      if (!block && releaseFreeSegments())
        block = newSegment(bytes, small);
      if (!block) {
        std::string reason = tsr_last_error();
        TORCH_CHECK_WITH(OutOfMemoryError, false,
                         "spirv: could not allocate ", requested,
                         " bytes (", stats.allocated, " allocated, ",
                         stats.reserved, " reserved): ", reason);
      }
    }
    // Split off what is left when it can serve another request.
    size_t left = block->size - bytes;
    if (left >= (small ? kRound : kSmallRequest + 1)) {
      auto *rest = new Block(*block);
      rest->address = block->address + bytes;
      rest->size = left;
      rest->previous = block;
      rest->next = block->next;
      if (rest->next)
        rest->next->previous = rest;
      block->next = rest;
      block->size = bytes;
      pool.insert(rest);
    }
    block->inUse = true;
    inUse.emplace(block->address, block);
    stats.allocated += block->size;
    stats.maxAllocated = std::max(stats.maxAllocated, stats.allocated);
    return block;
  }

  void give(Block *block) {
    std::lock_guard<std::mutex> lock(mutex);
    inUse.erase(block->address);
    stats.allocated -= block->size;
    block->inUse = false;
    auto &pool = freeBlocks(block->small);
    // Merge with free neighbours of the same segment.
    if (Block *next = block->next; next && !next->inUse) {
      pool.erase(next);
      block->size += next->size;
      block->next = next->next;
      if (block->next)
        block->next->previous = block;
      delete next;
    }
    if (Block *previous = block->previous; previous && !previous->inUse) {
      pool.erase(previous);
      previous->size += block->size;
      previous->next = block->next;
      if (previous->next)
        previous->next->previous = previous;
      delete block;
      block = previous;
    }
    pool.insert(block);
  }
};

namespace {
void deleteBlock(void *context) {
  auto *block = static_cast<Block *>(context);
  deviceAllocator(block->device).release(block);
}
} // namespace

void registerDevice(c10::DeviceIndex index, tsr_device *device) {
  TORCH_CHECK(index >= 0 && index < kMaxDevices, "spirv: device index ",
              int(index), " out of range");
  tsr_device *expected = nullptr;
  TORCH_CHECK(vulkanDevices[index].compare_exchange_strong(expected, device) ||
                  expected == device,
              "spirv:", int(index),
              " is already bound to another Vulkan device");
}

void setDeviceCount(c10::DeviceIndex count) {
  TORCH_CHECK(count >= 1 && count <= kMaxDevices, "spirv: ", int(count),
              " devices (at most ", int(kMaxDevices), ")");
  registeredCount = count;
}

c10::DeviceIndex deviceCount() { return registeredCount.load(); }

bool deviceRegistered(c10::DeviceIndex index) {
  return index >= 0 && index < kMaxDevices && vulkanDevices[index].load();
}

c10::DeviceIndex checkedDeviceIndex(c10::DeviceIndex index) {
  if (index < 0)
    index = current;
  TORCH_CHECK(index < deviceCount(), "spirv:", int(index),
              " does not exist: this process has ", int(deviceCount()),
              " spirv device(s)");
  return index;
}

tsr_device *vulkanDevice(c10::DeviceIndex index) {
  index = checkedDeviceIndex(index);
  tsr_device *device = vulkanDevices[index].load();
  TORCH_CHECK(device,
              "the spirv device is not initialised: call torch.spirv.init() "
              "(torch does on the first tensor made on it from Python)");
  return device;
}

c10::DeviceIndex currentDevice() { return current; }

void setCurrentDevice(c10::DeviceIndex index) {
  current = checkedDeviceIndex(index);
}

void checkRuntime(int status, const char *what) {
  TORCH_CHECK(status == 0, "spirv: ", what, ": ", tsr_last_error());
}

CachingAllocator::CachingAllocator(c10::DeviceIndex device)
    : impl(std::make_unique<Impl>()) {
  impl->device = device;
}
CachingAllocator::~CachingAllocator() = default;

c10::DataPtr CachingAllocator::allocate(size_t bytes) {
  c10::Device device(c10::DeviceType::PrivateUse1, impl->device);
  if (bytes == 0)
    return c10::DataPtr(nullptr, nullptr, nullptr, device);
  std::lock_guard<std::mutex> lock(impl->mutex);
  Block *block = impl->take(bytes);
  return c10::DataPtr(block->address, block, &deleteBlock, device);
}

void CachingAllocator::release(void *block) {
  impl->give(static_cast<Block *>(block));
}

void CachingAllocator::copy_data(void *destination, const void *source,
                                 size_t bytes) const {
  checkRuntime(tsr_copy(vulkanDevice(impl->device), destination, source, bytes,
                        /*wait=*/0, nullptr),
               "copying device memory");
}

MemoryStats CachingAllocator::stats() {
  std::lock_guard<std::mutex> lock(impl->mutex);
  return impl->stats;
}

void CachingAllocator::resetPeakStats() {
  std::lock_guard<std::mutex> lock(impl->mutex);
  impl->stats.maxAllocated = impl->stats.allocated;
  impl->stats.maxReserved = impl->stats.reserved;
}

void CachingAllocator::emptyCache() {
  std::lock_guard<std::mutex> lock(impl->mutex);
  impl->releaseFreeSegments();
}

CachingAllocator &deviceAllocator(c10::DeviceIndex index) {
  index = checkedDeviceIndex(index);
  static CachingAllocator *allocators[kMaxDevices] = {};
  static std::once_flag made;
  std::call_once(made, [] {
    for (c10::DeviceIndex i = 0; i < kMaxDevices; ++i)
      allocators[i] = new CachingAllocator(i); // lives with the process
  });
  return *allocators[index];
}

void resizeStorageBytes(const c10::Storage &storage, size_t bytes) {
  if (bytes <= storage.nbytes())
    return;
  TORCH_CHECK(storage.resizable(), "spirv: the storage is not resizable");
  c10::DeviceIndex index = storage.device().index();
  c10::DataPtr grown = deviceAllocator(index).allocate(bytes);
  if (storage.nbytes())
    checkRuntime(tsr_copy(vulkanDevice(index), grown.get(), storage.data(),
                          storage.nbytes(), /*wait=*/0, nullptr),
                 "copying a resized storage");
  storage.set_data_ptr_noswap(std::move(grown));
  storage.set_nbytes(bytes);
}

/// What torch allocates spirv memory through where it names no device (a
/// storage of the current one).
struct CurrentDeviceAllocator final : public c10::Allocator {
  c10::DataPtr allocate(size_t bytes) override {
    return deviceAllocator(-1).allocate(bytes);
  }
  c10::DeleterFnPtr raw_deleter() const override { return nullptr; }
  void copy_data(void *destination, const void *source,
                 size_t bytes) const override {
    deviceAllocator(-1).copy_data(destination, source, bytes);
  }
};

CurrentDeviceAllocator currentDeviceAllocator;

namespace {

/// Pinned memory is aligned for any device's host imports (Vulkan drivers
/// ask for 4 KiB; 64 KiB leaves room) and imported at its first copy, so
/// it can be allocated before the device is opened.
constexpr size_t kPinnedAlignment = 64 << 10;

/// A pinned allocation and each device's import of it, once made.
struct PinnedBlock {
  size_t bytes = 0;
  std::vector<std::pair<tsr_device *, tsr_allocation *>> imports;
};

struct PinnedRegistry {
  std::mutex mutex;
  std::map<const uint8_t *, PinnedBlock> blocks; // by start address
};

PinnedRegistry &pinnedRegistry() {
  static PinnedRegistry registry;
  return registry;
}

void freePinned(void *address) {
  std::vector<std::pair<tsr_device *, tsr_allocation *>> imports;
  {
    PinnedRegistry &registry = pinnedRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    auto found = registry.blocks.find(static_cast<const uint8_t *>(address));
    imports = std::move(found->second.imports);
    registry.blocks.erase(found);
  }
  for (auto [device, import] : imports)
    tsr_free(import); // after the copies in flight that use it
  std::free(address);
}

/// The pinned block holding `address`; the registry is locked.
std::map<const uint8_t *, PinnedBlock>::iterator
pinnedBlockHolding(PinnedRegistry &registry, const void *address) {
  auto *byte = static_cast<const uint8_t *>(address);
  auto next = registry.blocks.upper_bound(byte);
  if (next == registry.blocks.begin())
    return registry.blocks.end();
  --next;
  return byte < next->first + next->second.bytes ? next
                                                 : registry.blocks.end();
}

} // namespace

c10::DataPtr PinnedHostAllocator::allocate(size_t bytes) {
  c10::Device cpu(c10::DeviceType::CPU);
  if (bytes == 0)
    return c10::GetCPUAllocator()->allocate(bytes);
  size_t rounded = (bytes + kPinnedAlignment - 1) / kPinnedAlignment *
                   kPinnedAlignment;
  void *address = std::aligned_alloc(kPinnedAlignment, rounded);
  TORCH_CHECK_WITH(OutOfMemoryError, address,
                   "spirv: out of host memory allocating ", bytes,
                   " pinned bytes");
  {
    PinnedRegistry &registry = pinnedRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.blocks[static_cast<const uint8_t *>(address)].bytes = rounded;
  }
  return c10::DataPtr(address, address, &freePinned, cpu);
}

void PinnedHostAllocator::copy_data(void *destination, const void *source,
                                    size_t bytes) const {
  std::memcpy(destination, source, bytes);
}

bool PinnedHostAllocator::isPinned(const void *address) {
  PinnedRegistry &registry = pinnedRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return pinnedBlockHolding(registry, address) != registry.blocks.end();
}

bool PinnedHostAllocator::prepareForCopy(const void *address,
                                         tsr_device *device) {
  PinnedRegistry &registry = pinnedRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto found = pinnedBlockHolding(registry, address);
  if (found == registry.blocks.end())
    return false;
  PinnedBlock &block = found->second;
  for (auto [importer, import] : block.imports)
    if (importer == device)
      return true;
  // A device that cannot import host memory copies through the CPU.
  tsr_allocation *import = nullptr;
  if (tsr_import_host(device, const_cast<uint8_t *>(found->first), block.bytes,
                      &import))
    return false;
  block.imports.emplace_back(device, import);
  return true;
}

PinnedHostAllocator &pinnedHostAllocator() {
  static PinnedHostAllocator allocator;
  return allocator;
}

REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &currentDeviceAllocator);

} // namespace triton_spirv
