"""torch.optim.SGD with PyTorch 2.15's single-tensor arithmetic (same operations, same order)."""
import torch
from .optimizer import Optimizer, _use_grad_for_differentiable, _check_unsupported

__all__ = ['SGD', 'sgd']


class SGD(Optimizer):
    r"""Stochastic gradient descent, optionally with momentum, dampening, weight decay,
    Nesterov momentum and maximization; 2.15's update rule:

        d_p = grad (negated when maximize) [+ weight_decay * param]
        buf = clone(d_p) at the first step, else buf * momentum + (1 - dampening) * d_p
        d_p = d_p + momentum * buf (nesterov) or buf
        param -= lr * d_p
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0,
                 weight_decay=0, nesterov=False, *, maximize=False, foreach=None,
                 differentiable=False, fused=None):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if momentum < 0.0:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if weight_decay < 0.0:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        _check_unsupported(foreach=foreach, differentiable=differentiable, fused=fused)

        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov,
                        maximize=maximize, foreach=foreach,
                        differentiable=differentiable, fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('nesterov', False)
            group.setdefault('maximize', False)
            group.setdefault('foreach', None)
            group.setdefault('differentiable', False)
            group.setdefault('fused', False)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Performs a single optimization step; ``closure`` re-evaluates the model and
        returns the loss (it runs with gradients enabled)."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()

        for group in self.param_groups:
            _check_unsupported(foreach=group['foreach'], differentiable=group['differentiable'], fused=group['fused'])
            params_with_grad = []
            d_p_list = []
            momentum_buffer_list = []

            for p in group['params']:
                if p.grad is not None:
                    params_with_grad.append(p)
                    d_p_list.append(p.grad)
                    # 2.15 keeps no state at all without momentum
                    if group['momentum'] != 0:
                        momentum_buffer_list.append(self.state[p].get('momentum_buffer'))

            sgd(params_with_grad,
                d_p_list,
                momentum_buffer_list,
                weight_decay=group['weight_decay'],
                momentum=group['momentum'],
                lr=group['lr'],
                dampening=group['dampening'],
                nesterov=group['nesterov'],
                maximize=group['maximize'])

            if group['momentum'] != 0:
                for p, momentum_buffer in zip(params_with_grad, momentum_buffer_list):
                    self.state[p]['momentum_buffer'] = momentum_buffer

        return loss


def sgd(params, d_p_list, momentum_buffer_list, *, weight_decay, momentum, lr,
        dampening, nesterov, maximize):
    r"""Functional SGD (2.15's _single_tensor_sgd); fills momentum_buffer_list in place."""
    for i, param in enumerate(params):
        d_p = d_p_list[i] if not maximize else -d_p_list[i]

        if weight_decay != 0:
            d_p = d_p.add(param, alpha=weight_decay)

        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = d_p.detach().clone()
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(d_p, alpha=1 - dampening)

            if nesterov:
                d_p = d_p.add(buf, alpha=momentum)
            else:
                d_p = buf

        param.add_(d_p, alpha=-lr)
