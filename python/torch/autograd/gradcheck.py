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
import functools
import warnings

import torch

from ._gradcheck_jacobians import (  # noqa: F401  (the deprecated public functions are re-exported)
    GradcheckError,
    _is_tensor_like,
    _is_float_or_complex_tensor,
    _as_tuple,
    _differentiable_outputs,
    _iter_tensors,
    _data_alias,
    _check_outputs_same_dtype_and_shape,
    _compute_numerical_jvps_wrt_specific_input,
    _with_prepare_inputs,
    _get_numerical_jvp_fn,
    _get_numerical_jacobian,
    _check_analytical_jacobian_attributes,
    _get_analytical_jacobian,
    get_analytical_jacobian,
    get_numerical_jacobian,
    get_numerical_jacobian_wrt_specific_input,
)
from .function import Function

__all__ = [
    "gradcheck",
    "gradgradcheck",
    "GradcheckError",
    "get_numerical_jacobian",
    "get_analytical_jacobian",
    "get_numerical_jacobian_wrt_specific_input",
]


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
