"""torch.optim.RAdam with PyTorch 2.15's single-tensor arithmetic (same operations, same order)."""
import torch
from .optimizer import Optimizer, _use_grad_for_differentiable, _check_unsupported, _get_scalar_dtype

__all__ = ['RAdam', 'radam']


class RAdam(Optimizer):
    r"""RAdam, rectified Adam (weight decay L2 or decoupled, maximize); 2.15's update rule:

        step += 1 (a float32 tensor in the state)
        g = grad (negated when maximize) [+ weight_decay * param]
            (decoupled: param *= 1 - lr * weight_decay instead)
        exp_avg = lerp(exp_avg, g, 1 - beta1)
        exp_avg_sq = exp_avg_sq * beta2 + (1 - beta2) * g * g
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * beta2^step / (1 - beta2^step)
        rho_t > 5: param -= exp_avg / (1 - beta1^step) * lr
                            * (1 - beta2^step)^0.5 / (sqrt(exp_avg_sq) + eps) * rect
                   with rect = sqrt((rho_t-4)(rho_t-2) rho_inf / ((rho_inf-4)(rho_inf-2) rho_t))
        else:      param -= exp_avg / (1 - beta1^step) * lr
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):
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
        _check_unsupported(foreach=foreach, capturable=capturable, differentiable=differentiable)

        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
            group.setdefault('differentiable', False)
            group.setdefault('decoupled_weight_decay', False)
            group.setdefault('capturable', False)
            for p in group['params']:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not torch.is_tensor(p_state['step']):
                    p_state['step'] = torch.tensor(float(p_state['step']), dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps):
        for p in group['params']:
            if p.grad is not None:
                params_with_grad.append(p)
                if getattr(p.grad, 'is_sparse', False):
                    raise RuntimeError("RAdam does not support sparse gradients")
                grads.append(p.grad)

                state = self.state[p]
                # lazy state initialization
                if len(state) == 0:
                    state['step'] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                    state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state['exp_avg_sq'] = torch.zeros_like(p, memory_format=torch.preserve_format)

                exp_avgs.append(state['exp_avg'])
                exp_avg_sqs.append(state['exp_avg_sq'])
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
            state_steps = []
            beta1, beta2 = group['betas']

            self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps)

            radam(params_with_grad,
                  grads,
                  exp_avgs,
                  exp_avg_sqs,
                  state_steps,
                  beta1=beta1,
                  beta2=beta2,
                  lr=group['lr'],
                  weight_decay=group['weight_decay'],
                  eps=group['eps'],
                  maximize=group['maximize'],
                  decoupled_weight_decay=group['decoupled_weight_decay'])

        return loss


def radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, decoupled_weight_decay=False,
          foreach=None, differentiable=False, capturable=False, has_complex=False,
          maximize=False, *, beta1, beta2, lr, weight_decay, eps):
    r"""Functional RAdam (2.15's _single_tensor_radam with capturable=differentiable=False)."""
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    _check_unsupported(foreach=foreach, capturable=capturable, differentiable=differentiable)
    if isinstance(lr, torch.Tensor) and lr.dim() != 0:
        lr = lr.squeeze()

    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]

        # update step
        step_t += 1
        step = step_t.item()

        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)

        # first and second moment running averages
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)

        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step

        # first moment with its bias corrected
        bias_corrected_exp_avg = exp_avg / bias_correction1

        # the approximated simple moving average's length: its limit, and at this step
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2

        if rho_t > 5.0:
            # variance is tractable: rectify the adaptive learning rate
            update = bias_corrected_exp_avg * lr
            # number / tensor is reciprocal(tensor) * number, as Tensor.__rtruediv__ does
            denom = exp_avg_sq.sqrt().add_(eps)
            update = update * ((bias_correction2 ** 0.5) / denom)
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                    / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            param.add_(update * rect, alpha=-1.0)
        else:
            param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
