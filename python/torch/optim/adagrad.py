"""torch.optim.Adagrad with PyTorch 2.15's single-tensor arithmetic (same operations, same order)."""
import torch
from .optimizer import Optimizer, _use_grad_for_differentiable, _check_unsupported, _get_scalar_dtype

__all__ = ['Adagrad', 'adagrad']


class Adagrad(Optimizer):
    r"""Adagrad (with learning-rate decay, weight decay, maximize); 2.15's update rule:

        step += 1 (a float32 tensor in the state)
        g = grad (negated when maximize) [+ weight_decay * param]
        clr = lr / (1 + (step - 1) * lr_decay)
        sum = sum + g * g
        param -= clr * g / (sqrt(sum) + eps)

    As in 2.15 the state ('step' and 'sum', the latter filled with
    initial_accumulator_value) is created in the constructor for every parameter.
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0,
                 initial_accumulator_value=0, eps=1e-10, foreach=None, *,
                 maximize=False, differentiable=False, fused=None):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= lr_decay:
            raise ValueError("Invalid lr_decay value: {}".format(lr_decay))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if not 0.0 <= initial_accumulator_value:
            raise ValueError("Invalid initial_accumulator_value value: {}".format(initial_accumulator_value))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        _check_unsupported(foreach=foreach, differentiable=differentiable, fused=fused)

        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value,
                        foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

        # eager state: every parameter gets its step and accumulator now
        for group in self.param_groups:
            for p in group['params']:
                state = self.state[p]
                state['step'] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                state['sum'] = torch.full_like(p, initial_accumulator_value,
                                               memory_format=torch.preserve_format)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
            group.setdefault('differentiable', False)
            group.setdefault('fused', None)
            for p in group['params']:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not torch.is_tensor(p_state['step']):
                    p_state['step'] = torch.tensor(float(p_state['step']), dtype=_get_scalar_dtype())

        state_values = list(self.state.values())
        step_is_tensor = (len(state_values) != 0) and torch.is_tensor(state_values[0]['step'])
        if not step_is_tensor:
            for s in state_values:
                s['step'] = torch.tensor(float(s['step']), dtype=_get_scalar_dtype())

    def share_memory(self):
        """Calls tensor.share_memory_() on the state sum tensors."""
        for group in self.param_groups:
            for p in group['params']:
                self.state[p]['sum'].share_memory_()

    def _init_group(self, group, params_with_grad, grads, state_sums, state_steps):
        has_sparse_grad = False
        for p in group['params']:
            if p.grad is not None:
                has_sparse_grad |= getattr(p.grad, 'is_sparse', False)
                params_with_grad.append(p)
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    # a parameter added after construction (add_param_group)
                    state['step'] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                    state['sum'] = torch.full_like(p, self.defaults['initial_accumulator_value'],
                                                   memory_format=torch.preserve_format)
                state_sums.append(state['sum'])
                state_steps.append(state['step'])
        return has_sparse_grad

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
                               fused=group['fused'])
            params_with_grad = []
            grads = []
            state_sums = []
            state_steps = []

            has_sparse_grad = self._init_group(group, params_with_grad, grads, state_sums, state_steps)

            adagrad(params_with_grad,
                    grads,
                    state_sums,
                    state_steps,
                    lr=group['lr'],
                    weight_decay=group['weight_decay'],
                    lr_decay=group['lr_decay'],
                    eps=group['eps'],
                    has_sparse_grad=has_sparse_grad,
                    maximize=group['maximize'])

        return loss


def adagrad(params, grads, state_sums, state_steps, fused=None, grad_scale=None,
            found_inf=None, has_sparse_grad=False, foreach=None, differentiable=False,
            has_complex=False, *, lr, weight_decay, lr_decay, eps, maximize):
    r"""Functional Adagrad (2.15's _single_tensor_adagrad, dense gradients)."""
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    _check_unsupported(fused=fused, foreach=foreach, differentiable=differentiable,
                       grad_scale=grad_scale is not None, found_inf=found_inf is not None,
                       sparse_gradients=has_sparse_grad)
    if isinstance(lr, torch.Tensor) and lr.dim() != 0:
        lr = lr.squeeze()

    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        # update step
        step_t += 1
        step = step_t.item()
        grad = grad if not maximize else -grad

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        clr = lr / (1 + (step - 1) * lr_decay)

        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)
