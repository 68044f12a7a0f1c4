"""torch.autograd.Function: custom differentiable operations, written in Python.

Users subclass Function with two static methods and call ``apply``::

    class MyExp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

    y = MyExp.apply(x)        # y.grad_fn is a node named 'MyExpBackward'

``Function.apply`` is implemented here in Python (PyTorch does it in C++,
THPFunction_apply): it runs ``forward`` under ``torch.no_grad()`` and, when
grad mode is on and some tensor argument requires grad, asks the C++ side for
one graph node through the hook below. Everything else -- ctx, saved tensors
and their version checks, non-differentiable and dirty outputs, gradient
materialization, checking what ``backward`` returns -- is done in this file,
with PyTorch 2.15's behaviour and messages.

Contract of the C++ hook
========================

``torch._C._make_python_node(name, backward_fn, inputs, outputs[, dirty])``

Arguments:

* ``name`` (str): the node's name, ``cls.__name__ + 'Backward'`` (e.g.
  'MyExpBackward'). ``type(t.grad_fn).__name__`` and the ``grad_fn=<...>`` of
  the tensor repr must show it.
* ``backward_fn``: a Python callable. Called as ``backward_fn(*grads)`` with
  exactly ``len(outputs)`` positional arguments, in the order of ``outputs``;
  each is the gradient Tensor for that output, or None when the output got no
  gradient (no materialization on the C++ side: Python does it). It returns a
  tuple of exactly ``len(inputs)`` entries, each a Tensor or None (None: no
  gradient flows to that input). The count and types are already checked.
  ``backward_fn`` also has a method ``release()``: call it when the node frees
  its saved state, i.e. right after running it when the backward pass does
  not retain the graph (retain_graph=False), exactly when built-in nodes free
  their saved tensors. After release a second call raises PyTorch's
  "Trying to backward through the graph a second time ..." RuntimeError
  itself; the node may as well drop its reference to ``backward_fn`` then.
  Exceptions raised by ``backward_fn`` propagate out of backward() /
  autograd.grad() unchanged.
* ``inputs`` (tuple of Tensors): the Tensor arguments of ``apply``, in order
  (non-Tensor arguments are left out). The node gets one next edge per input,
  as any built-in node: the input's grad_fn (with its output_nr) or its
  AccumulateGrad when it is a leaf requiring grad, and no edge (None in
  ``next_functions``, ``(None, 0)``) when it does not require grad. Gradients
  returned for inputs without an edge are dropped. The engine validates the
  returned gradients like those of any node; PyTorch's message, with i the
  index in ``inputs``: "Function MyExpBackward returned an invalid gradient
  at index 0 - got [2] but expected shape compatible with [3]".
* ``outputs`` (tuple of Tensors): the differentiable Tensor outputs of
  ``forward`` (floating point or complex, not marked non-differentiable),
  computed under no_grad. May include objects that are also in ``inputs``.
* ``dirty`` (optional tuple of bools, one per output; passed only when
  ``ctx.mark_dirty`` was used on an input): True marks an input modified in
  place by ``forward`` and returned.

Returns a tuple with one Tensor per ``outputs`` entry, to be handed to the
caller of ``apply``: output k has ``requires_grad=True``, ``grad_fn`` = the
new node, ``output_nr`` = k, and

* when ``dirty[k]`` is false: a tensor sharing storage and version counter
  with ``outputs[k]`` with the history set on it. It MUST be a new tensor
  object (what ``outputs[k].detach()`` gives, plus the history) when
  ``outputs[k]`` is also one of ``inputs`` -- the input keeps its own
  grad_fn. Otherwise it may be ``outputs[k]`` itself with the history set in
  place (as PyTorch does) or a new alias; Python copes with both (it keeps
  saved outputs as detached aliases, so ctx never references the node);
* when ``dirty[k]`` is true: it is ``outputs[k]`` itself, with its history
  rebased onto the node in place, as an in-place op does (PyTorch 2.15 also
  bumps its version counter once more here). Python has already rejected a
  dirty leaf that requires grad.

Nothing else of the C++ side is needed by this file. It also uses
``t._version`` (when the runtime has it) to detect saved tensors modified in
place, ``t.type()`` and ``t.dtype.is_floating_point`` / ``is_complex``
(falling back to sensible defaults when missing), torch.zeros(shape,
dtype=, device=) for gradient materialization, torch.no_grad() and
torch.is_grad_enabled().

Not supported: double backward (backward runs on plain tensors), forward-mode
AD (jvp), save_for_forward's use, @once_differentiable's error node (the
decorator just runs backward under no_grad).
"""
import functools
import warnings

import torch

__all__ = ['FunctionCtx', 'BackwardCFunction', 'Function', 'once_differentiable',
           'InplaceFunction', 'traceable']

_FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward.")


def _op_name(node_name):
    # "MyFuncBackward" -> "MyFunc", "ExpBackward0" -> "Exp": how autograd's errors name the
    # operation behind a node (see Note [Operation names in autograd errors] in the runtime).
    base = node_name.rstrip('0123456789')
    if base.endswith('Backward') and len(base) > len('Backward'):
        return base[:-len('Backward')]
    return node_name


def _output_nr(t):
    return getattr(t, 'output_nr', 0)


def _type_string(t):
    type_fn = getattr(t, 'type', None)
    if type_fn is not None:
        try:
            return type_fn()
        except Exception:
            pass
    return 'torch.Tensor'


def _is_differentiable_dtype(dtype):
    return bool(getattr(dtype, 'is_floating_point', True) or getattr(dtype, 'is_complex', False))


def _python_typename(o):
    if isinstance(o, torch.Tensor):
        return _type_string(o)
    t = type(o)
    if t.__module__ in ('builtins', '__builtin__', None):
        return t.__qualname__
    return t.__module__ + '.' + t.__qualname__


class FunctionCtx:
    """The ``ctx`` passed to forward and backward: stores what backward needs."""

    def save_for_backward(self, *tensors):
        r"""Saves tensors (or None) for backward; read them back with ``ctx.saved_tensors``.
        Only tensors that are inputs or outputs of forward, or None, should be saved."""
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        for tensor in tensors:
            assert isinstance(tensor, torch.Tensor) or tensor is None, (
                "save_for_forward expects all arguments to be tensors; you should "
                "save non-tensors as attributes on ctx.")
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        r"""Marks inputs that forward modified in place (and returns)."""
        self.dirty_tensors = args

    def mark_shared_storage(self, *pairs):
        warnings.warn(
            'mark_shared_storage is deprecated. '
            'Tensors with shared storages are automatically tracked. Note '
            'that calls to `set_()` are not tracked')

    def mark_non_differentiable(self, *args):
        r"""Marks outputs that have no gradient: they do not require grad, and backward
        receives zeros (or None) for them."""
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        r"""Whether backward gets zero tensors (True, default) or None for outputs without
        a gradient."""
        self.materialize_grads = value

    @property
    def saved_tensors(self):
        if getattr(self, '_saved_freed', False):
            raise RuntimeError(_FREED_MESSAGE)
        saved = self.__dict__.get('_saved', None)
        if saved is None:
            return ()
        result = []
        for entry in saved:
            if entry is None:
                result.append(None)
                continue
            tensor, version, output_of = entry
            if version is not None:
                current = getattr(tensor, '_version', None)
                if current is not None and current != version:
                    where = ''
                    if output_of is not None:
                        where = ', which is output {} of {},'.format(output_of[1], _op_name(output_of[0]))
                    elif tensor.grad_fn is not None:
                        # an input: named by its history now, as PyTorch does
                        where = ', which is output {} of {},'.format(_output_nr(tensor),
                                                                      _op_name(tensor.grad_fn.name()))
                    raise RuntimeError(
                        "one of the variables needed for gradient computation has been modified by an "
                        "inplace operation: [{} {}]{} is at version {}; expected version {} instead. "
                        "Hint: enable anomaly detection to find the operation that failed to compute "
                        "its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).".format(
                            _type_string(tensor), list(tensor.shape), where, current, version))
            result.append(tensor)
        return tuple(result)


# Formerly known as _ContextMethodMixin (kept for old code).
_ContextMethodMixin = FunctionCtx


class BackwardCFunction(FunctionCtx):
    """Base of the per-Function ctx classes 'NameBackward'; ``apply`` runs the user's backward."""

    materialize_grads = True

    def apply(self, *args):
        backward_fn = self._forward_cls.backward
        vjp_fn = self._forward_cls.vjp
        if backward_fn is not Function.backward and vjp_fn is not Function.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom "
                               "Function is not allowed. You should only implement one "
                               "of them.")
        user_fn = vjp_fn if vjp_fn is not Function.vjp else backward_fn
        return user_fn(self, *args)

    def apply_jvp(self, *args):
        return self._forward_cls.jvp(self, *args)


class _NodeBackward:
    """The callable given to torch._C._make_python_node (see the module docstring)."""

    def __init__(self, name, ctx, output_specs, tensor_input_mask):
        self.name = name
        self.ctx = ctx
        # per forward output: None (not a tensor), or (shape, dtype, device, slot) where
        # slot is the index among the node's outputs, or None for a non-differentiable one
        self.output_specs = output_specs
        self.tensor_input_mask = tensor_input_mask

    def release(self):
        ctx = self.ctx
        if ctx is not None:
            ctx._saved_freed = True
            ctx.__dict__.pop('_saved', None)
            ctx.__dict__.pop('to_save', None)
        self.ctx = None

    def __call__(self, *grads):
        ctx = self.ctx
        if ctx is None:
            raise RuntimeError(_FREED_MESSAGE)
        materialize = getattr(ctx, 'materialize_grads', True)
        full = []
        for spec in self.output_specs:
            if spec is None:
                full.append(None)
                continue
            shape, dtype, device, slot = spec
            g = grads[slot] if slot is not None else None
            if g is None and materialize:
                g = torch.zeros(shape, dtype=dtype, device=device)
            full.append(g)

        result = ctx.apply(*full)
        if not isinstance(result, tuple):
            result = (result,)

        num_inputs = len(self.tensor_input_mask)
        if len(result) > num_inputs and all(r is None for r in result[num_inputs:]):
            result = result[:num_inputs]
        if len(result) != num_inputs:
            raise RuntimeError("function {} returned an incorrect number of gradients (expected {}, got {})"
                               .format(self.name, num_inputs, len(result)))
        grads_for_inputs = []
        for i, (is_tensor_input, g) in enumerate(zip(self.tensor_input_mask, result)):
            if not is_tensor_input:
                if g is not None:
                    raise RuntimeError("function {} returned a gradient different than None at position {}, "
                                       "but the corresponding forward input was not a Variable"
                                       .format(self.name, i + 1))
                continue
            if g is not None and not isinstance(g, torch.Tensor):
                raise RuntimeError("expected Variable or None (got {})".format(_python_typename(g)))
            grads_for_inputs.append(g)
        return tuple(grads_for_inputs)


class Function:
    r"""Base class of custom autograd operations; see the module docstring.

    Subclasses define ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)`` as
    static methods and are used through ``Function.apply(*args)``.
    """

    is_traceable = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._backward_cls = type(cls.__name__ + 'Backward', (BackwardCFunction,), {'_forward_cls': cls})

    def __init__(self, *args, **kwargs):
        cls = self.__class__
        warnings.warn(f"{cls} should not be instantiated. Methods on autograd functions"
                      "are all static, so you should invoke them on the class itself. "
                      "Instantiating an autograd function will raise an "
                      "error in a future version of PyTorch.", DeprecationWarning)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. "
            "Please use new-style autograd function with static forward method. "
            "(Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom"
                                  " autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @classmethod
    def apply(cls, *args):
        backward_cls = cls.__dict__.get('_backward_cls')
        if backward_cls is None:
            backward_cls = type(cls.__name__ + 'Backward', (BackwardCFunction,), {'_forward_cls': cls})
            if cls is not Function:
                cls._backward_cls = backward_cls
        ctx = backward_cls()
        tensor_input_mask = tuple(isinstance(a, torch.Tensor) for a in args)
        ctx.needs_input_grad = tuple(is_t and a.requires_grad for is_t, a in zip(tensor_input_mask, args))
        is_executable = torch.is_grad_enabled() and any(ctx.needs_input_grad)

        with torch.no_grad():
            outputs = cls.forward(ctx, *args)

        return _wrap_outputs(cls, ctx, args, tensor_input_mask, outputs, is_executable)


def _wrap_outputs(cls, ctx, args, tensor_input_mask, outputs, is_executable):
    """Give forward's outputs their autograd history, as PyTorch's _wrap_outputs does."""
    name = cls.__name__ + 'Backward'
    is_tuple = isinstance(outputs, tuple)
    outs = list(outputs) if is_tuple else [outputs]

    input_ids = {id(a) for a, is_t in zip(args, tensor_input_mask) if is_t}
    dirty_ids = {id(t) for t in getattr(ctx, 'dirty_tensors', ()) or () if t is not None}
    non_diff_ids = {id(t) for t in getattr(ctx, 'non_differentiable', ()) or () if t is not None}

    output_specs = []
    node_outputs = []   # the raw tensors given to the node
    node_dirty = []
    node_positions = []  # position in outs of each node output
    for pos, var in enumerate(outs):
        if not isinstance(var, torch.Tensor):
            output_specs.append(None)
            continue
        is_input = id(var) in input_ids
        is_modified = id(var) in dirty_ids
        is_differentiable = (is_executable and id(var) not in non_diff_ids
                             and _is_differentiable_dtype(var.dtype))
        if not is_differentiable:
            if not var.requires_grad:
                if is_input and not is_modified:
                    var = var.detach()
            elif is_input:
                # detached aliases of inputs, their requires_grad left as it is
                var = var.detach()
            else:
                var.detach_()
            outs[pos] = var
            output_specs.append((tuple(var.shape), var.dtype, var.device, None) if is_executable else None)
            continue
        if is_modified:
            if var.grad_fn is None and var.requires_grad:
                raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
            if not is_input:
                warnings.warn("Only input Tensors should be given to ctx.mark_dirty(). If a Tensor is not "
                              "an input, there is no need to pass it to mark_dirty().")
        output_specs.append((tuple(var.shape), var.dtype, var.device, len(node_outputs)))
        node_outputs.append(var)
        node_dirty.append(is_modified and is_input)
        node_positions.append(pos)

    if not is_executable:
        # No node: nothing is kept, and PyTorch 2.15's ctx.saved_tensors is then () (not the
        # "freed" error a released node's ctx raises).
        ctx.__dict__.pop('to_save', None)
        return tuple(outs) if is_tuple else outs[0]

    # what was saved, checked before the graph changes (PyTorch raises this TypeError too)
    to_save = getattr(ctx, 'to_save', None)
    if to_save is not None:
        for i, t in enumerate(to_save):
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError("save_for_backward can only save variables, but argument {} is of type {}"
                                .format(i, type(t).__name__))

    if node_outputs:
        backward_fn = _NodeBackward(name, ctx, output_specs, tensor_input_mask)
        tensor_inputs = tuple(a for a, is_t in zip(args, tensor_input_mask) if is_t)
        if any(node_dirty):
            wrapped = torch._C._make_python_node(name, backward_fn, tensor_inputs, tuple(node_outputs),
                                                 tuple(node_dirty))
        else:
            wrapped = torch._C._make_python_node(name, backward_fn, tensor_inputs, tuple(node_outputs))
        for pos, w in zip(node_positions, wrapped):
            outs[pos] = w

    # pack the saved tensors with the versions they have now
    if to_save is not None:
        output_nr = {id(raw): (name, pos) for raw, pos in zip(node_outputs, node_positions)}
        saved = []
        for t in to_save:
            if t is None:
                saved.append(None)
                continue
            keep = t
            if id(t) in output_nr:
                # an output of this node: keep an alias without history (same storage and
                # version counter), so that ctx never references the node that references ctx
                keep = t.detach()
            saved.append((keep, getattr(t, '_version', None), output_nr.get(id(t))))
        ctx._saved = saved
        del ctx.to_save

    return tuple(outs) if is_tuple else outs[0]


def once_differentiable(fn):
    """Marks a backward as not differentiable twice: it runs under no_grad.

    (Inside PyTorch has no double backward, so there is no error node to attach.)
    """
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with torch.no_grad():
            return fn(ctx, *args)
    return wrapper


def traceable(fn_cls):
    fn_cls.is_traceable = True
    return fn_cls


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace
