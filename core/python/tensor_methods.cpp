// The Tensor attributes and methods that have no schema (metadata, autograd state,
// Python indexing and conversions), written by hand as PyTorch's python_variable.cpp does.
// Operators (add, view, sum, ...) are generated from the schema YAML instead.
#include "core/python/bindings.h"

#include "core/autograd/node.h"
#include "core/format/format.h"
#include "core/python/arg_parser.h"
#include "core/python/py_types.h"
#include "core/tensor/backend.h"
#include "core/util/warning.h"
#include "generated/ops.h"

namespace py = pybind11;

namespace ipt::python {

namespace {

py::handle base() { return py::handle(reinterpret_cast<PyObject*>(tensor_base_type())); }

template <typename F, typename... Extra>
void def_method(const char* name, F&& f, const Extra&... extra) {
  base().attr(name) = py::cpp_function(std::forward<F>(f), py::name(name), py::is_method(base()), extra...);
}

template <typename G>
void def_getter(const char* name, G&& g) {
  static py::object property = py::module_::import("builtins").attr("property");
  base().attr(name) = property(py::cpp_function(std::forward<G>(g)));
}

template <typename G, typename S>
void def_property(const char* name, G&& g, S&& s) {
  static py::object property = py::module_::import("builtins").attr("property");
  base().attr(name) = property(py::cpp_function(std::forward<G>(g)), py::cpp_function(std::forward<S>(s)));
}

format::Dtype format_dtype(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return format::Dtype::Float32;
    case ScalarType::Double: return format::Dtype::Float64;
    case ScalarType::Long: return format::Dtype::Int64;
    case ScalarType::Bool: return format::Dtype::Bool;
    case ScalarType::Byte: return format::Dtype::UInt8;
    case ScalarType::Char: return format::Dtype::Int8;
    case ScalarType::Short: return format::Dtype::Int16;
    case ScalarType::Int: return format::Dtype::Int32;
    case ScalarType::Half: return format::Dtype::Float16;
    case ScalarType::BFloat16: return format::Dtype::BFloat16;
  }
  return format::Dtype::Float32;
}

py::object scalar_to_py(const Scalar& s) {
  if (s.is_bool()) return py::bool_(s.to_bool());
  if (s.is_floating()) return py::float_(s.to_double());
  return py::int_(s.to_long());
}

// One element at `p` as the Python number PyTorch gives for its dtype.
template <typename T>
py::object element_to_py(const unsigned char* p) {
  if constexpr (std::is_same_v<T, bool>) return py::bool_(*p != 0);  // any nonzero byte is True
  else if constexpr (std::is_integral_v<T>) return py::int_(*reinterpret_cast<const T*>(p));
  else return py::float_(static_cast<double>(*reinterpret_cast<const T*>(p)));
}

template <typename T>
py::object nested_list(const unsigned char* p, const Tensor& t, int64_t dim) {
  if (dim == t.dim()) return element_to_py<T>(p);
  const int64_t step = t.strides()[dim] * static_cast<int64_t>(sizeof(T));
  py::list out(t.sizes()[dim]);
  for (int64_t i = 0; i < t.sizes()[dim]; ++i) out[i] = nested_list<T>(p + i * step, t, dim + 1);
  return out;
}

// As PyTorch's tensor_to_list: a device tensor is copied to the host once, then the nested list
// is read straight from memory by sizes and strides (no operator per element).
py::object tolist(const Tensor& t) {
  IPT_CHECK(t.device().type != DeviceType::Meta, NotImplementedError, "Cannot copy out of meta tensor; no data!");
  const Tensor host =
      t.device().type == DeviceType::CPU
          ? t
          : ops::_to_copy(t, std::nullopt, std::nullopt, Device(DeviceType::CPU), std::nullopt, false, std::nullopt);
  const auto* base = static_cast<const unsigned char*>(host.impl()->raw_data());
  return visit_dtype(host.dtype(), [&]<typename T>() { return nested_list<T>(base, host, 0); });
}

Scalar one_element(const Tensor& t) {
  IPT_CHECK(t.numel() == 1, ValueError, "only one element tensors can be converted to Python scalars");
  return ops::item(t);
}

int64_t index_value(py::handle h) {
  if (is_tensor_object(h.ptr())) return static_cast<int64_t>(element_as_double(unpack(h.ptr()), 0));
  return h.cast<int64_t>();
}

// A list used as an index (x[[0, 2]]) becomes a tensor, as torch.tensor would make it; a
// uint8 tensor is a (deprecated) mask.
Tensor index_tensor_of(py::handle v) {
  if (PyList_Check(v.ptr())) return unpack(py::module_::import("torch").attr("tensor")(v).ptr());
  Tensor t = unpack(v.ptr());
  if (t.dtype() == ScalarType::Byte) {
    IPT_WARN("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.");
    t = ops::ne_Scalar(t, Scalar(int64_t(0)));
  }
  return t;
}

// x[i] = value for a tensor value, as PyTorch's copy_to: the same shape is copied; otherwise the
// value loses its leading dims of size 1 (a view) and is expanded to the target's shape, so the
// graph shows ViewBackward0 / ExpandBackward0 for a broadcast value.
void copy_to(const Tensor& dst, const Tensor& src) {
  if (dst.sizes() == src.sizes() || src.dim() == 0) {  // PyTorch fills from a 0-dim value
    ops::copy_(dst, src, false);
    return;
  }
  std::vector<int64_t> sizes = src.sizes();
  size_t first = 0;
  while (first < sizes.size() && sizes[first] == 1) ++first;
  sizes.erase(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(first));
  Tensor v = ops::view(src, sizes);
  if (v.sizes() != dst.sizes()) v = ops::expand(v, dst.sizes());  // expand's errors for a value that does not fit
  ops::copy_(dst, v, false);
}

// Note [Indexing is a chain of view operators]
// `x[1:, None, 0]` is not one operator: it is slice(dim 0) -> unsqueeze(dim 1) -> select(dim 2)
// applied left to right, each a view of the previous result. So basic indexing never copies.
// Tensors and lists in the index ("advanced indexing") are collected on the way, each at the
// dimension of the view it applies to; when there are any, the view is then indexed by one
// aten::index (reading) or aten::index_put_ (writing) with those tensors, which copies.
struct IndexedView {
  Tensor view;
  std::vector<std::optional<Tensor>> advanced;  // one entry per dim of `view`; empty if none
};

// Note [A full slice is no view]
// As in PyTorch 2.15, a slice that starts at 0, steps by 1 and stops at or past the end of its
// dimension is skipped: `x[1, :]` is one select (no SliceBackward0) and `x[:] = v` writes into x
// itself. Only a lone slice read (`x[:]`, `x[0:100]`) keeps its slice, as PyTorch's get_item does.
IndexedView apply_index(const Tensor& self, py::handle index, bool for_write = false) {
  const bool keep_full_slices = !for_write && PySlice_Check(index.ptr());
  std::vector<py::handle> items;
  if (PyTuple_Check(index.ptr()))
    for (auto h : py::reinterpret_borrow<py::tuple>(index)) items.push_back(h);
  else items.push_back(index);
  auto is_advanced = [](py::handle v) {
    return PyList_Check(v.ptr()) || (is_tensor_object(v.ptr()) && !is_int_like(v.ptr()));
  };
  int64_t consuming = 0;
  bool has_ellipsis = false;
  for (py::handle v : items) {
    if (v.ptr() == Py_Ellipsis) {
      IPT_CHECK(!has_ellipsis, IndexError, "an index can only have a single ellipsis ('...')");
      has_ellipsis = true;
    } else if (is_tensor_object(v.ptr()) && unpack(v.ptr()).dtype() == ScalarType::Bool) {
      consuming += unpack(v.ptr()).dim();  // a mask covers as many dims as it has
    } else if (!v.is_none()) {
      ++consuming;
    }
  }
  if (self.dim() == 0 && consuming > 0 && (is_int_like(items[0].ptr())))
    IPT_FAIL(IndexError,
             "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a "
             "0-dim tensor to a number");
  IPT_CHECK(self.dim() > 0 || consuming == 0 || !PySlice_Check(items[0].ptr()), IndexError,
            "slice() cannot be applied to a 0-dim tensor.");
  IPT_CHECK(consuming <= self.dim(), IndexError, "too many indices for tensor of dimension ", self.dim());
  Tensor r = self;
  int64_t dim = 0, self_dim = 0;
  bool changed = false;
  std::vector<std::pair<int64_t, Tensor>> advanced;  // (dim in r, index tensor)
  for (py::handle v : items) {
    if (v.ptr() == Py_Ellipsis) {
      dim += self.dim() - consuming;
      self_dim += self.dim() - consuming;
    } else if (v.is_none()) {
      r = ops::unsqueeze(r, dim++);
      changed = true;
    } else if (is_int_like(v.ptr())) {
      int64_t i = index_value(v);
      int64_t n = r.sizes()[static_cast<size_t>(dim)];
      IPT_CHECK(i >= -n && i < n, IndexError, "index ", i, " is out of bounds for dimension ", self_dim, " with size ",
                n);
      r = ops::select_int(r, dim, i);
      ++self_dim;
      changed = true;
    } else if (is_advanced(v)) {
      Tensor t = index_tensor_of(v);
      if (t.dtype() == ScalarType::Bool && t.dim() == 0) {
        // x[True] adds a dimension of size 1 and masks it, as PyTorch does.
        r = ops::unsqueeze(r, dim);
        t = ops::unsqueeze(t, 0);
        advanced.emplace_back(dim++, t);
        continue;
      }
      advanced.emplace_back(dim, t);
      const int64_t covers = t.dtype() == ScalarType::Bool ? t.dim() : 1;
      dim += covers;
      self_dim += covers;
    } else if (PySlice_Check(v.ptr())) {
      auto* s = reinterpret_cast<PySliceObject*>(v.ptr());
      std::optional<int64_t> start, stop;
      int64_t step = 1;
      if (s->start != Py_None) start = index_value(s->start);
      if (s->stop != Py_None) stop = index_value(s->stop);
      if (s->step != Py_None) step = index_value(s->step);
      IPT_CHECK(step > 0, ValueError, "step must be greater than zero");
      const int64_t length = r.sizes()[static_cast<size_t>(dim)];
      if (!keep_full_slices && start.value_or(0) == 0 && step == 1 && (!stop || *stop >= length)) {
        ++dim;
        ++self_dim;
        continue;
      }
      r = ops::slice_Tensor(r, dim++, start, stop, step);
      ++self_dim;
      changed = true;
    } else {
      IPT_FAIL(IndexError,
               "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got ",
               py_type_name(v.ptr()), ")");
    }
  }
  IndexedView out;
  if (!advanced.empty()) {
    out.advanced.assign(static_cast<size_t>(r.dim()), std::nullopt);
    for (auto& [d, t] : advanced) out.advanced[static_cast<size_t>(d)] = t;
    // Trailing dims without an index need no entry.
    while (!out.advanced.empty() && !out.advanced.back()) out.advanced.pop_back();
  } else if (!changed && !for_write) {
    r = ops::alias(self);  // a read never returns the tensor itself
  }
  out.view = r;
  return out;
}

}  // namespace

std::string tensor_repr(const Tensor& t) {
  // The printer nests once per dimension. PyTorch's (Python) printer stops at the interpreter's
  // recursion limit (494 dimensions from a program's top level in 1.13); this one goes further
  // but not without bound, with the same kind of error.
  IPT_CHECK(t.dim() <= format::kMaxPrintDims, RecursionError,
            "maximum recursion depth exceeded while printing a tensor of ", t.dim(), " dimensions");
  format::TensorPrintInfo info;
  info.sizes = t.sizes();
  info.dtype = format_dtype(t.dtype());
  info.device =
      t.device().type == DeviceType::CUDA ? "cuda:" + std::to_string(std::max(0, t.device().index)) : t.device().str();
  info.is_meta = t.device().type == DeviceType::Meta;
  // A device's values are read through a copy to the host (which waits for its stream).
  const Tensor host =
      t.device().type == DeviceType::CUDA
          ? ops::_to_copy(t, std::nullopt, std::nullopt, Device(DeviceType::CPU), std::nullopt, false, std::nullopt)
          : t;
  if (!info.is_meta) {
    if (is_floating(t.dtype())) info.values = to_double_vector(host);
    else info.ints = to_int64_vector(host);
  }
  info.requires_grad = t.requires_grad();
  if (const auto& fn = autograd::grad_fn(t)) info.grad_fn = node_display_name(*fn);
  return format::format_tensor(info);
}

void init_tensor_methods(py::module_& m) {
  m.def("_tensor_repr", [](const Tensor& t) { return tensor_repr(t); });
  def_getter("shape", [](const Tensor& t) { return make_size(t.sizes()); });
  def_getter("dtype", [](const Tensor& t) { return py::reinterpret_steal<py::object>(dtype_object(t.dtype())); });
  def_getter("device", [](const Tensor& t) { return py::reinterpret_steal<py::object>(device_object(t.device())); });
  def_getter("ndim", [](const Tensor& t) { return t.dim(); });
  def_getter("is_leaf", [](const Tensor& t) { return autograd::is_leaf(t); });
  def_getter("output_nr", [](const Tensor& t) {
    const autograd::AutogradMeta* meta = autograd::find_autograd_meta(*t.impl());
    return meta ? meta->output_nr : 0u;
  });
  def_getter("is_meta", [](const Tensor& t) { return t.device().type == DeviceType::Meta; });
  def_getter("is_cuda", [](const Tensor& t) { return t.device().type == DeviceType::CUDA; });
  def_getter("is_cpu", [](const Tensor& t) { return t.device().type == DeviceType::CPU; });
  // The layouts and kinds this runtime does not have: a tensor here is never nested, sparse,
  // quantized or an MKLDNN one (library code asks, as MultiheadAttention's fast-path checks do).
  for (const char* kind : {"is_nested", "is_sparse", "is_quantized", "is_mkldnn"})
    def_getter(kind, [](const Tensor&) { return false; });
  def_getter("itemsize", [](const Tensor& t) { return element_size(t.dtype()); });
  def_getter("nbytes", [](const Tensor& t) { return t.numel() * element_size(t.dtype()); });
  def_getter("_version", [](const Tensor& t) { return t.impl()->version(); });
  def_getter("layout", [](const Tensor&) { return py::module_::import("torch._C").attr("_strided"); });
  def_getter("grad_fn", [](const Tensor& t) { return node_object(autograd::grad_fn(t)); });
  def_getter("retains_grad", [](const Tensor& t) {
    const autograd::AutogradMeta* meta = autograd::find_autograd_meta(*t.impl());
    return meta && meta->retains_grad;
  });
  def_getter("_base", [](const Tensor& t) {
    auto b = t.impl()->is_view() ? t.impl()->view_base() : nullptr;
    return b ? Tensor(b) : Tensor();
  });
  def_getter("T", [](const Tensor& t) {
    std::vector<int64_t> dims;
    for (int64_t d = t.dim() - 1; d >= 0; --d) dims.push_back(d);
    return ops::permute(t, dims);
  });
  def_property(
      "requires_grad", [](const Tensor& t) { return t.requires_grad(); },
      [](const Tensor& t, bool r) {
        IPT_CHECK(autograd::is_leaf(t), RuntimeError,
                  "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
                  "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
        IPT_CHECK(is_floating(t.dtype()) || !r, RuntimeError,
                  "only Tensors of floating point and complex dtype can require gradients");
        t.impl()->set_requires_grad(r);
      });
  def_property(
      "grad",
      [](const Tensor& t) {
        const autograd::AutogradMeta* meta = autograd::find_autograd_meta(*t.impl());
        Tensor grad = meta ? meta->grad : Tensor();
        // PyTorch 2.15's TensorBase::grad() warns (TORCH_WARN) when a non-leaf that does not
        // retain its gradient is asked for it.
        if (!autograd::is_leaf(t) && !(meta && meta->retains_grad) && !grad.defined())
          IPT_WARN(
              "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
              "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
              "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor "
              "by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
              "for more information.");
        return grad;
      },
      [](const Tensor& t, py::object g) {
        if (g.is_none()) {
          if (t.impl()->autograd_meta()) autograd::autograd_meta(t).grad = Tensor();
          return;
        }
        if (!is_tensor_object(g.ptr()))
          throw py::type_error("assigned grad expected to be a Tensor or None but got grad of type " +
                               py_type_name(g.ptr()));
        const Tensor& gt = unpack(g.ptr());
        IPT_CHECK(gt.dtype() == t.dtype(), RuntimeError, "assigned grad has data of a different type");
        IPT_CHECK(gt.sizes() == t.sizes(), RuntimeError, "assigned grad has data of a different size");
        autograd::autograd_meta(t).grad = gt;
      });
  def_property(
      "data",
      [](const Tensor& t) {
        // PyTorch's variable_data(): the same storage and geometry with a version counter of its
        // own (in-place writes through it do not invalidate what autograd saved of t), no autograd
        // and no operator call.
        const Tensor& s = t;
        return Tensor(std::make_shared<TensorImpl>(s.storage(), s.dtype(), s.sizes(), s.strides(), s.storage_offset(),
                                                   std::make_shared<VersionCounter>(), s.key_set()));
      },
      [](const Tensor& t, const Tensor& src) {
        IPT_CHECK(src.device() == t.device(), RuntimeError, "set_data: the new data must be on the same device");
        t.impl()->set_data_from(*src.impl());
      });

  def_method(
      "size",
      [](const Tensor& t, py::object dim) -> py::object {
        if (dim.is_none()) return make_size(t.sizes());
        return py::int_(t.size(index_value(dim)));
      },
      py::arg("dim") = py::none());
  def_method(
      "stride",
      [](const Tensor& t, py::object dim) -> py::object {
        if (dim.is_none()) return py::tuple(py::cast(t.strides()));
        return py::int_(t.stride(index_value(dim)));
      },
      py::arg("dim") = py::none());
  def_method("storage_offset", [](const Tensor& t) { return t.storage_offset(); });
  def_method("dim", [](const Tensor& t) { return t.dim(); });
  def_method("ndimension", [](const Tensor& t) { return t.dim(); });
  def_method("numel", [](const Tensor& t) { return t.numel(); });
  def_method("nelement", [](const Tensor& t) { return t.numel(); });
  def_method("element_size", [](const Tensor& t) { return element_size(t.dtype()); });
  def_method("data_ptr", [](const Tensor& t) {
    // A GPU tensor's is its device address (the one the allocator's snapshot lists).
    if (t.device().type == DeviceType::CUDA && has_backend(DeviceType::CUDA) && backend_for(DeviceType::CUDA).runtime)
      return static_cast<intptr_t>(backend_for(DeviceType::CUDA).runtime->device_address(t.impl()->raw_data()));
    return reinterpret_cast<intptr_t>(t.impl()->raw_data());
  });
  def_method(
      "is_contiguous", [](const Tensor& t, py::object) { return t.is_contiguous(); },
      py::arg("memory_format") = py::none());
  def_method("is_floating_point", [](const Tensor& t) { return is_floating(t.dtype()); });
  def_method("is_inference", [](const Tensor& t) { return t.impl()->is_inference(); });
  def_method("tolist", [](const Tensor& t) { return tolist(t); });
  // item() is the operator (its own RuntimeError for numel != 1); float()/int() refuse first
  // with Python's ValueError, as PyTorch's number conversions do.
  def_method("item", [](const Tensor& t) { return scalar_to_py(ops::item(t)); });
  def_method("__bool__", [](const Tensor& t) {
    IPT_CHECK(t.numel() == 1, RuntimeError, "Boolean value of Tensor with more than one value is ambiguous");
    return ops::item(t).to_bool();
  });
  def_method("__float__", [](const Tensor& t) { return one_element(t).to_double(); });
  def_method("__int__", [](const Tensor& t) { return one_element(t).to_long(); });
  def_method("__index__", [](const Tensor& t) {
    if (t.numel() != 1 || is_floating(t.dtype()))
      throw py::type_error("only integer tensors of a single element can be converted to an index");
    return ops::item(t).to_long();
  });
  def_method("__len__", [](const Tensor& t) {
    if (t.dim() == 0) throw py::type_error("len() of a 0-d tensor");
    return t.sizes()[0];
  });
  def_method("__getitem__", [](const Tensor& t, py::handle index) {
    IndexedView v = apply_index(t, index);
    return v.advanced.empty() ? v.view : ops::index_Tensor(v.view, v.advanced);
  });
  def_method("__setitem__", [](const Tensor& t, py::handle index, py::handle value) {
    IndexedView target = apply_index(t, index, true);
    const bool number = PyLong_Check(value.ptr()) || PyFloat_Check(value.ptr());
    if (!is_tensor_object(value.ptr()) && !number)
      throw py::type_error("can't assign a " + py_type_name(value.ptr()) + " to a Tensor");
    if (target.advanced.empty()) {
      if (number) ops::fill__Scalar(target.view, to_scalar(value.ptr()));
      else copy_to(target.view, unpack(value.ptr()));
      return;
    }
    // x[mask] = v: the value becomes a tensor of x's dtype and device (PyTorch's index_put_).
    // A 0-dim tensor is taken as a number too (converted); a bigger one must match x's dtype.
    Tensor values = number ? ops::full(std::vector<int64_t>{}, to_scalar(value.ptr()), t.dtype(), std::nullopt,
                                       t.device(), std::nullopt)
                           : unpack(value.ptr());
    if (values.dim() == 0 && values.dtype() != t.dtype())
      values = ops::_to_copy(values, t.dtype(), std::nullopt, std::nullopt, std::nullopt, false, std::nullopt);
    ops::index_put_(target.view, target.advanced, values, false);
  });
  def_method(
      "requires_grad_",
      [](const Tensor& t, bool r) {
        IPT_CHECK(is_floating(t.dtype()) || !r, RuntimeError,
                  "only Tensors of floating point dtype can require gradients");
        IPT_CHECK(
            autograd::is_leaf(t) || r, RuntimeError,
            "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
            "subgraph that doesn't require differentiation use var_no_grad = var.detach().");
        t.impl()->set_requires_grad(r);
        return t;
      },
      py::arg("requires_grad") = true);
  def_method("retain_grad", [](const Tensor& t) {
    IPT_CHECK(t.requires_grad(), RuntimeError, "can't retain_grad on Tensor that has requires_grad=False");
    if (const auto& fn = autograd::grad_fn(t)) {
      auto& meta = autograd::autograd_meta(t);
      if (!meta.retains_grad) {
        meta.retains_grad = true;
        fn->retained.emplace_back(t.impl_ptr(), meta.output_nr);
      }
    }
  });
  // storage() is Python (torch/_tensor.py): the deprecated TypedStorage over this one.
  def_method("untyped_storage", [](const Tensor& t) { return make_storage(t); });
  // Tensor._make_subclass(cls, data, require_grad=False): nn.Parameter's constructor.
  base().attr("_make_subclass") = py::reinterpret_steal<py::object>(PyStaticMethod_New(
      py::cpp_function(
          [](py::object cls, const Tensor& data, bool requires_grad) {
            if (!PyType_Check(cls.ptr()) ||
                !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()), tensor_base_type()))
              throw py::type_error("_make_subclass: cls must be a subclass of Tensor");
            Tensor t = ops::detach(data);
            IPT_CHECK(is_floating(t.dtype()) || !requires_grad, RuntimeError,
                      "Only Tensors of floating point and complex dtype can require gradients");
            t.impl()->set_requires_grad(requires_grad);
            return py::reinterpret_steal<py::object>(wrap_as(t, reinterpret_cast<PyTypeObject*>(cls.ptr())));
          },
          py::arg("cls"), py::arg("data"), py::arg("require_grad") = false)
          .release()
          .ptr()));
}

}  // namespace ipt::python
