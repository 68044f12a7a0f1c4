"""torch.autograd.gradcheck: gradcheck and gradgradcheck, as in PyTorch 2.15.

gradcheck compares the Jacobians that autograd computes (backward with one-hot grad_outputs,
one vector-Jacobian product per output element) with numerical ones (central differences,
perturbing each input element in place through a data alias of the input), element for element
with ``torch.allclose``; fast mode (``fast_mode=True``) compares ``v^T J u`` for random unit
vectors u and v instead. gradgradcheck runs gradcheck on the function that returns the
first-order gradients with ``create_graph=True``.

What this runtime does not have, so is refused with NotImplementedError: forward-mode AD
(``check_forward_ad``, ``check_batched_forward_grad``, gradgradcheck's ``check_fwd_over_rev``)
and vmap (``check_batched_grad``). Complex, sparse and MKLDNN tensors do not exist here, so
their paths are left out.
"""
import collections.abc
import functools
import warnings
from itertools import product

import torch

from .function import Function

__all__ = [
    "gradcheck",
    "gradgradcheck",
    "GradcheckError",
    "get_numerical_jacobian",
    "get_analytical_jacobian",
    "get_numerical_jacobian_wrt_specific_input",
]


class GradcheckError(RuntimeError):
    r"""Error raised by :func:`gradcheck` and :func:`gradgradcheck`."""


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


def _check_inputs(tupled_inputs):
    # At least one input must require grad; those that do should be float64 and must not
    # have overlapping memory (a stride of 0).
    any_input_requiring_grad = False
    for idx, inp in enumerate(tupled_inputs):
        if _is_tensor_like(inp) and inp.requires_grad:
            if not (inp.dtype == torch.float64 or inp.dtype == getattr(torch, "complex128", None)):
                warnings.warn(
                    f"Input #{idx} requires gradient and "
                    "is not a double precision floating point or complex. "
                    "This check will likely fail if all the inputs are "
                    "not of double precision floating point or complex. ",
                    stacklevel=2,
                )
            if not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.size())):
                raise RuntimeError(
                    f"The {idx}th input has a dimension with stride 0. gradcheck only "
                    "supports inputs that are non-overlapping to be able to "
                    "compute the numerical gradients correctly. You should call "
                    ".contiguous on the input before passing it to gradcheck."
                )
            any_input_requiring_grad = True
    if not any_input_requiring_grad:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, "
            "but none of them have requires_grad=True."
        )
    return True


def _check_outputs(outputs):
    # Sparse and MKLDNN outputs (refused by 2.15) do not exist in this runtime.
    for t in outputs:
        if isinstance(t, torch.Tensor) and t.layout != torch.strided:
            raise ValueError(
                "Sparse output is not supported at gradcheck yet. "
                "Please call to_dense(masked_grad=...) on the output of fn for gradcheck."
            )


def _check_no_differentiable_outputs(func, inputs, func_out, eps, *, is_forward_ad):
    # Without differentiable outputs the numerical gradient must be zero.
    jacobians_all_inputs_outputs = _get_numerical_jacobian(
        func, inputs, func_out, eps=eps, is_forward_ad=is_forward_ad)
    for jacobians_all_outputs_and_fixed_input in jacobians_all_inputs_outputs:
        for jacobian in jacobians_all_outputs_and_fixed_input:
            if torch.ne(jacobian, 0).sum() > 0:
                raise GradcheckError("Numerical gradient for function expected to be zero")
    return True


def _check_no_differentiable_outputs_fast(func, func_out, all_inputs, inputs_indices, all_u, eps,
                                          nondet_tol):
    for inp_idx, u in zip(inputs_indices, all_u):
        jvps = _get_numerical_jvp_wrt_specific_input(func, inp_idx, all_inputs, u, eps)
        for jvp in jvps:
            if jvp.numel() == 0:
                continue
            if (jvp - torch.zeros_like(jvp)).abs().max() > nondet_tol:
                raise GradcheckError("Numerical gradient for function expected to be zero")
    return True


def _test_backward_mul_by_grad_output(outputs, inputs, masked):
    # Zero grad_outputs must give zero input gradients of the inputs' dtype, device and size.
    diff_input_list = list(_iter_tensors(inputs, True))
    if not diff_input_list:
        raise GradcheckError("no Tensors requiring grad found in input")
    grads_input = torch.autograd.grad(
        outputs, diff_input_list,
        [torch.zeros(o.shape, dtype=o.dtype, device=o.device) for o in outputs],
        allow_unused=True)
    for gi, di in zip(grads_input, diff_input_list):
        if gi is None:
            continue
        if masked:
            if not torch.allclose(gi, torch.zeros_like(gi)):
                raise GradcheckError("backward not multiplied by grad_output")
        elif not gi.eq(0).all():
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.dtype != di.dtype:
            raise GradcheckError("grad is incorrect type")
        if gi.device != di.device:
            raise GradcheckError("grad is incorrect device")
        if gi.size() != di.size():
            raise GradcheckError("grad is incorrect size")
    return True


class _UndefinedGrad(Function):
    # torch._C._functions.UndefinedGrad: the identity, whose backward hands an undefined
    # gradient (None) to the function before it.
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        return None


def _test_undefined_backward_mode(func, outputs, inputs):
    # Backward must work, and give undefined or zero input gradients, when the grad_outputs
    # are undefined: all of them, and one at a time when there are several.
    diff_input_list = list(_iter_tensors(inputs, True))
    if not diff_input_list:
        raise GradcheckError("no Tensors requiring grad found in input")

    def warn_bc_breaking():
        warnings.warn(
            "Backwards compatibility: New undefined gradient support checking "
            "feature is enabled by default, but it may break existing callers "
            "of this function. If this is true for you, you can call this "
            'function with "check_undefined_grad=False" to disable the feature',
            stacklevel=2,
        )

    def check_undefined_grad_support(output_to_check):
        grads_output = [torch.zeros(o.shape, dtype=o.dtype, device=o.device) for o in output_to_check]
        try:
            grads_input = torch.autograd.grad(output_to_check, diff_input_list, grads_output,
                                              allow_unused=True)
        except RuntimeError as e:
            warn_bc_breaking()
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. "
                'Please look at "Notes about undefined output gradients" in '
                '"tools/autograd/derivatives.yaml"'
            ) from e
        for gi in grads_input:
            if (gi is not None) and (not gi.eq(0).all()):
                warn_bc_breaking()
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads are undefined "
                    'or zero. Please look at "Notes about undefined output gradients" in '
                    '"tools/autograd/derivatives.yaml"'
                )
        return True

    outputs_to_check = [[
        _UndefinedGrad.apply(o)
        for o in _differentiable_outputs(func(*inputs))
        if isinstance(o, torch.Tensor)
    ]]
    if len(outputs_to_check[0]) > 1:
        for undef_grad_idx in range(len(outputs)):
            output_to_check = _differentiable_outputs(func(*inputs))
            outputs_to_check.append([
                _UndefinedGrad.apply(o) if idx == undef_grad_idx else o
                for idx, o in enumerate(output_to_check)
            ])
    return all(check_undefined_grad_support(output) for output in outputs_to_check)


def _get_notallclose_msg(analytical, numerical, output_idx, input_idx, complex_indices,
                         test_imag=False, is_forward_ad=False):
    mode = "computed with forward mode " if is_forward_ad else ""
    return (
        f"Jacobian {mode}mismatch for output {output_idx:d} with respect to input {input_idx:d},\n"
        f"numerical:{numerical}\nanalytical:{analytical}\n"
    )


def _transpose(matrix_of_tensors):
    return list(zip(*matrix_of_tensors))


def _allclose_with_type_promotion(a, b, rtol, atol):
    promoted_type = torch.promote_types(a.dtype, b.dtype)
    return torch.allclose(a.to(dtype=promoted_type), b.to(dtype=promoted_type), rtol, atol)


def _slow_gradcheck(func, func_out, tupled_inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                    nondet_tol, *, use_forward_ad=False, complex_indices=None, test_imag=False,
                    masked=False):
    func_out = _as_tuple(func_out)
    if not outputs:
        return _check_no_differentiable_outputs(func, tupled_inputs, func_out, eps=eps,
                                                is_forward_ad=use_forward_ad)
    numerical = _transpose(_get_numerical_jacobian(func, tupled_inputs, func_out, eps=eps,
                                                   is_forward_ad=use_forward_ad))
    # The numerical path has a Jacobian for every output; keep those that require grad.
    numerical = [nj for o, nj in zip(func_out, numerical) if o.requires_grad]
    for i, o in enumerate(outputs):
        analytical = _check_analytical_jacobian_attributes(tupled_inputs, o, nondet_tol,
                                                           check_grad_dtypes)
        for j, (a, n) in enumerate(zip(analytical, numerical[i])):
            if not _allclose_with_type_promotion(a, n.to(a.device), rtol, atol):
                raise GradcheckError(_get_notallclose_msg(a, n, i, j, complex_indices, test_imag))
    return True


# Fast mode (https://github.com/pytorch/pytorch/issues/53876): compares v^T J u, numerical
# (a central difference in the direction u) against analytical (one vJp, dotted with u), for
# unit vectors u (one per input) and v (one per output) drawn from a generator of its own.

def _dot_with_type_promotion(u, v):
    if u.dim() != 1 or v.dim() != 1:
        raise AssertionError(
            f"Expected u and v to be 1D tensors, but got dims {u.dim()} and {v.dim()}")
    return (u * v).sum()


def _vec_from_tensor(x, generator, downcast_complex=False):
    vec = torch.rand(x.numel(), generator=generator).to(dtype=x.dtype, device=x.device)
    vec /= vec.norm()
    return vec


def _get_inp_tensors(tupled_inputs):
    inp_idx_tup = [(i, t) for i, t in enumerate(tupled_inputs)
                   if _is_tensor_like(t) and t.requires_grad]
    return [tup[0] for tup in inp_idx_tup], [tup[1] for tup in inp_idx_tup]


def _adjusted_atol(atol, u, v):
    # Comparing v^T A u with v^T B u, atol scales by v^T (all ones) u = sum(u) * sum(v).
    sum_v = 1.0 if v is None else v.sum()
    return atol * float(u.sum()) * float(sum_v)


FAST_FAIL_SLOW_OK_MSG = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()


def _run_slow_mode_and_get_error(func, tupled_inputs, outputs, input_idx, output_idx, rtol, atol,
                                 eps, is_forward_ad):
    # The slow-mode Jacobians of the failing pair, for the message.
    slow_numerical = _get_numerical_jacobian(func, tupled_inputs, outputs, eps=eps,
                                             is_forward_ad=False)[input_idx][output_idx]
    slow_analytical = _get_analytical_jacobian(tupled_inputs, outputs, input_idx, output_idx)
    slow_max_diff = (slow_numerical - slow_analytical).abs().max()
    slow_allclose = torch.allclose(slow_analytical, slow_numerical, rtol, atol)
    msg = (
        "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
        "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
        "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
        f"Numerical:\n {slow_numerical}\n"
        f"Analytical:\n{slow_analytical}\n\n"
        f"The max per-element difference (slow mode) is: {slow_max_diff}.\n"
    )
    if slow_allclose:
        msg += FAST_FAIL_SLOW_OK_MSG
    return msg


def _make_vectors(inp_tensors, outputs, *, use_forward_ad):
    g_cpu = torch.Generator()  # not the default generator: the user's draws stay as they are
    all_u = [_vec_from_tensor(inp, g_cpu, True) for inp in inp_tensors]
    all_u_dense = list(all_u)
    all_v = None if use_forward_ad else [_vec_from_tensor(out, g_cpu) for out in outputs]
    return all_v, all_u, all_u_dense


def _get_numerical_jvp_wrt_specific_input(fn, input_idx, inputs, u, eps, is_forward_ad=False):
    input = inputs[input_idx]
    input_to_perturb = _data_alias(input)
    wrapped_fn = _with_prepare_inputs(fn, inputs, input_idx, input_to_perturb, True)
    nbhd_checks_fn = functools.partial(_check_outputs_same_dtype_and_shape, eps=eps)
    jvp_fn = _get_numerical_jvp_fn(wrapped_fn, input_to_perturb, eps, nbhd_checks_fn)
    u = u.reshape(input_to_perturb.shape) * eps
    return _compute_numerical_jvps_wrt_specific_input(jvp_fn, u, input.is_complex(), is_forward_ad)


def _get_numerical_vJu(fn, inputs, inp_indices, func_out, all_u, all_v, eps, is_forward_ad):
    reduced_jacobians = []
    func_out = _as_tuple(func_out)
    for inp_idx, u in zip(inp_indices, all_u):
        all_Ju = _get_numerical_jvp_wrt_specific_input(fn, inp_idx, inputs, u, eps, is_forward_ad)
        if len(all_Ju) != len(func_out):
            raise AssertionError(
                f"Expected all_Ju and func_out to have the same length, "
                f"but got {len(all_Ju)} and {len(func_out)}")
        filtered_Ju = [Ju for Ju, output in zip(all_Ju, func_out)
                       if _is_float_or_complex_tensor(output) and (is_forward_ad or output.requires_grad)]
        if all_v is not None:
            reduced_jacobians.append([_dot_with_type_promotion(v, Ju) for v, Ju in zip(all_v, filtered_Ju)])
        else:
            reduced_jacobians.append(filtered_Ju)
    return reduced_jacobians


def _get_analytical_vJu_backward_mode(inputs, outputs, nondet_tol, check_grad_dtypes, all_v, all_u):
    reduced_jacobians = []
    for output, v in zip(outputs, all_v):
        all_vJ = _check_analytical_jacobian_attributes(inputs, output, nondet_tol, check_grad_dtypes,
                                                       fast_mode=True, v=v)
        # vJ is a (numel, 1) matrix, so that slow mode's checks could be reused.
        reduced_jacobians.append([vJ.T.squeeze(0).dot(u) for vJ, u in zip(all_vJ, all_u)])
    return reduced_jacobians


def _check_analytical_numerical_equal(all_analytical, all_numerical, complex_indices, tupled_inputs,
                                      outputs, func, all_v, all_u, rtol, atol, eps, test_imag, *,
                                      is_forward_ad=False):
    for i, all_numerical_for_input_i in enumerate(all_numerical):
        for j, n in enumerate(all_numerical_for_input_i):
            a = all_analytical[i][j] if is_forward_ad else all_analytical[j][i]
            n = n.to(device=a.device)
            updated_atol = _adjusted_atol(atol, all_u[i], all_v[j] if all_v else None)
            if not _allclose_with_type_promotion(a, n.to(a.device), rtol, updated_atol):
                jacobians_str = _run_slow_mode_and_get_error(
                    func, tupled_inputs, outputs, i, j, rtol, atol, eps, is_forward_ad)
                raise GradcheckError(
                    _get_notallclose_msg(a, n, j, i, complex_indices, test_imag, is_forward_ad)
                    + jacobians_str)


def _fast_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol,
                    *, use_forward_ad=False, complex_indices=None, test_imag=False, masked=False):
    inp_tensors_idx, inp_tensors = _get_inp_tensors(inputs)
    all_v, all_u, all_u_dense = _make_vectors(inp_tensors, outputs, use_forward_ad=use_forward_ad)
    numerical_vJu = _get_numerical_vJu(func, inputs, inp_tensors_idx, func_out, all_u, all_v, eps,
                                       is_forward_ad=use_forward_ad)
    if not outputs:
        _check_no_differentiable_outputs_fast(func, func_out, inputs, inp_tensors_idx, all_u, eps,
                                              nondet_tol)
    analytical_vJu = _get_analytical_vJu_backward_mode(inputs, outputs, nondet_tol, check_grad_dtypes,
                                                       all_v, all_u_dense)
    _check_analytical_numerical_equal(analytical_vJu, numerical_vJu, complex_indices, inputs, outputs,
                                      func, all_v, all_u, rtol, atol, eps, test_imag,
                                      is_forward_ad=use_forward_ad)
    return True


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    r"""Check gradients computed via small finite differences against analytical
    gradients wrt tensors in :attr:`inputs` that are of floating point type and with
    ``requires_grad=True``, with :func:`torch.allclose`. Returns ``True`` when all of them
    match; otherwise raises :class:`GradcheckError`, or returns ``False`` when
    ``raise_exception=False``.
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    if check_forward_ad:
        raise NotImplementedError(
            "gradcheck: check_forward_ad=True (forward-mode AD, and gradgradcheck's "
            "check_fwd_over_rev) is not supported by Inside PyTorch")
    if check_batched_grad:
        raise NotImplementedError(
            "gradcheck: check_batched_grad=True needs vmap, which Inside PyTorch does not have")
    args = dict(func=func, inputs=inputs, eps=eps, atol=atol, rtol=rtol, nondet_tol=nondet_tol,
                check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
                check_backward_ad=check_backward_ad, fast_mode=fast_mode, masked=masked)
    if not raise_exception:
        try:
            return _gradcheck_helper(**args)
        except GradcheckError:
            return False
    return _gradcheck_helper(**args)


def _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
                      check_backward_ad, fast_mode, masked):
    tupled_inputs = _as_tuple(inputs)
    _check_inputs(tupled_inputs)

    func_out = func(*tupled_inputs)
    outputs = _differentiable_outputs(func_out)
    _check_outputs(outputs)

    if any(o.is_complex() for o in _as_tuple(func_out)):
        raise NotImplementedError("gradcheck: complex outputs are not supported by Inside PyTorch")
    gradcheck_fn = _fast_gradcheck if fast_mode else _slow_gradcheck
    if check_backward_ad:
        gradcheck_fn(func, func_out, tupled_inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                     nondet_tol, masked=masked)
    if not check_backward_ad:
        return True
    _test_backward_mul_by_grad_output(outputs, tupled_inputs, masked)
    if check_undefined_grad and check_backward_ad:
        _test_undefined_backward_mode(func, outputs, tupled_inputs)
    return True


def _make_grad_output(shape, dtype, device, noncontiguous):
    # torch.testing.make_tensor(shape, dtype=dtype, device=device, low=-1, high=1,
    # requires_grad=True, noncontiguous=noncontiguous): uniform draws in [-1, 1), made
    # non-contiguous by drawing twice the last dimension and taking every second element.
    shape = tuple(shape)
    numel = 1
    for s in shape:
        numel *= s
    noncontiguous = noncontiguous and numel > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])
    result = torch.empty(shape, dtype=dtype, device=device)
    result.uniform_(-1, 1)
    if noncontiguous:
        result = result[..., 1::2]
    result.requires_grad = True
    return result


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    r"""Check gradients of gradients computed via small finite differences against
    analytical gradients wrt tensors in :attr:`inputs` and :attr:`grad_outputs`: gradcheck of
    the function returning the first-order gradients (``create_graph=True``). When
    :attr:`grad_outputs` is None, random ones in [-1, 1) are drawn from the default generator.
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_batched_grad=True requires check_rev_over_rev to be True")
    tupled_inputs = _as_tuple(inputs)

    if grad_outputs is None:
        outputs = _differentiable_outputs(func(*tupled_inputs))
        tupled_grad_outputs = tuple(
            _make_grad_output(x.shape,
                              x.dtype if x.is_floating_point() or x.is_complex() else torch.double,
                              x.device, gen_non_contig_grad_outputs)
            for x in outputs
        )
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)

    num_outputs = len(tupled_grad_outputs)

    # Which inputs and grad_outputs require grad, remembered before gradcheck runs.
    diff_input_args_indices = {i for i, x in enumerate(tupled_inputs)
                               if _is_tensor_like(x) and x.requires_grad}
    diff_grad_output_indices = {i for i, x in enumerate(tupled_grad_outputs) if x.requires_grad}

    def new_func(*args):
        input_args = tuple(x.requires_grad_() if i in diff_input_args_indices else x
                           for i, x in enumerate(args[:-num_outputs]))
        outputs = _differentiable_outputs(func(*input_args))
        grad_outputs = tuple(x.requires_grad_() if i in diff_grad_output_indices else x
                             for i, x in enumerate(args[-num_outputs:]))
        diff_input_args = tuple(x for i, x in enumerate(input_args) if i in diff_input_args_indices)
        grad_inputs = torch.autograd.grad(outputs, diff_input_args, grad_outputs, create_graph=True,
                                          allow_unused=True)
        return tuple(g for g in grad_inputs if g is not None)

    return gradcheck(
        new_func,
        tupled_inputs + tupled_grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
        check_grad_dtypes=check_grad_dtypes,
        check_batched_grad=check_batched_grad,
        fast_mode=fast_mode,
        check_forward_ad=check_fwd_over_rev,
        check_backward_ad=check_rev_over_rev,
        masked=masked,
    )
