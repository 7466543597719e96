//===- submission.cpp - Frames, launches, copies, waits -------------------===//
//
// Part of the Vulkan runtime (triton_spirv_runtime.h); runtime_internal.h
// says which file holds what.
//
//===----------------------------------------------------------------------===//

#include "runtime_internal.h"

using namespace tsr_internal;

namespace tsr_internal {
/// The bound on one launch's run time, TRITON_SPIRV_TIMEOUT_S (default 600 s).
uint64_t launchTimeoutNs() {
  const char *text = std::getenv("TRITON_SPIRV_TIMEOUT_S");
  double seconds = text ? std::strtod(text, nullptr) : 600.0;
  if (!(seconds > 0))
    seconds = 600.0;
  return static_cast<uint64_t>(seconds * 1e9);
}

uint64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// How long a wait on a GPU spins before it sleeps (TRITON_SPIRV_SPIN_US,
/// default 100 us; 0 on CPU devices, whose workers the spinning would slow):
/// a small launch is done sooner than a sleeping thread wakes up.
uint64_t spinNsFor(const tsr_device *device) {
  if (device->isCpu)
    return 0;
  const char *text = std::getenv("TRITON_SPIRV_SPIN_US");
  return static_cast<uint64_t>((text ? std::strtod(text, nullptr) : 100.0) *
                               1000.0);
}

/// Waits until `deadlineNs` for a submitted frame, then records its GPU
/// time and releases what it kept. A frame still running at the deadline
/// stays submitted (with everything it binds): a later wait waits for it
/// again, so no memory it uses is released under it and nothing blocks
/// forever.
int retireFrame(tsr_device *device, Frame &frame, uint64_t deadlineNs) {
  // (Callers flush first: the frame being recorded is never one of these.)
  if (!frame.submitted) { // a launch that failed before reaching the queue
    release(device, frame.imports);
    frame.allocations.clear();
    return 0;
  }
  VkResult waited = VK_NOT_READY;
  for (uint64_t spinUntil = nowNs() + device->spinNs;
       waited == VK_NOT_READY && nowNs() < spinUntil;)
    waited = vkGetFenceStatus(device->device, frame.fence);
  if (waited == VK_NOT_READY) {
    uint64_t now = nowNs();
    waited = vkWaitForFences(device->device, 1, &frame.fence, VK_TRUE,
                             deadlineNs > now ? deadlineNs - now : 0);
  }
  if (waited == VK_TIMEOUT)
    return timedOut(
        "the kernel did not finish within TRITON_SPIRV_TIMEOUT_S (" +
        std::to_string(launchTimeoutNs() / 1000000) +
        " ms); it may still be running, and the next launch waits for it");
  TSR_CHECK(waited, "waiting for the kernel");
  frame.submitted = false;
  uint64_t stamps[2 * kBatch];
  unsigned first = 2 * kBatch * (&frame - device->frames);
  if (frame.timed &&
      vkGetQueryPoolResults(device->device, device->queryPool, first,
                            2 * frame.dispatches, sizeof(stamps), stamps,
                            sizeof(uint64_t),
                            VK_QUERY_RESULT_64_BIT) == VK_SUCCESS)
    for (unsigned i = 0; i < frame.dispatches; ++i) {
      auto elapsed = static_cast<uint64_t>(
          (stamps[2 * i + 1] - stamps[2 * i]) *
          double(device->properties.limits.timestampPeriod));
      device->elapsedNs[frame.sequences[i] % kElapsedHistory] += elapsed;
    }
  uint64_t last = frame.sequences[frame.dispatches - 1];
  device->finishedSequence = frame.lastOfLaunch ? last : last - 1;
  release(device, frame.imports);
  frame.allocations.clear();
  for (tsr_allocation *allocation : frame.deferredFrees)
    destroyAllocation(allocation);
  frame.deferredFrees.clear();
  return checkValidation(device);
}

/// Submits the frame being recorded, if any.
int flush(tsr_device *device) {
  Frame *frame = device->open;
  if (!frame)
    return 0;
  device->open = nullptr;
  TSR_CHECK(vkEndCommandBuffer(frame->commands), "vkEndCommandBuffer");
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &frame->commands;
  TSR_CHECK(vkResetFences(device->device, 1, &frame->fence), "vkResetFences");
  TSR_CHECK(vkQueueSubmit(device->queue, 1, &submit, frame->fence),
            "vkQueueSubmit");
  frame->submitted = true;
  return 0;
}

/// Whether two submissions are still in flight. A launch that comes then
/// joins the open frame; otherwise it is submitted at once, so that the GPU
/// finds the next submission queued behind the one it runs instead of
/// idling until a later launch notices that it is done.
bool submissionQueued(tsr_device *device) {
  unsigned running = 0;
  for (unsigned i = 1; i <= kFrames; ++i) {
    Frame &frame = device->frames[(device->nextFrame + kFrames - i) % kFrames];
    if (!frame.submitted)
      continue;
    // Frames complete in order: once one is done, so are the older ones.
    if (vkGetFenceStatus(device->device, frame.fence) != VK_NOT_READY)
      return false;
    if (++running == 2)
      return true;
  }
  return false;
}

/// Waits (until `deadlineNs`, by default the launch timeout from now) for
/// every launch in flight, oldest first; the caller holds the device lock.
int waitAll(tsr_device *device, uint64_t deadlineNs) {
  if (int status = flush(device))
    return status;
  if (!deadlineNs)
    deadlineNs = nowNs() + launchTimeoutNs();
  for (unsigned i = 0; i < kFrames; ++i)
    if (int status = retireFrame(
            device, device->frames[(device->nextFrame + i) % kFrames],
            deadlineNs))
      return status;
  return 0;
}

bool anyInFlight(tsr_device *device) {
  return std::any_of(std::begin(device->frames), std::end(device->frames),
                     [](const Frame &frame) { return frame.submitted; });
}

/// The frame to record the next dispatch into: the one being recorded while
/// it has room, else the next one, once the launches that used it are done
/// (begun, with its timestamps reset). On a CPU device (lavapipe) every
/// earlier launch is waited for first: its vkWaitForFences ignores the
/// timeout for a submission queued behind others, and queueing gains
/// nothing where the CPU runs the kernels.
Frame *acquireFrame(tsr_device *device, uint64_t deadlineNs, int &status) {
  status = 0;
  if (device->open && device->open->dispatches < kBatch)
    return device->open;
  if ((status = flush(device)))
    return nullptr;
  Frame &frame = device->frames[device->nextFrame];
  status = device->isCpu ? waitAll(device, deadlineNs)
                         : retireFrame(device, frame, deadlineNs);
  if (status)
    return nullptr;
  device->nextFrame = (device->nextFrame + 1) % kFrames;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  // Beginning resets the buffer (its pool allows resetting buffers).
  VkResult begun = vkBeginCommandBuffer(frame.commands, &begin);
  if (begun != VK_SUCCESS) {
    status = fail(std::string("vkBeginCommandBuffer: ") + resultName(begun));
    return nullptr;
  }
  frame.timed = device->timestamps;
  if (frame.timed)
    vkCmdResetQueryPool(frame.commands, device->queryPool,
                        2 * kBatch * (&frame - device->frames), 2 * kBatch);
  frame.dispatches = 0;
  device->open = &frame;
  return &frame;
}

/// waitAll for a call that cannot report errors (freeing, destroying): the
/// next tsr_synchronize reports it.
void waitAllQuietly(tsr_device *device) {
  if (waitAll(device) && device->unreportedError.empty())
    device->unreportedError = lastError;
}
} // namespace tsr_internal

extern "C" {
int tsr_submit(tsr_kernel *kernel, const uint32_t grid[3],
               const tsr_binding *bindings, uint32_t numBindings,
               const void *pushConstants, uint32_t programIdBaseOffset,
               uint64_t *sequence) {
  tsr_device *device = kernel->device;
  if (sequence)
    *sequence = 0;
  if (numBindings != kernel->numBindings)
    return fail("the kernel has " + std::to_string(kernel->numBindings) +
                " buffer bindings, the launch gives " +
                std::to_string(numBindings));
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return 0;
  const VkPhysicalDeviceLimits &limits = device->properties.limits;
  for (uint32_t i = 0; i < numBindings; ++i) {
    if (!bindings[i].size)
      return fail("buffer binding " + std::to_string(i) +
                  " has no memory (empty tensor)");
    if (bindings[i].size > limits.maxStorageBufferRange)
      return fail("buffer binding " + std::to_string(i) + " spans " +
                  std::to_string(bindings[i].size) +
                  " bytes; the device binds at most " +
                  std::to_string(limits.maxStorageBufferRange) +
                  " (maxStorageBufferRange)");
  }
  const uint32_t *limit = limits.maxComputeWorkGroupCount;
  bool canSplit = uint64_t(programIdBaseOffset) + 3 * sizeof(uint32_t) <=
                  kernel->pushConstantBytes;
  if (!canSplit &&
      (grid[0] > limit[0] || grid[1] > limit[1] || grid[2] > limit[2]))
    return fail("grid exceeds the device's workgroup count limits");
  uint64_t deadline = nowNs() + launchTimeoutNs();
  std::lock_guard<std::mutex> lock(device->mutex);
  PhaseTimer timer(device, kPrepare);
  ++device->profiledLaunches;
  // A kernel without push descriptors rewrites its one descriptor set.
  if (!kernel->pushDescriptors)
    if (int status = waitAll(device))
      return status;
  std::vector<ImportedBuffer> buffers(numBindings);
  std::vector<tsr_allocation *> usedAllocations;
  // What the launch binds stays with its latest submitted frame (released
  // here if none was submitted).
  Frame *latest = nullptr;
  struct Keeper {
    tsr_device *device;
    std::vector<ImportedBuffer> &buffers;
    std::vector<tsr_allocation *> &allocations;
    Frame *&latest;
    ~Keeper() {
      if (!latest) {
        release(device, buffers);
        return;
      }
      for (ImportedBuffer &imported : buffers)
        if (imported.buffer)
          latest->imports.push_back(imported);
      buffers.clear();
      latest->allocations.insert(latest->allocations.end(), allocations.begin(),
                                 allocations.end());
    }
  } keeper{device, buffers, usedAllocations, latest};
  // Identical ranges (one tensor passed twice, or two views of one storage)
  // share one import.
  std::vector<VkBuffer> bound(numBindings, VK_NULL_HANDLE);
  std::vector<VkDeviceSize> offsets(numBindings, 0),
      ranges(numBindings, VK_WHOLE_SIZE);
  for (uint32_t i = 0; i < numBindings; ++i) {
    // Device allocations and long-lived imports are bound as they are.
    auto *start = static_cast<uint8_t *>(bindings[i].host_pointer);
    tsr_allocation *allocation =
        allocationHolding(device, start, bindings[i].size);
    if (allocation) {
      bound[i] = allocation->buffer;
      usedAllocations.push_back(allocation);
      offsets[i] = start - allocation->mapped;
      ranges[i] = bindings[i].size;
      continue;
    }
    for (uint32_t j = 0; j < i && !bound[i]; ++j)
      if (bindings[j].host_pointer == bindings[i].host_pointer &&
          bindings[j].size == bindings[i].size)
        bound[i] = bound[j];
    if (bound[i])
      continue;
    if (int status = importHostMemory(device, bindings[i].host_pointer,
                                      bindings[i].size, buffers[i]))
      return status;
    bound[i] = buffers[i].buffer;
  }

  std::vector<VkDescriptorBufferInfo> infos;
  std::vector<VkWriteDescriptorSet> writes;
  infos.reserve(numBindings);
  for (uint32_t i = 0; i < numBindings; ++i) {
    infos.push_back({bound[i], offsets[i], ranges[i]});
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = kernel->set; // ignored by push descriptors
    write.dstBinding = i;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &infos.back();
    writes.push_back(write);
  }
  if (!kernel->pushDescriptors)
    vkUpdateDescriptorSets(device->device, writes.size(), writes.data(), 0,
                           nullptr);

  // A grid beyond the device's workgroup counts is several dispatches, each
  // told its first workgroup id through the push constants. A frame holds
  // at most kBatch of them, so a launch past its timeout stops when it waits
  // for a free frame instead of queueing the rest.
  struct Dispatch {
    uint32_t base[3];
    uint32_t count[3];
  };
  std::vector<Dispatch> dispatches;
  for (uint32_t z = 0; z < grid[2]; z += limit[2])
    for (uint32_t y = 0; y < grid[1]; y += limit[1])
      for (uint32_t x = 0; x < grid[0]; x += limit[0])
        dispatches.push_back(
            {{x, y, z},
             {std::min(grid[0] - x, limit[0]), std::min(grid[1] - y, limit[1]),
              std::min(grid[2] - z, limit[2])}});
  std::vector<uint8_t> constants(static_cast<const uint8_t *>(pushConstants),
                                 static_cast<const uint8_t *>(pushConstants) +
                                     kernel->pushConstantBytes);
  uint64_t launch = ++device->lastSequence;
  device->elapsedNs[launch % kElapsedHistory] = 0;
  if (sequence)
    *sequence = launch;
  for (size_t index = 0; index < dispatches.size(); ++index) {
    const Dispatch &dispatch = dispatches[index];
    int status = 0;
    timer.next(kAcquire);
    Frame *frame = acquireFrame(device, deadline, status);
    timer.next(kRecord);
    if (!frame) {
      if (status == TSR_ERROR_TIMEOUT && index > 0)
        lastError += " (stopped after " + std::to_string(index) + " of " +
                     std::to_string(dispatches.size()) + " dispatches)";
      return status;
    }
    unsigned query =
        2 * (kBatch * (frame - device->frames) + frame->dispatches);
    VkCommandBuffer commands = frame->commands;
    // Once the launches before it are done: its own time, not theirs.
    if (frame->timed)
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                          device->queryPool, query);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                      kernel->pipeline);
    // A kernel that takes every tensor by address binds nothing.
    bool bindsBuffers = !writes.empty();
    if (bindsBuffers && kernel->pushDescriptors)
      device->cmdPushDescriptorSet(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                                   kernel->layout, 0, writes.size(),
                                   writes.data());
    else if (bindsBuffers)
      vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                              kernel->layout, 0, 1, &kernel->set, 0, nullptr);
    if (canSplit)
      std::memcpy(constants.data() + programIdBaseOffset, dispatch.base,
                  sizeof(dispatch.base));
    if (kernel->pushConstantBytes)
      vkCmdPushConstants(commands, kernel->layout, VK_SHADER_STAGE_COMPUTE_BIT,
                         0, kernel->pushConstantBytes, constants.data());
    vkCmdDispatch(commands, dispatch.count[0], dispatch.count[1],
                  dispatch.count[2]);
    if (frame->timed)
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                          device->queryPool, query + 1);
    // Each launch sees the memory writes of the launches before it, and the
    // host sees its results once it is waited for.
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT |
                            VK_ACCESS_SHADER_READ_BIT |
                            VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT |
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 1, &barrier, 0, nullptr, 0, nullptr);
    frame->sequences[frame->dispatches++] = launch;
    frame->lastOfLaunch = index + 1 == dispatches.size();
    latest = frame; // the launch's memory moves to its latest frame
    // Submitted at once unless two submissions are in flight (or when the
    // frame is full); while they are, later launches join this submission.
    timer.next(kSubmit);
    if (frame->dispatches == kBatch || !submissionQueued(device))
      if (int status = flush(device))
        return status;
  }
  return checkValidation(device);
}

int tsr_synchronize(tsr_device *device) {
  std::lock_guard<std::mutex> lock(device->mutex);
  PhaseTimer timer(device, kWait);
  int status = waitAll(device);
  if (!status && !device->unreportedError.empty())
    status = fail(std::move(device->unreportedError));
  device->unreportedError.clear();
  return status;
}

int tsr_launch(tsr_kernel *kernel, const uint32_t grid[3],
               const tsr_binding *bindings, uint32_t numBindings,
               const void *pushConstants, uint32_t programIdBaseOffset,
               uint64_t *sequence) {
  if (int status = tsr_submit(kernel, grid, bindings, numBindings,
                              pushConstants, programIdBaseOffset, sequence))
    return status;
  return tsr_synchronize(kernel->device);
}

uint64_t tsr_submitted_launch(tsr_device *device) {
  std::lock_guard<std::mutex> lock(device->mutex);
  return device->lastSequence;
}

uint64_t tsr_finished_launch(tsr_device *device) {
  std::lock_guard<std::mutex> lock(device->mutex);
  return device->finishedSequence;
}
} // extern "C"

namespace {
/// One side of a transfer: the buffer and offset that hold a host address.
struct TransferEnd {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
};

/// The buffer holding the `size` bytes at `address`: a live allocation or
/// import (kept in `used`), else the page-aligned host range around it,
/// imported for this transfer (kept in `imports`).
int transferEnd(tsr_device *device, const uint8_t *address, uint64_t size,
                std::vector<tsr_allocation *> &used,
                std::vector<ImportedBuffer> &imports, TransferEnd &end) {
  if (tsr_allocation *allocation = allocationHolding(device, address, size)) {
    used.push_back(allocation);
    end = {allocation->buffer, VkDeviceSize(address - allocation->mapped)};
    return 0;
  }
  uint64_t mask = device->importAlignment - 1;
  auto first = reinterpret_cast<uintptr_t>(address) & ~mask;
  auto last = (reinterpret_cast<uintptr_t>(address) + size + mask) & ~mask;
  ImportedBuffer imported;
  if (int status = importHostMemory(device, reinterpret_cast<void *>(first),
                                    last - first, imported)) {
    destroyBuffer(device->device, imported.buffer, imported.memory);
    return status;
  }
  imports.push_back(imported);
  end = {imported.buffer, VkDeviceSize(reinterpret_cast<uintptr_t>(address) -
                                       first)};
  return 0;
}

/// Records a transfer command (a copy or a fill) on the queue as one launch,
/// ordered after the launches before it and before those after it; keeps
/// what it uses with its frame. The caller holds the device lock.
template <typename Record>
int submitTransfer(tsr_device *device, std::vector<tsr_allocation *> &used,
                   std::vector<ImportedBuffer> &imports, int wait,
                   uint64_t *sequence, Record record) {
  uint64_t deadline = nowNs() + launchTimeoutNs();
  int status = 0;
  Frame *frame = acquireFrame(device, deadline, status);
  if (!frame) {
    release(device, imports);
    return status;
  }
  uint64_t launch = ++device->lastSequence;
  device->elapsedNs[launch % kElapsedHistory] = 0;
  if (sequence)
    *sequence = launch;
  unsigned query = 2 * (kBatch * (frame - device->frames) + frame->dispatches);
  VkCommandBuffer commands = frame->commands;
  VkMemoryBarrier before{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  before.srcAccessMask =
      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  before.dstAccessMask =
      VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(
      commands,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, nullptr, 0, nullptr);
  if (frame->timed)
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                        device->queryPool, query);
  record(commands);
  if (frame->timed)
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                        device->queryPool, query + 1);
  VkMemoryBarrier after{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  after.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT |
                        VK_ACCESS_SHADER_WRITE_BIT |
                        VK_ACCESS_TRANSFER_READ_BIT |
                        VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT |
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                           VK_PIPELINE_STAGE_TRANSFER_BIT,
                       0, 1, &after, 0, nullptr, 0, nullptr);
  frame->sequences[frame->dispatches++] = launch;
  frame->lastOfLaunch = true;
  frame->imports.insert(frame->imports.end(), imports.begin(), imports.end());
  imports.clear();
  frame->allocations.insert(frame->allocations.end(), used.begin(),
                            used.end());
  if (int status = flush(device))
    return status;
  if (wait)
    if (int status = waitAll(device))
      return status;
  return checkValidation(device);
}
} // namespace

extern "C" {
int tsr_copy(tsr_device *device, void *destination, const void *source,
             uint64_t size, int wait, uint64_t *sequence) {
  if (sequence)
    *sequence = 0;
  if (size == 0)
    return 0;
  auto *to = static_cast<uint8_t *>(destination);
  auto *from = static_cast<const uint8_t *>(source);
  std::lock_guard<std::mutex> lock(device->mutex);
  // Where the CPU reaches device memory as fast as the GPU (lavapipe), or
  // neither side is device memory, the CPU copies.
  bool onQueue = !device->isCpu &&
                 (allocationHolding(device, from, size, true) ||
                  allocationHolding(device, to, size, true));
  if (onQueue) {
    std::vector<tsr_allocation *> used;
    std::vector<ImportedBuffer> imports;
    TransferEnd source, target;
    if (device->importAlignment &&
        !transferEnd(device, from, size, used, imports, source) &&
        !transferEnd(device, to, size, used, imports, target)) {
      VkBufferCopy region{source.offset, target.offset, size};
      return submitTransfer(
          device, used, imports, wait, sequence, [&](VkCommandBuffer commands) {
            vkCmdCopyBuffer(commands, source.buffer, target.buffer, 1, &region);
          });
    }
    // Host memory the driver cannot import (a file mapping, say): the CPU
    // copies through the device memory's mapping, which spanning
    // allocations do not have.
    release(device, imports);
    for (const uint8_t *end : {from, static_cast<const uint8_t *>(to)})
      if (tsr_allocation *allocation = allocationHolding(device, end, size))
        if (!allocation->spans.empty())
          return fail("copying " + std::to_string(size) +
                      " bytes between a spanning allocation (past the "
                      "device's largest single one) and host memory the "
                      "device cannot import: copy through a plain CPU "
                      "tensor");
  }
  if (int status = waitAll(device))
    return status;
  std::memmove(to, from, size);
  return 0;
}

int tsr_fill(tsr_device *device, void *destination, uint64_t size,
             uint32_t pattern, uint64_t *sequence) {
  if (sequence)
    *sequence = 0;
  auto *to = static_cast<uint8_t *>(destination);
  if (size == 0)
    return 0;
  std::lock_guard<std::mutex> lock(device->mutex);
  tsr_allocation *allocation = allocationHolding(device, to, size);
  if (!allocation || reinterpret_cast<uintptr_t>(to) % 4 || size % 4)
    return fail("tsr_fill: the range is not 4-byte aligned device memory");
  if (!device->isCpu) {
    std::vector<tsr_allocation *> used{allocation};
    std::vector<ImportedBuffer> imports;
    VkDeviceSize offset = to - allocation->mapped;
    return submitTransfer(device, used, imports, /*wait=*/0, sequence,
                          [&](VkCommandBuffer commands) {
                            vkCmdFillBuffer(commands, allocation->buffer,
                                            offset, size, pattern);
                          });
  }
  if (int status = waitAll(device))
    return status;
  for (uint64_t i = 0; i < size; i += 4)
    std::memcpy(to + i, &pattern, 4);
  return 0;
}
} // extern "C"
