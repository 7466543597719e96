//===- runtime_internal.h - What the runtime's files share ------*- C++ -*-===//
//
// The structures behind triton_spirv_runtime.h's handles and the helpers the
// runtime's files share. By concern: device.cpp (instance, device, errors,
// properties), memory.cpp (allocations, host imports, device addresses),
// pipelines.cpp (kernels), submission.cpp (frames, launches, copies,
// waits) and timing.cpp (GPU times of launches).
//
//===----------------------------------------------------------------------===//

#ifndef TRITON_SPIRV_RUNTIME_INTERNAL_H
#define TRITON_SPIRV_RUNTIME_INTERNAL_H

#include "triton_spirv_runtime.h"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct tsr_allocation;
struct tsr_device;
struct tsr_kernel;

// Internal to the library: only the C API is exported.
#pragma GCC visibility push(hidden)
namespace tsr_internal {
// Errors (device.cpp): the message tsr_last_error returns, and the status.
extern thread_local std::string lastError;
int fail(std::string message);
int timedOut(std::string message);
const char *resultName(VkResult result);
} // namespace tsr_internal
#pragma GCC visibility pop

#define TSR_CHECK(call, what)                                                  \
  do {                                                                         \
    VkResult result_ = (call);                                                 \
    if (result_ != VK_SUCCESS)                                                 \
      return fail(std::string(what) + ": " + resultName(result_) + " (" +      \
                  std::to_string(result_) + ")");                              \
  } while (0)

/// Host memory imported as a storage buffer for one launch.
struct ImportedBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
};

/// Dispatches one submission holds at most: while the GPU is busy, the
/// launches that come meanwhile are recorded into one command buffer and
/// submitted together once it is idle (one submission costs the GPU about
/// as much as a small kernel).
constexpr unsigned kBatch = 64;

/// One submission: launches in flight use different frames, so the next
/// launches are recorded while earlier ones run.
struct Frame {
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  bool submitted = false;
  bool timed = false; // its dispatches write timestamps
  /// The launch of each dispatch recorded (its timestamps are the pair
  /// 2 * (frame * kBatch + dispatch)), and whether the last one ends its
  /// launch (a split grid's dispatches may span frames).
  uint64_t sequences[kBatch] = {};
  unsigned dispatches = 0;
  bool lastOfLaunch = true;
  /// What its launches bind, kept until they are done: one-launch imports,
  /// and the allocations they bind (freeing one waits).
  std::vector<ImportedBuffer> imports;
  std::vector<tsr_allocation *> allocations;
  /// Allocations freed while a timed-out launch still used them.
  std::vector<tsr_allocation *> deferredFrees;
};

/// Where launch time goes (TRITON_SPIRV_PROFILE=1 prints it at close).
enum Phase { kPrepare, kAcquire, kRecord, kSubmit, kWait, kPhases };

inline constexpr const char *kPhaseNames[kPhases] = {
    "binding and import", "waiting for a free frame", "recording",
    "submitting (or joining a submission)",
    "synchronize (waiting for the GPU)"};

/// Submissions in flight at most (a submission beyond waits for the oldest).
constexpr unsigned kFrames = 8;

/// How many launches' GPU times are kept for timing events.
constexpr uint64_t kElapsedHistory = 1 << 16;

struct tsr_device {
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkQueryPool queryPool = VK_NULL_HANDLE; // two per dispatch of each frame
  Frame frames[kFrames];
  unsigned nextFrame = 0; // the oldest frame, and the next one used
  Frame *open = nullptr;  // the frame being recorded, if any
  bool isCpu = false;
  uint64_t spinNs = 0; // spinNsFor, read once
  // VK_KHR_push_descriptor: bindings are recorded into the command buffer,
  // so launches of one kernel need no descriptor set of their own.
  PFN_vkCmdPushDescriptorSetKHR cmdPushDescriptorSet = nullptr;
  uint32_t maxPushDescriptors = 0;
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  std::string pipelineCachePath;
  VkPhysicalDeviceProperties properties{};
  uint32_t subgroupSize = 0;
  uint32_t computeUnits = 0;
  uint64_t importAlignment = 0;
  /// The most bytes one allocation (a buffer and its memory) may have:
  /// maxMemoryAllocationSize, and maxBufferSize where the device says.
  uint64_t maxAllocationBytes = 0;
  /// The most bytes of a spanning allocation (tsr_allocate_spanning):
  /// maxBufferSize where the device binds sparse buffers and is not the
  /// CPU (whose copies go through host mappings); else 0.
  uint64_t maxSpanningBytes = 0;
  // Whether launches can be timed, and whether they are: timestamps cost a
  // few microseconds per launch, so they are written once timing is asked
  // for (tsr_enable_timing).
  bool timestampsAvailable = false;
  bool robustBufferAccess = false;
  /// Buffers have device addresses that shaders may load through.
  bool bufferDeviceAddress = false;
  /// Shaders may use cooperative matrices of bf16 components.
  bool bfloat16CooperativeMatrix = false;
  /// Shaders may reduce the rows of cooperative matrices, call functions
  /// per element and convert accumulators to operands
  /// (VK_NV_cooperative_matrix2).
  bool cooperativeMatrix2 = false;
  bool denormPreserveFloat32 = false; // shaderDenormPreserveFloat32
  bool timestamps = false;
  PFN_vkGetMemoryHostPointerPropertiesEXT getHostPointerProperties = nullptr;
  std::mutex mutex;
  // Memory launches bind without importing, by start address: mapped device
  // allocations and long-lived host imports. Several may start at one
  // address: on a CPU device, device memory comes from the same heap as CPU
  // tensors, so a small device allocation and the import of the page that
  // holds a tensor beside it start alike.
  std::multimap<const uint8_t *, tsr_allocation *> allocations;
  // How many tsr_allocate allocations were freed (tsr_released_allocations).
  uint64_t releasedAllocations = 0;
  // Launches are numbered from 1; the last submitted, and the last whose
  // every dispatch is done (all earlier ones are done too).
  uint64_t lastSequence = 0;
  uint64_t finishedSequence = 0;
  // GPU time of each recent launch, by sequence modulo kElapsedHistory.
  std::vector<uint64_t> elapsedNs = std::vector<uint64_t>(kElapsedHistory);
  // The error of a launch that finished while freeing resources, for the
  // next tsr_synchronize.
  std::string unreportedError;
  // Host time per phase of the launch path, when profiling.
  bool profile = false;
  uint64_t phaseNs[kPhases] = {};
  // TRITON_SPIRV_PIPELINE_STATS=1: each pipeline's statistics (registers,
  // instructions, ... as the driver names them) printed when it is made.
  PFN_vkGetPipelineExecutablePropertiesKHR getExecutableProperties = nullptr;
  PFN_vkGetPipelineExecutableStatisticsKHR getExecutableStatistics = nullptr;
  uint64_t profiledLaunches = 0;
  // Messages of the validation layer since the last check.
  std::mutex validationMutex;
  std::string validationErrors;
};

struct tsr_allocation {
  tsr_device *device = nullptr;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  /// The host address of its start: the mapping of device memory, or the
  /// imported host memory.
  uint8_t *mapped = nullptr;
  uint64_t size = 0;
  /// Its start's device address (0 without buffer device addresses).
  VkDeviceAddress deviceAddress = 0;
  /// Host memory imported (tsr_import_host), not device memory.
  bool imported = false;
  /// A spanning allocation: a sparse buffer over these memory objects, which
  /// the host cannot map; `mapped` is a host range reserved to stand for it
  /// (`memory` is then null).
  std::vector<VkDeviceMemory> spans;
};

struct tsr_kernel {
  tsr_device *device = nullptr;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  /// Without push descriptors: the kernel's one descriptor set, rewritten
  /// by each launch once the launches in flight are done.
  VkDescriptorSet set = VK_NULL_HANDLE;
  bool pushDescriptors = false;
  uint32_t numBindings = 0;
  uint32_t pushConstantBytes = 0;
};


// Internal to the library: only the C API is exported.
#pragma GCC visibility push(hidden)
namespace tsr_internal {
// Devices (device.cpp).
int checkValidation(tsr_device *device);
void savePipelineCache(tsr_device *device);

// Memory (memory.cpp).
VkBufferUsageFlags storageBufferUsage(const tsr_device *device);
VkMemoryAllocateFlagsInfo memoryAllocateFlags(const tsr_device *device);
VkDeviceAddress bufferAddress(const tsr_device *device, VkBuffer buffer);
void destroyBuffer(VkDevice device, VkBuffer buffer, VkDeviceMemory memory);
void release(tsr_device *device, std::vector<ImportedBuffer> &buffers);
void destroyAllocation(tsr_allocation *allocation);
tsr_allocation *allocationHolding(tsr_device *device, const uint8_t *address,
                                  uint64_t size,
                                  bool deviceMemoryOnly = false);
int checkAllocationSize(const tsr_device *device, uint64_t size,
                        const char *doing, const char *memory);
int importHostMemory(tsr_device *device, void *hostPointer, uint64_t size,
                     ImportedBuffer &imported);

// Pipelines (pipelines.cpp).
void printPipelineStatistics(tsr_device *device, VkPipeline pipeline,
                             const char *entryPoint);
void destroyKernelObjects(tsr_kernel *kernel);

// Submission (submission.cpp).
uint64_t launchTimeoutNs();
uint64_t nowNs();
uint64_t spinNsFor(const tsr_device *device);
int retireFrame(tsr_device *device, Frame &frame, uint64_t deadlineNs);
int flush(tsr_device *device);
bool submissionQueued(tsr_device *device);
int waitAll(tsr_device *device, uint64_t deadlineNs = 0);
bool anyInFlight(tsr_device *device);
Frame *acquireFrame(tsr_device *device, uint64_t deadlineNs, int &status);
void waitAllQuietly(tsr_device *device);
} // namespace tsr_internal
#pragma GCC visibility pop

/// Adds the time until the next `next()` (or its end) to a profiled phase.
struct PhaseTimer {
  tsr_device *device;
  Phase phase;
  uint64_t start;
  PhaseTimer(tsr_device *device, Phase phase)
      : device(device), phase(phase),
        start(device->profile ? tsr_internal::nowNs() : 0) {}
  void next(Phase following) {
    if (!device->profile)
      return;
    uint64_t now = tsr_internal::nowNs();
    device->phaseNs[phase] += now - start;
    phase = following;
    start = now;
  }
  ~PhaseTimer() { next(phase); }
};

#endif // TRITON_SPIRV_RUNTIME_INTERNAL_H
