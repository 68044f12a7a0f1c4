"""torch.nn: modules, parameters, functional, init and utils, as in PyTorch 2.15.

Written in plain Python over the torch runtime (see modules/module.py for
what Module supports).
"""
from .parameter import Parameter
from . import functional
from . import init
from . import modules
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _modules_all
from . import utils
from . import parallel
from .parallel import DataParallel

__all__ = ['Parameter', 'functional', 'init', 'modules', 'parallel', 'utils', 'DataParallel'] + list(_modules_all)
