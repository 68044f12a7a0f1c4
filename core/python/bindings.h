#pragma once
// The pieces of torch._C, each defined in its own file and put together by init_torch_c()
// (module.cpp). Generated operator bindings: build/generated/python_functions.cpp.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/python/pybind.h"

namespace ipt::autograd {
class Node;
}

namespace ipt::python {

// The torch._C module object (a new reference), built once per process.
PyObject* init_torch_c();

void init_tensor_methods(pybind11::module_& m);       // tensor_methods.cpp
void init_autograd(pybind11::module_& m);             // autograd_bindings.cpp
void init_dispatch(pybind11::module_& m);             // dispatch_bindings.cpp
void init_schema(pybind11::module_& m);               // schema_bindings.cpp: parse_schema, FunctionSchema
void init_runtime_control(pybind11::module_& m);      // runtime_bindings.cpp: seeds, tracing
void init_generated_functions(pybind11::module_& m);  // generated
void init_tensor_new(pybind11::module_& m);           // tensor_new.cpp: torch.tensor
void init_numpy(pybind11::module_& m);                // numpy_bindings.cpp: numpy(), from_numpy
// The dtype of a NumPy dtype object, if this runtime has it (numpy_bindings.cpp).
std::optional<ScalarType> numpy_scalar_type(pybind11::handle dtype);
void init_autocast(pybind11::module_& m);        // autocast_bindings.cpp: torch.autocast's state
void init_cuda(pybind11::module_& m);            // cuda_bindings.cpp: torch.cuda's runtime
void init_type_promotion(pybind11::module_& m);  // type_promotion_bindings.cpp: promote_types ...
namespace dynamo {
void init_dynamo(pybind11::module_& m);  // frame_cache.cpp: torch._C._dynamo
}

// What print(t) shows.
std::string tensor_repr(const Tensor& t);
// torch.Size(sizes) (a tuple until torch has registered its Size class).
pybind11::object make_size(const std::vector<int64_t>& sizes);
// A backward node's Python object (one per node while alive), or None.
pybind11::object node_object(const std::shared_ptr<autograd::Node>& fn);
// "AddBackward0", "AccumulateGrad": the name Python shows for a node's type.
std::string node_display_name(const autograd::Node& fn);
// t.untyped_storage(): a torch.UntypedStorage (t.storage() wraps it in Python).
pybind11::object make_storage(const Tensor& t);

}  // namespace ipt::python
