"""torch.optim.AdamW: Adam with decoupled weight decay, built on Adam as in PyTorch 2.15."""
from .adam import Adam, adam
from .optimizer import _check_unsupported

__all__ = ['AdamW', 'adamw']


class AdamW(Adam):
    r"""AdamW: Adam whose weight decay shrinks the parameters directly
    (param *= 1 - lr * weight_decay) instead of entering the moments; the rest of the
    update is Adam's (see :class:`torch.optim.Adam`). weight_decay defaults to 1e-2.

    2.15 defines AdamW as a thin subclass of Adam that always passes
    decoupled_weight_decay=True, so its param groups carry that option too.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
                 weight_decay=1e-2, amsgrad=False, *, maximize=False,
                 foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad,
                         foreach=foreach, maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state):
        # whatever was saved, an AdamW keeps decaying its weights the decoupled way
        super().__setstate__(state)
        for group in self.param_groups:
            group['decoupled_weight_decay'] = True


def adamw(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
          foreach=None, capturable=False, differentiable=False, fused=None,
          grad_scale=None, found_inf=None, has_complex=False, *,
          amsgrad, beta1, beta2, lr, weight_decay, eps, maximize):
    r"""Functional AdamW: :func:`torch.optim.adam.adam` with decoupled weight decay."""
    _check_unsupported(foreach=foreach, capturable=capturable, differentiable=differentiable,
                       fused=fused, grad_scale=grad_scale is not None,
                       found_inf=found_inf is not None)
    adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
         amsgrad=amsgrad, beta1=beta1, beta2=beta2, lr=lr, weight_decay=weight_decay,
         eps=eps, maximize=maximize, decoupled_weight_decay=True)
