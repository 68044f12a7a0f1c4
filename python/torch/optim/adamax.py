"""torch.optim.Adamax with PyTorch 2.15's single-tensor arithmetic (same operations, same order)."""
import torch
from .optimizer import Optimizer, _use_grad_for_differentiable, _check_unsupported, _get_scalar_dtype

__all__ = ['Adamax', 'adamax']


class Adamax(Optimizer):
    r"""Adamax, Adam's variant over the infinity norm (with weight decay, maximize);
    2.15's update rule:

        step += 1 (a float32 tensor in the state)
        g = grad (negated when maximize) [+ weight_decay * param]
        exp_avg = lerp(exp_avg, g, 1 - beta1)
        exp_inf = maximum(exp_inf * beta2, |g| + eps)
        param -= lr / (1 - beta1^step) * exp_avg / exp_inf
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        _check_unsupported(foreach=foreach, differentiable=differentiable, capturable=capturable)

        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
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

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_infs, state_steps):
        for p in group['params']:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            if getattr(p.grad, 'is_sparse', False):
                raise RuntimeError("Adamax does not support sparse gradients")
            grads.append(p.grad)

            state = self.state[p]
            # lazy state initialization
            if len(state) == 0:
                state['step'] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state['exp_inf'] = torch.zeros_like(p, memory_format=torch.preserve_format)

            exp_avgs.append(state['exp_avg'])
            exp_infs.append(state['exp_inf'])
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
            _check_unsupported(foreach=group['foreach'], differentiable=group['differentiable'],
                               capturable=group['capturable'])
            params_with_grad = []
            grads = []
            exp_avgs = []
            exp_infs = []
            state_steps = []
            beta1, beta2 = group['betas']

            self._init_group(group, params_with_grad, grads, exp_avgs, exp_infs, state_steps)

            adamax(params_with_grad,
                   grads,
                   exp_avgs,
                   exp_infs,
                   state_steps,
                   eps=group['eps'],
                   beta1=beta1,
                   beta2=beta2,
                   lr=group['lr'],
                   weight_decay=group['weight_decay'],
                   maximize=group['maximize'])

        return loss


def adamax(params, grads, exp_avgs, exp_infs, state_steps, foreach=None, maximize=False,
           differentiable=False, capturable=False, has_complex=False, *,
           eps, beta1, beta2, lr, weight_decay):
    r"""Functional Adamax (2.15's _single_tensor_adamax with capturable=differentiable=False)."""
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    _check_unsupported(foreach=foreach, differentiable=differentiable, capturable=capturable)
    if isinstance(lr, torch.Tensor) and lr.dim() != 0:
        lr = lr.squeeze()

    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_inf = exp_infs[i]
        step_t = state_steps[i]

        # update step
        step_t += 1

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        # biased first moment
        exp_avg.lerp_(grad, 1 - beta1)
        # exponentially weighted infinity norm, written into exp_inf
        torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)

        bias_correction = 1 - beta1 ** step_t.item()
        clr = lr / bias_correction
        param.addcdiv_(exp_avg, exp_inf, value=-clr)
