//===- pipelines.cpp - Compute pipelines ----------------------------------===//
//
// Part of the Vulkan runtime (triton_spirv_runtime.h); runtime_internal.h
// says which file holds what.
//
//===----------------------------------------------------------------------===//

#include "runtime_internal.h"

using namespace tsr_internal;

namespace tsr_internal {
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
} // namespace tsr_internal

extern "C" {
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
} // extern "C"
