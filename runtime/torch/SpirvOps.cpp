//===- SpirvOps.cpp - ATen kernels of the spirv torch device --------------===//
//
// What every PrivateUse1 device must provide itself: tensor creation,
// copies between the device and the CPU, views over its storages, resizing,
// fills. Every other ATen operator goes through the CPU fallback below
// (inputs copied to the host, the CPU kernel, results copied back), which
// warns once per operator and counts its uses (tsd_fallback_ops).
//
//===----------------------------------------------------------------------===//

#include "SpirvAllocator.h"

#include <ATen/EmptyTensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/unfold_native.h>
#include <ATen/ops/view_as_complex_native.h>
#include <ATen/ops/view_as_real_native.h>
#include <ATen/ops/view_native.h>
#include <torch/library.h>

#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace triton_spirv {
namespace {

using at::IntArrayRef;
using at::Tensor;

constexpr c10::DeviceType kSpirv = c10::DeviceType::PrivateUse1;

/// The spirv device a tensor is made on: the one named, else the current
/// one.
c10::DeviceIndex deviceIndexFor(std::optional<c10::Device> device) {
  if (device && device->type() == kSpirv && device->has_index())
    return checkedDeviceIndex(device->index());
  return checkedDeviceIndex(-1);
}

/// The Vulkan device of a spirv tensor.
tsr_device *vulkanDeviceOf(const Tensor &tensor) {
  return vulkanDevice(tensor.device().index());
}

Tensor emptyMemoryFormat(IntArrayRef size,
                         std::optional<at::ScalarType> dtype,
                         std::optional<at::Layout> layout,
                         std::optional<c10::Device> device,
                         std::optional<bool> /*pinMemory*/,
                         std::optional<at::MemoryFormat> memoryFormat) {
  TORCH_CHECK(!layout || *layout == at::kStrided,
              "spirv: only strided tensors are supported, not ", *layout);
  return at::detail::empty_generic(
      size, &deviceAllocator(deviceIndexFor(device)),
      c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
      c10::dtype_or_default(dtype), memoryFormat);
}

Tensor emptyStrided(IntArrayRef size, IntArrayRef stride,
                    std::optional<at::ScalarType> dtype,
                    std::optional<at::Layout> layout,
                    std::optional<c10::Device> device,
                    std::optional<bool> /*pinMemory*/) {
  TORCH_CHECK(!layout || *layout == at::kStrided,
              "spirv: only strided tensors are supported, not ", *layout);
  return at::detail::empty_strided_generic(
      size, stride, &deviceAllocator(deviceIndexFor(device)),
      c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
      c10::dtype_or_default(dtype));
}

/// The bytes of a tensor's storage its elements lie in: from its first
/// element to one past its last (strides are never negative in torch).
struct Span {
  uint8_t *first = nullptr;
  size_t bytes = 0;
};

Span spanOf(const Tensor &tensor) {
  if (tensor.numel() == 0)
    return {};
  int64_t last = 0;
  for (int64_t d = 0; d < tensor.dim(); ++d)
    last += (tensor.size(d) - 1) * tensor.stride(d);
  return {static_cast<uint8_t *>(tensor.data_ptr()),
          static_cast<size_t>(last + 1) * tensor.element_size()};
}

/// Whether the span holds exactly the tensor's elements, so writing all of
/// it overwrites nothing else.
bool fillsItsSpan(const Tensor &tensor, const Span &span) {
  return tensor.is_non_overlapping_and_dense() &&
         span.bytes == static_cast<size_t>(tensor.numel()) *
                           tensor.element_size();
}

/// Copies on `device`'s queue (or by its CPU), in order with its launches.
void copyBytes(tsr_device *device, void *destination, const void *source,
               size_t bytes, bool wait) {
  checkRuntime(tsr_copy(device, destination, source, bytes, wait, nullptr),
               "copying a tensor");
}

/// A CPU tensor laid out as `tensor` (same sizes and strides) over a copy of
/// its span; with `readContents`, holding its current values.
Tensor hostImage(const Tensor &tensor, const Span &span, bool readContents) {
  Tensor bytes = at::empty({static_cast<int64_t>(span.bytes)},
                           at::TensorOptions().dtype(at::kByte));
  if (readContents && span.bytes)
    copyBytes(vulkanDeviceOf(tensor), bytes.data_ptr(), span.first, span.bytes,
              /*wait=*/true);
  return bytes.view(tensor.scalar_type())
      .as_strided(tensor.sizes(), tensor.strides(), 0);
}

/// copy_ between the spirv device and the CPU or within the device (torch
/// routes copies with a PrivateUse1 side here, after broadcasting). Equal
/// dense layouts of one dtype are one copy of bytes; anything else (another
/// dtype, other strides) is converted by the CPU's copy_ between host
/// images of both sides.
Tensor copyFrom(const Tensor &self, const Tensor &dst, bool nonBlocking) {
  TORCH_CHECK(self.is_cpu() || self.device().type() == kSpirv,
              "spirv: cannot copy from ", self.device());
  TORCH_CHECK(dst.is_cpu() || dst.device().type() == kSpirv,
              "spirv: cannot copy to ", dst.device());
  if (dst.numel() == 0)
    return dst;
  Span from = spanOf(self), to = spanOf(dst);
  bool deviceToDevice = !self.is_cpu() && !dst.is_cpu();
  // Between two spirv devices the bytes go through the host (Vulkan
  // devices share no memory here).
  bool acrossDevices =
      deviceToDevice && self.device().index() != dst.device().index();
  if (!acrossDevices && self.scalar_type() == dst.scalar_type() &&
      self.sizes() == dst.sizes() && self.strides() == dst.strides() &&
      self.is_non_overlapping_and_dense()) {
    // Within the device the copy stays queued, in order with the launches,
    // and so does one from or to pinned memory with non_blocking=True (as
    // on CUDA; freeing the pinned memory waits for it). Other host memory
    // may go at once: the copy is waited for.
    const Tensor &onDevice = self.is_cpu() ? dst : self;
    tsr_device *device = vulkanDeviceOf(onDevice);
    const Tensor &host = self.is_cpu() ? self : dst;
    bool pinned = !deviceToDevice &&
                  pinnedHostAllocator().prepareForCopy(host.data_ptr(), device);
    bool queued = deviceToDevice || (nonBlocking && pinned);
    copyBytes(device, to.first, from.first, to.bytes, /*wait=*/!queued);
    return dst;
  }
  Tensor source = self.is_cpu() ? self : hostImage(self, from, true);
  if (dst.is_cpu()) {
    dst.copy_(source);
    return dst;
  }
  Tensor image = hostImage(dst, to, !fillsItsSpan(dst, to));
  image.copy_(source);
  copyBytes(vulkanDeviceOf(dst), to.first, image.data_ptr(), to.bytes,
            /*wait=*/true);
  return dst;
}

Tensor copyFromAndResize(const Tensor &self, const Tensor &dst) {
  dst.resize_(self.sizes());
  return copyFrom(self, dst, false);
}

const Tensor &resize(const Tensor &self, IntArrayRef size,
                     std::optional<at::MemoryFormat> memoryFormat) {
  auto *impl = self.unsafeGetTensorImpl();
  impl->set_sizes_contiguous(size);
  if (memoryFormat && *memoryFormat != at::MemoryFormat::Preserve)
    impl->empty_tensor_restride(*memoryFormat);
  size_t needed =
      at::detail::computeStorageNbytes(self.sizes(), self.strides(),
                                       self.element_size(),
                                       self.storage_offset());
  resizeStorageBytes(self.storage(), needed);
  return self;
}

Tensor &setStorageWithOffset(Tensor &self, c10::Storage source,
                             int64_t offset, IntArrayRef size,
                             IntArrayRef stride) {
  at::native::checkSetStorage(self, std::move(source), offset, size, stride);
  auto *impl = self.unsafeGetTensorImpl();
  c10::DimVector strides = stride.data() ? c10::DimVector(stride)
                                          : c10::contiguous_strides(size);
  impl->set_sizes_and_strides(size, strides, offset);
  size_t needed = at::detail::computeStorageNbytes(
      size, strides, self.element_size(), offset);
  resizeStorageBytes(self.storage(), needed);
  return self;
}

Tensor &setStorage(Tensor &self, c10::Storage source) {
  int64_t elements = source.nbytes() / self.element_size();
  return setStorageWithOffset(self, std::move(source), 0, {elements}, {});
}

Tensor &setTensor(Tensor &self, const Tensor &source) {
  if (self.is_same(source))
    return self;
  return setStorageWithOffset(self, source.storage(), source.storage_offset(),
                              source.sizes(), source.strides());
}

Tensor &setEmpty(Tensor &self) {
  c10::Storage empty(c10::Storage::use_byte_size_t(), 0,
                     &deviceAllocator(self.device().index()),
                     /*resizable=*/true);
  return setStorageWithOffset(self, std::move(empty), 0, {0}, {});
}

/// The element's bytes repeated to 4 bytes, for tsr_fill; nullopt where
/// that is not possible (8-byte or complex elements).
std::optional<uint32_t> fillPattern(const Tensor &self,
                                    const c10::Scalar &value) {
  size_t size = self.element_size();
  if (size > 4)
    return std::nullopt;
  Tensor element = at::empty({1}, at::TensorOptions().dtype(self.dtype()));
  element.fill_(value);
  uint32_t pattern = 0;
  for (size_t at = 0; at < 4; at += size)
    std::memcpy(reinterpret_cast<uint8_t *>(&pattern) + at, element.data_ptr(),
                size);
  return pattern;
}

/// fill_ and zero_ of a dense tensor with 4-byte aligned bytes are one fill
/// on the device's queue; others go through the CPU.
Tensor &fillScalar(Tensor &self, const c10::Scalar &value) {
  Span span = spanOf(self);
  if (!span.bytes)
    return self;
  auto pattern = fillPattern(self, value);
  if (pattern && fillsItsSpan(self, span) &&
      reinterpret_cast<uintptr_t>(span.first) % 4 == 0 && span.bytes % 4 == 0) {
    checkRuntime(tsr_fill(vulkanDeviceOf(self), span.first, span.bytes,
                          *pattern, nullptr),
                 "filling a tensor");
    return self;
  }
  Tensor image = hostImage(self, span, !fillsItsSpan(self, span));
  image.fill_(value);
  copyBytes(vulkanDeviceOf(self), span.first, image.data_ptr(), span.bytes,
            /*wait=*/true);
  return self;
}

Tensor &zero(Tensor &self) { return fillScalar(self, 0); }

/// `.item()`: the element copied to the host, as CUDA does it (not an
/// operator run on the CPU, so no fallback warning).
c10::Scalar localScalarDense(const Tensor &self) {
  return at::_local_scalar_dense(self.cpu());
}

//===----------------------------------------------------------------------===//
// The CPU fallback
//===----------------------------------------------------------------------===//

struct FallbackLog {
  std::mutex mutex;
  std::map<std::string, uint64_t> uses;
};

FallbackLog &fallbackLog() {
  static FallbackLog log;
  return log;
}

void cpuFallback(const c10::OperatorHandle &op, torch::jit::Stack *stack) {
  const c10::OperatorName &name = op.schema().operator_name();
  std::string qualified = name.name;
  if (!name.overload_name.empty())
    qualified += "." + name.overload_name;
  bool first = false;
  {
    FallbackLog &log = fallbackLog();
    std::lock_guard<std::mutex> lock(log.mutex);
    first = log.uses[qualified]++ == 0;
  }
  if (first)
    TORCH_WARN("triton-spirv: ", qualified,
               " has no kernel on the spirv device; it runs on the CPU "
               "(inputs copied to the host, results back). "
               "torch.spirv.fallback_ops() lists such operators.");
  // A view operator without a kernel here would return a copy, not a view:
  // an error instead of a silent wrong answer.
  at::native::cpu_fallback(op, stack, /*error_on_views=*/true);
}

} // namespace
} // namespace triton_spirv

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  using namespace triton_spirv;
  m.impl("empty.memory_format", TORCH_FN(emptyMemoryFormat));
  m.impl("empty_strided", TORCH_FN(emptyStrided));
  m.impl("_copy_from", TORCH_FN(copyFrom));
  m.impl("_copy_from_and_resize", TORCH_FN(copyFromAndResize));
  m.impl("resize_", TORCH_FN(resize));
  m.impl("set_.source_Storage_storage_offset", TORCH_FN(setStorageWithOffset));
  m.impl("set_.source_Storage", TORCH_FN(setStorage));
  m.impl("set_.source_Tensor", TORCH_FN(setTensor));
  m.impl("set_", TORCH_FN(setEmpty));
  m.impl("fill_.Scalar", TORCH_FN(fillScalar));
  m.impl("zero_", TORCH_FN(zero));
  m.impl("_local_scalar_dense", TORCH_FN(localScalarDense));
  // Views share the storage: the backend-independent implementations.
  m.impl("view", TORCH_FN(at::native::view));
  m.impl("as_strided", TORCH_FN(at::native::as_strided_tensorimpl));
  m.impl("_reshape_alias", TORCH_FN(at::native::_reshape_alias));
  m.impl("unfold", TORCH_FN(at::native::unfold));
  m.impl("view_as_real", TORCH_FN(at::native::view_as_real));
  m.impl("view_as_complex", TORCH_FN(at::native::view_as_complex));
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<
             &triton_spirv::cpuFallback>());
}

extern "C" {

/// The operators that went through the CPU fallback, "name uses\n" each.
/// The text stays valid until the next call on the same thread.
const char *tsd_fallback_ops(void) {
  static thread_local std::string text;
  text.clear();
  auto &log = triton_spirv::fallbackLog();
  std::lock_guard<std::mutex> lock(log.mutex);
  for (const auto &[name, uses] : log.uses)
    text += name + " " + std::to_string(uses) + "\n";
  return text.c_str();
}

void tsd_reset_fallback_ops(void) {
  auto &log = triton_spirv::fallbackLog();
  std::lock_guard<std::mutex> lock(log.mutex);
  log.uses.clear();
}

} // extern "C"
