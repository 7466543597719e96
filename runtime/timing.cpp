//===- timing.cpp - GPU times of launches ---------------------------------===//
//
// Part of the Vulkan runtime (triton_spirv_runtime.h); runtime_internal.h
// says which file holds what.
//
//===----------------------------------------------------------------------===//

#include "runtime_internal.h"

using namespace tsr_internal;

extern "C" {
void tsr_enable_timing(tsr_device *device) {
  std::lock_guard<std::mutex> lock(device->mutex);
  device->timestamps = device->timestampsAvailable;
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
