"""torch.optim.RMSprop with PyTorch 2.15's single-tensor arithmetic (same operations, same order)."""
import torch
from .optimizer import Optimizer, _use_grad_for_differentiable, _check_unsupported, _get_scalar_dtype

__all__ = ['RMSprop', 'rmsprop']


class RMSprop(Optimizer):
    r"""RMSprop (optionally centered, with momentum, weight decay, maximize); 2.15's update rule:

        step += 1 (a float32 tensor in the state)
        g = grad (negated when maximize) [+ weight_decay * param]
        square_avg = square_avg * alpha + (1 - alpha) * g * g
        centered:  grad_avg = lerp(grad_avg, g, 1 - alpha)
                   avg = sqrt(square_avg - grad_avg * grad_avg) + eps
        else:      avg = sqrt(square_avg) + eps
        momentum > 0:  buf = buf * momentum + g / avg;  param -= lr * buf
        else:          param -= lr * g / avg
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0,
                 momentum=0, centered=False, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= momentum:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if not 0.0 <= alpha:
            raise ValueError("Invalid alpha value: {}".format(alpha))
        _check_unsupported(foreach=foreach, capturable=capturable, differentiable=differentiable)

        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('momentum', 0)
            group.setdefault('centered', False)
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
            group.setdefault('differentiable', False)
            group.setdefault('capturable', False)
            for p in group['params']:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not torch.is_tensor(p_state['step']):
                    p_state['step'] = torch.tensor(float(p_state['step']), dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, square_avgs, momentum_buffer_list,
                    grad_avgs, state_steps):
        for p in group['params']:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            if getattr(p.grad, 'is_sparse', False):
                raise RuntimeError("RMSprop does not support sparse gradients")
            grads.append(p.grad)

            state = self.state[p]
            # lazy state initialization
            if len(state) == 0:
                state['step'] = torch.zeros((), dtype=_get_scalar_dtype())
                state['square_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                if group['momentum'] > 0:
                    state['momentum_buffer'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                if group['centered']:
                    state['grad_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
            square_avgs.append(state['square_avg'])
            state_steps.append(state['step'])
            if group['momentum'] > 0:
                momentum_buffer_list.append(state['momentum_buffer'])
            if group['centered']:
                grad_avgs.append(state['grad_avg'])

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
            grad_avgs = []
            momentum_buffer_list = []
            state_steps = []

            self._init_group(group, params_with_grad, grads, square_avgs,
                             momentum_buffer_list, grad_avgs, state_steps)

            rmsprop(params_with_grad,
                    grads,
                    square_avgs,
                    grad_avgs,
                    momentum_buffer_list,
                    state_steps,
                    lr=group['lr'],
                    alpha=group['alpha'],
                    eps=group['eps'],
                    weight_decay=group['weight_decay'],
                    momentum=group['momentum'],
                    centered=group['centered'],
                    maximize=group['maximize'])

        return loss


def rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps,
            foreach=None, maximize=False, differentiable=False, capturable=False,
            has_complex=False, *, lr, alpha, eps, weight_decay, momentum, centered):
    r"""Functional RMSprop (2.15's _single_tensor_rmsprop with capturable=differentiable=False)."""
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    _check_unsupported(foreach=foreach, capturable=capturable, differentiable=differentiable)
    if isinstance(lr, torch.Tensor) and lr.dim() != 0:
        lr = lr.squeeze()

    for i, param in enumerate(params):
        step = state_steps[i]
        grad = grads[i] if not maximize else -grads[i]
        square_avg = square_avgs[i]

        step += 1

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)

        if centered:
            grad_avg = grad_avgs[i]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(eps)

        if momentum > 0:
            buf = momentum_buffer_list[i]
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)
