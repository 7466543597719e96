//===- memory.cpp - Allocations and host imports --------------------------===//
//
// Part of the Vulkan runtime (triton_spirv_runtime.h); runtime_internal.h
// says which file holds what.
//
//===----------------------------------------------------------------------===//

#include "runtime_internal.h"

#include <sys/mman.h>
#include <unistd.h>

using namespace tsr_internal;

namespace tsr_internal {
/// The usage of every buffer the runtime makes: storage buffers, with
/// device addresses where the device has them.
VkBufferUsageFlags storageBufferUsage(const tsr_device *device) {
  // Copies (tsr_copy) and fills (tsr_fill) run on the queue too.
  VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                             VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (device->bufferDeviceAddress)
    usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  return usage;
}

/// Memory that buffers with device addresses are bound to must say so.
VkMemoryAllocateFlagsInfo memoryAllocateFlags(const tsr_device *device) {
  VkMemoryAllocateFlagsInfo flags{
      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  if (device->bufferDeviceAddress)
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  return flags;
}

VkDeviceAddress bufferAddress(const tsr_device *device, VkBuffer buffer) {
  if (!device->bufferDeviceAddress)
    return 0;
  VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  info.buffer = buffer;
  return vkGetBufferDeviceAddress(device->device, &info);
}

/// Destroys a buffer and frees (and so unmaps) its memory; either may be null.
void destroyBuffer(VkDevice device, VkBuffer buffer, VkDeviceMemory memory) {
  if (buffer)
    vkDestroyBuffer(device, buffer, nullptr);
  if (memory)
    vkFreeMemory(device, memory, nullptr);
}

void release(tsr_device *device, std::vector<ImportedBuffer> &buffers) {
  for (ImportedBuffer &imported : buffers)
    destroyBuffer(device->device, imported.buffer, imported.memory);
  buffers.clear();
}

} // namespace tsr_internal

namespace {
/// The first memory type in `requirements` that has all of `wanted` and a
/// heap that can hold them; -1 where none.
int memoryTypeFor(const tsr_device *device,
                  const VkMemoryRequirements &requirements,
                  VkMemoryPropertyFlags wanted) {
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(device->physical, &memory);
  for (uint32_t type = 0; type < memory.memoryTypeCount; ++type)
    if ((requirements.memoryTypeBits & (1u << type)) &&
        (memory.memoryTypes[type].propertyFlags & wanted) == wanted &&
        memory.memoryHeaps[memory.memoryTypes[type].heapIndex].size >=
            requirements.size)
      return type;
  return -1;
}

/// Destroys a spanning allocation's buffer and memory, and gives back its
/// host range.
void destroySpanning(VkDevice device, tsr_allocation &allocation) {
  destroyBuffer(device, allocation.buffer, VK_NULL_HANDLE);
  for (VkDeviceMemory memory : allocation.spans)
    vkFreeMemory(device, memory, nullptr);
  allocation.spans.clear();
  if (allocation.mapped)
    munmap(allocation.mapped, allocation.size);
}
} // namespace

namespace tsr_internal {
void destroyAllocation(tsr_allocation *allocation) {
  if (!allocation->spans.empty())
    destroySpanning(allocation->device->device, *allocation);
  else
    destroyBuffer(allocation->device->device, allocation->buffer,
                  allocation->memory);
  delete allocation;
}

/// A live allocation or import (only an allocation of device memory with
/// `deviceMemoryOnly`) whose range holds the `size` bytes at `address`, if
/// any.
tsr_allocation *allocationHolding(tsr_device *device, const uint8_t *address,
                                  uint64_t size,
                                  bool deviceMemoryOnly) {
  // Among the nearest starts at or below `address` (ranges rarely overlap:
  // a few candidates at most).
  constexpr int kCandidates = 8;
  auto next = device->allocations.upper_bound(address);
  for (int seen = 0; next != device->allocations.begin() && seen < kCandidates;
       ++seen) {
    tsr_allocation *allocation = (--next)->second;
    if (deviceMemoryOnly && allocation->imported)
      continue;
    if (size <= allocation->size &&
        address - allocation->mapped <=
            static_cast<ptrdiff_t>(allocation->size - size))
      return allocation;
  }
  return nullptr;
}

/// Fails for one allocation or import larger than the device allows: a
/// driver may accept it and never write past its limit (NVIDIA's 4 GiB).
int checkAllocationSize(const tsr_device *device, uint64_t size,
                        const char *doing, const char *memory) {
  if (size <= device->maxAllocationBytes)
    return 0;
  return fail(std::string(doing) + " " + std::to_string(size) + " bytes of " +
              memory + " memory: the device allocates at most " +
              std::to_string(device->maxAllocationBytes) +
              " bytes at once (maxMemoryAllocationSize, maxBufferSize)");
}

int importHostMemory(tsr_device *device, void *hostPointer, uint64_t size,
                     ImportedBuffer &imported) {
  if (!device->getHostPointerProperties)
    return fail("the Vulkan device cannot import host memory "
                "(VK_EXT_external_memory_host is missing)");
  if (int status = checkAllocationSize(device, size, "importing", "host"))
    return status;
  uint64_t alignment = device->importAlignment;
  if (reinterpret_cast<uintptr_t>(hostPointer) % alignment || size % alignment)
    return fail("host memory to import must be aligned to " +
                std::to_string(alignment) + " bytes");
  VkExternalMemoryBufferCreateInfo external{
      VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.pNext = &external;
  bufferInfo.size = size;
  bufferInfo.usage = storageBufferUsage(device);
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  TSR_CHECK(
      vkCreateBuffer(device->device, &bufferInfo, nullptr, &imported.buffer),
      "vkCreateBuffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device->device, imported.buffer, &requirements);
  VkMemoryHostPointerPropertiesEXT hostProperties{
      VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  TSR_CHECK(device->getHostPointerProperties(
                device->device,
                VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
                hostPointer, &hostProperties),
            "vkGetMemoryHostPointerPropertiesEXT");
  uint32_t typeBits =
      requirements.memoryTypeBits & hostProperties.memoryTypeBits;
  if (typeBits == 0)
    return fail("no Vulkan memory type can hold imported host memory");
  VkImportMemoryHostPointerInfoEXT import{
      VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
  import.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  import.pHostPointer = hostPointer;
  VkMemoryAllocateFlagsInfo flags = memoryAllocateFlags(device);
  import.pNext = &flags;
  VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocateInfo.pNext = &import;
  allocateInfo.allocationSize = size;
  allocateInfo.memoryTypeIndex = __builtin_ctz(typeBits);
  TSR_CHECK(vkAllocateMemory(device->device, &allocateInfo, nullptr,
                             &imported.memory),
            "importing host memory");
  TSR_CHECK(
      vkBindBufferMemory(device->device, imported.buffer, imported.memory, 0),
      "vkBindBufferMemory");
  return 0;
}
} // namespace tsr_internal

namespace {
/// A buffer of the runtime's usage (storageBufferUsage), and the memory it
/// needs.
int createStorageBuffer(tsr_device *device, uint64_t size,
                        VkBufferCreateFlags flags, VkBuffer &buffer,
                        VkMemoryRequirements &requirements) {
  VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.flags = flags;
  bufferInfo.size = size;
  bufferInfo.usage = storageBufferUsage(device);
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  TSR_CHECK(vkCreateBuffer(device->device, &bufferInfo, nullptr, &buffer),
            "vkCreateBuffer");
  vkGetBufferMemoryRequirements(device->device, buffer, &requirements);
  return 0;
}

/// Makes `allocation` one buffer bound to one memory object, mapped.
int allocateWhole(tsr_device *device, tsr_allocation &allocation) {
  uint64_t size = allocation.size;
  VkMemoryRequirements requirements;
  if (int status =
          createStorageBuffer(device, size, 0, allocation.buffer, requirements))
    return status;
  // Device-local memory the host sees coherently where there is such (GPUs
  // with resizable BAR), else any coherent host-visible memory.
  const VkMemoryPropertyFlags visible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int chosen = memoryTypeFor(device, requirements,
                             visible | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (chosen < 0)
    chosen = memoryTypeFor(device, requirements, visible);
  auto cleanUp = [&] {
    destroyBuffer(device->device, allocation.buffer, allocation.memory);
  };
  if (chosen < 0) {
    cleanUp();
    return fail("no host-visible Vulkan memory type can hold " +
                std::to_string(size) + " bytes");
  }
  VkMemoryAllocateFlagsInfo flags = memoryAllocateFlags(device);
  VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocateInfo.pNext = &flags;
  allocateInfo.allocationSize = requirements.size;
  allocateInfo.memoryTypeIndex = chosen;
  VkResult result = vkAllocateMemory(device->device, &allocateInfo, nullptr,
                                     &allocation.memory);
  if (result == VK_SUCCESS)
    result = vkBindBufferMemory(device->device, allocation.buffer,
                                allocation.memory, 0);
  void *mapped = nullptr;
  if (result == VK_SUCCESS)
    result = vkMapMemory(device->device, allocation.memory, 0, VK_WHOLE_SIZE, 0,
                         &mapped);
  if (result != VK_SUCCESS) {
    cleanUp();
    return fail("allocating " + std::to_string(size) +
                " bytes of device memory: " + resultName(result));
  }
  allocation.mapped = static_cast<uint8_t *>(mapped);
  return 0;
}

/// Makes `allocation` an allocation of `size` bytes larger than one memory
/// object may be: a sparse buffer bound to device-local memory objects of at
/// most maxMemoryAllocationSize each, with a host range reserved to stand
/// for it (the host cannot map sparse buffers' memory on NVIDIA).
int allocateSpanning(tsr_device *device, uint64_t size,
                     tsr_allocation &allocation) {
  VkMemoryRequirements requirements;
  if (int status =
          createStorageBuffer(device, size, VK_BUFFER_CREATE_SPARSE_BINDING_BIT,
                              allocation.buffer, requirements))
    return status;
  // Pieces start at multiples of the sparse block size (the alignment).
  uint64_t block = std::max<VkDeviceSize>(requirements.alignment, 1);
  uint64_t piece = device->maxAllocationBytes / block * block;
  int type =
      memoryTypeFor(device, requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type < 0 || piece == 0)
    return fail("no Vulkan memory type can back a sparse buffer of " +
                std::to_string(size) + " bytes");
  void *reserved = mmap(nullptr, size, PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED)
    return fail("reserving " + std::to_string(size) +
                " bytes of host address space for a spanning allocation");
  allocation.mapped = static_cast<uint8_t *>(reserved);
  allocation.size = size;

  VkMemoryAllocateFlagsInfo flags = memoryAllocateFlags(device);
  std::vector<VkSparseMemoryBind> binds;
  for (uint64_t offset = 0; offset < requirements.size; offset += piece) {
    VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocateInfo.pNext = &flags;
    allocateInfo.allocationSize = std::min(piece, requirements.size - offset);
    allocateInfo.memoryTypeIndex = type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    TSR_CHECK(vkAllocateMemory(device->device, &allocateInfo, nullptr, &memory),
              "allocating " + std::to_string(size) +
                  " bytes of device memory in pieces");
    allocation.spans.push_back(memory);
    VkSparseMemoryBind bind{};
    bind.resourceOffset = offset;
    bind.size = allocateInfo.allocationSize;
    bind.memory = memory;
    binds.push_back(bind);
  }
  VkSparseBufferMemoryBindInfo bufferBinds{
      allocation.buffer, uint32_t(binds.size()), binds.data()};
  VkBindSparseInfo bindInfo{VK_STRUCTURE_TYPE_BIND_SPARSE_INFO};
  bindInfo.bufferBindCount = 1;
  bindInfo.pBufferBinds = &bufferBinds;
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence bound = VK_NULL_HANDLE;
  TSR_CHECK(vkCreateFence(device->device, &fenceInfo, nullptr, &bound),
            "vkCreateFence");
  VkResult result;
  {
    std::lock_guard<std::mutex> lock(device->mutex); // the queue's users
    result = vkQueueBindSparse(device->queue, 1, &bindInfo, bound);
  }
  if (result == VK_SUCCESS)
    result = vkWaitForFences(device->device, 1, &bound, VK_TRUE, UINT64_MAX);
  vkDestroyFence(device->device, bound, nullptr);
  TSR_CHECK(result, "binding the pieces of a spanning allocation");
  return 0;
}

/// Registers a made allocation: launches, copies and lookups find it.
void addAllocation(tsr_device *device,
                   std::unique_ptr<tsr_allocation> allocation,
                   void **hostPointer, tsr_allocation **out) {
  allocation->deviceAddress = bufferAddress(device, allocation->buffer);
  *hostPointer = allocation->mapped;
  std::lock_guard<std::mutex> lock(device->mutex);
  device->allocations.emplace(allocation->mapped, allocation.get());
  *out = allocation.release();
}
} // namespace

extern "C" {
int tsr_allocate(tsr_device *device, uint64_t size, void **hostPointer,
                 tsr_allocation **out) {
  if (int status = checkAllocationSize(device, size, "allocating", "device"))
    return status;
  auto allocation = std::make_unique<tsr_allocation>();
  allocation->device = device;
  allocation->size = std::max<uint64_t>(size, 1);
  if (int status = allocateWhole(device, *allocation))
    return status;
  addAllocation(device, std::move(allocation), hostPointer, out);
  return 0;
}

int tsr_allocate_spanning(tsr_device *device, uint64_t size, void **hostPointer,
                          tsr_allocation **out) {
  if (size <= device->maxAllocationBytes) {
    int status = tsr_allocate(device, size, hostPointer, out);
    // Device memory the host maps is scarce where the GPU's BAR is small
    // (an H200 with a 256 MiB BAR1 refused 256,000,000 bytes of it, though
    // not larger sizes): memory the host never maps serves instead.
    if (status == 0 || !device->maxSpanningBytes)
      return status;
  } else if (size > device->maxSpanningBytes) {
    checkAllocationSize(device, size, "allocating", "device");
    return fail(lastError +
                (device->maxSpanningBytes
                     ? ", or " + std::to_string(device->maxSpanningBytes) +
                           " spanning several (maxBufferSize)"
                     : "; larger allocations span several, which needs "
                       "sparse binding on a GPU"));
  }
  auto allocation = std::make_unique<tsr_allocation>();
  allocation->device = device;
  if (int status = allocateSpanning(device, size, *allocation)) {
    destroySpanning(device->device, *allocation);
    return status;
  }
  addAllocation(device, std::move(allocation), hostPointer, out);
  return 0;
}

int tsr_import_host(tsr_device *device, void *hostPointer, uint64_t size,
                    tsr_allocation **out) {
  ImportedBuffer imported;
  if (int status = importHostMemory(device, hostPointer, size, imported)) {
    destroyBuffer(device->device, imported.buffer, imported.memory);
    return status;
  }
  auto *allocation = new tsr_allocation();
  allocation->device = device;
  allocation->buffer = imported.buffer;
  allocation->memory = imported.memory;
  allocation->mapped = static_cast<uint8_t *>(hostPointer);
  allocation->size = size;
  allocation->deviceAddress = bufferAddress(device, allocation->buffer);
  allocation->imported = true;
  std::lock_guard<std::mutex> lock(device->mutex);
  device->allocations.emplace(allocation->mapped, allocation);
  *out = allocation;
  return 0;
}

int tsr_device_address(tsr_device *device, const void *hostPointer,
                       uint64_t *deviceAddress) {
  if (!device->bufferDeviceAddress)
    return fail("the Vulkan device has no buffer device addresses");
  auto *address = static_cast<const uint8_t *>(hostPointer);
  std::lock_guard<std::mutex> lock(device->mutex);
  // Of every range that starts at or below the address (unlike bindings'
  // allocationHolding: a whole host mapping imported for a launch may start
  // below many smaller ranges), the one that holds it and reaches furthest:
  // an address table says where a tensor starts, not where it ends, and a
  // smaller import kept from an earlier launch may hold only its start.
  tsr_allocation *allocation = nullptr;
  const auto end = device->allocations.upper_bound(address);
  for (auto it = device->allocations.begin(); it != end; ++it) {
    tsr_allocation *range = it->second;
    if (address - range->mapped < static_cast<ptrdiff_t>(range->size) &&
        (!allocation || range->mapped + range->size >
                            allocation->mapped + allocation->size))
      allocation = range;
  }
  if (!allocation) {
    char text[32];
    std::snprintf(text, sizeof(text), "%p", hostPointer);
    return fail(std::string("no allocation or import of the runtime holds "
                            "host address ") +
                text);
  }
  *deviceAddress = allocation->deviceAddress + (address - allocation->mapped);
  return 0;
}

void tsr_free(tsr_allocation *allocation) {
  if (!allocation)
    return;
  tsr_device *device = allocation->device;
  std::lock_guard<std::mutex> lock(device->mutex);
  if (!allocation->imported)
    ++device->releasedAllocations;
  auto [first, last] = device->allocations.equal_range(allocation->mapped);
  for (auto it = first; it != last; ++it)
    if (it->second == allocation) {
      device->allocations.erase(it);
      break;
    }
  // Kernels also read device memory by address (tensors past one
  // binding), which no frame lists: as cudaFree does, freeing device memory
  // waits for every launch in flight. An import waits for the frames that
  // bind it.
  bool deviceMemory = !allocation->imported;
  auto usedBy = [&](const Frame &frame) {
    return (frame.submitted || &frame == device->open) &&
           (deviceMemory ||
            std::find(frame.allocations.begin(), frame.allocations.end(),
                      allocation) != frame.allocations.end());
  };
  if (std::any_of(std::begin(device->frames), std::end(device->frames),
                  usedBy)) {
    waitAllQuietly(device); // a launch in flight uses it
    for (Frame &frame : device->frames)
      if (usedBy(frame)) { // past its timeout: destroyed once it is done
        frame.deferredFrees.push_back(allocation);
        return;
      }
  }
  destroyAllocation(allocation);
}

uint64_t tsr_live_allocations(tsr_device *device) {
  std::lock_guard<std::mutex> lock(device->mutex);
  return device->allocations.size();
}

int tsr_allocation_range(tsr_device *device, const void *address,
                         uint64_t size, void **start, uint64_t *bytes) {
  std::lock_guard<std::mutex> lock(device->mutex);
  tsr_allocation *allocation = allocationHolding(
      device, static_cast<const uint8_t *>(address), size,
      /*deviceMemoryOnly=*/true);
  if (!allocation)
    return TSR_ERROR; // not an error worth a message: the caller asks
  *start = allocation->mapped;
  *bytes = allocation->size;
  return 0;
}

uint64_t tsr_released_allocations(tsr_device *device) {
  std::lock_guard<std::mutex> lock(device->mutex);
  return device->releasedAllocations;
}
} // extern "C"
