"""torch.amp.GradScaler: dynamic loss scaling for mixed-precision training (PyTorch 2.15).

``scaler.scale(loss)`` multiplies the loss by the current scale factor, ``scaler.step(optimizer)``
unscales the optimizer's gradients, checks them for infs/NaNs and calls ``optimizer.step()`` only
when none were found, and ``scaler.update()`` backs the scale off after a skipped step or grows it
after ``growth_interval`` consecutive good steps. The scale and the growth tracker are 0-dim
tensors (float32 / int32) on the device of the first tensor scaled, created lazily.

The two operators the scaler is built on, ``_amp_foreach_non_finite_check_and_unscale_`` and
``_amp_update_scale_``, are ATen operators in PyTorch (``torch._amp_...``, CPU kernels in
aten/src/ATen/native/cpu/AmpGradScalerKernels.cpp). This runtime has no such operators, so they
are the Python functions of the same names below, over existing tensor ops, with the CPU
kernels' semantics and checks. Sparse gradients are not supported (the runtime has no sparse
tensors).
"""
import inspect
import math
import struct
import warnings
from collections import abc, defaultdict
from enum import Enum

import torch

__all__ = ["OptState", "GradScaler"]


# ---------------------------------------------------------------------------------------------
# The ATen operators, in Python here.

_SCALAR_TYPE_NAMES = {
    torch.float16: "Half", torch.bfloat16: "BFloat16", torch.float32: "Float", torch.float64: "Double",
    torch.uint8: "Byte", torch.int8: "Char", torch.int16: "Short", torch.int32: "Int", torch.int64: "Long",
    torch.bool: "Bool",
}
for _name, _type_name in (("complex32", "ComplexHalf"), ("complex64", "ComplexFloat"),
                          ("complex128", "ComplexDouble")):
    if hasattr(torch, _name):
        _SCALAR_TYPE_NAMES[getattr(torch, _name)] = _type_name
del _name, _type_name


def _device_word(tensor):
    return "CUDA" if tensor.device.type == "cuda" else "CPU"


def _amp_foreach_non_finite_check_and_unscale_(scaled_grads, found_inf, inv_scale):
    """Multiplies each tensor of `scaled_grads` by `inv_scale` in place; writes 1.0 into
    `found_inf` if any element of any of them is inf or NaN (found_inf is never cleared here:
    pre-zeroing it is the caller's business). PyTorch's ATen operator
    `torch._amp_foreach_non_finite_check_and_unscale_`."""
    scaled_grads = list(scaled_grads)
    if len(scaled_grads) == 0:
        return
    device_word = _device_word(found_inf)
    kind = found_inf.device.type
    if inv_scale.device.type != kind:
        raise RuntimeError(f"inv_scale must be a {device_word} tensor.")
    if inv_scale.numel() != 1:
        raise RuntimeError("inv_scale must be a 1-element tensor.")
    if found_inf.numel() != 1:
        raise RuntimeError("found_inf must be a 1-element tensor.")
    if inv_scale.dtype != torch.float32:
        raise RuntimeError("inv_scale must be a float tensor.")
    if found_inf.dtype != torch.float32:
        raise RuntimeError("found_inf must be a float tensor.")
    for t in scaled_grads:
        if t.device.type != kind:
            raise RuntimeError(f"one of scaled_grads was not a {device_word} tensor.")
        if t.layout != torch.strided:
            raise RuntimeError("one of scaled_grads was not a strided tensor.")
        if t.dtype not in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
            name = _SCALAR_TYPE_NAMES.get(t.dtype, str(t.dtype))
            raise NotImplementedError(
                f"\"_amp_foreach_non_finite_check_and_unscale_{kind}\" not implemented for '{name}'")
        # The check looks at the values before they are scaled.
        found_inf.masked_fill_(torch.logical_not(torch.isfinite(t).all()), 1.0)
        if t.dtype in (torch.float16, torch.bfloat16):
            # Reduced floating types compute in float32 (their opmath type), then round back.
            t.copy_(t.float().mul_(inv_scale))
        else:
            # float32 * float32, or float64 * (float64) inv_scale: mul_ by the 0-dim tensor keeps t's dtype.
            t.mul_(inv_scale)


def _to_float32(value):
    """`static_cast<float>(value)` of a Python float (round to nearest, overflow to +-inf)."""
    try:
        return struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def _amp_update_scale_(current_scale, growth_tracker, found_inf, growth_factor, backoff_factor,
                       growth_interval):
    """Updates the scale factor in place and returns `current_scale`: after a step with infs/NaNs
    (found_inf nonzero) scale *= backoff_factor and growth_tracker = 0; otherwise growth_tracker
    += 1, and when it reaches growth_interval, scale *= growth_factor (kept only if the float32
    result is finite) and growth_tracker = 0. The products are computed in double and rounded to
    float32, as the kernel does. PyTorch's ATen operator `torch._amp_update_scale_`."""
    device_word = _device_word(growth_tracker)
    kind = growth_tracker.device.type
    if current_scale.device.type != kind:
        raise RuntimeError(f"current_scale must be a {device_word} tensor.")
    if found_inf.device.type != kind:
        raise RuntimeError(f"found_inf must be a {device_word} tensor.")
    if growth_tracker.numel() != 1:
        raise RuntimeError("growth_tracker must be a 1-element tensor.")
    if current_scale.numel() != 1:
        raise RuntimeError("current_scale must be a 1-element tensor.")
    if found_inf.numel() != 1:
        raise RuntimeError("found_inf must be a 1-element tensor.")
    if growth_tracker.dtype != torch.int32:
        raise RuntimeError("growth_tracker must be an int tensor.")
    if current_scale.dtype != torch.float32:
        raise RuntimeError("current_scale must be a float tensor.")
    if found_inf.dtype != torch.float32:
        raise RuntimeError("found_inf must be a float tensor.")

    scale = current_scale.item()
    if found_inf.item() != 0.0:  # NaN counts as found, as in C++
        current_scale.fill_(_to_float32(scale * float(backoff_factor)))
        growth_tracker.fill_(0)
    else:
        successful = growth_tracker.item() + 1
        if successful == growth_interval:
            new_scale = _to_float32(scale * float(growth_factor))
            # Do not grow the scale past float32's bounds to inf.
            if math.isfinite(new_scale):
                current_scale.fill_(new_scale)
            growth_tracker.fill_(0)
        else:
            growth_tracker.fill_(successful)
    return current_scale


# ---------------------------------------------------------------------------------------------


class _MultiDeviceReplicator:
    """Serves copies of a tensor to the devices asked for, one cached copy per device."""

    def __init__(self, master_tensor):
        self.master = master_tensor
        self._per_device_tensors = {}

    def get(self, device):
        retval = self._per_device_tensors.get(device, None)
        if retval is None:
            retval = self.master.to(device=device, non_blocking=True, copy=True)
            self._per_device_tensors[device] = retval
        return retval


# The per-optimizer state: a module-level enum and factory (a lambda could not be pickled).
class OptState(Enum):
    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_per_optimizer_state():
    return {"stage": OptState.READY, "found_inf_per_device": {}}


def _amp_definitely_not_available():
    import torch.cuda.amp.common
    return torch.cuda.amp.common.amp_definitely_not_available()


class GradScaler:
    """Gradient scaling for mixed precision: ``scaler.scale(loss).backward()``,
    ``scaler.step(optimizer)``, ``scaler.update()`` (see the module docstring).

    Args:
        device (str, default "cuda"): device type of the scaler ("cuda" or "cpu").
        init_scale (float, default 2.**16): initial scale factor.
        growth_factor (float, default 2.0): multiplier after ``growth_interval`` steps without infs/NaNs.
        backoff_factor (float, default 0.5): multiplier after a step with infs/NaNs.
        growth_interval (int, default 2000): consecutive good steps before the scale grows.
        enabled (bool, default True): if False, ``step`` just calls ``optimizer.step()`` and the
            other methods do nothing.
    """

    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if self._device == "cuda":
            if enabled and _amp_definitely_not_available():
                warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                              stacklevel=2)
                self._enabled = False

        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")

            self._init_scale = init_scale
            self._scale = None  # created by the first scale()
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None  # created by the first scale()
            self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _check_scale_growth_tracker(self, funcname):
        fix = "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + fix)
        if self._growth_tracker is None:
            raise AssertionError(f"Attempted {funcname} but _growth_tracker is None.  " + fix)
        return (self._scale, self._growth_tracker)

    def _lazy_init_scale_growth_tracker(self, dev):
        if self._growth_tracker is not None:
            raise AssertionError("_growth_tracker initialized before _scale")
        self._scale = torch.full((), self._init_scale, dtype=torch.float32, device=dev)
        self._growth_tracker = torch.full((), self._init_growth_tracker, dtype=torch.int32, device=dev)

    def scale(self, outputs):
        """Multiplies a tensor, or the tensors of a (nested) list / tuple / iterable, by the scale
        factor; returns them unchanged when the scaler is disabled."""
        if not self._enabled:
            return outputs

        if isinstance(outputs, torch.Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker(outputs.device)
            scale = self._scale
            if scale is None:
                raise AssertionError("_scale should not be None after lazy init")
            return outputs * scale.to(device=outputs.device, non_blocking=True)

        stash = []  # the replicator of the scale, made at the first tensor met

        def apply_scale(val):
            if isinstance(val, torch.Tensor):
                if len(stash) == 0:
                    if self._scale is None:
                        self._lazy_init_scale_growth_tracker(val.device)
                    scale = self._scale
                    if scale is None:
                        raise AssertionError("_scale should not be None after lazy init")
                    stash.append(_MultiDeviceReplicator(scale))
                return val * stash[0].get(val.device)
            if isinstance(val, abc.Iterable):
                iterable = map(apply_scale, val)
                if isinstance(val, (list, tuple)):
                    return type(val)(iterable)
                return iterable
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")

        return apply_scale(outputs)

    def _unscale_grads_(self, optimizer, inv_scale, found_inf, allow_fp16):
        per_device_inv_scale = _MultiDeviceReplicator(inv_scale)
        per_device_found_inf = _MultiDeviceReplicator(found_inf)

        # Gradients grouped by device, then dtype, in the order met.
        per_device_and_dtype_grads = defaultdict(lambda: defaultdict(list))
        with torch.no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if not isinstance(param, torch.Tensor):
                        raise AssertionError(f"expected param to be torch.Tensor, got {type(param).__name__}")
                    if param.grad is None:
                        continue
                    if (not allow_fp16) and param.grad.dtype == torch.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    to_unscale = param.grad
                    per_device_and_dtype_grads[to_unscale.device][to_unscale.dtype].append(to_unscale)

            for device, per_dtype_grads in per_device_and_dtype_grads.items():
                for grads in per_dtype_grads.values():
                    _amp_foreach_non_finite_check_and_unscale_(
                        grads, per_device_found_inf.get(device), per_device_inv_scale.get(device))

        return per_device_found_inf._per_device_tensors

    def unscale_(self, optimizer):
        """Divides ("unscales") the optimizer's gradients by the scale factor, in place, and records
        whether any was inf/NaN. Optional before step(); at most once per optimizer per update()."""
        if not self._enabled:
            return

        self._check_scale_growth_tracker("unscale_")

        optimizer_state = self._per_optimizer_states[id(optimizer)]

        if optimizer_state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        elif optimizer_state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")

        # The reciprocal is taken in float64 (float32 division can be imprecise with some compile options).
        if self._scale is None:
            raise AssertionError("_scale is None in unscale_")
        inv_scale = (self._scale.double().reciprocal().float() if self._scale.device.type != "mps"
                     else self._scale.reciprocal())
        found_inf = torch.full((), 0.0, dtype=torch.float32, device=self._scale.device)

        optimizer_state["found_inf_per_device"] = self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        optimizer_state["stage"] = OptState.UNSCALED

    def _maybe_opt_step(self, optimizer, optimizer_state, *args, **kwargs):
        retval = None
        if not sum(v.item() for v in optimizer_state["found_inf_per_device"].values()):
            retval = optimizer.step(*args, **kwargs)
        return retval

    def step(self, optimizer, *args, **kwargs):
        """Unscales the gradients (unless unscale_() already did) and calls
        ``optimizer.step(*args, **kwargs)`` if none of them was inf/NaN; returns its result, or
        None when the step is skipped. Closures are not supported."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)

        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")

        self._check_scale_growth_tracker("step")

        optimizer_state = self._per_optimizer_states[id(optimizer)]

        if optimizer_state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")

        retval = None

        if getattr(optimizer, "_step_supports_amp_scaling", False):
            # An optimizer that handles the scale itself (fused optimizers in PyTorch): it is given
            # grad_scale and found_inf as attributes, or the scaler as a `grad_scaler` argument.
            kwargs_ = kwargs
            has_grad_scaler_kwarg = "grad_scaler" in inspect.signature(optimizer.step).parameters
            if has_grad_scaler_kwarg:
                warnings.warn(
                    "GradScaler is going to stop passing itself as a keyword argument to the passed "
                    "optimizer. In the near future GradScaler registers `grad_scale: Tensor` and "
                    "`found_inf: Tensor` to the passed optimizer and let the optimizer use them directly.",
                    FutureWarning,
                    stacklevel=2,
                )
                kwargs_.update({"grad_scaler": self})
            else:
                if optimizer_state["stage"] is OptState.READY:
                    self._check_inf_per_device(optimizer)
                scaler = self._get_scale_async()
                if scaler is None:
                    raise AssertionError("_get_scale_async returned None")
                found_inf = sum([t.to(scaler.device, non_blocking=True)
                                 for t in optimizer_state["found_inf_per_device"].values()])
                # The product of the scales, if the user already set `optimizer.grad_scale`.
                optimizer.grad_scale = (getattr(optimizer, "grad_scale", None)
                                        if optimizer_state["stage"] == OptState.UNSCALED
                                        else scaler * getattr(optimizer, "grad_scale", 1))
                optimizer.found_inf = found_inf
            retval = optimizer.step(*args, **kwargs_)
            optimizer_state["stage"] = OptState.STEPPED
            if not has_grad_scaler_kwarg:
                del optimizer.grad_scale
                del optimizer.found_inf
            return retval

        if optimizer_state["stage"] is OptState.READY:
            self.unscale_(optimizer)

        if len(optimizer_state["found_inf_per_device"]) == 0:
            raise AssertionError("No inf checks were recorded for this optimizer.")

        retval = self._maybe_opt_step(optimizer, optimizer_state, *args, **kwargs)

        optimizer_state["stage"] = OptState.STEPPED

        return retval

    def update(self, new_scale=None):
        """Updates the scale factor: backs off if any optimizer step was skipped, grows after
        ``growth_interval`` consecutive good steps; or sets it to ``new_scale`` (a float, or a
        1-element tensor on the scaler's device without requires_grad) when given."""
        if not self._enabled:
            return

        _scale, _growth_tracker = self._check_scale_growth_tracker("update")

        if new_scale is not None:
            if self._scale is None:
                raise AssertionError("_scale is None in update")
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            else:
                reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                          "torch.FloatTensor with requires_grad=False.")
                if new_scale.device.type != self._device:
                    raise AssertionError(reason)
                if new_scale.numel() != 1:
                    raise AssertionError(reason)
                if new_scale.requires_grad is True:
                    raise AssertionError(reason)
                self._scale.copy_(new_scale)
        else:
            # The inf/NaN flags the optimizers' steps recorded this iteration.
            found_infs = [found_inf.to(device=_scale.device, non_blocking=True)
                          for state in self._per_optimizer_states.values()
                          for found_inf in state["found_inf_per_device"].values()]

            if len(found_infs) == 0:
                raise AssertionError("No inf checks were recorded prior to update.")

            found_inf_combined = found_infs[0]
            if len(found_infs) > 1:
                for i in range(1, len(found_infs)):
                    found_inf_combined += found_infs[i]

            _amp_update_scale_(_scale, _growth_tracker, found_inf_combined, self._growth_factor,
                               self._backoff_factor, self._growth_interval)

        # Ready for the next iteration.
        self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _get_scale_async(self):
        return self._scale

    def get_scale(self):
        """The current scale as a Python float (init_scale before the first scale()), or 1.0 if
        the scaler is disabled."""
        if self._enabled:
            scale = self._get_scale_async()
            return self._init_scale if scale is None else scale.item()
        return 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def _get_growth_tracker(self):
        if self._enabled:
            return self._init_growth_tracker if self._growth_tracker is None else self._growth_tracker.item()
        return 0

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        """scale, growth_factor, backoff_factor, growth_interval and _growth_tracker as Python
        numbers; an empty dict if the scaler is disabled."""
        if self._enabled:
            return {
                "scale": self.get_scale(),
                "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker(),
            }
        return {}

    def load_state_dict(self, state_dict):
        """Loads a state_dict() (a no-op if this scaler is disabled)."""
        if not self._enabled:
            return

        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")

        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])

    def __getstate__(self):
        state = self.__dict__.copy()
        if self._enabled:
            if len(self._per_optimizer_states) != 0:
                raise AssertionError("A GradScaler instance may only be pickled at the beginning "
                                     "of an iteration, or at the end after scaler.update().")
            # The tensors are not pickled: the unpickled scaler re-creates them lazily.
            state["_init_scale"] = self.get_scale()
            state["_init_growth_tracker"] = self._get_growth_tracker()
            state["_scale"] = None
            state["_growth_tracker"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

    def _check_inf_per_device(self, optimizer):
        _scale, _ = self._check_scale_growth_tracker("_check_inf_per_device")

        dummy_inv_scale = torch.full((), 1.0, dtype=torch.float32, device=_scale.device)
        found_inf = torch.full((), 0.0, dtype=torch.float32, device=_scale.device)

        self._per_optimizer_states[id(optimizer)]["found_inf_per_device"] = self._unscale_grads_(
            optimizer, dummy_inv_scale, found_inf, True)

        return self._per_optimizer_states[id(optimizer)]["found_inf_per_device"]

    def _found_inf_per_device(self, optimizer):
        return self._per_optimizer_states[id(optimizer)]["found_inf_per_device"]
