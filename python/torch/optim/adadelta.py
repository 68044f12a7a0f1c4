"""torch.optim.Adadelta with PyTorch 2.15's single-tensor arithmetic (same operations, same order)."""
import torch
from .optimizer import Optimizer, _use_grad_for_differentiable, _check_unsupported, _get_scalar_dtype

__all__ = ['Adadelta', 'adadelta']


class Adadelta(Optimizer):
    r"""Adadelta (with weight decay, maximize); 2.15's update rule:

        step += 1 (a float32 tensor in the state)
        g = grad (negated when maximize) [+ weight_decay * param]
        square_avg = square_avg * rho + (1 - rho) * g * g
        std = sqrt(square_avg + eps)
        delta = sqrt(acc_delta + eps) / std * g
        acc_delta = acc_delta * rho + (1 - rho) * delta * delta
        param -= lr * delta
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= rho <= 1.0:
            raise ValueError("Invalid rho value: {}".format(rho))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        _check_unsupported(foreach=foreach, capturable=capturable, differentiable=differentiable)

        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
            group.setdefault('differentiable', False)
            group.setdefault('capturable', False)
            for p in group['params']:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not torch.is_tensor(p_state['step']):
                    p_state['step'] = torch.tensor(float(p_state['step']), dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, square_avgs, acc_deltas, state_steps):
        for p in group['params']:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            if getattr(p.grad, 'is_sparse', False):
                raise RuntimeError("Adadelta does not support sparse gradients")
            grads.append(p.grad)

            state = self.state[p]
            # lazy state initialization
            if len(state) == 0:
                state['step'] = torch.zeros((), dtype=_get_scalar_dtype())
                state['square_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state['acc_delta'] = torch.zeros_like(p, memory_format=torch.preserve_format)

            square_avgs.append(state['square_avg'])
            acc_deltas.append(state['acc_delta'])
            state_steps.append(state['step'])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step; ``closure`` re-evaluates the model and
        returns the loss (it runs with gradients enabled)."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()

        for group in self.param_groups:
            _check_unsupported(foreach=group['foreach'], capturable=group['capturable'],
                               differentiable=group['differentiable'])
            params_with_grad = []
            grads = []
            square_avgs = []
            acc_deltas = []
            state_steps = []

            self._init_group(group, params_with_grad, grads, square_avgs, acc_deltas, state_steps)

            adadelta(params_with_grad,
                     grads,
                     square_avgs,
                     acc_deltas,
                     state_steps,
                     lr=group['lr'],
                     rho=group['rho'],
                     eps=group['eps'],
                     weight_decay=group['weight_decay'],
                     maximize=group['maximize'])

        return loss


def adadelta(params, grads, square_avgs, acc_deltas, state_steps, capturable=False,
             foreach=None, differentiable=False, has_complex=False, *,
             lr, rho, eps, weight_decay, maximize):
    r"""Functional Adadelta (2.15's _single_tensor_adadelta with capturable=differentiable=False)."""
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    _check_unsupported(foreach=foreach, capturable=capturable, differentiable=differentiable)
    if isinstance(lr, torch.Tensor) and lr.dim() != 0:
        lr = lr.squeeze()

    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs, acc_deltas,
                                                        state_steps):
        step += 1
        grad = grad if not maximize else -grad

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)

        param.add_(delta, alpha=-lr)
