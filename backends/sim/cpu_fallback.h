#pragma once
// The simulated GPU's kernel for an operator that has no simulated kernel of its own: the
// operator's CPU kernel, run on the stream's worker over the device's bytes.
//
// Note [The CPU kernel on the simulated GPU]
// A simulated kernel (Note [A simulated kernel] in sim_kernels.cpp) is a CPU kernel that runs
// later, on a stream's worker, over CPU views (HostView) of the device's memory. Most
// operators need nothing else, so the generator (gen_register_key in tools/codegen) registers
// this one template as the CUDA kernel of every operator that has CPU and Meta kernels but
// names no CUDA kernel:
//   on the host   the arguments' shapes go through the operator's Meta kernel, which checks
//                 them (a bad call raises here, at once, as a CUDA launcher's checks do) and
//                 gives each result's sizes, strides and dtype; each result is allocated on
//                 the current stream, or is the argument the operator writes (in place, out=);
//   on the worker the CPU kernel runs over HostViews of the arguments (writing arguments it
//                 writes where they are), and what it returns is copied into the results.
// The launch is one kernel named after the operator ("_softmax_kernel_cuda"), costed as a
// pointwise kernel over every operand's bytes. An operator without a Meta kernel cannot know
// its results' shapes before it runs (nonzero, masked_select, unique), so it gets the
// synchronizing form, as PyTorch's CUDA kernels for those copy a count to the host: the host
// waits for the stream and runs the CPU kernel itself, then copies the results to the device.
// A random operator given no generator draws from the device's default generator, not the CPU's
// (a program's CPU numbers stay PyTorch's whatever it draws on the GPU).
#include <array>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends/sim/sim_kernel_helpers.h"
#include "core/ops/generator.h"
#include "core/tensor/scalar.h"
#include "core/trace/recorder.h"

namespace ipt::native::sim_fallback {

using sim_kernels::kCuda;

// The device's default generator (torch.cuda.default_generators[0]).
Generator& cuda_default_generator();

// ---- What the host and the worker make of each argument ---------------------------------------

// A meta tensor with a CUDA tensor's sizes, strides and dtype; a CPU tensor (a 0-dim operand)
// and an undefined one stay as they are.
Tensor to_meta(const Tensor& t);
inline std::optional<Tensor> to_meta(const std::optional<Tensor>& t) {
  return t ? std::optional<Tensor>(to_meta(*t)) : std::nullopt;
}
std::vector<Tensor> to_meta(std::span<const Tensor> ts);
std::vector<std::optional<Tensor>> to_meta(std::span<const std::optional<Tensor>> ts);
template <typename T>
const T& to_meta(const T& v) {
  return v;
}

// What the worker keeps: HostViews for tensors, owned copies for spans and string views.
struct KeptTensor {
  std::optional<sim::HostView> view;
  Tensor use() const { return view ? view->tensor() : Tensor(); }
};
inline KeptTensor keep(const Tensor& t) { return {t.defined() ? std::optional<sim::HostView>(t) : std::nullopt}; }
struct KeptOptionalTensor {
  std::optional<KeptTensor> t;
  std::optional<Tensor> use() const { return t ? std::optional<Tensor>(t->use()) : std::nullopt; }
};
inline KeptOptionalTensor keep(const std::optional<Tensor>& t) {
  return {t ? std::optional<KeptTensor>(keep(*t)) : std::nullopt};
}
struct KeptTensorList {
  std::vector<KeptTensor> ts;
  std::vector<Tensor> use() const;
};
KeptTensorList keep(std::span<const Tensor> ts);
struct KeptOptionalTensorList {
  std::vector<KeptOptionalTensor> ts;
  std::vector<std::optional<Tensor>> use() const;
};
KeptOptionalTensorList keep(std::span<const std::optional<Tensor>> ts);
struct KeptInts {
  std::vector<int64_t> v;
  IntArrayRef use() const { return v; }
};
inline KeptInts keep(IntArrayRef v) { return {{v.begin(), v.end()}}; }
struct KeptOptionalInts {
  std::optional<std::vector<int64_t>> v;
  std::optional<IntArrayRef> use() const { return v ? std::optional<IntArrayRef>(*v) : std::nullopt; }
};
inline KeptOptionalInts keep(std::optional<IntArrayRef> v) {
  return {v ? std::optional<std::vector<int64_t>>(std::in_place, v->begin(), v->end()) : std::nullopt};
}
struct KeptString {
  std::string s;
  std::string_view use() const { return s; }
};
inline KeptString keep(std::string_view s) { return {std::string(s)}; }
struct KeptOptionalString {
  std::optional<std::string> s;
  std::optional<std::string_view> use() const { return s ? std::optional<std::string_view>(*s) : std::nullopt; }
};
inline KeptOptionalString keep(std::optional<std::string_view> s) {
  return {s ? std::optional<std::string>(*s) : std::nullopt};
}
// A random operator's generator: the given one, or the device's default.
struct KeptGenerator {
  Generator g;
  std::optional<Generator> use() const { return g; }
};
inline KeptGenerator keep(const std::optional<Generator>& g) { return {g && g->impl ? *g : cuda_default_generator()}; }
template <typename T>
struct KeptValue {
  T v;
  const T& use() const { return v; }
};
template <typename T>
requires(!std::is_convertible_v<const T&, IntArrayRef> &&
         !std::is_convertible_v<const T&, std::string_view>) KeptValue<T> keep(const T& v) {
  return {v};
}

// ---- The operands: the hazard check's accesses and the modeled cost ---------------------------

struct Operands {
  std::vector<sim::Access> accesses;
  sim::KernelCost cost;
  void add(const Tensor& t, const char* name, bool written);
  void add(const std::optional<Tensor>& t, const char* name, bool written) {
    if (t) add(*t, name, written);
  }
  void add(std::span<const Tensor> ts, const char* name, bool written) {
    for (const Tensor& t : ts) add(t, name, written);
  }
  void add(std::span<const std::optional<Tensor>> ts, const char* name, bool written) {
    for (const auto& t : ts) add(t, name, written);
  }
  template <typename T>
  void add(const T&, const char*, bool) {}
};

// The tensors among the arguments.
inline void collect_tensors(std::vector<const Tensor*>& v, const Tensor& t) {
  if (t.defined()) v.push_back(&t);
}
inline void collect_tensors(std::vector<const Tensor*>& v, const std::optional<Tensor>& t) {
  if (t && t->defined()) v.push_back(&*t);
}
inline void collect_tensors(std::vector<const Tensor*>& v, std::span<const Tensor> ts) {
  for (const Tensor& t : ts) collect_tensors(v, t);
}
inline void collect_tensors(std::vector<const Tensor*>& v, std::span<const std::optional<Tensor>> ts) {
  for (const auto& t : ts) collect_tensors(v, t);
}
template <typename T>
void collect_tensors(std::vector<const Tensor*>&, const T&) {}
// Raises PyTorch's "Expected all tensors to be on the same device" when a tensor operand is on
// neither the device nor a 0-dim CPU scalar.
void check_devices(const std::vector<const Tensor*>& ts);

// ---- Results ----------------------------------------------------------------------------------

// Which Tensor argument (of `metas`, in order) a Meta result is: -1 for a new tensor.
int argument_index(const Tensor& meta, const std::vector<const Tensor*>& metas);
// The device tensor a Meta result stands for: the argument it is (in place, out=, resized as the
// Meta kernel resized it), or a new tensor with its sizes, strides and dtype.
Tensor device_result(const Tensor& meta, int argument, const std::vector<const Tensor*>& devices);
// Whether a device result is one of the arguments (the kernel writes it where it is).
bool is_argument(const Tensor& result, const std::vector<const Tensor*>& devices);

// What the worker copies a result into: nothing for an argument the kernel writes where it is.
using ResultView = std::optional<sim::HostView>;
inline ResultView result_view(const Tensor& r, const std::vector<const Tensor*>& ds) {
  return !r.defined() || is_argument(r, ds) ? std::nullopt : ResultView(std::in_place, r);
}
void copy_result(const ResultView& dst, const Tensor& src);

// Each tensor of a result (a Tensor, a tuple of them or a list), in order.
template <typename F>
void for_each_tensor(const Tensor& r, F&& f) {
  f(r);
}
template <typename F>
void for_each_tensor(const std::vector<Tensor>& r, F&& f) {
  for (const Tensor& t : r) f(t);
}
template <typename... Ts, typename F>
void for_each_tensor(const std::tuple<Ts...>& r, F&& f) {
  static_assert((std::is_same_v<Ts, Tensor> && ...), "a fallback's tuple results are tensors");
  std::apply([&](const auto&... t) { (f(t), ...); }, r);
}
// The device results of a Meta kernel's results; `arguments` from argument_index, in order.
inline Tensor device_results(const Tensor& m, const std::vector<int>& arguments, size_t& i,
                             const std::vector<const Tensor*>& ds) {
  return device_result(m, arguments[i++], ds);
}
inline std::vector<Tensor> device_results(const std::vector<Tensor>& m, const std::vector<int>& arguments, size_t& i,
                                          const std::vector<const Tensor*>& ds) {
  std::vector<Tensor> r;
  for (const Tensor& t : m) r.push_back(device_result(t, arguments[i++], ds));
  return r;
}
template <typename... Ts, size_t... I>
std::tuple<Ts...> device_results_at(const std::tuple<Ts...>& m, const std::vector<int>& arguments, size_t first,
                                    const std::vector<const Tensor*>& ds, std::index_sequence<I...>) {
  return std::tuple<Ts...>(device_result(std::get<I>(m), arguments[first + I], ds)...);
}
template <typename... Ts>
std::tuple<Ts...> device_results(const std::tuple<Ts...>& m, const std::vector<int>& arguments, size_t& i,
                                 const std::vector<const Tensor*>& ds) {
  const size_t first = i;
  i += sizeof...(Ts);
  return device_results_at(m, arguments, first, ds, std::index_sequence_for<Ts...>{});
}

// Copies the host's CPU results to new device tensors (the synchronizing form).
Tensor to_device(const Tensor& cpu);
inline std::vector<Tensor> to_device(const std::vector<Tensor>& cpu) {
  std::vector<Tensor> r;
  for (const Tensor& t : cpu) r.push_back(to_device(t));
  return r;
}
template <typename... Ts>
std::tuple<Ts...> to_device(const std::tuple<Ts...>& cpu) {
  return std::apply([](const auto&... t) { return std::tuple<Ts...>(to_device(t)...); }, cpu);
}

// ---- The kernels ------------------------------------------------------------------------------

// The asynchronous form. `meta` and `cpu` call the operator's Meta and CPU kernels with the
// arguments' meta tensors and HostViews; `names` and `written` describe each argument.
template <typename Ret, size_t N, typename MetaFn, typename CpuFn, typename... Args>
Ret launch_cpu_kernel(const char* kernel, const std::array<const char*, N>& names, const std::array<bool, N>& written,
                      MetaFn meta, CpuFn cpu, const Args&... args) {
  static_assert(sizeof...(Args) == N);
  std::vector<const Tensor*> devices;
  (collect_tensors(devices, args), ...);
  check_devices(devices);
  // The operands' accesses and the host views the worker reads, taken once the Meta kernel's
  // resizes of out= arguments are applied on the device (abs(x) resizes an empty out): a view
  // taken before would still see the empty storage.
  Operands operands;
  auto take_operands = [&] {
    size_t i = 0;
    ((operands.add(args, names[i], written[i]), ++i), ...);
    return std::make_tuple(keep(args)...);
  };
  // The Meta kernel, on meta tensors shaped as the arguments, checks them and gives the results'
  // geometry; it is the launcher's business, not the program's, so it is not recorded.
  auto run_meta = [&](auto&& then) {
    trace::MutedScope muted;
    auto metas = std::make_tuple(to_meta(args)...);
    std::vector<const Tensor*> meta_ptrs;
    std::apply([&](const auto&... m) { (collect_tensors(meta_ptrs, m), ...); }, metas);
    return then(std::apply(meta, metas), meta_ptrs);
  };
  if constexpr (std::is_void_v<Ret>) {
    {
      trace::MutedScope muted;
      auto metas = std::make_tuple(to_meta(args)...);
      std::apply(meta, metas);
    }
    auto kept = take_operands();
    sim::launch(
        kernel, operands.cost, [kept, cpu] { std::apply([&](const auto&... k) { cpu(k.use()...); }, kept); },
        sim::DeviceOp::Kind::Kernel, std::move(operands.accesses));
  } else {
    std::vector<int> arguments;
    const Ret meta_result = run_meta([&](Ret r, const std::vector<const Tensor*>& meta_ptrs) {
      for_each_tensor(r, [&](const Tensor& t) { arguments.push_back(argument_index(t, meta_ptrs)); });
      return r;
    });
    size_t next = 0;
    Ret result = device_results(meta_result, arguments, next, devices);
    auto kept = take_operands();
    std::vector<ResultView> out;
    for_each_tensor(result, [&](const Tensor& t) {
      out.push_back(result_view(t, devices));
      if (out.back()) operands.add(t, "out", true);
    });
    sim::launch(
        kernel, operands.cost,
        [kept, cpu, out] {
          const Ret r = std::apply([&](const auto&... k) { return Ret(cpu(k.use()...)); }, kept);
          size_t j = 0;
          for_each_tensor(r, [&](const Tensor& t) { copy_result(out[j++], t); });
        },
        sim::DeviceOp::Kind::Kernel, std::move(operands.accesses));
    return result;
  }
}

// The synchronizing form, for an operator whose results' shapes depend on its inputs' values.
template <typename Ret, typename CpuFn, typename... Args>
Ret run_cpu_kernel_synchronized(CpuFn cpu, const Args&... args) {
  std::vector<const Tensor*> devices;
  (collect_tensors(devices, args), ...);
  check_devices(devices);
  sim::synchronize_stream(sim::current_stream());
  if constexpr (std::is_void_v<Ret>) {
    cpu(keep(args).use()...);
  } else {
    return to_device(Ret(cpu(keep(args).use()...)));
  }
}

}  // namespace ipt::native::sim_fallback
