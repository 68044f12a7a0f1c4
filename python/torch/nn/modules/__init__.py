"""torch.nn.modules: the Module base class and the layers built on it."""
from .module import Module
from .linear import Identity, Linear
from .activation import ReLU, Sigmoid, Tanh, Softmax, LogSoftmax
from .container import Sequential, ModuleList
from .loss import MSELoss, CrossEntropyLoss, NLLLoss

__all__ = ['Module', 'Identity', 'Linear', 'ReLU', 'Sigmoid', 'Tanh', 'Softmax', 'LogSoftmax',
           'Sequential', 'ModuleList', 'MSELoss', 'CrossEntropyLoss', 'NLLLoss']
