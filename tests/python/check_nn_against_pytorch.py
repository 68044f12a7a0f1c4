#!/usr/bin/env python3
"""Checks python/torch/{nn,optim,autograd/function.py,autograd/functional.py} against real PyTorch 2.15.

Inside PyTorch's pure-Python torch.nn / torch.optim / torch.autograd.Function /
torch.autograd.functional are loaded as a separate package, `ipt_nn_check`, on
top of REAL PyTorch 2.15 (the `torch` they import is the real one), and compared
with torch.nn / torch.optim / torch.autograd of real PyTorch, bit for bit
(torch.equal, same dtype) where tensors are involved:

  * Linear initialisation (same seed -> same weights, same RNG state after),
    nn.init functions, forward values and grad_fn names;
  * MSELoss / CrossEntropyLoss / NLLLoss and F.* values, gradients and warnings;
  * MLP training trajectories with SGD (plain, momentum, dampening, weight
    decay, nesterov, maximize, param groups, closure) and Adam (plain, weight
    decay, amsgrad, maximize): parameters and optimizer state after every step;
  * zero_grad (module and optimizer, set_to_none both ways);
  * Module repr, named_parameters / named_modules / state_dict keys and
    metadata, load_state_dict (and its error messages), attribute
    registration and its error messages, Sequential / ModuleList behaviour,
    Parameter behaviour, optimizer repr / param_groups / state_dict;
  * autograd.Function (with a stand-in for torch._C._make_python_node built on
    real torch.autograd.Function, only to exercise the Python logic): outputs,
    grad_fn names, gradients, needs_input_grad, non-differentiable / dirty
    outputs, materialize_grads, saved-tensor version errors and the error
    messages for bad backward results;
  * autograd.functional vjp / jacobian / hessian.

Run:  scripts/reference-python tests/python/check_nn_against_pytorch.py [-v]
Exit status 0 when everything matches, 1 otherwise (each mismatch is printed).
"""
import os
import shutil
import sys

import torch

from nn_check.common import COUNT, FAILURES, TMP
from nn_check.function_checks import function_checks, functional_checks, reference_program_checks
from nn_check.module_checks import module_checks, parameter_checks, sequential_checks
from nn_check.nn_checks import init_checks, linear_checks, loss_checks, optimizer_checks


def main():
    if not torch.__version__.startswith('2.15') or not hasattr(torch.nn.modules, 'module'):
        print('warning: this check is meant for real PyTorch 2.15 (run it with scripts/reference-python); '
              'torch here is {} from {}'.format(torch.__version__, os.path.dirname(torch.__file__)))
    for section in (linear_checks, init_checks, loss_checks, optimizer_checks, module_checks, sequential_checks,
                    parameter_checks, function_checks, functional_checks, reference_program_checks):
        try:
            section()
        except Exception:  # noqa: BLE001 - a crash in a section is a failure of that section
            import traceback
            FAILURES.append(section.__name__ + ' crashed')
            print('FAIL', section.__name__, 'crashed:')
            traceback.print_exc()
    shutil.rmtree(TMP, ignore_errors=True)
    print('{} checks, {} failed (torch {})'.format(COUNT[0], len(FAILURES), torch.__version__))
    return 1 if FAILURES else 0


if __name__ == '__main__':
    sys.exit(main())
