#pragma once
// Snapshots of tensors for the trace: metadata plus a preview of the storage's values.

#include "core/tensor/tensor.h"
#include "core/trace/events.h"

namespace ipt {

// How many storage elements a snapshot carries (the rest is marked truncated).
constexpr int64_t kStoragePreviewElements = 256;

// The device's name as a process-lifetime string ("cpu", "meta", "cuda:0") for events.
const char* device_trace_name(Device d);
trace::TensorMeta tensor_meta(const Tensor& t, const char* label);
// Records a Tensor event for `t` when tracing is on (undefined tensors are skipped).
void trace_tensor(const Tensor& t, const char* label);

}  // namespace ipt
