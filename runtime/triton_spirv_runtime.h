/*===- triton_spirv_runtime.h - Vulkan runtime C API ----------------------===*
 *
 * A small Vulkan compute runtime for kernels compiled by triton-spirv-opt.
 * Every call returns 0 on success; on failure it returns TSR_ERROR, or
 * TSR_ERROR_TIMEOUT for a launch that ran past TRITON_SPIRV_TIMEOUT_S, and
 * tsr_last_error() describes the failure (per thread).
 *
 *===----------------------------------------------------------------------===*/

#ifndef TRITON_SPIRV_RUNTIME_H
#define TRITON_SPIRV_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TSR_ERROR 1
/* The launch did not finish in time. It stays the launch in flight, with the
 * memory it binds, until a later wait sees it finish. */
#define TSR_ERROR_TIMEOUT 2

typedef struct tsr_device tsr_device;
typedef struct tsr_kernel tsr_kernel;

typedef struct tsr_properties {
  /* Set by the caller to the sizeof(tsr_properties) it was built with (the
   * Python mirror's ctypes.sizeof): tsr_get_properties refuses another. */
  uint32_t struct_size;
  char name[256];
  uint32_t vendor_id;
  uint32_t device_type; /* VkPhysicalDeviceType */
  uint32_t api_version;
  uint32_t subgroup_size;
  uint32_t compute_units; /* SMs where the driver tells (NVIDIA), else 0 */
  uint32_t max_workgroup_invocations;
  uint32_t max_workgroup_count[3];
  uint32_t max_shared_memory;
  uint32_t max_push_constants;
  uint64_t host_import_alignment; /* 0: no VK_EXT_external_memory_host */
  uint32_t timestamps; /* whether launches can be timed (tsr_enable_timing) */
  uint32_t max_storage_buffer_range; /* bytes one binding may span */
  uint32_t min_storage_buffer_offset_alignment;
  uint32_t robust_buffer_access; /* out-of-bounds accesses are contained */
  /* Buffers have device addresses (tsr_device_address), which kernels that
   * read pointers from memory load through. */
  uint32_t buffer_device_address;
  /* Cooperative matrices of bf16 components (VK_KHR_shader_bfloat16). */
  uint32_t bfloat16_cooperative_matrix;
  /* Row reductions, per-element functions and conversions of cooperative
   * matrices (VK_NV_cooperative_matrix2). */
  uint32_t cooperative_matrix2;
  /* The most bytes one allocation may have (tsr_allocate refuses more):
   * maxMemoryAllocationSize, and maxBufferSize on Vulkan 1.3. */
  uint64_t max_allocation_bytes;
  /* Shaders may keep f32 denormals (shaderDenormPreserveFloat32), as CUDA
   * does; without the DenormPreserve execution mode drivers may flush them. */
  uint32_t denorm_preserve_float32;
  /* The most bytes tsr_allocate_spanning allocates (maxBufferSize), or 0
   * where the device cannot span several allocations (no sparse binding). */
  uint64_t max_spanning_bytes;
} tsr_properties;

/* A host memory range bound as one storage buffer. */
typedef struct tsr_binding {
  void *host_pointer; /* aligned to host_import_alignment */
  uint64_t size;      /* a multiple of host_import_alignment; 0: unused */
} tsr_binding;

const char *tsr_last_error(void);

/* One Vulkan device, as tsr_enumerate_devices lists it. */
typedef struct tsr_device_summary {
  uint32_t vulkan_index; /* its selector for tsr_open_device */
  uint32_t device_type;  /* VkPhysicalDeviceType */
  char name[256];
} tsr_device_summary;

/* The Vulkan devices, in the order the default selection prefers them
 * (discrete GPUs, integrated, virtual, then the rest, such as lavapipe;
 * ties in Vulkan's order): `count` receives how many there are, and the
 * first `capacity` are written to `devices`. */
int tsr_enumerate_devices(tsr_device_summary *devices, uint32_t capacity,
                          uint32_t *count);

/* `selector`: NULL or "" for the default device (discrete GPU, else
 * integrated, else any), a decimal index, or a substring of the name.
 * `pipeline_cache_path`: file for VkPipelineCache data, or NULL.
 * `validation`: enable VK_LAYER_KHRONOS_validation; its errors fail calls. */
int tsr_open_device(const char *selector, const char *pipeline_cache_path,
                    int validation, tsr_device **device);
void tsr_close_device(tsr_device *device);
int tsr_get_properties(tsr_device *device, tsr_properties *properties);

/* Device memory the host can map (device-local where the device has such a
 * host-visible type, as GPUs with resizable BAR do): kernels bind it
 * directly, without importing, when a binding's range lies inside it.
 * `host_pointer` receives the mapping, aligned to host_import_alignment. */
typedef struct tsr_allocation tsr_allocation;
int tsr_allocate(tsr_device *device, uint64_t size, void **host_pointer,
                 tsr_allocation **allocation);
/* Device memory that the host reaches only through tsr_copy: as tsr_allocate
 * up to max_allocation_bytes; beyond, up to max_spanning_bytes, or where
 * tsr_allocate fails (a small BAR), one sparse buffer over memory objects
 * that the host cannot map. Then
 * `host_pointer` receives a host address range reserved to stand for it:
 * tsr_copy, tsr_fill and launches take addresses in it as they take
 * mappings, but the host must never touch it. */
int tsr_allocate_spanning(tsr_device *device, uint64_t size,
                          void **host_pointer, tsr_allocation **allocation);
/* Imports host memory (aligned to host_import_alignment, `size` a multiple
 * of it) for as long as the allocation lives: launches then bind ranges
 * inside it as they bind tsr_allocate memory, without importing it again. */
int tsr_import_host(tsr_device *device, void *host_pointer, uint64_t size,
                    tsr_allocation **allocation);
/* The device address of `host_pointer`, which a live allocation or import
 * holds (of those that do, the one reaching furthest): what a kernel loads
 * through to reach it. */
int tsr_device_address(tsr_device *device, const void *host_pointer,
                       uint64_t *device_address);
/* Frees an allocation or import (after the launch in flight, if it uses it). */
void tsr_free(tsr_allocation *allocation);
/* How many allocations and imports are alive (for leak checks). */
uint64_t tsr_live_allocations(tsr_device *device);
/* The live tsr_allocate allocation (not an import) holding the `size` bytes
 * at `address`: its mapped start and size; TSR_ERROR (and no message) when
 * there is none. */
int tsr_allocation_range(tsr_device *device, const void *address,
                         uint64_t size, void **start, uint64_t *bytes);
/* How many tsr_allocate allocations have been freed: ranges that
 * tsr_allocation_range gave are valid while this stays the same. */
uint64_t tsr_released_allocations(tsr_device *device);

/* Copies `size` bytes between host addresses (device memory's mappings,
 * imports or any host memory), in order after the launches before it and
 * before those after it. Where one side is device memory of a GPU, the copy
 * runs on the device's queue (the host side imported for it, as launches
 * import); otherwise, or where the host memory cannot be imported, the CPU
 * copies once the launches before are done. With `wait`, returns once the
 * copy is done; `sequence` (optional) receives its launch number (0 when
 * the CPU copied), which timing events count as a launch. */
int tsr_copy(tsr_device *device, void *destination, const void *source,
             uint64_t size, int wait, uint64_t *sequence);
/* Fills `size` bytes of device memory (4-byte aligned) with `pattern`, in
 * order with the launches, without waiting. */
int tsr_fill(tsr_device *device, void *destination, uint64_t size,
             uint32_t pattern, uint64_t *sequence);

int tsr_create_kernel(tsr_device *device, const uint32_t *code, size_t bytes,
                      const char *entry_point, uint32_t num_bindings,
                      uint32_t push_constant_bytes, tsr_kernel **kernel);
void tsr_destroy_kernel(tsr_kernel *kernel);

/* Submits grid[0] x grid[1] x grid[2] workgroups and returns, in order
 * after the launches before it, whose memory writes it sees; tsr_synchronize
 * waits. Grids beyond the device's limits are split into several dispatches,
 * submitted one after the other; each gets its first workgroup id written as
 * three uint32 at `program_id_base_offset` in the push constants. A binding
 * may span at most max_storage_buffer_range bytes. Up to 8 submissions of
 * up to 64 dispatches each are in flight (launches made while the GPU is busy
 * share a submission; a split grid takes one dispatch per part); one beyond
 * waits for the oldest. The bound host memory must stay valid until the
 * launch is done (tsr_finished_launch). `sequence` (optional) receives the
 * launch's number (from 1; 0 for an empty grid). */
int tsr_submit(tsr_kernel *kernel, const uint32_t grid[3],
               const tsr_binding *bindings, uint32_t num_bindings,
               const void *push_constants, uint32_t program_id_base_offset,
               uint64_t *sequence);

/* tsr_submit, then tsr_synchronize: returns once the launch is done. */
int tsr_launch(tsr_kernel *kernel, const uint32_t grid[3],
               const tsr_binding *bindings, uint32_t num_bindings,
               const void *push_constants, uint32_t program_id_base_offset,
               uint64_t *sequence);

/* Launches from now on write GPU timestamps (a few microseconds each), for
 * tsr_elapsed_between; off until called. */
void tsr_enable_timing(tsr_device *device);

/* Waits for every launch in flight. Also reports the error of a launch that
 * tsr_free or tsr_destroy_kernel waited for. */
int tsr_synchronize(tsr_device *device);

/* The number of the latest launch known done (every earlier one is done). */
uint64_t tsr_finished_launch(tsr_device *device);
/* The number of the latest launch (or queued copy) submitted. */
uint64_t tsr_submitted_launch(tsr_device *device);

/* The GPU time of launches after+1 .. last (waiting for them), for timing
 * events; the times of the last 65536 launches are kept. */
int tsr_elapsed_between(tsr_device *device, uint64_t after, uint64_t last,
                        uint64_t *elapsed_ns);

#ifdef __cplusplus
}
#endif

#endif /* TRITON_SPIRV_RUNTIME_H */
