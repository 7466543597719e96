//===- vulkan_runtime.cpp - Vulkan compute runtime ------------------------===//
//
// Implements triton_spirv_runtime.h: device selection, compute pipelines
// with a persistent VkPipelineCache, host memory imported zero-copy as
// storage buffers, push constants, split dispatches and timestamps.
//
//===----------------------------------------------------------------------===//

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

namespace {
thread_local std::string lastError;

int fail(std::string message) {
  lastError = std::move(message);
  return TSR_ERROR;
}

int timedOut(std::string message) {
  lastError = std::move(message);
  return TSR_ERROR_TIMEOUT;
}

const char *resultName(VkResult result) {
  switch (result) {
  case VK_ERROR_OUT_OF_HOST_MEMORY:
    return "out of host memory";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    return "out of device memory";
  case VK_ERROR_DEVICE_LOST:
    return "device lost";
  case VK_ERROR_INITIALIZATION_FAILED:
    return "initialization failed";
  case VK_ERROR_EXTENSION_NOT_PRESENT:
    return "extension not present";
  case VK_ERROR_FEATURE_NOT_PRESENT:
    return "feature not present";
  case VK_ERROR_INVALID_EXTERNAL_HANDLE:
    return "invalid external handle (host memory could not be imported)";
  case VK_ERROR_INVALID_SHADER_NV:
    return "invalid shader";
  case VK_TIMEOUT:
    return "timeout";
  default:
    return "error";
  }
}

#define TSR_CHECK(call, what)                                                  \
  do {                                                                         \
    VkResult result_ = (call);                                                 \
    if (result_ != VK_SUCCESS)                                                 \
      return fail(std::string(what) + ": " + resultName(result_) + " (" +      \
                  std::to_string(result_) + ")");                              \
  } while (0)

// VK_KHR_cooperative_matrix postdates the Vulkan headers of Debian 12; its
// feature struct and names, from the Vulkan registry.
constexpr const char *kCooperativeMatrixExtensionName =
    "VK_KHR_cooperative_matrix";
struct CooperativeMatrixFeatures {
  VkStructureType sType = static_cast<VkStructureType>(1000506000);
  void *pNext = nullptr;
  VkBool32 cooperativeMatrix = VK_FALSE;
  VkBool32 cooperativeMatrixRobustBufferAccess = VK_FALSE;
};

// VK_KHR_shader_bfloat16 (bf16 cooperative matrices), likewise.
constexpr const char *kBFloat16ExtensionName = "VK_KHR_shader_bfloat16";
struct BFloat16Features {
  VkStructureType sType = static_cast<VkStructureType>(1000141000);
  void *pNext = nullptr;
  VkBool32 shaderBFloat16Type = VK_FALSE;
  VkBool32 shaderBFloat16DotProduct = VK_FALSE;
  VkBool32 shaderBFloat16CooperativeMatrix = VK_FALSE;
};

// VK_NV_cooperative_matrix2 (row reductions, per-element functions and
// conversions of cooperative matrices), likewise.
constexpr const char *kCooperativeMatrix2ExtensionName =
    "VK_NV_cooperative_matrix2";
struct CooperativeMatrix2Features {
  VkStructureType sType = static_cast<VkStructureType>(1000593000);
  void *pNext = nullptr;
  VkBool32 cooperativeMatrixWorkgroupScope = VK_FALSE;
  VkBool32 cooperativeMatrixFlexibleDimensions = VK_FALSE;
  VkBool32 cooperativeMatrixReductions = VK_FALSE;
  VkBool32 cooperativeMatrixConversions = VK_FALSE;
  VkBool32 cooperativeMatrixPerElementOperations = VK_FALSE;
  VkBool32 cooperativeMatrixTensorAddressing = VK_FALSE;
  VkBool32 cooperativeMatrixBlockLoads = VK_FALSE;
};

bool hasExtension(const std::vector<VkExtensionProperties> &extensions,
                  const char *name) {
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties &e) {
                       return std::strcmp(e.extensionName, name) == 0;
                     });
}

int typeRank(VkPhysicalDeviceType type) {
  switch (type) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return 0;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return 1;
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return 2;
  default:
    return 3;
  }
}
} // namespace

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
constexpr const char *kPhaseNames[kPhases] = {
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

namespace {
VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity,
    VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *userData) {
  if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    return VK_FALSE;
  auto *device = static_cast<tsr_device *>(userData);
  std::lock_guard<std::mutex> lock(device->validationMutex);
  device->validationErrors += data->pMessage;
  device->validationErrors += "\n";
  return VK_FALSE;
}

int checkValidation(tsr_device *device) {
  std::lock_guard<std::mutex> lock(device->validationMutex);
  if (device->validationErrors.empty())
    return 0;
  std::string errors;
  std::swap(errors, device->validationErrors);
  return fail("Vulkan validation layer: " + errors);
}

int createInstance(tsr_device *device, bool validation) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "triton-spirv";
  app.apiVersion = VK_API_VERSION_1_2;
  std::vector<const char *> layers, extensions;
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo{
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messengerInfo.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
  messengerInfo.pfnUserCallback = onValidationMessage;
  messengerInfo.pUserData = device;
  if (validation) {
    layers.push_back("VK_LAYER_KHRONOS_validation");
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledLayerCount = layers.size();
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = extensions.size();
  info.ppEnabledExtensionNames = extensions.data();
  if (validation)
    info.pNext = &messengerInfo;
  TSR_CHECK(vkCreateInstance(&info, nullptr, &device->instance),
            validation ? "vkCreateInstance (with the validation layer)"
                       : "vkCreateInstance");
  if (validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(device->instance,
                              "vkCreateDebugUtilsMessengerEXT"));
    if (create)
      create(device->instance, &messengerInfo, nullptr, &device->messenger);
  }
  return 0;
}

int selectPhysicalDevice(tsr_device *device, const char *selector) {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(device->instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(device->instance, &count, devices.data());
  if (count == 0)
    return fail("no Vulkan device found");
  std::string wanted = selector ? selector : "";
  if (!wanted.empty()) {
    char *end = nullptr;
    unsigned long index = std::strtoul(wanted.c_str(), &end, 10);
    if (*end == '\0') {
      if (index >= count)
        return fail("TRITON_SPIRV_DEVICE=" + wanted + ": only " +
                    std::to_string(count) + " Vulkan devices");
      device->physical = devices[index];
      return 0;
    }
    for (VkPhysicalDevice candidate : devices) {
      VkPhysicalDeviceProperties properties;
      vkGetPhysicalDeviceProperties(candidate, &properties);
      if (std::strstr(properties.deviceName, wanted.c_str())) {
        device->physical = candidate;
        return 0;
      }
    }
    return fail("no Vulkan device named like '" + wanted + "'");
  }
  device->physical = *std::min_element(
      devices.begin(), devices.end(),
      [](VkPhysicalDevice a, VkPhysicalDevice b) {
        VkPhysicalDeviceProperties pa, pb;
        vkGetPhysicalDeviceProperties(a, &pa);
        vkGetPhysicalDeviceProperties(b, &pb);
        return typeRank(pa.deviceType) < typeRank(pb.deviceType);
      });
  return 0;
}

int createLogicalDevice(tsr_device *device) {
  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device->physical, &familyCount,
                                           nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(device->physical, &familyCount,
                                           families.data());
  bool found = false;
  for (uint32_t i = 0; i < familyCount && !found; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      device->queueFamily = i;
      // TRITON_SPIRV_TIMESTAMPS=0: no GPU timing (events use wall time).
      const char *timestamps = std::getenv("TRITON_SPIRV_TIMESTAMPS");
      device->timestampsAvailable =
          families[i].timestampValidBits != 0 &&
          !(timestamps && std::strcmp(timestamps, "0") == 0);
      found = true;
    }
  if (!found)
    return fail("the Vulkan device has no compute queue");

  uint32_t extensionCount = 0;
  vkEnumerateDeviceExtensionProperties(device->physical, nullptr,
                                       &extensionCount, nullptr);
  std::vector<VkExtensionProperties> available(extensionCount);
  vkEnumerateDeviceExtensionProperties(device->physical, nullptr,
                                       &extensionCount, available.data());
  std::vector<const char *> extensions;
  bool hostImport =
      hasExtension(available, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  if (hostImport)
    extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  bool atomicFloat =
      hasExtension(available, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  bool smBuiltins =
      hasExtension(available, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
  if (atomicFloat)
    extensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  bool cooperativeMatrix =
      hasExtension(available, kCooperativeMatrixExtensionName);
  if (cooperativeMatrix)
    extensions.push_back(kCooperativeMatrixExtensionName);
  bool cooperativeMatrix2 =
      cooperativeMatrix &&
      hasExtension(available, kCooperativeMatrix2ExtensionName);
  if (cooperativeMatrix2)
    extensions.push_back(kCooperativeMatrix2ExtensionName);
  bool bfloat16 = hasExtension(available, kBFloat16ExtensionName);
  if (bfloat16)
    extensions.push_back(kBFloat16ExtensionName);
  bool pushDescriptor =
      hasExtension(available, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (pushDescriptor)
    extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  const char *statsWanted = std::getenv("TRITON_SPIRV_PIPELINE_STATS");
  bool pipelineStats =
      statsWanted && std::strcmp(statsWanted, "1") == 0 &&
      hasExtension(available,
                   VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  if (pipelineStats)
    extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);

  // Enable every feature the device has that shaders may declare.
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicFloatFeatures{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceVulkan12Features features12{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan11Features features11{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceFeatures2 features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &features11;
  features11.pNext = &features12;
  // Chain the optional feature structs of the extensions present after the
  // Vulkan 1.2 one.
  void **chainEnd = &features12.pNext;
  auto chainIf = [&](bool present, auto &optional) {
    if (!present)
      return;
    *chainEnd = &optional;
    chainEnd = &optional.pNext;
  };
  chainIf(atomicFloat, atomicFloatFeatures);
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR statsFeatures{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  chainIf(pipelineStats, statsFeatures);
  BFloat16Features bfloat16Features;
  chainIf(bfloat16, bfloat16Features);
  CooperativeMatrix2Features cooperativeMatrix2Features;
  chainIf(cooperativeMatrix2, cooperativeMatrix2Features);
  CooperativeMatrixFeatures cooperativeMatrixFeatures;
  chainIf(cooperativeMatrix, cooperativeMatrixFeatures);
  vkGetPhysicalDeviceFeatures2(device->physical, &features);
  // Out-of-bounds accesses read zeros and drop writes instead of faulting
  // the device; TRITON_SPIRV_ROBUST=0 turns that off (to measure its cost).
  const char *robust = std::getenv("TRITON_SPIRV_ROBUST");
  if (robust && std::strcmp(robust, "0") == 0)
    features.features.robustBufferAccess = VK_FALSE;
  device->robustBufferAccess = features.features.robustBufferAccess;
  device->bufferDeviceAddress = features12.bufferDeviceAddress;
  device->bfloat16CooperativeMatrix =
      cooperativeMatrix && cooperativeMatrixFeatures.cooperativeMatrix &&
      bfloat16Features.shaderBFloat16CooperativeMatrix;
  device->cooperativeMatrix2 =
      cooperativeMatrix2 && cooperativeMatrixFeatures.cooperativeMatrix &&
      cooperativeMatrix2Features.cooperativeMatrixReductions &&
      cooperativeMatrix2Features.cooperativeMatrixConversions &&
      cooperativeMatrix2Features.cooperativeMatrixPerElementOperations;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = device->queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  info.enabledExtensionCount = extensions.size();
  info.ppEnabledExtensionNames = extensions.data();
  TSR_CHECK(vkCreateDevice(device->physical, &info, nullptr, &device->device),
            "vkCreateDevice");
  vkGetDeviceQueue(device->device, device->queueFamily, 0, &device->queue);

  VkPhysicalDeviceExternalMemoryHostPropertiesEXT hostProperties{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV smProperties{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDevicePushDescriptorPropertiesKHR pushDescriptorProperties{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
  VkPhysicalDeviceMaintenance3Properties maintenance3{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceMaintenance4Properties maintenance4{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
  subgroup.pNext = &maintenance3;
  void **next = &maintenance3.pNext;
  VkPhysicalDeviceProperties basics;
  vkGetPhysicalDeviceProperties(device->physical, &basics);
  if (basics.apiVersion >= VK_API_VERSION_1_3) {
    *next = &maintenance4;
    next = &maintenance4.pNext;
  }
  if (pushDescriptor) {
    *next = &pushDescriptorProperties;
    next = &pushDescriptorProperties.pNext;
  }
  if (hostImport) {
    *next = &hostProperties;
    next = &hostProperties.pNext;
  }
  if (smBuiltins)
    *next = &smProperties;
  VkPhysicalDeviceProperties2 properties{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(device->physical, &properties);
  device->properties = properties.properties;
  device->maxAllocationBytes = maintenance3.maxMemoryAllocationSize;
  if (basics.apiVersion >= VK_API_VERSION_1_3)
    device->maxAllocationBytes =
        std::min<uint64_t>(device->maxAllocationBytes,
                           maintenance4.maxBufferSize);
  device->isCpu =
      properties.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  if (pushDescriptor) {
    device->maxPushDescriptors = pushDescriptorProperties.maxPushDescriptors;
    device->cmdPushDescriptorSet =
        reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
            vkGetDeviceProcAddr(device->device, "vkCmdPushDescriptorSetKHR"));
  }
  if (pipelineStats && statsFeatures.pipelineExecutableInfo) {
    device->getExecutableProperties =
        reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
            vkGetDeviceProcAddr(device->device,
                                "vkGetPipelineExecutablePropertiesKHR"));
    device->getExecutableStatistics =
        reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
            vkGetDeviceProcAddr(device->device,
                                "vkGetPipelineExecutableStatisticsKHR"));
  }
  device->subgroupSize = subgroup.subgroupSize;
  device->computeUnits = smBuiltins ? smProperties.shaderSMCount : 0;
  if (hostImport) {
    device->importAlignment = hostProperties.minImportedHostPointerAlignment;
    device->getHostPointerProperties =
        reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
            vkGetDeviceProcAddr(device->device,
                                "vkGetMemoryHostPointerPropertiesEXT"));
  }
  return 0;
}

int createDeviceObjects(tsr_device *device) {
  VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = device->queueFamily;
  TSR_CHECK(vkCreateCommandPool(device->device, &poolInfo, nullptr,
                                &device->commandPool),
            "vkCreateCommandPool");
  VkCommandBufferAllocateInfo bufferInfo{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  bufferInfo.commandPool = device->commandPool;
  bufferInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  bufferInfo.commandBufferCount = 1;
  for (Frame &frame : device->frames) {
    TSR_CHECK(
        vkAllocateCommandBuffers(device->device, &bufferInfo, &frame.commands),
        "vkAllocateCommandBuffers");
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    TSR_CHECK(vkCreateFence(device->device, &fenceInfo, nullptr, &frame.fence),
              "vkCreateFence");
  }
  if (device->timestampsAvailable) {
    VkQueryPoolCreateInfo queryInfo{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
    queryInfo.queryCount = 2 * kBatch * kFrames;
    TSR_CHECK(vkCreateQueryPool(device->device, &queryInfo, nullptr,
                                &device->queryPool),
              "vkCreateQueryPool");
  }
  // The pipeline cache persists compiled pipelines across processes.
  std::vector<char> data;
  if (!device->pipelineCachePath.empty()) {
    std::ifstream in(device->pipelineCachePath, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(in),
                std::istreambuf_iterator<char>());
  }
  VkPipelineCacheCreateInfo cacheInfo{
      VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  cacheInfo.initialDataSize = data.size();
  cacheInfo.pInitialData = data.empty() ? nullptr : data.data();
  if (vkCreatePipelineCache(device->device, &cacheInfo, nullptr,
                            &device->pipelineCache) != VK_SUCCESS) {
    // Stale or foreign data: start empty.
    cacheInfo.initialDataSize = 0;
    cacheInfo.pInitialData = nullptr;
    TSR_CHECK(vkCreatePipelineCache(device->device, &cacheInfo, nullptr,
                                    &device->pipelineCache),
              "vkCreatePipelineCache");
  }
  return 0;
}

void savePipelineCache(tsr_device *device) {
  if (device->pipelineCachePath.empty() || !device->pipelineCache)
    return;
  size_t size = 0;
  if (vkGetPipelineCacheData(device->device, device->pipelineCache, &size,
                             nullptr) != VK_SUCCESS ||
      size == 0)
    return;
  std::vector<char> data(size);
  if (vkGetPipelineCacheData(device->device, device->pipelineCache, &size,
                             data.data()) != VK_SUCCESS)
    return;
  std::string temporary = device->pipelineCachePath + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    out.write(data.data(), size);
  }
  std::rename(temporary.c_str(), device->pipelineCachePath.c_str());
}

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

/// Adds the time until the next `next()` (or its end) to a profiled phase.
struct PhaseTimer {
  tsr_device *device;
  Phase phase;
  uint64_t start;
  PhaseTimer(tsr_device *device, Phase phase)
      : device(device), phase(phase), start(device->profile ? nowNs() : 0) {}
  void next(Phase following) {
    if (!device->profile)
      return;
    uint64_t now = nowNs();
    device->phaseNs[phase] += now - start;
    phase = following;
    start = now;
  }
  ~PhaseTimer() { next(phase); }
};

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

void destroyAllocation(tsr_allocation *allocation) {
  destroyBuffer(allocation->device->device, allocation->buffer,
                allocation->memory);
  delete allocation;
}

/// Prints what the driver reports about a pipeline's compiled code, one
/// line per executable: `name: statistic=value, ...`.
void printPipelineStatistics(tsr_device *device, VkPipeline pipeline,
                             const char *entryPoint) {
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  uint32_t executables = 0;
  if (device->getExecutableProperties(device->device, &info, &executables,
                                      nullptr) != VK_SUCCESS)
    return;
  for (uint32_t index = 0; index < executables; ++index) {
    VkPipelineExecutableInfoKHR executable{
        VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    executable.pipeline = pipeline;
    executable.executableIndex = index;
    uint32_t count = 0;
    if (device->getExecutableStatistics(device->device, &executable, &count,
                                        nullptr) != VK_SUCCESS)
      continue;
    std::vector<VkPipelineExecutableStatisticKHR> statistics(
        count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (device->getExecutableStatistics(device->device, &executable, &count,
                                        statistics.data()) != VK_SUCCESS)
      continue;
    std::string line = std::string("triton-spirv pipeline ") + entryPoint + ":";
    for (const VkPipelineExecutableStatisticKHR &statistic : statistics) {
      line += std::string(" ") + statistic.name + "=";
      switch (statistic.format) {
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
        line += statistic.value.b32 ? "true" : "false";
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
        line += std::to_string(statistic.value.i64);
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        line += std::to_string(statistic.value.u64);
        break;
      default:
        line += std::to_string(statistic.value.f64);
      }
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }
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
int waitAll(tsr_device *device, uint64_t deadlineNs = 0) {
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

/// A live allocation or import (only an allocation of device memory with
/// `deviceMemoryOnly`) whose range holds the `size` bytes at `address`, if
/// any.
tsr_allocation *allocationHolding(tsr_device *device, const uint8_t *address,
                                  uint64_t size,
                                  bool deviceMemoryOnly = false) {
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
/// Destroys a kernel's Vulkan objects (no launch may be using them).
void destroyKernelObjects(tsr_kernel *kernel) {
  VkDevice device = kernel->device->device;
  if (kernel->pool)
    vkDestroyDescriptorPool(device, kernel->pool, nullptr);
  if (kernel->pipeline)
    vkDestroyPipeline(device, kernel->pipeline, nullptr);
  if (kernel->layout)
    vkDestroyPipelineLayout(device, kernel->layout, nullptr);
  if (kernel->setLayout)
    vkDestroyDescriptorSetLayout(device, kernel->setLayout, nullptr);
  if (kernel->module)
    vkDestroyShaderModule(device, kernel->module, nullptr);
  delete kernel;
}

} // namespace

extern "C" {

const char *tsr_last_error(void) { return lastError.c_str(); }

int tsr_open_device(const char *selector, const char *pipelineCachePath,
                    int validation, tsr_device **out) {
  auto *device = new tsr_device();
  device->profile = std::getenv("TRITON_SPIRV_PROFILE") != nullptr;
  if (pipelineCachePath)
    device->pipelineCachePath = pipelineCachePath;
  if (createInstance(device, validation) ||
      selectPhysicalDevice(device, selector) || createLogicalDevice(device) ||
      createDeviceObjects(device) || checkValidation(device)) {
    tsr_close_device(device);
    return TSR_ERROR;
  }
  device->spinNs = spinNsFor(device);
  *out = device;
  return 0;
}

void tsr_close_device(tsr_device *device) {
  if (!device)
    return;
  if (device->device) {
    {
      std::lock_guard<std::mutex> lock(device->mutex);
      waitAllQuietly(device);
    }
    // A launch that outlived its timeout may still run: destroying what it
    // uses (or waiting for the device) could crash or hang, so the device is
    // left to the process's exit.
    if (anyInFlight(device))
      return;
    vkDeviceWaitIdle(device->device);
    if (device->profile && device->profiledLaunches) {
      std::fprintf(stderr, "triton-spirv runtime, %llu launches, us each:\n",
                   static_cast<unsigned long long>(device->profiledLaunches));
      for (int phase = 0; phase < kPhases; ++phase)
        std::fprintf(stderr, "  %-36s %8.2f\n", kPhaseNames[phase],
                     device->phaseNs[phase] / 1e3 / device->profiledLaunches);
    }
    // Allocations still alive (their tensors outlive the device) go with it.
    for (auto [start, allocation] : device->allocations)
      destroyAllocation(allocation);
    device->allocations.clear();
    savePipelineCache(device);
    if (device->pipelineCache)
      vkDestroyPipelineCache(device->device, device->pipelineCache, nullptr);
    if (device->queryPool)
      vkDestroyQueryPool(device->device, device->queryPool, nullptr);
    for (Frame &frame : device->frames)
      if (frame.fence)
        vkDestroyFence(device->device, frame.fence, nullptr);
    if (device->commandPool)
      vkDestroyCommandPool(device->device, device->commandPool, nullptr);
    vkDestroyDevice(device->device, nullptr);
  }
  if (device->messenger) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(device->instance,
                              "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy)
      destroy(device->instance, device->messenger, nullptr);
  }
  if (device->instance)
    vkDestroyInstance(device->instance, nullptr);
  delete device;
}

int tsr_get_properties(tsr_device *device, tsr_properties *out) {
  if (out->struct_size != sizeof(tsr_properties))
    return fail("tsr_properties of " + std::to_string(out->struct_size) +
                " bytes given; this runtime's has " +
                std::to_string(sizeof(tsr_properties)) +
                " (a mirror of triton_spirv_runtime.h out of date)");
  const VkPhysicalDeviceLimits &limits = device->properties.limits;
  std::memset(out, 0, sizeof(*out));
  out->struct_size = sizeof(tsr_properties);
  std::snprintf(out->name, sizeof(out->name), "%s",
                device->properties.deviceName);
  out->vendor_id = device->properties.vendorID;
  out->device_type = device->properties.deviceType;
  out->api_version = device->properties.apiVersion;
  out->subgroup_size = device->subgroupSize;
  out->compute_units = device->computeUnits;
  out->max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i)
    out->max_workgroup_count[i] = limits.maxComputeWorkGroupCount[i];
  out->max_shared_memory = limits.maxComputeSharedMemorySize;
  out->max_push_constants = limits.maxPushConstantsSize;
  out->host_import_alignment = device->importAlignment;
  out->timestamps = device->timestampsAvailable;
  out->max_storage_buffer_range = limits.maxStorageBufferRange;
  out->robust_buffer_access = device->robustBufferAccess;
  out->buffer_device_address = device->bufferDeviceAddress;
  out->bfloat16_cooperative_matrix = device->bfloat16CooperativeMatrix;
  out->cooperative_matrix2 = device->cooperativeMatrix2;
  out->min_storage_buffer_offset_alignment =
      limits.minStorageBufferOffsetAlignment;
  out->max_allocation_bytes = device->maxAllocationBytes;
  return 0;
}

int tsr_allocate(tsr_device *device, uint64_t size, void **hostPointer,
                 tsr_allocation **out) {
  if (int status = checkAllocationSize(device, size, "allocating", "device"))
    return status;
  auto allocation = std::make_unique<tsr_allocation>();
  allocation->device = device;
  allocation->size = std::max<uint64_t>(size, 1);
  VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.size = allocation->size;
  bufferInfo.usage = storageBufferUsage(device);
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  TSR_CHECK(
      vkCreateBuffer(device->device, &bufferInfo, nullptr, &allocation->buffer),
      "vkCreateBuffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device->device, allocation->buffer,
                                &requirements);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(device->physical, &memory);
  // Prefer device-local memory the host sees coherently; else any coherent
  // host-visible memory.
  const VkMemoryPropertyFlags visible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int chosen = -1;
  for (VkMemoryPropertyFlags wanted :
       {visible | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, visible})
    for (uint32_t type = 0; type < memory.memoryTypeCount && chosen < 0; ++type)
      if ((requirements.memoryTypeBits & (1u << type)) &&
          (memory.memoryTypes[type].propertyFlags & wanted) == wanted &&
          memory.memoryHeaps[memory.memoryTypes[type].heapIndex].size >=
              requirements.size)
        chosen = type;
  auto cleanUp = [&] {
    destroyBuffer(device->device, allocation->buffer, allocation->memory);
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
                                     &allocation->memory);
  if (result == VK_SUCCESS)
    result = vkBindBufferMemory(device->device, allocation->buffer,
                                allocation->memory, 0);
  void *mapped = nullptr;
  if (result == VK_SUCCESS)
    result = vkMapMemory(device->device, allocation->memory, 0, VK_WHOLE_SIZE,
                         0, &mapped);
  if (result != VK_SUCCESS) {
    cleanUp();
    return fail("allocating " + std::to_string(size) +
                " bytes of device memory: " + resultName(result));
  }
  allocation->mapped = static_cast<uint8_t *>(mapped);
  allocation->deviceAddress = bufferAddress(device, allocation->buffer);
  *hostPointer = mapped;
  std::lock_guard<std::mutex> lock(device->mutex);
  device->allocations.emplace(allocation->mapped, allocation.get());
  *out = allocation.release();
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
  auto usedBy = [&](const Frame &frame) {
    return (frame.submitted || &frame == device->open) &&
           std::find(frame.allocations.begin(), frame.allocations.end(),
                     allocation) != frame.allocations.end();
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

int tsr_create_kernel(tsr_device *device, const uint32_t *code, size_t bytes,
                      const char *entryPoint, uint32_t numBindings,
                      uint32_t pushConstantBytes, tsr_kernel **out) {
  std::lock_guard<std::mutex> lock(device->mutex);
  auto *kernel = new tsr_kernel();
  kernel->device = device;
  kernel->numBindings = numBindings;
  kernel->pushConstantBytes = pushConstantBytes;
  auto cleanup = [&](int status) {
    if (status)
      destroyKernelObjects(kernel); // never launched: nothing to wait for
    else
      *out = kernel;
    return status;
  };
  VkShaderModuleCreateInfo moduleInfo{
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  moduleInfo.codeSize = bytes;
  moduleInfo.pCode = code;
  if (vkCreateShaderModule(device->device, &moduleInfo, nullptr,
                           &kernel->module) != VK_SUCCESS)
    return cleanup(fail("vkCreateShaderModule failed"));

  std::vector<VkDescriptorSetLayoutBinding> bindings(numBindings);
  for (uint32_t i = 0; i < numBindings; ++i) {
    bindings[i] = {};
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo setInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.bindingCount = numBindings;
  setInfo.pBindings = bindings.data();
  kernel->pushDescriptors =
      device->cmdPushDescriptorSet && numBindings <= device->maxPushDescriptors;
  if (kernel->pushDescriptors)
    setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  if (vkCreateDescriptorSetLayout(device->device, &setInfo, nullptr,
                                  &kernel->setLayout) != VK_SUCCESS)
    return cleanup(fail("vkCreateDescriptorSetLayout failed"));
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushConstantBytes};
  VkPipelineLayoutCreateInfo layoutInfo{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &kernel->setLayout;
  layoutInfo.pushConstantRangeCount = pushConstantBytes ? 1 : 0;
  layoutInfo.pPushConstantRanges = &range;
  if (vkCreatePipelineLayout(device->device, &layoutInfo, nullptr,
                             &kernel->layout) != VK_SUCCESS)
    return cleanup(fail("vkCreatePipelineLayout failed"));
  VkComputePipelineCreateInfo pipelineInfo{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipelineInfo.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = kernel->module;
  pipelineInfo.stage.pName = entryPoint;
  pipelineInfo.layout = kernel->layout;
  if (device->getExecutableStatistics)
    pipelineInfo.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkResult result =
      vkCreateComputePipelines(device->device, device->pipelineCache, 1,
                               &pipelineInfo, nullptr, &kernel->pipeline);
  if (result != VK_SUCCESS)
    return cleanup(
        fail(std::string("vkCreateComputePipelines: ") + resultName(result)));
  if (device->getExecutableStatistics)
    printPipelineStatistics(device, kernel->pipeline, entryPoint);
  if (kernel->pushDescriptors)
    return cleanup(checkValidation(device));
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                std::max(numBindings, 1u)};
  VkDescriptorPoolCreateInfo poolInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  if (vkCreateDescriptorPool(device->device, &poolInfo, nullptr,
                             &kernel->pool) != VK_SUCCESS)
    return cleanup(fail("vkCreateDescriptorPool failed"));
  VkDescriptorSetAllocateInfo allocateInfo{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocateInfo.descriptorPool = kernel->pool;
  allocateInfo.descriptorSetCount = 1;
  allocateInfo.pSetLayouts = &kernel->setLayout;
  if (vkAllocateDescriptorSets(device->device, &allocateInfo, &kernel->set) !=
      VK_SUCCESS)
    return cleanup(fail("vkAllocateDescriptorSets failed"));
  return cleanup(checkValidation(device));
}

void tsr_destroy_kernel(tsr_kernel *kernel) {
  if (!kernel)
    return;
  {
    std::lock_guard<std::mutex> lock(kernel->device->mutex);
    waitAllQuietly(kernel->device);
    if (anyInFlight(kernel->device))
      return; // a launch past its timeout may still use it: leaked
  }
  destroyKernelObjects(kernel);
}

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

void tsr_enable_timing(tsr_device *device) {
  std::lock_guard<std::mutex> lock(device->mutex);
  device->timestamps = device->timestampsAvailable;
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

int tsr_elapsed_between(tsr_device *device, uint64_t after, uint64_t last,
                        uint64_t *elapsedNs) {
  *elapsedNs = 0;
  std::lock_guard<std::mutex> lock(device->mutex);
  if (last > device->lastSequence || after > last)
    return fail("no such launches");
  if (last - after > kElapsedHistory ||
      device->lastSequence - after >= kElapsedHistory)
    return fail("launch times are kept for the last " +
                std::to_string(kElapsedHistory) + " launches");
  if (last > device->finishedSequence)
    if (int status = waitAll(device))
      return status;
  for (uint64_t launch = after + 1; launch <= last; ++launch)
    *elapsedNs += device->elapsedNs[launch % kElapsedHistory];
  return 0;
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
    // copies through the device memory's mapping.
    release(device, imports);
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
