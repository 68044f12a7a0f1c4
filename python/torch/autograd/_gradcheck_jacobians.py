"""gradcheck's Jacobians (torch.autograd.gradcheck): the numerical one by central differences,
perturbing each input element in place through a data alias of the input, and the analytical
one by backward with one-hot grad_outputs, with the checks made on the way and the deprecated
public get_numerical_jacobian / get_analytical_jacobian. gradcheck.py compares them."""
import collections.abc
import functools
import warnings
from itertools import product

import torch


class GradcheckError(RuntimeError):
    r"""Error raised by :func:`gradcheck` and :func:`gradgradcheck`."""
    __module__ = "torch.autograd.gradcheck"


def _is_tensor_like(obj):
    return isinstance(obj, torch.Tensor) or hasattr(type(obj), "__torch_function__")


def _is_float_or_complex_tensor(obj):
    return _is_tensor_like(obj) and (obj.is_floating_point() or obj.is_complex())


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _differentiable_outputs(x):
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _iter_tensors(x, only_requiring_grad=False):
    if _is_tensor_like(x):
        if x.requires_grad or not only_requiring_grad:
            yield x
    elif isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
        for elem in x:
            yield from _iter_tensors(elem, only_requiring_grad)


# Note [perturbing through data]
# PyTorch perturbs inputs through ``input.data``, an alias of the input's storage with a
# version counter of its own, so the perturbations do not bump the input's version and the
# graph recorded before (whose saved tensors include the input) stays usable for the
# analytical Jacobian. Here ``.data`` shares the input's version counter (it is a plain
# detach), so, where it does, the alias is taken through NumPy (which shares the memory and
# has no version counter); the arithmetic is the same.
def _data_shares_version():
    probe = torch.zeros(1)
    probe.data.add_(0)
    return probe._version != 0


_DATA_SHARES_VERSION = None


def _data_alias(t):
    global _DATA_SHARES_VERSION
    if _DATA_SHARES_VERSION is None:
        _DATA_SHARES_VERSION = _data_shares_version()
    if _DATA_SHARES_VERSION and t.device.type == "cpu":
        try:
            import numpy  # noqa: F401

            return torch.from_numpy(t.detach().numpy())
        except (ImportError, TypeError, RuntimeError):
            pass
    return t.data


def _allocate_jacobians_with_inputs(input_tensors, numel_output):
    # One zero (input numel, numel_output) matrix per differentiable input.
    return tuple(
        t.new_zeros((t.numel(), numel_output))
        for t in input_tensors
        if _is_float_or_complex_tensor(t) and t.requires_grad
    )


def _allocate_jacobians_with_outputs(output_tensors, numel_input, dtype=None, device=None):
    # One zero (numel_input, output numel) matrix per floating output.
    out = []
    for t in output_tensors:
        if _is_float_or_complex_tensor(t):
            kwargs = {}
            if dtype is not None:
                kwargs["dtype"] = dtype
            if device is not None:
                kwargs["device"] = device
            out.append(t.new_zeros((numel_input, t.numel()), **kwargs))
    return tuple(out)


def _iter_tensor(x_tensor):
    # Yields (alias, index, flat index) for every element of a strided tensor, in the order
    # of a contiguous flattening: perturbing alias[index] gives column `flat index` of the
    # Jacobians with respect to x_tensor.
    x_tensor = _data_alias(x_tensor)
    for d_idx, x_idx in enumerate(product(*[range(m) for m in x_tensor.size()])):
        yield x_tensor, x_idx, d_idx


def _check_outputs_same_dtype_and_shape(output1, output2, eps, idx=None):
    # The outputs may not change shape or dtype when the input is perturbed.
    on_index = f"on index {idx} " if idx is not None else ""
    if output1.shape != output2.shape:
        raise AssertionError(
            f"Expected `func` to return outputs with the same shape"
            f" when inputs are perturbed {on_index}by {eps}, but got:"
            f" shapes {output1.shape} and {output2.shape}."
        )
    if output1.dtype != output2.dtype:
        raise AssertionError(
            f"Expected `func` to return outputs with the same dtype"
            f" when inputs are perturbed {on_index}by {eps}, but got:"
            f" dtypes {output1.dtype} and {output2.dtype}."
        )


def _compute_numerical_gradient(fn, entry, v, norm_v, nbhd_checks_fn):
    # Central difference of fn at `entry` (changed in place) in the direction v.
    orig = entry.clone()
    entry.copy_(orig - v)
    outa = fn()
    entry.copy_(orig + v)
    outb = fn()
    entry.copy_(orig)

    def compute(a, b):
        nbhd_checks_fn(a, b)
        return ((b - a) / (2 * norm_v)).detach().reshape(-1)

    return tuple(compute(a, b) for a, b in zip(outa, outb))


def _compute_numerical_jvps_wrt_specific_input(jvp_fn, delta, input_is_complex, is_forward_ad=False):
    if input_is_complex:
        raise NotImplementedError("gradcheck: complex inputs are not supported by Inside PyTorch")
    jvps = []
    for ds_dx in jvp_fn(delta):
        if not is_forward_ad and ds_dx.is_complex():
            raise AssertionError("Expected ds_dx to be real-valued, not complex.")
        jvps.append(ds_dx)
    return jvps


def _combine_jacobian_cols(jacobians_cols, outputs, input, numel):
    # jacobians_cols: column index -> output index -> column; returns one matrix per output.
    jacobians = _allocate_jacobians_with_outputs(outputs, numel)
    for i, jacobian in enumerate(jacobians):
        for k, v in jacobians_cols.items():
            jacobian[k] = v[i]
    return jacobians


def _with_prepare_inputs(fn, inputs, input_idx, input_to_perturb, fast_mode=False):
    # fn over the inputs themselves (not the alias being perturbed: gradgradcheck's function
    # differentiates with respect to them), with its outputs cloned.
    def wrapped_fn():
        return tuple(a.clone() for a in _as_tuple(fn(*_as_tuple(inputs))))

    return wrapped_fn


def _get_numerical_jvp_fn(wrapped_fn, input_to_perturb, eps, nbhd_checks_fn):
    def jvp_fn(delta):
        return _compute_numerical_gradient(wrapped_fn, input_to_perturb, delta, eps, nbhd_checks_fn)

    return jvp_fn


def get_numerical_jacobian_wrt_specific_input(fn, input_idx, inputs, outputs, eps, input=None,
                                              is_forward_ad=False):
    # The numerical Jacobians of every output with respect to one input that requires grad:
    # perturbing one element gives one column of each.
    jacobian_cols = {}
    input = inputs[input_idx] if input is None else input
    if not input.requires_grad:
        raise AssertionError("Expected input to have requires_grad=True")
    for x, idx, d_idx in _iter_tensor(input):
        wrapped_fn = _with_prepare_inputs(fn, inputs, input_idx, x)
        input_to_perturb = x[idx]
        nbhd_checks_fn = functools.partial(_check_outputs_same_dtype_and_shape, idx=idx, eps=eps)
        jvp_fn = _get_numerical_jvp_fn(wrapped_fn, input_to_perturb, eps, nbhd_checks_fn)
        jacobian_cols[d_idx] = _compute_numerical_jvps_wrt_specific_input(
            jvp_fn, eps, x.is_complex(), is_forward_ad)
    return _combine_jacobian_cols(jacobian_cols, outputs, input, input.numel())


def _get_numerical_jacobian(fn, inputs, outputs=None, target=None, eps=1e-3, is_forward_ad=False):
    # M x N numerical Jacobians: for each input (of target) that requires grad, one per
    # floating output.
    jacobians = []
    if outputs is None:
        outputs = _as_tuple(fn(*_as_tuple(inputs)))
    if not is_forward_ad and any(o.is_complex() for o in outputs):
        raise ValueError(
            "Expected output to be non-complex. get_numerical_jacobian no "
            "longer supports functions that return complex outputs."
        )
    if target is None:
        target = inputs
    inp_indices = [i for i, a in enumerate(target) if _is_tensor_like(a) and a.requires_grad]
    for inp, inp_idx in zip(_iter_tensors(target, True), inp_indices):
        jacobians.append(get_numerical_jacobian_wrt_specific_input(
            fn, inp_idx, inputs, outputs, eps, input=inp, is_forward_ad=is_forward_ad))
    return jacobians


_DEPRECATED_MSG = (
    "`{}` was part of PyTorch's private API and not "
    "meant to be exposed. We are deprecating it and it will be removed "
    "in a future version of PyTorch. If you have a specific use for "
    "this or feature request for this to be a stable API, please file "
    "us an issue at https://github.com/pytorch/pytorch/issues/new"
)


def get_numerical_jacobian(fn, inputs, target=None, eps=1e-3, grad_out=1.0):
    """Deprecated: numerical Jacobians of fn (taking its inputs as one tuple), first output."""
    warnings.warn(_DEPRECATED_MSG.format("get_numerical_jacobian"), FutureWarning, stacklevel=2)
    if grad_out != 1.0:
        raise ValueError(
            "Expected grad_out to be 1.0. get_numerical_jacobian no longer "
            "supports values of grad_out != 1.0."
        )

    def fn_pack_inps(*inps):
        return fn(inps)

    jacobians = _get_numerical_jacobian(fn_pack_inps, inputs, None, target, eps)
    return tuple(jacobian_for_each_output[0] for jacobian_for_each_output in jacobians)


def _check_jacobians_equal(j1, j2, atol):
    for j1_x, j2_x in zip(j1, j2):
        if j1_x.numel() != 0 and (j1_x - j2_x).abs().max() > atol:
            return False
    return True


def _stack_and_check_tensors(list_of_list_of_tensors, inputs, numel_outputs):
    # Stacks the rows (vJps) into one matrix per differentiable input; also says whether
    # their sizes and dtypes were those of the inputs.
    out_jacobians = _allocate_jacobians_with_inputs(inputs, numel_outputs)
    diff_input_list = list(_iter_tensors(inputs, True))
    correct_grad_sizes = True
    correct_grad_types = True
    for i, tensor_list in enumerate(list_of_list_of_tensors):
        inp = diff_input_list[i]
        out_jacobian = out_jacobians[i]
        for j, tensor in enumerate(tensor_list):
            if tensor is not None and tensor.size() != inp.size():
                correct_grad_sizes = False
            elif tensor is not None and tensor.dtype != inp.dtype:
                correct_grad_types = False
            if tensor is None:
                out_jacobian[:, j].zero_()
            else:
                if out_jacobian[:, j].numel() != tensor.numel():
                    raise AssertionError(
                        f"Expected out_jacobian column to have {tensor.numel()} elements, "
                        f"but got {out_jacobian[:, j].numel()}"
                    )
                out_jacobian[:, j] = tensor.reshape(-1)
    return out_jacobians, correct_grad_sizes, correct_grad_types


FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _compute_analytical_jacobian_rows(vjp_fn, sample_output):
    # Row j of the Jacobian is vjp_fn(e_j); rows[i][j] is row j for input i.
    grad_out_base = torch.zeros(sample_output.shape, dtype=sample_output.dtype,
                                device=sample_output.device)
    flat_grad_out = grad_out_base.view(-1)
    jacobians_rows = []
    for j in range(flat_grad_out.numel()):
        flat_grad_out.zero_()
        flat_grad_out[j] = 1.0
        grad_inputs = vjp_fn(grad_out_base)
        for i, d_x in enumerate(grad_inputs):
            if j == 0:
                jacobians_rows.append([])
            jacobians_rows[i] += [d_x.clone() if isinstance(d_x, torch.Tensor) else None]
    return jacobians_rows


def _get_analytical_vjps_wrt_specific_output(vjp_fn, sample_output, v):
    grad_inputs = vjp_fn(v.reshape(sample_output.shape))
    return [[vjp.clone() if isinstance(vjp, torch.Tensor) else None] for vjp in grad_inputs]


def _check_analytical_jacobian_attributes(inputs, output, nondet_tol, check_grad_dtypes,
                                          fast_mode=False, v=None):
    # Slow mode: the analytical Jacobians of `output`, one per differentiable input. Fast
    # mode: one vJ row per input. Everything is computed twice to check that backward is
    # reentrant (deterministic within nondet_tol).
    diff_input_list = list(_iter_tensors(inputs, True))

    def vjp_fn(grad_output):
        return torch.autograd.grad(output, diff_input_list, grad_output, retain_graph=True,
                                   allow_unused=True)

    if fast_mode:
        vjps1 = _get_analytical_vjps_wrt_specific_output(vjp_fn, output.clone(), v)
        vjps2 = _get_analytical_vjps_wrt_specific_output(vjp_fn, output.clone(), v)
    else:
        vjps1 = _compute_analytical_jacobian_rows(vjp_fn, output.clone())
        vjps2 = _compute_analytical_jacobian_rows(vjp_fn, output.clone())

    output_numel = output.numel() if not fast_mode else 1
    # 2.15 unpacks (sizes, types) in this order: the names are swapped there too.
    jacobians1, types_ok, sizes_ok = _stack_and_check_tensors(vjps1, inputs, output_numel)
    jacobians2, _, _ = _stack_and_check_tensors(vjps2, inputs, output_numel)
    reentrant = _check_jacobians_equal(jacobians1, jacobians2, nondet_tol)

    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not reentrant:
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with "
            "same input and grad_output multiple times gives different values, "
            "although analytical gradient matches numerical gradient."
            f"The tolerance for nondeterminism was {nondet_tol}." + FAILED_NONDET_MSG
        )
    return jacobians1


def get_analytical_jacobian(inputs, output, nondet_tol=0.0, grad_out=1.0):
    """Deprecated: (jacobians, reentrant, sizes_ok, types_ok) of output w.r.t. inputs."""
    warnings.warn(_DEPRECATED_MSG.format("get_analytical_jacobian"), FutureWarning, stacklevel=2)
    if grad_out != 1.0:
        raise ValueError(
            "Expected grad_out to be 1.0. get_analytical_jacobian no longer "
            "supports values of grad_out != 1.0."
        )
    if output.is_complex():
        raise ValueError(
            "Expected output to be non-complex. get_analytical_jacobian no "
            "longer supports functions that return complex outputs."
        )
    diff_input_list = list(_iter_tensors(inputs, True))

    def vjp_fn(grad_output):
        return torch.autograd.grad(output, diff_input_list, grad_output, retain_graph=True,
                                   allow_unused=True)

    vjps1 = _compute_analytical_jacobian_rows(vjp_fn, output.clone())
    vjps2 = _compute_analytical_jacobian_rows(vjp_fn, output.clone())
    output_numel = output.numel()
    jacobians1, types_ok, sizes_ok = _stack_and_check_tensors(vjps1, inputs, output_numel)
    jacobians2, _, _ = _stack_and_check_tensors(vjps2, inputs, output_numel)
    reentrant = _check_jacobians_equal(jacobians1, jacobians2, nondet_tol)
    return jacobians1, reentrant, sizes_ok, types_ok


def _get_analytical_jacobian(inputs, outputs, input_idx, output_idx):
    # Slow-mode analytical Jacobian of one input/output pair, without the checks.
    jacobians = _check_analytical_jacobian_attributes(
        inputs, outputs[output_idx], nondet_tol=float("inf"), check_grad_dtypes=False)
    return jacobians[input_idx]
