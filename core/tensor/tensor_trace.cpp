#include "core/tensor/tensor_trace.h"

#include <algorithm>
#include <type_traits>

#include "core/trace/recorder.h"

namespace ipt {

const char* device_trace_name(Device d) {
  switch (d.type) {
    case DeviceType::CPU: return "cpu";
    case DeviceType::Meta: return "meta";
    case DeviceType::CUDA: return trace::intern(d.str());
  }
  return "cpu";
}

trace::TensorMeta tensor_meta(const Tensor& t, const char* label) {
  trace::TensorMeta m;
  const TensorImpl& impl = *t.impl();
  m.tensor_id = impl.id();
  m.storage_id = impl.storage()->id();
  m.storage_nbytes = static_cast<int64_t>(impl.storage()->nbytes());
  m.dtype = dtype_short_name(impl.dtype());
  m.device = device_trace_name(impl.device());
  m.sizes = impl.sizes();
  m.strides = impl.strides();
  m.storage_offset = impl.storage_offset();
  m.version = impl.version();
  m.key_set = impl.key_set().raw();
  m.requires_grad = impl.requires_grad();
  m.is_view = impl.is_view();
  m.label = label;
  int64_t n = static_cast<int64_t>(impl.storage()->nbytes() / element_size(impl.dtype()));
  const Storage& storage = *impl.storage();  // const: reading for the trace touches nothing
  if (impl.device().type == DeviceType::CPU && storage.data() && storage.touched()) {
    int64_t k = std::min(n, kStoragePreviewElements);
    m.storage_values.resize(static_cast<size_t>(k));
    visit_dtype(impl.dtype(), [&]<typename T>() {
      // Bools are read as their bytes: a storage just allocated (torch.empty) holds any byte,
      // and loading one that is not 0 or 1 as a bool is undefined.
      using Raw = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
      const Raw* p = static_cast<const Raw*>(storage.data());
      for (int64_t i = 0; i < k; ++i) m.storage_values[i] = static_cast<double>(p[i]);
    });
    m.storage_truncated = n > k;
  } else {
    m.storage_truncated = n > 0;
  }
  return m;
}

void trace_tensor(const Tensor& t, const char* label) {
  if (!t.defined() || !trace::tracing_enabled()) return;
  trace::Recorder::current().instant(trace::Category::Tensor, "tensor", tensor_meta(t, label));
}

}  // namespace ipt
