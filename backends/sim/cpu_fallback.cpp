// Note [The CPU kernel on the simulated GPU] (cpu_fallback.h).
#include "backends/sim/cpu_fallback.h"

#include <algorithm>
#include <memory>

#include "backends/cpu/copy_kernels.h"
#include "core/ops/shape_rules.h"
#include "core/util/error.h"

namespace ipt::native::sim_fallback {

Generator& cuda_default_generator() {
  static Generator g{
      std::shared_ptr<random::CpuGenerator>(&random::default_cuda_generator(), [](random::CpuGenerator*) {})};
  return g;
}

Tensor to_meta(const Tensor& t) {
  if (!t.defined()) return t;
  return make_empty_strided(t.sizes(), t.strides(), t.dtype(), Device(DeviceType::Meta));
}

std::vector<Tensor> to_meta(std::span<const Tensor> ts) {
  std::vector<Tensor> r;
  r.reserve(ts.size());
  for (const Tensor& t : ts) r.push_back(to_meta(t));
  return r;
}

std::vector<std::optional<Tensor>> to_meta(std::span<const std::optional<Tensor>> ts) {
  std::vector<std::optional<Tensor>> r;
  r.reserve(ts.size());
  for (const auto& t : ts) r.push_back(to_meta(t));
  return r;
}

std::vector<Tensor> KeptTensorList::use() const {
  std::vector<Tensor> r;
  r.reserve(ts.size());
  for (const auto& t : ts) r.push_back(t.use());
  return r;
}

KeptTensorList keep(std::span<const Tensor> ts) {
  KeptTensorList k;
  for (const Tensor& t : ts) k.ts.push_back(keep(t));
  return k;
}

std::vector<std::optional<Tensor>> KeptOptionalTensorList::use() const {
  std::vector<std::optional<Tensor>> r;
  r.reserve(ts.size());
  for (const auto& t : ts) r.push_back(t.use());
  return r;
}

KeptOptionalTensorList keep(std::span<const std::optional<Tensor>> ts) {
  KeptOptionalTensorList k;
  for (const auto& t : ts) k.ts.push_back(keep(t));
  return k;
}

void Operands::add(const Tensor& t, const char* name, bool written) {
  if (!t.defined()) return;
  const double bytes = sim::bytes_of(t);
  cost.bytes += bytes;
  if (written) cost.flops += static_cast<double>(t.numel());
  accesses.push_back(written ? sim::writes(t, name) : sim::reads(t, name));
}

void check_devices(const std::vector<const Tensor*>& ts) {
  for (const Tensor* t : ts) check_same_device({ts.front(), t});
}

int argument_index(const Tensor& meta, const std::vector<const Tensor*>& metas) {
  if (!meta.defined()) return -1;
  for (size_t i = 0; i < metas.size(); ++i)
    if (meta.is_same(*metas[i])) return static_cast<int>(i);
  return -1;
}

Tensor device_result(const Tensor& meta, int argument, const std::vector<const Tensor*>& devices) {
  if (!meta.defined()) return meta;
  if (argument < 0 || static_cast<size_t>(argument) >= devices.size())
    return make_empty_strided(meta.sizes(), meta.strides(), meta.dtype(), kCuda);
  const Tensor& d = *devices[static_cast<size_t>(argument)];
  // An out= argument the Meta kernel resized is resized on the device too, before the launch.
  if (d.impl()->sizes() != meta.impl()->sizes()) {
    d.impl()->resize_contiguous(meta.impl()->sizes());
    if (d.impl()->strides() != meta.impl()->strides())
      d.impl()->set_geometry(meta.impl()->sizes(), meta.impl()->strides());
  }
  return d;
}

bool is_argument(const Tensor& result, const std::vector<const Tensor*>& devices) {
  return std::any_of(devices.begin(), devices.end(), [&](const Tensor* d) { return d->is_same(result); });
}

void copy_result(const ResultView& dst, const Tensor& src) {
  if (dst && src.defined()) copy_cpu_(dst->tensor(), src, false);
}

Tensor to_device(const Tensor& cpu) {
  if (!cpu.defined()) return cpu;
  Tensor out = make_empty_strided(cpu.sizes(), cpu.strides(), cpu.dtype(), kCuda);
  sim::KernelCost c;
  c.bytes = sim::bytes_of(cpu);
  c.over_pcie = true;
  sim::launch("Memcpy HtoD (Pageable -> Device)", c,
              [o = sim::HostView(out), cpu] { copy_cpu_(o.tensor(), cpu, false); }, sim::DeviceOp::Kind::Memcpy,
              {sim::writes(out, "out")});
  return out;
}

}  // namespace ipt::native::sim_fallback
