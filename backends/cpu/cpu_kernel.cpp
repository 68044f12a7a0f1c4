#include "backends/cpu/cpu_kernel.h"

#include "core/trace/recorder.h"

namespace ipt::cpu::detail {

void note_plan(const TensorIterator& iter, int64_t out_item, int64_t in_item, int64_t grain_size) {
  if (!trace::tracing_enabled()) return;
  // Rows run as vector loops when the output is contiguous and each input is contiguous or one
  // value (cpu_kernel's contiguous rows); a broadcast input is one value within a row.
  bool vector_rows = iter.strides(0)[0] == out_item;
  bool broadcast = false;
  for (int k = 1; k < iter.ntensors(); ++k) {
    const int64_t s = iter.strides(k)[0];
    if (s != 0 && s != in_item) vector_rows = false;
    for (int64_t st : iter.strides(k)) broadcast = broadcast || st == 0;
  }
  const int threads = iter.threads(grain_size);
  trace::KernelDetail d;
  d.fields.emplace_back("dims", iter.shape_text());
  d.fields.emplace_back("layout", iter.is_contiguous() ? "contiguous" : broadcast ? "broadcast" : "strided");
  d.fields.emplace_back("rows", vector_rows ? "vectorized" : "element by element");
  d.fields.emplace_back("threads", std::to_string(threads));
  d.fields.emplace_back("chunks", iter.chunks_text(grain_size));
  trace::Recorder::current().instant(trace::Category::Kernel, "iteration plan", std::move(d));
}

}  // namespace ipt::cpu::detail
