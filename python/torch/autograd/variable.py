"""torch.autograd.Variable: since PyTorch 0.4 a Variable is a Tensor; Variable(t) returns t
(with requires_grad set when asked), as PyTorch 2.15 does."""
import torch


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, torch.Tensor)


class Variable(metaclass=_VariableMeta):
    def __new__(cls, data, requires_grad=False, volatile=False):
        if requires_grad:
            data.requires_grad_(True)
        return data
