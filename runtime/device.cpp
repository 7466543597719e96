//===- device.cpp - Instances, devices, errors ----------------------------===//
//
// Part of the Vulkan runtime (triton_spirv_runtime.h); runtime_internal.h
// says which file holds what.
//
//===----------------------------------------------------------------------===//

#include "runtime_internal.h"

using namespace tsr_internal;

namespace tsr_internal {
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
} // namespace tsr_internal

namespace {
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
} // namespace

namespace tsr_internal {
int checkValidation(tsr_device *device) {
  std::lock_guard<std::mutex> lock(device->validationMutex);
  if (device->validationErrors.empty())
    return 0;
  std::string errors;
  std::swap(errors, device->validationErrors);
  return fail("Vulkan validation layer: " + errors);
}
} // namespace tsr_internal

namespace {
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
  VkPhysicalDeviceFloatControlsProperties floatControls{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
  subgroup.pNext = &maintenance3;
  maintenance3.pNext = &floatControls;
  void **next = &floatControls.pNext;
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
  if (features.features.sparseBinding && !device->isCpu &&
      (families[device->queueFamily].queueFlags &
       VK_QUEUE_SPARSE_BINDING_BIT) &&
      basics.apiVersion >= VK_API_VERSION_1_3)
    device->maxSpanningBytes = maintenance4.maxBufferSize;
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
  device->denormPreserveFloat32 = floatControls.shaderDenormPreserveFloat32;
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
} // namespace

namespace tsr_internal {
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
} // namespace tsr_internal

extern "C" {
const char *tsr_last_error(void) { return lastError.c_str(); }

int tsr_enumerate_devices(tsr_device_summary *summaries, uint32_t capacity,
                          uint32_t *count) {
  tsr_device probe;
  if (createInstance(&probe, /*validation=*/false))
    return TSR_ERROR;
  uint32_t found = 0;
  vkEnumeratePhysicalDevices(probe.instance, &found, nullptr);
  std::vector<VkPhysicalDevice> devices(found);
  vkEnumeratePhysicalDevices(probe.instance, &found, devices.data());
  std::vector<std::pair<VkPhysicalDeviceProperties, uint32_t>> listed;
  for (uint32_t i = 0; i < found; ++i) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(devices[i], &properties);
    listed.emplace_back(properties, i);
  }
  std::stable_sort(
      listed.begin(), listed.end(), [](const auto &a, const auto &b) {
        return typeRank(a.first.deviceType) < typeRank(b.first.deviceType);
      });
  for (uint32_t i = 0; i < found && i < capacity; ++i) {
    summaries[i].vulkan_index = listed[i].second;
    summaries[i].device_type = listed[i].first.deviceType;
    std::snprintf(summaries[i].name, sizeof(summaries[i].name), "%s",
                  listed[i].first.deviceName);
  }
  *count = found;
  vkDestroyInstance(probe.instance, nullptr);
  return 0;
}

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
  out->denorm_preserve_float32 = device->denormPreserveFloat32;
  out->max_spanning_bytes = device->maxSpanningBytes;
  return 0;
}
} // extern "C"
