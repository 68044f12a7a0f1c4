"""Loading the package under test beside real PyTorch, and the check helpers every section uses."""
import copy
import importlib
import math
import os
import shutil
import sys
import tempfile
import warnings
from collections import OrderedDict

import torch
import torch.nn as rnn
import torch.nn.functional as RF
import torch.autograd.functional as RAF

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
SRC = os.path.join(REPO, 'python', 'torch')
VERBOSE = '-v' in sys.argv


# ---------------------------------------------------------------------- loading

def load_package():
    """Copy the files under test into a temporary package ipt_nn_check and import it."""
    tmp = tempfile.mkdtemp(prefix='ipt_nn_check_')
    pkg = os.path.join(tmp, 'ipt_nn_check')
    os.makedirs(os.path.join(pkg, 'autograd'))
    shutil.copytree(os.path.join(SRC, 'nn'), os.path.join(pkg, 'nn'),
                    ignore=shutil.ignore_patterns('__pycache__'))
    shutil.copytree(os.path.join(SRC, 'optim'), os.path.join(pkg, 'optim'),
                    ignore=shutil.ignore_patterns('__pycache__'))
    for name in ('function.py', 'functional.py'):
        shutil.copy(os.path.join(SRC, 'autograd', name), os.path.join(pkg, 'autograd', name))
    open(os.path.join(pkg, '__init__.py'), 'w').close()
    open(os.path.join(pkg, 'autograd', '__init__.py'), 'w').close()
    sys.path.insert(0, tmp)
    try:
        mods = {name: importlib.import_module('ipt_nn_check.' + name)
                for name in ('nn', 'nn.functional', 'nn.init', 'optim', 'autograd.function',
                             'autograd.functional')}
    finally:
        sys.path.remove(tmp)
    return tmp, mods


TMP, M = load_package()
nn = M['nn']
F = M['nn.functional']
init = M['nn.init']
optim = M['optim']
AF = M['autograd.function']
AFN = M['autograd.functional']
assert nn.Module is not rnn.Module and F.linear is not RF.linear


# ---------------------------------------------------------------------- checking

FAILURES = []
COUNT = [0]


def describe(x):
    if isinstance(x, torch.Tensor):
        return '{}{}{}'.format(type(x).__name__, tuple(x.shape), x.dtype) + ':' + repr(x.detach().tolist())
    return repr(x)


def same(a, b):
    """Deep equality; tensors must be torch.equal with the same dtype and shape."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.dtype == b.dtype
                and a.shape == b.shape and torch.equal(a.detach(), b.detach()))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) == type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
    return type(a) == type(b) and a == b


def normalize(x):
    """Error messages name classes by module path: ipt_nn_check.nn... is torch.nn... there."""
    if isinstance(x, str):
        return x.replace('ipt_nn_check.', 'torch.')
    if isinstance(x, (list, tuple)) and not hasattr(x, '_fields'):
        return type(x)(normalize(e) for e in x)
    return x


def check(name, mine, ref):
    COUNT[0] += 1
    mine = normalize(mine)
    if same(mine, ref):
        if VERBOSE:
            print('ok  ', name)
    else:
        FAILURES.append(name)
        print('FAIL', name)
        print('     mine:', describe(mine)[:2000])
        print('     ref :', describe(ref)[:2000])


def check_true(name, cond):
    check(name, bool(cond), True)


def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return (type(e).__name__, str(e))
    return None


def warnings_of(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        result = fn()
    return result, [(x.category.__name__, str(x.message)) for x in w]


def seeded(seed, fn):
    torch.manual_seed(seed)
    result = fn()
    return result, torch.rand(3)   # the RNG stream afterwards must match too


# ---------------------------------------------------------------------- the stand-in C++ hook

def standin_make_python_node(name, backward_fn, inputs, outputs, dirty=None):
    """torch._C._make_python_node on real PyTorch: one real Function node named `name`."""
    n_in, n_out = len(inputs), len(outputs)
    flags = tuple(dirty) if dirty is not None else (False,) * n_out
    assert isinstance(name, str) and name.endswith('Backward')
    assert all(isinstance(t, torch.Tensor) for t in inputs + outputs)
    assert len(flags) == n_out

    def forward(ctx, *args):
        # args are the inputs (edges for those only); the outputs come from the closure, as
        # fresh detached aliases (same storage and version counter) that get the history
        ctx.set_materialize_grads(False)
        dirty_outs = [o for o, f in zip(outputs, flags) if f]
        if dirty_outs:
            assert all(any(o is i for i in args) for o in dirty_outs)
            ctx.mark_dirty(*dirty_outs)
        return tuple(o if f else o.detach() for o, f in zip(outputs, flags))

    def backward(ctx, *grads):
        assert len(grads) == n_out
        result = backward_fn(*grads)
        assert isinstance(result, tuple) and len(result) == n_in, result
        return result

    node_cls = type(name[:-len('Backward')], (torch.autograd.Function,),
                    {'forward': staticmethod(forward), 'backward': staticmethod(backward)})
    wrapped = node_cls.apply(*inputs)
    for w, o, f in zip(wrapped, outputs, flags):
        assert (w is o) == f
    return wrapped


torch._C._make_python_node = standin_make_python_node
