// The dispatcher from Python, under PyTorch's own names: torch._C.DispatchKey,
// DispatchKeySet, _dispatch_keys(t), _dispatch_dump_table / _dispatch_dump, the
// thread-local include/exclude sets and their guards; and tensor storages.
#include <pybind11/operators.h>

#include "core/dispatch/dispatcher.h"
#include "core/dispatch/local_dispatch_key_set.h"
#include "core/format/format.h"
#include "core/python/bindings.h"
#include "core/python/py_types.h"
#include "generated/ops.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

const OperatorEntry& op_by_name(const std::string& name) {
  std::string n = name.rfind("aten::", 0) == 0 ? name : "aten::" + name;
  OperatorEntry* e = Dispatcher::singleton().find(n);
  if (!e) throw std::runtime_error("could not find the operator " + name);
  return *e;
}

DispatchKey parse_key(py::handle h) {
  if (py::isinstance<DispatchKey>(h)) return h.cast<DispatchKey>();
  auto k = DispatchKey::parse(h.cast<std::string>());
  if (!k) throw py::value_error("unknown dispatch key");
  return *k;
}

// Note [The key guards from Python]
// As in PyTorch 2.15, torch._C.ExcludeDispatchKeyGuard(ks) and torch._C._AutoDispatchBelowAutograd()
// take effect when they are made: a guard object kept in a variable holds until __exit__ or until it
// is deleted. torch._C._IncludeDispatchKeyGuard(k) takes effect only in a with statement.
struct KeyGuard {
  DispatchKeySet set;
  bool exclude;
  std::vector<std::unique_ptr<ExcludeDispatchKeyGuard>> excluded;
  std::vector<std::unique_ptr<IncludeDispatchKeyGuard>> included;
};

std::unique_ptr<KeyGuard> make_exclude_guard(DispatchKeySet ks) {
  auto g = std::make_unique<KeyGuard>(KeyGuard{ks, true, {}, {}});
  g->excluded.push_back(std::make_unique<ExcludeDispatchKeyGuard>(ks));
  return g;
}

// A storage as Python sees it (t.untyped_storage()), with the tensor whose dtype TypedStorage reads.
struct StorageView {
  Tensor t;
  int64_t elements() const { return static_cast<int64_t>(t.storage()->nbytes() / element_size(t.dtype())); }
};

// The values a storage holds: its bytes (untyped), or its elements in the tensor's dtype.
py::object storage_value(const StorageView& s, bool typed, int64_t i) {
  if (!typed) return py::int_(static_cast<const unsigned char*>(s.t.storage()->data())[i]);
  Tensor flat = make_view(s.t, {s.elements()}, {1}, 0);
  double v = element_as_double(flat, i);
  if (is_floating(s.t.dtype())) return py::float_(v);
  if (s.t.dtype() == ScalarType::Bool) return py::bool_(v != 0);
  return py::int_(static_cast<int64_t>(v));
}

py::list storage_values(const StorageView& s, bool typed) {
  IPT_CHECK(s.t.device().type != DeviceType::Meta, NotImplementedError, "Cannot copy out of meta tensor; no data!");
  py::list out;
  const int64_t n = typed ? s.elements() : static_cast<int64_t>(s.t.storage()->nbytes());
  for (int64_t i = 0; i < n; ++i) out.append(storage_value(s, typed, i));
  return out;
}

// PyTorch 2.15's UntypedStorage.__repr__: one byte a line, then what it is (a meta storage has
// no bytes to show).
std::string storage_repr(const StorageView& s) {
  const std::string info = "[torch.storage.UntypedStorage(device=" + s.t.device().str() + ") of size " +
                           std::to_string(s.t.storage()->nbytes()) + "]";
  if (s.t.device().type == DeviceType::Meta) return "...\n" + info;
  std::string out;
  for (py::handle v : storage_values(s, false)) out += " " + py::str(v).cast<std::string>() + "\n";
  return out + info;
}

}  // namespace

py::object make_storage(const Tensor& t) { return py::cast(StorageView{t}); }

void init_dispatch(py::module_& m) {
  auto key =
      py::class_<DispatchKey>(m, "DispatchKey")
          .def("__repr__",
               [](const DispatchKey& k) {
                 return "<DispatchKey." + k.name() + ": " + std::to_string(pytorch_key_number(k)) + ">";
               })
          .def("__str__", [](const DispatchKey& k) { return "DispatchKey." + k.name(); })
          .def_property_readonly("name", [](const DispatchKey& k) { return k.name(); })
          .def_property_readonly("value", [](const DispatchKey& k) { return pytorch_key_number(k); })
          .def("__eq__", [](const DispatchKey& a,
                            py::object b) { return py::isinstance<DispatchKey>(b) && b.cast<DispatchKey>() == a; })
          .def("__hash__", [](const DispatchKey& k) { return pytorch_key_number(k); });
  // The members torch._C.DispatchKey has in 2.15: these functionality and alias keys, and every
  // per-backend functionality with each of its runtime keys (CPU .. Meta, QuantizedCPU ..).
  for (const char* n : {"Undefined",
                        "CompositeExplicitAutogradNonFunctional",
                        "CompositeExplicitAutograd",
                        "CompositeImplicitAutogradNestedTensor",
                        "CompositeImplicitAutograd",
                        "AutogradNestedTensor",
                        "AutogradOther",
                        "Autograd",
                        "Conjugate",
                        "ZeroTensor",
                        "Negative",
                        "BackendSelect",
                        "ADInplaceOrView",
                        "PythonTLSSnapshot",
                        "Python",
                        "FuncTorchDynamicLayerFrontMode",
                        "FuncTorchDynamicLayerBackMode",
                        "FuncTorchBatchedDecomposition",
                        "FuncTorchBatched",
                        "FuncTorchVmapMode",
                        "FuncTorchGradWrapper",
                        "PythonDispatcher",
                        "PreDispatch",
                        "Functionalize",
                        "AutocastCPU",
                        "AutocastMPS",
                        "AutocastXPU",
                        "AutocastHPU",
                        "AutocastIPU",
                        "AutocastCUDA",
                        "AutocastPrivateUse1"})
    key.attr(n) = py::cast(*DispatchKey::parse(n));
  for (int f = 1; f <= kNumFunctionalities; ++f) {
    auto fn = static_cast<Functionality>(f);
    if (!is_per_backend(fn)) continue;
    key.attr(functionality_name(fn)) = py::cast(DispatchKey(fn));
    for (int b = 1; b <= kNumBackends; ++b) {
      DispatchKey k(fn, static_cast<BackendComponent>(b));
      key.attr(k.name().c_str()) = py::cast(k);
    }
  }

  auto as_set = [](py::handle h) {
    if (py::isinstance<DispatchKeySet>(h)) return h.cast<DispatchKeySet>();
    return DispatchKeySet(parse_key(h));
  };
  py::class_<DispatchKeySet>(m, "DispatchKeySet")
      .def(py::init([](py::handle k) { return DispatchKeySet(parse_key(k)); }))
      .def("__repr__", [](const DispatchKeySet& s) { return s.to_string(); })
      .def("__or__", [as_set](const DispatchKeySet& a, py::handle b) { return a | as_set(b); })
      .def("__and__", [as_set](const DispatchKeySet& a, py::handle b) { return a & as_set(b); })
      .def("__sub__", [as_set](const DispatchKeySet& a, py::handle b) { return a - as_set(b); })
      .def("__eq__", [](const DispatchKeySet& a,
                        py::object b) { return py::isinstance<DispatchKeySet>(b) && b.cast<DispatchKeySet>() == a; })
      .def("has", [](const DispatchKeySet& s, const DispatchKey& k) { return s.has(k); })
      .def("highestPriorityTypeId", [](const DispatchKeySet& s) { return s.highest_priority_key(); })
      .def("raw_repr", [](const DispatchKeySet& s) { return s.raw(); });

  m.def("_dispatch_keys", [](const Tensor& t) { return t.key_set(); });
  m.def("_dispatch_dump_table", [](const std::string& name) { return op_by_name(name).dump_table(); });
  m.def("_dispatch_dump", [](const std::string& name) { return op_by_name(name).dump_registrations(); });
  m.def("_dispatch_has_kernel_for_dispatch_key", [](const std::string& name, py::handle key) {
    DispatchKey k = parse_key(key);
    for (const auto& [rk, f] : op_by_name(name).registrations())
      if (rk == k) return true;
    return false;
  });
  m.def("_dispatch_tls_local_include_set", [] { return local_dispatch_key_set().included; });
  m.def("_dispatch_tls_local_exclude_set", [] { return local_dispatch_key_set().excluded; });

  py::class_<KeyGuard>(m, "_KeyGuard")
      .def("__enter__",
           [](KeyGuard& g) {
             if (g.exclude && g.excluded.empty())
               g.excluded.push_back(std::make_unique<ExcludeDispatchKeyGuard>(g.set));
             else if (!g.exclude) g.included.push_back(std::make_unique<IncludeDispatchKeyGuard>(g.set));
           })
      .def("__exit__", [](KeyGuard& g, py::args) {
        if (g.exclude && !g.excluded.empty()) g.excluded.pop_back();
        if (!g.exclude && !g.included.empty()) g.included.pop_back();
        return false;
      });
  m.def("_AutoDispatchBelowAutograd", [] { return make_exclude_guard(keysets::autograd_dispatch_keyset); });
  m.def("ExcludeDispatchKeyGuard", [](const DispatchKeySet& s) { return make_exclude_guard(s); });
  m.def("_IncludeDispatchKeyGuard", [](py::handle k) {
    return std::make_unique<KeyGuard>(KeyGuard{DispatchKeySet(parse_key(k)), false, {}, {}});
  });

  // Note [Storages]
  // t.untyped_storage() is this class, PyTorch's torch.UntypedStorage: the bytes of a storage.
  // t.storage() is torch.storage.TypedStorage (python/torch/storage.py), which wraps one and
  // reads its elements through _typed_tolist / _typed_getitem in the tensor's dtype.
  py::class_<StorageView>(m, "UntypedStorage")
      .def("data_ptr", [](const StorageView& s) { return reinterpret_cast<intptr_t>(s.t.storage()->data()); })
      .def("size", [](const StorageView& s) { return s.t.storage()->nbytes(); })
      .def("__len__", [](const StorageView& s) { return s.t.storage()->nbytes(); })
      .def("nbytes", [](const StorageView& s) { return s.t.storage()->nbytes(); })
      .def("element_size", [](const StorageView&) { return size_t(1); })
      .def_property_readonly(
          "device", [](const StorageView& s) { return py::reinterpret_steal<py::object>(device_object(s.t.device())); })
      .def_property_readonly("is_cuda", [](const StorageView& s) { return s.t.device().type == DeviceType::CUDA; })
      .def("tolist", [](const StorageView& s) { return storage_values(s, false); })
      .def("__getitem__",
           [](const StorageView& s, int64_t i) {
             const int64_t n = static_cast<int64_t>(s.t.storage()->nbytes());
             if (i < 0) i += n;
             if (i < 0 || i >= n)
               throw py::index_error("index " + std::to_string(i) + " out of range for storage of size " +
                                     std::to_string(n));
             IPT_CHECK(s.t.device().type != DeviceType::Meta, NotImplementedError,
                       "Cannot copy out of meta tensor; no data!");
             return storage_value(s, false, i);
           })
      .def("_typed_size", &StorageView::elements)
      .def("_typed_tolist", [](const StorageView& s) { return storage_values(s, true); })
      .def("_typed_getitem", [](const StorageView& s, int64_t i) { return storage_value(s, true, i); })
      .def("__repr__", &storage_repr)
      .def("__str__", &storage_repr);
}

}  // namespace ipt::python
