"""torch.optim.NAdam with PyTorch 2.15's single-tensor arithmetic (same operations, same order)."""
import torch
from .optimizer import Optimizer, _use_grad_for_differentiable, _check_unsupported, _get_scalar_dtype

__all__ = ['NAdam', 'nadam']


class NAdam(Optimizer):
    r"""NAdam, Adam with Nesterov momentum (weight decay L2 or decoupled, maximize);
    2.15's update rule:

        step += 1 (a float32 tensor in the state), bias_correction2 = 1 - beta2^step
        g = grad (negated when maximize) [+ weight_decay * param]
            (decoupled: param *= 1 - lr * weight_decay instead)
        mu = beta1 * (1 - 0.5 * 0.96^(step * momentum_decay)), mu_next likewise at step + 1
        mu_product *= mu (a float32 tensor in the state)
        exp_avg = lerp(exp_avg, g, 1 - beta1)
        exp_avg_sq = exp_avg_sq * beta2 + (1 - beta2) * g * g
        denom = sqrt(exp_avg_sq / bias_correction2) + eps
        param -= lr * (1 - mu) / (1 - mu_product) * g / denom
        param -= lr * mu_next / (1 - mu_product * mu_next) * exp_avg / denom
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
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
        if not 0.0 <= momentum_decay:
            raise ValueError("Invalid momentum_decay value: {}".format(momentum_decay))
        _check_unsupported(foreach=foreach, capturable=capturable, differentiable=differentiable)

        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('maximize', False)
            group.setdefault('foreach', None)
            group.setdefault('capturable', False)
            group.setdefault('differentiable', False)
            group.setdefault('decoupled_weight_decay', False)
            for p in group['params']:
                p_state = self.state.get(p, [])
                if len(p_state) != 0:
                    if not torch.is_tensor(p_state['step']):
                        p_state['step'] = torch.tensor(float(p_state['step']), dtype=_get_scalar_dtype())
                    if not torch.is_tensor(p_state['mu_product']):
                        p_state['mu_product'] = torch.tensor(p_state['mu_product'], dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs, mu_products,
                    state_steps):
        for p in group['params']:
            if p.grad is not None:
                params_with_grad.append(p)
                if getattr(p.grad, 'is_sparse', False):
                    raise RuntimeError("NAdam does not support sparse gradients")
                grads.append(p.grad)

                state = self.state[p]
                # lazy state initialization; step and mu_product are CPU scalar tensors
                if len(state) == 0:
                    state['step'] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                    state['mu_product'] = torch.tensor(1.0, dtype=_get_scalar_dtype())
                    state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state['exp_avg_sq'] = torch.zeros_like(p, memory_format=torch.preserve_format)

                exp_avgs.append(state['exp_avg'])
                exp_avg_sqs.append(state['exp_avg_sq'])
                mu_products.append(state['mu_product'])
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
            exp_avgs = []
            exp_avg_sqs = []
            mu_products = []
            state_steps = []
            beta1, beta2 = group['betas']

            self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs,
                             mu_products, state_steps)

            nadam(params_with_grad,
                  grads,
                  exp_avgs,
                  exp_avg_sqs,
                  mu_products,
                  state_steps,
                  beta1=beta1,
                  beta2=beta2,
                  lr=group['lr'],
                  weight_decay=group['weight_decay'],
                  momentum_decay=group['momentum_decay'],
                  eps=group['eps'],
                  maximize=group['maximize'],
                  decoupled_weight_decay=group['decoupled_weight_decay'])

        return loss


def nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps,
          decoupled_weight_decay=False, foreach=None, capturable=False, differentiable=False,
          has_complex=False, maximize=False, *, beta1, beta2, lr, weight_decay,
          momentum_decay, eps):
    r"""Functional NAdam (2.15's _single_tensor_nadam with capturable=differentiable=False)."""
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    if not all(isinstance(t, torch.Tensor) for t in mu_products):
        raise RuntimeError("API has changed, `mu_products` argument must contain a list of singleton tensors")
    _check_unsupported(foreach=foreach, capturable=capturable, differentiable=differentiable)
    if isinstance(lr, torch.Tensor) and lr.dim() != 0:
        lr = lr.squeeze()

    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        mu_product = mu_products[i]
        step_t = state_steps[i]

        # update step
        step_t += 1
        step = step_t.item()

        bias_correction2 = 1 - beta2 ** step

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)

        # momentum cache at this step and the next
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))

        # in place on the float32 state tensor
        mu_product *= mu

        # first and second moment running averages
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()

        mu_product_value = mu_product.item()
        mu_product_next = mu_product_value * mu_next
        denom.add_(eps)
        param.addcdiv_(grad, denom, value=(-lr * (1.0 - mu) / (1.0 - mu_product_value)))
        param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))
