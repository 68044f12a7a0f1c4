"""torch.nn: modules, parameters, functional and init, as in PyTorch 2.15.

Written in plain Python over the torch runtime (see modules/module.py for
what Module supports).
"""
from .parameter import Parameter
from . import functional
from . import init
from . import modules
from .modules import (Module, Identity, Linear, ReLU, Sigmoid, Tanh, Softmax, LogSoftmax,
                      Sequential, ModuleList, MSELoss, CrossEntropyLoss, NLLLoss)

__all__ = ['Parameter', 'functional', 'init', 'modules', 'Module', 'Identity', 'Linear', 'ReLU',
           'Sigmoid', 'Tanh', 'Softmax', 'LogSoftmax', 'Sequential', 'ModuleList', 'MSELoss',
           'CrossEntropyLoss', 'NLLLoss']
