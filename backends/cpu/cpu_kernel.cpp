#include "backends/cpu/cpu_kernel.h"

#include <array>

#include "core/trace/recorder.h"

namespace ipt::cpu::detail {

namespace {
// What decides a plan's texts; a kernel called again and again with the same plan (a training
// loop's) reuses the texts it made last time on this thread instead of formatting them again.
struct PlanKey {
  int nd = -1;
  std::array<int64_t, 4> shape{};
  bool contiguous = false, broadcast = false, vector_rows = false;
  int threads = 0;
  bool operator==(const PlanKey&) const = default;
};
thread_local PlanKey t_last_key;
thread_local trace::KernelDetail t_last_detail;
}  // namespace

void note_plan(const TensorIterator& iter, int64_t out_item, int64_t in_item, int64_t grain_size) {
  if (!trace::tracing_enabled()) return;
  // Rows run as vector loops when the output is contiguous and each input is contiguous or one
  // value (cpu_kernel's contiguous rows); a broadcast input is one value within a row. Dims of
  // size 1 say nothing about either.
  const std::span<const int64_t> shape = iter.shape();
  bool vector_rows = shape.empty() || shape[0] == 1 || iter.strides(0)[0] == out_item;
  bool broadcast = false;
  for (int k = 1; k < iter.ntensors(); ++k) {
    const std::span<const int64_t> st = iter.strides(k);
    if (!shape.empty() && shape[0] > 1 && st[0] != 0 && st[0] != in_item) vector_rows = false;
    for (size_t d = 0; d < st.size(); ++d) broadcast = broadcast || (st[d] == 0 && shape[d] > 1);
  }
  PlanKey key;
  key.nd = iter.ndim() <= 4 ? iter.ndim() : -2;  // more than 4 dims: never reused
  for (int d = 0; d < iter.ndim() && d < 4; ++d) key.shape[static_cast<size_t>(d)] = shape[static_cast<size_t>(d)];
  int64_t numel = 1;
  for (int64_t n : shape) numel *= n;
  key.contiguous = iter.is_contiguous() || numel <= 1;
  key.broadcast = broadcast;
  key.vector_rows = vector_rows;
  key.threads = iter.threads(grain_size);
  if (key.nd == -2 || !(key == t_last_key)) {
    trace::KernelDetail d;
    d.fields.reserve(5);
    d.fields.emplace_back("dims", iter.shape_text());
    d.fields.emplace_back("layout", key.contiguous ? "contiguous" : broadcast ? "broadcast" : "strided");
    d.fields.emplace_back("rows", vector_rows ? "vectorized" : "element by element");
    d.fields.emplace_back("threads", std::to_string(key.threads));
    d.fields.emplace_back("chunks", iter.chunks_text(grain_size));
    t_last_key = key;
    t_last_detail = std::move(d);
  }
  trace::Recorder::current().instant(trace::Category::Kernel, "iteration plan", t_last_detail);
}

}  // namespace ipt::cpu::detail
