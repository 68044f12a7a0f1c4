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

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
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


# ====================================================================== Linear, init, forward

def linear_checks():
    configs = [((3, 4), {}), ((5, 2), {'bias': False}), ((1, 7), {}), ((16, 8), {'dtype': torch.float64}),
               ((10, 1), {})]
    for args, kwargs in configs:
        mine, mine_rng = seeded(0, lambda: nn.Linear(*args, **kwargs))
        ref, ref_rng = seeded(0, lambda: rnn.Linear(*args, **kwargs))
        tag = 'Linear{}{} '.format(args, kwargs)
        check(tag + 'weight', mine.weight, ref.weight)
        check(tag + 'bias', mine.bias, ref.bias)
        check(tag + 'rng after', mine_rng, ref_rng)
        check(tag + 'repr', repr(mine), repr(ref))
        check(tag + 'weight is Parameter', type(mine.weight).__name__, type(ref.weight).__name__)
        check(tag + 'requires_grad', mine.weight.requires_grad, ref.weight.requires_grad)
        x = torch.randn(6, args[0], dtype=kwargs.get('dtype', torch.float32))
        check(tag + 'forward', mine(x), ref(x))
        check(tag + 'grad_fn', type(mine(x).grad_fn).__name__, type(ref(x).grad_fn).__name__)
        x3 = torch.randn(2, 3, args[0], dtype=kwargs.get('dtype', torch.float32))
        check(tag + 'forward 3d', mine(x3), ref(x3))
    # zero-sized
    (mine, wm), mine_rng = seeded(1, lambda: warnings_of(lambda: nn.Linear(0, 3)))
    (ref, wr), ref_rng = seeded(1, lambda: warnings_of(lambda: rnn.Linear(0, 3)))
    check('Linear(0, 3) warnings', wm, wr)
    check('Linear(0, 3) bias', mine.bias, ref.bias)
    check('Linear(0, 3) rng', mine_rng, ref_rng)
    check('Linear(3, 2, bias=False).bias', nn.Linear(3, 2, bias=False).bias, None)
    check('Linear bias in _parameters', list(nn.Linear(3, 2, bias=False)._parameters.keys()),
          list(rnn.Linear(3, 2, bias=False)._parameters.keys()))

    # F.linear
    w, b, x = torch.randn(4, 3), torch.randn(4), torch.randn(5, 3)
    check('F.linear', F.linear(x, w, b), RF.linear(x, w, b))
    check('F.linear no bias', F.linear(x, w), RF.linear(x, w))
    xv = torch.randn(3, requires_grad=True)
    check('F.linear 1-d grad_fn', type(F.linear(xv, w, b).grad_fn).__name__,
          type(RF.linear(xv, w, b).grad_fn).__name__)


def init_checks():
    shapes = [(4, 3), (7, 5), (3, 2, 4, 4), (6, 1)]
    calls = [
        ('uniform_', (), {}), ('uniform_', (-0.3, 0.7), {}), ('normal_', (), {}), ('normal_', (0.5, 2.0), {}),
        ('constant_', (0.25,), {}), ('ones_', (), {}), ('zeros_', (), {}),
        ('xavier_uniform_', (), {}), ('xavier_uniform_', (), {'gain': 2.0}), ('xavier_normal_', (), {}),
        ('xavier_normal_', (0.5,), {}),
        ('kaiming_uniform_', (), {}), ('kaiming_uniform_', (), {'a': math.sqrt(5)}),
        ('kaiming_uniform_', (), {'mode': 'fan_out', 'nonlinearity': 'relu'}),
        ('kaiming_normal_', (), {}), ('kaiming_normal_', (0.1,), {'mode': 'fan_out'}),
        ('kaiming_normal_', (), {'nonlinearity': 'tanh'}),
    ]
    for shape in shapes:
        for fn_name, args, kwargs in calls:
            def run(mod):
                t = torch.empty(shape).requires_grad_()
                out = getattr(mod, fn_name)(t, *args, **kwargs)
                return t, out is t, t.grad_fn
            mine, mine_rng = seeded(3, lambda: run(init))
            ref, ref_rng = seeded(3, lambda: run(rnn.init))
            tag = 'init.{}{}{} {}'.format(fn_name, args, kwargs, shape)
            check(tag, mine, ref)
            check(tag + ' rng', mine_rng, ref_rng)
    for nl, param in [('linear', None), ('conv2d', None), ('sigmoid', None), ('tanh', None), ('relu', None),
                      ('leaky_relu', None), ('leaky_relu', 0.2), ('leaky_relu', 3), ('selu', None)]:
        check('calculate_gain {} {}'.format(nl, param), init.calculate_gain(nl, param),
              rnn.init.calculate_gain(nl, param))
    check('calculate_gain bad', error_of(lambda: init.calculate_gain('foo')),
          error_of(lambda: rnn.init.calculate_gain('foo')))
    check('calculate_gain leaky bool', error_of(lambda: init.calculate_gain('leaky_relu', True)),
          error_of(lambda: rnn.init.calculate_gain('leaky_relu', True)))
    for shape in [(3,), (4, 5), (2, 3, 5)]:
        t = torch.empty(shape)
        check('fan in/out {}'.format(shape), error_of(lambda: init._calculate_fan_in_and_fan_out(t))
              or init._calculate_fan_in_and_fan_out(t),
              error_of(lambda: rnn.init._calculate_fan_in_and_fan_out(t))
              or rnn.init._calculate_fan_in_and_fan_out(t))
    t = torch.empty(3, 4)
    check('kaiming bad mode', error_of(lambda: init.kaiming_uniform_(t, mode='fan')),
          error_of(lambda: rnn.init.kaiming_uniform_(t, mode='fan')))
    check('kaiming zero-element warning', warnings_of(lambda: init.kaiming_normal_(torch.empty(0, 3)).shape),
          warnings_of(lambda: rnn.init.kaiming_normal_(torch.empty(0, 3)).shape))


# ====================================================================== losses and functional

def loss_checks():
    torch.manual_seed(5)
    logits = torch.randn(6, 5)
    target = torch.tensor([0, 4, 2, 2, 1, 3])
    probs = torch.randn(6, 5).softmax(1)
    weight = torch.rand(5) + 0.5
    x = torch.randn(4, 3)
    y = torch.randn(4, 3)

    def both(name, mine_fn, ref_fn, grad_input=None):
        (m, wm) = warnings_of(mine_fn)
        (r, wr) = warnings_of(ref_fn)
        check(name, m, r)
        check(name + ' warnings', wm, wr)
        if isinstance(m, torch.Tensor) and isinstance(r, torch.Tensor):
            check(name + ' grad_fn', type(m.grad_fn).__name__, type(r.grad_fn).__name__)

    for red in ['mean', 'sum', 'none']:
        both('mse ' + red, lambda: F.mse_loss(x, y, reduction=red), lambda: RF.mse_loss(x, y, reduction=red))
        both('MSELoss ' + red, lambda: nn.MSELoss(reduction=red)(x, y), lambda: rnn.MSELoss(reduction=red)(x, y))
        for kw in [{}, {'weight': weight}, {'ignore_index': 2}, {'label_smoothing': 0.1},
                   {'weight': weight, 'ignore_index': 4, 'label_smoothing': 0.2}]:
            both('cross_entropy {} {}'.format(red, kw), lambda: F.cross_entropy(logits, target, reduction=red, **kw),
                 lambda: RF.cross_entropy(logits, target, reduction=red, **kw))
            both('CrossEntropyLoss {} {}'.format(red, kw),
                 lambda: nn.CrossEntropyLoss(reduction=red, **kw)(logits, target),
                 lambda: rnn.CrossEntropyLoss(reduction=red, **kw)(logits, target))
        both('cross_entropy probs ' + red, lambda: F.cross_entropy(logits, probs, reduction=red),
             lambda: RF.cross_entropy(logits, probs, reduction=red))
        both('cross_entropy probs smooth ' + red,
             lambda: F.cross_entropy(logits, probs, reduction=red, label_smoothing=0.3),
             lambda: RF.cross_entropy(logits, probs, reduction=red, label_smoothing=0.3))
        lp = logits.log_softmax(1)
        both('nll_loss ' + red, lambda: F.nll_loss(lp, target, reduction=red),
             lambda: RF.nll_loss(lp, target, reduction=red))
        both('nll_loss weight ' + red, lambda: F.nll_loss(lp, target, weight=weight, ignore_index=2, reduction=red),
             lambda: RF.nll_loss(lp, target, weight=weight, ignore_index=2, reduction=red))
        both('NLLLoss ' + red, lambda: nn.NLLLoss(weight=weight, reduction=red)(lp, target),
             lambda: rnn.NLLLoss(weight=weight, reduction=red)(lp, target))
    # 1-d input / 0-d target, and K-dimensional
    both('cross_entropy 1d', lambda: F.cross_entropy(logits[0], target[0]),
         lambda: RF.cross_entropy(logits[0], target[0]))
    img = torch.randn(2, 5, 3, 4)
    img_t = torch.randint(0, 5, (2, 3, 4))
    both('cross_entropy 4d', lambda: F.cross_entropy(img, img_t), lambda: RF.cross_entropy(img, img_t))
    # broadcasting warning and legacy arguments
    both('mse broadcast', lambda: F.mse_loss(x, y[0]), lambda: RF.mse_loss(x, y[0]))
    both('mse size_average=False', lambda: F.mse_loss(x, y, size_average=False),
         lambda: RF.mse_loss(x, y, size_average=False))
    both('mse reduce=False', lambda: F.mse_loss(x, y, reduce=False), lambda: RF.mse_loss(x, y, reduce=False))
    both('MSELoss size_average', lambda: nn.MSELoss(size_average=False)(x, y),
         lambda: rnn.MSELoss(size_average=False)(x, y))
    both('MSELoss .reduction', lambda: nn.MSELoss(reduce=False).reduction,
         lambda: rnn.MSELoss(reduce=False).reduction)
    check('bad reduction', error_of(lambda: F.mse_loss(x, y, reduction='avg')),
          error_of(lambda: RF.mse_loss(x, y, reduction='avg')))
    both('elementwise_mean', lambda: F.mse_loss(x, y, reduction='elementwise_mean'),
         lambda: RF.mse_loss(x, y, reduction='elementwise_mean'))
    # the loss modules
    check('CrossEntropyLoss buffers', list(nn.CrossEntropyLoss(weight=weight).state_dict().keys()),
          list(rnn.CrossEntropyLoss(weight=weight).state_dict().keys()))
    check('CrossEntropyLoss attrs', (nn.CrossEntropyLoss().ignore_index, nn.CrossEntropyLoss().label_smoothing,
                                     nn.CrossEntropyLoss().weight, nn.CrossEntropyLoss().reduction),
          (rnn.CrossEntropyLoss().ignore_index, rnn.CrossEntropyLoss().label_smoothing,
           rnn.CrossEntropyLoss().weight, rnn.CrossEntropyLoss().reduction))
    check('loss reprs', [repr(nn.MSELoss()), repr(nn.CrossEntropyLoss(weight=weight)), repr(nn.NLLLoss())],
          [repr(rnn.MSELoss()), repr(rnn.CrossEntropyLoss(weight=weight)), repr(rnn.NLLLoss())])

    # gradients through the losses
    for name, mf, rf in [
            ('ce', lambda a: F.cross_entropy(a, target, weight=weight, label_smoothing=0.1),
             lambda a: RF.cross_entropy(a, target, weight=weight, label_smoothing=0.1)),
            ('ce probs', lambda a: F.cross_entropy(a, probs), lambda a: RF.cross_entropy(a, probs)),
            ('mse', lambda a: F.mse_loss(a, probs), lambda a: RF.mse_loss(a, probs)),
            ('mse broadcast', lambda a: F.mse_loss(a, probs[0]), lambda a: RF.mse_loss(a, probs[0])),
            ('nll', lambda a: F.nll_loss(F.log_softmax(a, 1), target),
             lambda a: RF.nll_loss(RF.log_softmax(a, 1), target))]:
        am = logits.clone().requires_grad_()
        ar = logits.clone().requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            mf(am).backward()
            rf(ar).backward()
        check('grad of ' + name, am.grad, ar.grad)

    # activations and softmax
    z = torch.randn(3, 4, 5)
    for dim in [0, 1, 2, -1, None]:
        both('softmax dim={}'.format(dim), lambda: F.softmax(z, dim), lambda: RF.softmax(z, dim))
        both('log_softmax dim={}'.format(dim), lambda: F.log_softmax(z, dim), lambda: RF.log_softmax(z, dim))
    both('softmax 2d implicit', lambda: F.softmax(x), lambda: RF.softmax(x))
    both('softmax dtype', lambda: F.softmax(z, 1, dtype=torch.float64), lambda: RF.softmax(z, 1, dtype=torch.float64))
    both('log_softmax dtype', lambda: F.log_softmax(z, 1, dtype=torch.float64),
         lambda: RF.log_softmax(z, 1, dtype=torch.float64))
    both('Softmax module', lambda: nn.Softmax(dim=1)(z), lambda: rnn.Softmax(dim=1)(z))
    both('LogSoftmax module', lambda: nn.LogSoftmax(dim=2)(z), lambda: rnn.LogSoftmax(dim=2)(z))
    check('Softmax repr', repr(nn.Softmax(dim=1)), repr(rnn.Softmax(dim=1)))
    both('relu', lambda: F.relu(z), lambda: RF.relu(z))
    both('sigmoid', lambda: F.sigmoid(z), lambda: RF.sigmoid(z))
    both('tanh', lambda: F.tanh(z), lambda: RF.tanh(z))
    both('Sigmoid/Tanh modules', lambda: (nn.Sigmoid()(z), nn.Tanh()(z)), lambda: (rnn.Sigmoid()(z), rnn.Tanh()(z)))
    zm, zr = z.clone(), z.clone()
    rm, rr = F.relu(zm, inplace=True), RF.relu(zr, inplace=True)
    check('relu inplace', (rm, zm, rm is zm), (rr, zr, rr is zr))
    zm, zr = z.clone(), z.clone()
    check('relu_', (F.relu_(zm), zm), (RF.relu_(zr), zr))
    zm, zr = z.clone(), z.clone()
    check('ReLU(inplace=True)', (nn.ReLU(inplace=True)(zm) is zm, zm), (rnn.ReLU(inplace=True)(zr) is zr, zr))
    check('ReLU reprs', [repr(nn.ReLU()), repr(nn.ReLU(True)), repr(nn.Sigmoid()), repr(nn.Tanh()),
                         repr(nn.Identity())],
          [repr(rnn.ReLU()), repr(rnn.ReLU(True)), repr(rnn.Sigmoid()), repr(rnn.Tanh()), repr(rnn.Identity())])
    zg = z.clone().requires_grad_()
    check('relu grad_fn', type(F.relu(zg).grad_fn).__name__, type(RF.relu(zg).grad_fn).__name__)


# ====================================================================== training trajectories

def make_mlp(nnmod, width=8, classes=3):
    class MLP(nnmod.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nnmod.Linear(4, width)
            self.act = nnmod.ReLU()
            self.fc2 = nnmod.Linear(width, classes)

        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))
    return MLP()


def trajectory(nnmod, Fmod, optmod, opt_name, opt_kwargs, steps=6, loss='ce', groups=False, closure=False,
               set_to_none=False, seed=11):
    torch.manual_seed(seed)
    model = make_mlp(nnmod)
    torch.manual_seed(99)
    x = torch.randn(10, 4)
    target = torch.randint(0, 3, (10,))
    y = torch.randn(10, 3)
    if groups:
        params = [{'params': model.fc1.parameters()},
                  {'params': model.fc2.parameters(), 'lr': opt_kwargs.get('lr', 1e-3) * 0.5}]
    else:
        params = model.parameters()
    opt = getattr(optmod, opt_name)(params, **opt_kwargs)
    loss_fn = nnmod.CrossEntropyLoss() if loss == 'ce' else nnmod.MSELoss()
    tgt = target if loss == 'ce' else y
    record = []
    for step in range(steps):
        def closure_fn():
            opt.zero_grad(set_to_none=set_to_none)
            out = loss_fn(model(x), tgt)
            out.backward()
            return out
        if closure:
            value = opt.step(closure_fn)
        else:
            value = closure_fn()
            opt.step()
        state = []
        for p in model.parameters():
            st = opt.state[p]
            state.append({k: st[k] for k in sorted(st)})
        record.append((value.detach(), [p.detach().clone() for p in model.parameters()],
                       [p.grad.clone() for p in model.parameters()], state))
    return record


def optimizer_checks():
    sgd_configs = [
        {'lr': 0.1}, {'lr': 0.05, 'momentum': 0.9}, {'lr': 0.05, 'momentum': 0.9, 'dampening': 0.3},
        {'lr': 0.05, 'weight_decay': 0.01}, {'lr': 0.05, 'momentum': 0.8, 'weight_decay': 0.02},
        {'lr': 0.05, 'momentum': 0.9, 'nesterov': True},
        {'lr': 0.05, 'momentum': 0.9, 'nesterov': True, 'weight_decay': 0.1},
        {'lr': 0.05, 'momentum': 0.5, 'maximize': True}, {'lr': 0.01, 'maximize': True, 'weight_decay': 0.1},
    ]
    adam_configs = [
        {}, {'lr': 0.01}, {'lr': 0.01, 'betas': (0.8, 0.99), 'eps': 1e-6}, {'lr': 0.01, 'weight_decay': 0.05},
        {'lr': 0.01, 'amsgrad': True}, {'lr': 0.01, 'amsgrad': True, 'weight_decay': 0.01},
        {'lr': 0.01, 'maximize': True}, {'lr': 0.02, 'maximize': True, 'amsgrad': True},
    ]
    for opt_name, configs in [('SGD', sgd_configs), ('Adam', adam_configs)]:
        for kw in configs:
            for variant in [{}, {'loss': 'mse'}, {'groups': True}, {'closure': True}, {'set_to_none': True}]:
                mine = trajectory(nn, F, optim, opt_name, kw, **variant)
                ref = trajectory(rnn, RF, torch.optim, opt_name, kw, **variant)
                tag = '{}{} {}'.format(opt_name, kw, variant)
                for step, (m, r) in enumerate(zip(mine, ref)):
                    check('{} step {} loss'.format(tag, step), m[0], r[0])
                    check('{} step {} params'.format(tag, step), m[1], r[1])
                    check('{} step {} grads'.format(tag, step), m[2], r[2])
                    check('{} step {} state'.format(tag, step), m[3], r[3])

    # param_groups, repr, state_dict
    def build(nnmod, optmod, opt_name, kw):
        torch.manual_seed(0)
        model = make_mlp(nnmod)
        opt = getattr(optmod, opt_name)([{'params': model.fc1.parameters()},
                                         {'params': list(model.fc2.parameters()), 'lr': 0.5}], **kw)
        return model, opt

    for opt_name, kw in [('SGD', {'lr': 0.1, 'momentum': 0.9}), ('Adam', {'amsgrad': True}), ('SGD', {'lr': 0.1})]:
        mm, mo = build(nn, optim, opt_name, kw)
        rm, ro = build(rnn, torch.optim, opt_name, kw)
        tag = '{}{} '.format(opt_name, kw)
        check(tag + 'param_groups', [{k: v for k, v in g.items() if k != 'params'} for g in mo.param_groups],
              [{k: v for k, v in g.items() if k != 'params'} for g in ro.param_groups])
        check(tag + 'defaults', mo.defaults, ro.defaults)
        check(tag + 'repr', repr(mo), repr(ro))
        for mod, opt in [(mm, mo), (rm, ro)]:
            torch.manual_seed(4)
            mod(torch.randn(3, 4)).sum().backward()
            opt.step()
        check(tag + 'state_dict', mo.state_dict(), ro.state_dict())
        # round trip: load the state into a fresh optimizer and take one more step on both
        mm2, mo2 = build(nn, optim, opt_name, kw)
        mm2.load_state_dict(mm.state_dict())
        mo2.load_state_dict(mo.state_dict())
        for mod, opt in [(mm, mo), (mm2, mo2), (rm, ro)]:
            opt.zero_grad()
            torch.manual_seed(5)
            mod(torch.randn(3, 4)).sum().backward()
            opt.step()
        check(tag + 'after load_state_dict', list(mm2.parameters()), list(rm.parameters()))
        check(tag + 'state after load', mo2.state_dict(), ro.state_dict())

    # errors
    p = rnn.Parameter(torch.ones(2))
    for tag, mf, rf in [
            ('empty params', lambda: optim.SGD([], lr=0.1), lambda: torch.optim.SGD([], lr=0.1)),
            ('tensor params', lambda: optim.SGD(p, lr=0.1), lambda: torch.optim.SGD(p, lr=0.1)),
            ('negative lr', lambda: optim.SGD([p], lr=-1), lambda: torch.optim.SGD([p], lr=-1)),
            ('no lr', lambda: optim.SGD([p]), lambda: torch.optim.SGD([p])),
            ('negative momentum', lambda: optim.SGD([p], lr=1, momentum=-1),
             lambda: torch.optim.SGD([p], lr=1, momentum=-1)),
            ('nesterov', lambda: optim.SGD([p], lr=1, nesterov=True), lambda: torch.optim.SGD([p], lr=1, nesterov=True)),
            ('adam betas', lambda: optim.Adam([p], betas=(1.0, 0.9)), lambda: torch.optim.Adam([p], betas=(1.0, 0.9))),
            ('adam beta2', lambda: optim.Adam([p], betas=(0.9, -0.1)), lambda: torch.optim.Adam([p], betas=(0.9, -0.1))),
            ('adam eps', lambda: optim.Adam([p], eps=-1.0), lambda: torch.optim.Adam([p], eps=-1.0)),
            ('adam lr', lambda: optim.Adam([p], lr=-1.0), lambda: torch.optim.Adam([p], lr=-1.0)),
            ('set of params', lambda: optim.SGD({p}, lr=1), lambda: torch.optim.SGD({p}, lr=1)),
            ('non-tensor', lambda: optim.SGD([p, 3], lr=1), lambda: torch.optim.SGD([p, 3], lr=1)),
            ('non-leaf', lambda: optim.SGD([p * 2], lr=1), lambda: torch.optim.SGD([p * 2], lr=1)),
            ('two groups', lambda: optim.SGD([{'params': [p]}, {'params': [p]}], lr=1),
             lambda: torch.optim.SGD([{'params': [p]}, {'params': [p]}], lr=1)),
    ]:
        check('optimizer error ' + tag, error_of(mf), error_of(rf))
    check('duplicate params warning', warnings_of(lambda: len(optim.SGD([p, p], lr=1).param_groups[0]['params'])),
          warnings_of(lambda: len(torch.optim.SGD([p, p], lr=1).param_groups[0]['params'])))
    check('foreach=True refused', error_of(lambda: optim.SGD([p], lr=1, foreach=True))[0], 'NotImplementedError')

    # optimizer zero_grad on a grad that has a grad_fn (create_graph) and a plain one
    for set_to_none in [False, True]:
        res = []
        for optmod in (optim, torch.optim):
            a = torch.ones(3, requires_grad=True)
            b = torch.ones(2, requires_grad=True)
            (a * a).sum().backward(create_graph=True)
            (b * 3).sum().backward()
            g_a, g_b = a.grad, b.grad
            opt = optmod.SGD([a, b], lr=0.1)
            opt.zero_grad(set_to_none=set_to_none)
            res.append((a.grad, b.grad, a.grad is g_a, b.grad is g_b,
                        None if a.grad is None else (a.grad.requires_grad, a.grad.grad_fn)))
        check('optimizer zero_grad set_to_none={}'.format(set_to_none), res[0], res[1])


# ====================================================================== Module API

class Wrapper:
    """Builds the same model structure from either nn package."""

    def __init__(self, nnmod):
        self.nn = nnmod

    def net(self):
        nnm = self.nn

        class Block(nnm.Module):
            def __init__(self):
                super().__init__()
                self.lin = nnm.Linear(3, 3)
                self.register_buffer('running', torch.zeros(3))
                self.register_buffer('tmp', torch.ones(1), persistent=False)
                self.register_buffer('nothing', None)

            def forward(self, x):
                return self.lin(x) + self.running

            def extra_repr(self):
                return 'width=3\nmultiline=True'

        class Net(nnm.Module):
            def __init__(self):
                super().__init__()
                self.hidden = nnm.Linear(2, 3, bias=False)
                self.block = Block()
                self.seq = nnm.Sequential(nnm.Linear(3, 3), nnm.ReLU(), nnm.Sequential(nnm.Linear(3, 1)))
                self.shared = self.hidden
                self.scale = nnm.Parameter(torch.tensor(2.0))
                self.empty = None
                self.plain = 5

            def forward(self, x):
                return self.seq(self.block(self.hidden(x))) * self.scale
        return Net()


def module_checks():
    torch.manual_seed(21)
    mnet = Wrapper(nn).net()
    torch.manual_seed(21)
    rnet = Wrapper(rnn).net()
    check('net repr', repr(mnet), repr(rnet))
    check('net named_parameters', [(n, p) for n, p in mnet.named_parameters()],
          [(n, p) for n, p in rnet.named_parameters()])
    check('net named_parameters prefix', [n for n, _ in mnet.named_parameters(prefix='model')],
          [n for n, _ in rnet.named_parameters(prefix='model')])
    check('net named_parameters recurse=False', [n for n, _ in mnet.named_parameters(recurse=False)],
          [n for n, _ in rnet.named_parameters(recurse=False)])
    check('net named_buffers', list(mnet.named_buffers()), list(rnet.named_buffers()))
    check('net buffers recurse=False', list(mnet.buffers(recurse=False)), list(rnet.buffers(recurse=False)))
    check('net named_children', [n for n, _ in mnet.named_children()], [n for n, _ in rnet.named_children()])
    check('net named_modules', [(n, type(m).__name__) for n, m in mnet.named_modules()],
          [(n, type(m).__name__) for n, m in rnet.named_modules()])
    check('net named_modules no dedupe', [n for n, m in mnet.named_modules(remove_duplicate=False)],
          [n for n, m in rnet.named_modules(remove_duplicate=False)])
    check('net modules count', len(list(mnet.modules())), len(list(rnet.modules())))
    msd, rsd = mnet.state_dict(), rnet.state_dict()
    check('state_dict', dict(msd), dict(rsd))
    check('state_dict type', type(msd).__name__, type(rsd).__name__)
    check('state_dict _metadata', dict(msd._metadata), dict(rsd._metadata))
    check('state_dict detached', [(v.requires_grad, v.grad_fn, type(v).__name__) for v in msd.values()],
          [(v.requires_grad, v.grad_fn, type(v).__name__) for v in rsd.values()])
    check('state_dict keep_vars', [type(v).__name__ for v in mnet.state_dict(keep_vars=True).values()],
          [type(v).__name__ for v in rnet.state_dict(keep_vars=True).values()])
    check('state_dict prefix', list(mnet.state_dict(prefix='m.').keys()), list(rnet.state_dict(prefix='m.').keys()))
    check('state_dict positional warning', warnings_of(lambda: list(mnet.state_dict(None, 'p.').keys())),
          warnings_of(lambda: list(rnet.state_dict(None, 'p.').keys())))
    x = torch.randn(4, 2)
    check('net forward', mnet(x), rnet(x))
    check('net __dict__ keys', sorted(k for k in mnet.__dict__), sorted(k for k in rnet.__dict__))
    mdir, rdir = dir(mnet), dir(rnet)
    check('dir has members', [k in mdir for k in ('hidden', 'scale', 'block', 'plain', 'forward', 'training')],
          [k in rdir for k in ('hidden', 'scale', 'block', 'plain', 'forward', 'training')])
    check('dir sorted', mdir == sorted(mdir), True)
    check('Sequential dir no digits', [k for k in dir(mnet.seq) if k.isdigit()], [])

    # to / cpu / float / double
    res = []
    for nnm in (nn, rnn):
        torch.manual_seed(3)
        lin = nnm.Linear(2, 3)
        lin.register_buffer('steps', torch.zeros(2, dtype=torch.int64))
        lin(torch.ones(1, 2)).sum().backward()
        w = lin.weight
        out = [lin.to('cpu') is lin, lin.cpu() is lin, lin.to(torch.device('cpu')) is lin,
               lin.to(torch.float32) is lin]
        out.append(lin.to(torch.float64) is lin)
        out.append((lin.weight is w, lin.weight.dtype, lin.weight.grad.dtype, lin.steps.dtype,
                    type(lin.weight).__name__, lin.weight, lin.bias.grad))
        out.append((lin.float() is lin, lin.weight.dtype, lin.double().bias.dtype))
        out.append(lin.to(torch.ones(1, dtype=torch.float32)).weight.dtype)
        out.append(lin.to(dtype=torch.float16, device='cpu').weight.dtype)
        out.append(error_of(lambda: lin.to(torch.int64)))
        res.append(out)
    check('to / cpu / float / double', res[0], res[1])

    # load_state_dict
    torch.manual_seed(22)
    mnet2 = Wrapper(nn).net()
    torch.manual_seed(22)
    rnet2 = Wrapper(rnn).net()
    check('load_state_dict result', repr(mnet2.load_state_dict(msd)), repr(rnet2.load_state_dict(rsd)))
    check('loaded values', list(mnet2.state_dict().values()), list(rnet2.state_dict().values()))
    bad = OrderedDict(rsd)
    del bad['hidden.weight']
    bad['extra.key'] = torch.zeros(1)
    bad['seq.0.bias'] = torch.zeros(5)
    bad['block.running'] = 'not a tensor'
    check('load_state_dict errors', error_of(lambda: mnet2.load_state_dict(bad)),
          error_of(lambda: rnet2.load_state_dict(bad)))
    check('load_state_dict non-strict', repr(mnet2.load_state_dict({'hidden.weight': rsd['hidden.weight'],
                                                                     'zzz': torch.ones(1)}, strict=False)),
          repr(rnet2.load_state_dict({'hidden.weight': rsd['hidden.weight'], 'zzz': torch.ones(1)}, strict=False)))
    check('load_state_dict not a mapping', error_of(lambda: mnet2.load_state_dict([1])),
          error_of(lambda: rnet2.load_state_dict([1])))
    check('load 1-d into 0-d', (mnet2.load_state_dict({'scale': torch.tensor([7.0])}, strict=False), mnet2.scale)[1],
          (rnet2.load_state_dict({'scale': torch.tensor([7.0])}, strict=False), rnet2.scale)[1])

    # train / eval
    res = []
    for net in (mnet, rnet):
        out = [net.training]
        net.eval()
        out += [m.training for m in net.modules()]
        net.train()
        out += [m.training for m in net.modules()]
        out.append(net.train(False) is net)
        out += [m.training for m in net.modules()]
        out.append(error_of(lambda: net.train(1)))
        net.train()
        res.append(out)
    check('train/eval', res[0], res[1])

    # requires_grad_, zero_grad
    res = []
    for net in (mnet, rnet):
        out = [net.requires_grad_(False) is net, [p.requires_grad for p in net.parameters()]]
        net.requires_grad_()
        out.append([p.requires_grad for p in net.parameters()])
        out.append([p.grad for p in net.parameters()])
        net(x).sum().backward()
        grads = [p.grad for p in net.parameters()]
        out.append([g.clone() for g in grads])
        net.zero_grad()
        out.append([(p.grad, p.grad is g) for p, g in zip(net.parameters(), grads)])
        net.zero_grad(set_to_none=True)
        out.append([p.grad for p in net.parameters()])
        res.append(out)
    check('requires_grad_ / zero_grad', res[0], res[1])
    res = []
    for nnm in (nn, rnn):
        lin = nnm.Linear(2, 2)
        lin(torch.ones(1, 2)).sum().backward(create_graph=True)
        lin.zero_grad(set_to_none=False)
        res.append([(p.grad, p.grad.requires_grad, p.grad.grad_fn) for p in lin.parameters()])
    check('zero_grad of a grad with history', res[0], res[1])

    # apply, forward hooks
    res = []
    for nnm in (nn, rnn):
        torch.manual_seed(2)
        seq = nnm.Sequential(nnm.Linear(2, 2), nnm.ReLU(), nnm.Linear(2, 2))
        seen = []
        seq.apply(lambda m: seen.append(type(m).__name__))
        log = []
        h1 = seq.register_forward_pre_hook(lambda m, inp: log.append(('pre', len(inp))) or (inp[0] * 2,))
        h2 = seq[0].register_forward_hook(lambda m, inp, out: out + 1)
        out1 = seq(torch.ones(1, 2))
        h1.remove()
        h2.remove()
        out2 = seq(torch.ones(1, 2))
        res.append((seen, log, out1, out2))
    check('apply and forward hooks', res[0], res[1])

    # attribute registration and its errors
    def attr_errors(nnm):
        out = []

        class Early(nnm.Module):
            def __init__(self, what):
                if what == 'param':
                    self.p = nnm.Parameter(torch.ones(1))
                elif what == 'module':
                    self.m = nnm.Linear(1, 1)
                elif what == 'buffer':
                    self.register_buffer('b', torch.ones(1))
                elif what == 'register_parameter':
                    self.register_parameter('p', None)
                super().__init__()
        for what in ['param', 'module', 'buffer', 'register_parameter']:
            out.append(error_of(lambda: Early(what)))
        m = nnm.Module()
        m.w = nnm.Parameter(torch.ones(2))
        m.sub = nnm.Linear(1, 1)
        m.register_buffer('buf', torch.zeros(2))
        m.x = 3
        out.append(error_of(lambda: setattr(m, 'w', torch.ones(2))))
        out.append(error_of(lambda: setattr(m, 'sub', 3)))
        out.append(error_of(lambda: setattr(m, 'buf', 3)))
        out.append(error_of(lambda: m.register_parameter('x', nnm.Parameter(torch.ones(1)))))
        out.append(error_of(lambda: m.register_parameter('a.b', None)))
        out.append(error_of(lambda: m.register_parameter('', None)))
        out.append(error_of(lambda: m.register_parameter(3, None)))
        out.append(error_of(lambda: m.register_parameter('q', torch.ones(1))))
        out.append(error_of(lambda: m.register_parameter('q', nnm.Parameter(torch.ones(1)) * 2)))
        leaf = torch.ones(1, requires_grad=True)
        out.append(error_of(lambda: m.register_buffer('x', torch.ones(1))))
        out.append(error_of(lambda: m.register_buffer('bb', 3)))
        out.append(error_of(lambda: m.register_buffer('b.b', None)))
        out.append(error_of(lambda: m.register_buffer('', None)))
        out.append(error_of(lambda: m.add_module('x', nnm.Linear(1, 1))))
        out.append(error_of(lambda: m.add_module('y', 3)))
        out.append(error_of(lambda: m.add_module('y.z', nnm.Linear(1, 1))))
        out.append(error_of(lambda: m.add_module('', nnm.Linear(1, 1))))
        out.append(error_of(lambda: m.add_module(1, nnm.Linear(1, 1))))
        out.append(error_of(lambda: m.nonexistent))
        out.append(error_of(lambda: m.forward(1)))
        out.append(error_of(lambda: m(leaf)))
        m.w = None
        out.append((m.w, list(m._parameters.keys())))
        m.buf = None
        m.sub = None
        out.append((m.buf, m.sub, list(m._buffers), list(m._modules)))
        # moving names between kinds
        m.x = nnm.Parameter(torch.ones(1))
        out.append(('x' in m.__dict__, list(m._parameters)))
        out.append(error_of(lambda: setattr(m, 'x', nnm.Linear(1, 1))))
        m.x = None
        del m.x
        m.x = nnm.Linear(1, 1)
        out.append((list(m._parameters), list(m._modules)))
        del m.x
        del m.buf
        del m.w
        out.append((list(m._parameters), list(m._modules), list(m._buffers)))
        out.append(error_of(lambda: delattr(m, 'nothing_here')))
        m.t = torch.ones(1)
        out.append((list(m._parameters), list(m._buffers), 't' in m.__dict__))
        m.register_buffer('pb', torch.ones(1), persistent=False)
        out.append((list(m.state_dict().keys()), m._non_persistent_buffers_set))
        m.pb = nnm.Parameter(torch.ones(1))
        out.append((list(m.state_dict().keys()), m._non_persistent_buffers_set))
        # get_submodule / get_parameter / get_buffer
        torch.manual_seed(0)
        net = Wrapper(nnm).net()
        out.append(type(net.get_submodule('seq.2.0')).__name__)
        out.append(net.get_parameter('block.lin.bias'))
        out.append(net.get_buffer('block.running'))
        out.append(error_of(lambda: net.get_submodule('seq.9')))
        out.append(error_of(lambda: net.get_submodule('plain')))
        out.append(error_of(lambda: net.get_parameter('block.running')))
        out.append(error_of(lambda: net.get_buffer('block.lin')))
        out.append(error_of(lambda: net.get_buffer('block.zzz')))
        return out
    check('attribute registration', attr_errors(nn), attr_errors(rnn))


def sequential_checks():
    def run(nnm):
        out = []
        torch.manual_seed(8)
        l1, r, l2 = nnm.Linear(3, 4), nnm.ReLU(), nnm.Linear(4, 2)
        seq = nnm.Sequential(l1, r, l2)
        out.append(repr(seq))
        out.append((len(seq), seq[0] is l1, seq[-1] is l2, seq[1] is r, [m is n for m, n in zip(seq, [l1, r, l2])]))
        out.append(error_of(lambda: seq[3]))
        out.append(error_of(lambda: seq[-4]))
        out.append(error_of(lambda: seq['a']))
        sl = seq[1:]
        out.append((type(sl).__name__, repr(sl), list(sl._modules.keys())))
        x = torch.randn(5, 3)
        out.append(seq(x))
        od = nnm.Sequential(OrderedDict([('first', nnm.Linear(3, 3)), ('act', nnm.ReLU())]))
        out.append((repr(od), od.first is od[0], list(od.state_dict().keys())))
        seq.append(nnm.Tanh())
        out.append((len(seq), repr(seq)))
        seq.insert(1, nnm.Identity())
        out.append(list((k, type(v).__name__) for k, v in seq._modules.items()))
        out.append(error_of(lambda: seq.insert(10, nnm.ReLU())))
        out.append(error_of(lambda: seq.insert(0, 3)))
        popped = seq.pop(1)
        out.append((type(popped).__name__, list(seq._modules.keys())))
        del seq[0]
        out.append(list((k, type(v).__name__) for k, v in seq._modules.items()))
        seq[0] = nnm.Sigmoid()
        out.append(repr(seq))
        seq.extend([nnm.ReLU(), nnm.ReLU()])
        out.append(len(seq))
        del seq[1:3]
        out.append(list((k, type(v).__name__) for k, v in seq._modules.items()))
        added = seq + nnm.Sequential(nnm.Tanh())
        out.append(repr(added))
        out.append(error_of(lambda: seq + 3))
        times = nnm.Sequential(nnm.ReLU(), nnm.Tanh()) * 2
        out.append(repr(times))
        out.append(error_of(lambda: nnm.Sequential(nnm.ReLU()) * 0))
        out.append(error_of(lambda: nnm.Sequential(nnm.ReLU()) * 1.5))
        s2 = nnm.Sequential(nnm.ReLU())
        s2 += nnm.Sequential(nnm.Tanh())
        s2 *= 2
        out.append(repr(s2))
        out.append(repr(nnm.Sequential()))
        out.append(nnm.Sequential()(x))
        out.append(error_of(lambda: nnm.Sequential(3)))
        shared = nnm.Linear(2, 2)
        ss = nnm.Sequential(shared, shared)
        out.append((len(list(ss.parameters())), len(list(ss.modules())), len(list(ss.children())),
                    [n for n, _ in ss.named_parameters()], list(ss.state_dict().keys())))
        # nested repr
        nested = nnm.Sequential(nnm.Sequential(nnm.Linear(1, 2), nnm.Sequential(nnm.ReLU())), nnm.Linear(2, 1))
        out.append(repr(nested))
        # ModuleList
        ml = nnm.ModuleList([nnm.Linear(1, 1), nnm.ReLU()])
        ml.append(nnm.Tanh())
        ml.extend([nnm.Sigmoid()])
        ml.insert(0, nnm.Identity())
        out.append((repr(ml), len(ml), type(ml[1:]).__name__, [type(m).__name__ for m in ml]))
        out.append(error_of(lambda: ml[9]))
        del ml[0]
        out.append(list(ml._modules.keys()))
        out.append(error_of(lambda: ml.extend(3)))
        out.append(error_of(lambda: ml(1)))
        out.append(repr(ml + nnm.ModuleList([nnm.ReLU()])))
        return out
    check('Sequential / ModuleList', run(nn), run(rnn))


class printing_as_parameter:
    """Real PyTorch's tensor printer prints its own Parameter class as 'tensor(...)' and other
    subclasses as 'ClassName(...)'; while comparing reprs, let it treat ours as its own.
    (Inside PyTorch's printer must treat torch.nn.Parameter the same way.)"""

    def __enter__(self):
        self.saved = rnn.Parameter
        rnn.Parameter = nn.Parameter

    def __exit__(self, *exc):
        rnn.Parameter = self.saved


def parameter_checks():
    def run(nnm):
        out = []
        p = nnm.Parameter(torch.tensor([1.0, -2.0]))
        out.append((repr(p), str(p), p.requires_grad, p.grad_fn, isinstance(p, torch.Tensor)))
        q = nnm.Parameter(torch.ones(2, 2), requires_grad=False)
        out.append((repr(q), q.requires_grad))
        e = nnm.Parameter()
        out.append((repr(e), e.shape, e.requires_grad))
        out.append((type(p * 2).__name__, type(p.detach()).__name__, type(p + p).__name__,
                    type(p.data).__name__, type(p.clone()).__name__))
        d = copy.deepcopy(p)
        out.append((type(d).__name__, d, d.requires_grad, d is p, d.data_ptr() == p.data_ptr()))
        base = torch.zeros(2, requires_grad=True)
        wrapped = nnm.Parameter(base)
        out.append((wrapped.data_ptr() == base.data_ptr(), wrapped.grad_fn, wrapped.is_leaf))
        memo = {}
        out.append(copy.deepcopy([p, p], memo)[0] is copy.deepcopy([p, p], memo)[1])
        return out
    with printing_as_parameter():
        mine = run(nn)
    check('Parameter behaviour', mine, run(rnn))
    check('Parameter class name', nn.Parameter.__name__, rnn.Parameter.__name__)
    lin = nn.Linear(2, 2)
    check('deepcopy of a module', [type(p).__name__ for p in copy.deepcopy(lin).parameters()],
          ['Parameter', 'Parameter'])
    check('deepcopy values', list(copy.deepcopy(lin).parameters()), list(lin.parameters()))


# ====================================================================== autograd.Function

def make_functions(base):
    """The same custom Functions, defined on either Function base class."""
    fns = {}

    class MyExp(base):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y
    fns['MyExp'] = MyExp

    class Double(base):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k
            return x * 2 * k

        @staticmethod
        def backward(ctx, grad):
            return grad * 2 * ctx.k, None
    fns['Double'] = Double

    class MulAdd(base):
        @staticmethod
        def forward(ctx, a, b, c):
            ctx.save_for_backward(a, b, None)
            ctx.seen_needs = ctx.needs_input_grad
            return a * b + c, a - b

        @staticmethod
        def backward(ctx, g1, g2):
            a, b, none = ctx.saved_tensors
            LOG.append(('MulAdd needs', ctx.needs_input_grad, none))
            return g1 * b + g2, g1 * a - g2, g1
    fns['MulAdd'] = MulAdd

    class NonDiff(base):
        @staticmethod
        def forward(ctx, x):
            a = x * 2
            b = x * 3
            ctx.mark_non_differentiable(b)
            return a, b, x.argmax(), 'label'

        @staticmethod
        def backward(ctx, ga, gb, gi, gs):
            LOG.append(('NonDiff grads', ga, gb, gi, gs))
            return ga * 2
    fns['NonDiff'] = NonDiff

    class NoMaterialize(base):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            LOG.append(('NoMaterialize grads', ga, gb))
            return ga * 2 if ga is not None else gb * 3
    fns['NoMaterialize'] = NoMaterialize

    class Identity(base):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5
    fns['Identity'] = Identity

    class Dirty(base):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2
    fns['Dirty'] = Dirty

    class SaveInput(base):
        @staticmethod
        def forward(ctx, x, a):
            ctx.save_for_backward(a)
            return x * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * a, None
    fns['SaveInput'] = SaveInput

    def bad(name, result):
        def backward(ctx, g):
            return result(g)
        return type(name, (base,), {'forward': staticmethod(lambda ctx, x, k: x * k),
                                    'backward': staticmethod(backward)})
    fns['TooMany'] = bad('TooMany', lambda g: (g, None, 1))
    fns['TooFew'] = bad('TooFew', lambda g: g)
    fns['ExtraNone'] = bad('ExtraNone', lambda g: (g, None, None, None))
    fns['GradForInt'] = bad('GradForInt', lambda g: (g, g))
    fns['NotTensor'] = bad('NotTensor', lambda g: (3, None))
    fns['AsList'] = bad('AsList', lambda g: [g, None])

    class SaveInt(base):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x, k)
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None
    fns['SaveInt'] = SaveInt

    class Stash(base):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            STASH.append(ctx)
            LOG.append(('Stash forward', torch.is_grad_enabled(), ctx.saved_tensors))
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g
    fns['Stash'] = Stash

    class IntOut(base):
        @staticmethod
        def forward(ctx, x):
            return x.long()

        @staticmethod
        def backward(ctx, g):
            return g
    fns['IntOut'] = IntOut
    return fns


LOG = []
STASH = []


def run_function_program(base):
    LOG.clear()
    STASH.clear()
    fns = make_functions(base)
    out = []

    def node_name(t):
        return None if t.grad_fn is None else type(t.grad_fn).__name__

    x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
    y = fns['MyExp'].apply(x)
    out.append((y, node_name(y), y.requires_grad, y.is_leaf, repr(y)))
    y.sum().backward()
    out.append(x.grad.clone())
    z = fns['Double'].apply(x, 3.0)
    out.append((z, node_name(z)))
    out.append(torch.autograd.grad(z.sum(), x))
    out.append([(None if f is None else type(f).__name__, n) for f, n in z.grad_fn.next_functions])

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0])
    c = torch.tensor([0.5, 0.5], requires_grad=True)
    r1, r2 = fns['MulAdd'].apply(a, b, c)
    out.append((r1, r2, node_name(r1), node_name(r2)))
    (r1.sum() + (r2 * r2).sum()).backward()
    out.append((a.grad, c.grad, list(LOG)))
    LOG.clear()
    r1, r2 = fns['MulAdd'].apply(a * 1, b, c.detach())
    out.append([(None if f is None else type(f).__name__) for f, _ in r1.grad_fn.next_functions])
    out.append(torch.autograd.grad(r1.sum(), a))

    res = fns['NonDiff'].apply(x)
    out.append(tuple((t if not isinstance(t, torch.Tensor) else (t, t.requires_grad, node_name(t))) for t in res))
    res[0].sum().backward()
    out.append(list(LOG))
    LOG.clear()

    ga, gb = fns['NoMaterialize'].apply(x)
    gb.sum().backward()
    out.append((list(LOG), x.grad.clone()))
    LOG.clear()

    ident = fns['Identity'].apply(x)
    out.append((ident is x, node_name(ident), ident.requires_grad))
    ident.sum().backward()
    out.append(x.grad.clone())
    with torch.no_grad():
        ng = fns['Identity'].apply(x)
    out.append((ng is x, node_name(ng), ng.requires_grad))
    plain = torch.ones(2)
    ng2 = fns['Identity'].apply(plain)
    out.append((ng2 is plain, node_name(ng2), ng2.requires_grad))
    out.append(fns['MyExp'].apply(torch.zeros(2)))

    w = torch.ones(3, requires_grad=True)
    v = w * 1
    d = fns['Dirty'].apply(v)
    out.append((d is v, d, node_name(v), v._version))
    d.sum().backward()
    out.append(w.grad)
    out.append(error_of(lambda: fns['Dirty'].apply(torch.ones(2, requires_grad=True))))

    # saved tensors modified in place
    x2 = torch.zeros(3, requires_grad=True)
    y2 = fns['MyExp'].apply(x2)
    y2.sum().backward(retain_graph=True)
    with torch.no_grad():
        y2.add_(1)
    out.append(error_of(lambda: y2.sum().backward()))
    av = torch.zeros(3)
    o = fns['SaveInput'].apply(x2, av)
    av.add_(1)
    out.append(error_of(lambda: o.sum().backward()))
    o = fns['SaveInput'].apply(x2, av)
    out.append(torch.autograd.grad(o.sum(), x2))

    # what backward returns
    k = torch.ones(3, requires_grad=True)
    for name in ['TooMany', 'TooFew', 'ExtraNone', 'GradForInt', 'NotTensor', 'AsList']:
        out.append((name, error_of(lambda: fns[name].apply(k, 2).sum().backward())))
    out.append(error_of(lambda: fns['SaveInt'].apply(k, 2)))

    # saved tensors: inside forward, and after the graph is gone / never built
    with torch.no_grad():
        fns['Stash'].apply(k)
    out.append(error_of(lambda: STASH[-1].saved_tensors))
    fns['Stash'].apply(torch.ones(2))
    out.append((error_of(lambda: STASH[-1].saved_tensors), STASH[-1].needs_input_grad))
    out.append(list(LOG))
    LOG.clear()

    io = fns['IntOut'].apply(k)
    out.append((io, io.requires_grad, node_name(io)))
    out.append(error_of(lambda: base.apply(k)))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        inst = fns['MyExp']()
    out.append(error_of(lambda: inst(k)))
    return out


def function_checks():
    mine = run_function_program(AF.Function)
    ref = run_function_program(torch.autograd.Function)
    check('autograd.Function program', mine, ref)
    for i, (m, r) in enumerate(zip(mine, ref)):
        if not same(m, r):
            check('autograd.Function program item {}'.format(i), m, r)

    # the released node: ctx frees its saved tensors, a second call raises PyTorch's message
    fns = make_functions(AF.Function)
    captured = []
    real_hook = torch._C._make_python_node

    def capturing(name, backward_fn, inputs, outputs, *rest):
        captured.append(backward_fn)
        return real_hook(name, backward_fn, inputs, outputs, *rest)
    torch._C._make_python_node = capturing
    try:
        x = torch.ones(2, requires_grad=True)
        y = fns['MyExp'].apply(x)
    finally:
        torch._C._make_python_node = real_hook
    node_fn = captured[0]
    check('captured node name', type(y.grad_fn).__name__, 'MyExpBackward')
    check('backward_fn direct call', node_fn(torch.ones(2)), (torch.ones(2) * x.exp(),))
    ctx = node_fn.ctx
    node_fn.release()
    rx = torch.ones(2, requires_grad=True)
    ry = make_functions(torch.autograd.Function)['MyExp'].apply(rx)
    ry.sum().backward()
    check('after release: call', error_of(lambda: node_fn(torch.ones(2))),
          error_of(lambda: ry.sum().backward()))
    check('after release: saved_tensors', error_of(lambda: ctx.saved_tensors),
          error_of(lambda: ry.grad_fn.saved_tensors))
    check('ctx class name', type(ctx).__name__, 'MyExpBackward')

    # once_differentiable
    class Once(AF.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        @AF.once_differentiable
        def backward(ctx, g):
            LOG.append(torch.is_grad_enabled())
            return g * 3
    LOG.clear()
    x = torch.ones(2, requires_grad=True)
    Once.apply(x).sum().backward()
    check('once_differentiable', (x.grad, LOG), (torch.full((2,), 3.0), [False]))


# ====================================================================== autograd.functional

def functional_checks():
    cases = [
        ('square', lambda t: t ** 2 + t, torch.tensor([1.0, 2.0])),
        ('sum times', lambda t: t.sum() * t, torch.tensor([1.0, 2.0, 3.0])),
        ('tuple in', lambda a, b: a * b, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))),
        ('tuple out', lambda a: (a.exp(), a.sum() * 2), torch.tensor([[0.5, -1.0], [2.0, 0.1]])),
        ('tuple both', lambda a, b: (a @ b, (a * a).sum()), (torch.randn(2, 3), torch.randn(3, 2))),
        ('independent', lambda a, b: a * 2, (torch.ones(2), torch.ones(3))),
        ('constant', lambda a: torch.ones(2), torch.ones(2)),
        ('transposed out', lambda a: (a * 2).t(), torch.randn(2, 3)),
    ]
    for name, fn, inp in cases:
        for kw in [{}, {'strict': True}, {'vectorize': True}]:
            check('jacobian {} {}'.format(name, kw), error_of(lambda: AFN.jacobian(fn, inp, **kw))
                  or AFN.jacobian(fn, inp, **kw),
                  error_of(lambda: RAF.jacobian(fn, inp, **kw)) or RAF.jacobian(fn, inp, **kw))
        check('jacobian {} create_graph'.format(name), AFN.jacobian(fn, inp, create_graph=True),
              RAF.jacobian(fn, inp, create_graph=True))
        mj = AFN.jacobian(fn, inp, create_graph=True)
        rj = RAF.jacobian(fn, inp, create_graph=True)
        flat = lambda j: [t.requires_grad for t in (j if isinstance(j, tuple) else (j,))
                          for t in (t if isinstance(t, tuple) else (t,))]
        check('jacobian {} create_graph requires_grad'.format(name), flat(mj), flat(rj))
    for name, fn, inp, v in [
            ('scalar', lambda t: (t ** 3).sum(), torch.tensor([1.0, 2.0]), None),
            ('vector', lambda t: t ** 2, torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0])),
            ('tuple', lambda a, b: (a * b, a + b), (torch.ones(2), torch.arange(2.0)),
             (torch.ones(2), torch.tensor([2.0, 3.0]))),
            ('bad v', lambda t: t ** 2, torch.ones(2), torch.ones(3)),
            ('v None non-scalar', lambda t: t ** 2, torch.ones(2), None),
            ('independent', lambda a, b: a.sum(), (torch.ones(2), torch.ones(2)), None)]:
        for kw in [{}, {'strict': True}, {'create_graph': True}]:
            check('vjp {} {}'.format(name, kw), error_of(lambda: AFN.vjp(fn, inp, v, **kw)) or AFN.vjp(fn, inp, v, **kw),
                  error_of(lambda: RAF.vjp(fn, inp, v, **kw)) or RAF.vjp(fn, inp, v, **kw))
    check('vjp type error', error_of(lambda: AFN.vjp(lambda t: t, [1.0])), error_of(lambda: RAF.vjp(lambda t: t, [1.0])))
    check('jacobian type error', error_of(lambda: AFN.jacobian(lambda t: 3, torch.ones(1))),
          error_of(lambda: RAF.jacobian(lambda t: 3, torch.ones(1))))
    for name, fn, inp in [
            ('cubic', lambda t: (t ** 3).sum(), torch.tensor([1.0, 2.0, -1.0])),
            ('pair', lambda a, b: (a * b * b).sum(), (torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0]))),
            ('linear', lambda t: t.sum() * 2, torch.tensor([1.0, 2.0])),
            ('not scalar', lambda t: t * 2, torch.tensor([1.0, 2.0]))]:
        for kw in [{}, {'strict': True}]:
            check('hessian {} {}'.format(name, kw), error_of(lambda: AFN.hessian(fn, inp, **kw))
                  or AFN.hessian(fn, inp, **kw),
                  error_of(lambda: RAF.hessian(fn, inp, **kw)) or RAF.hessian(fn, inp, **kw))


# ====================================================================== the reference programs

def reference_program_checks():
    """The nn programs of tests/reference/programs, run with both packages."""
    def mlp_program(nnm, optmod):
        class MLP(nnm.Module):
            def __init__(self):
                super().__init__()
                self.fc1 = nnm.Linear(4, 8)
                self.fc2 = nnm.Linear(8, 2)

            def forward(self, x):
                return self.fc2(torch.relu(self.fc1(x)))
        m = MLP()
        with torch.no_grad():
            m.fc1.weight.copy_(torch.arange(32.).reshape(8, 4) / 50 - 0.3)
            m.fc1.bias.copy_(torch.arange(8.) / 20 - 0.17)
            m.fc2.weight.copy_(torch.arange(16.).reshape(2, 8) / 40 - 0.2)
            m.fc2.bias.copy_(torch.tensor([0.1, -0.1]))
        x = torch.arange(24.).reshape(6, 4) / 10 - 0.95
        y = torch.tensor([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0], [1.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
        lines = []
        for opt in [optmod.SGD(m.parameters(), lr=0.1), optmod.SGD(m.parameters(), lr=0.1, momentum=0.9),
                    optmod.Adam(m.parameters(), lr=0.01)]:
            for step in range(3):
                opt.zero_grad()
                loss = nnm.MSELoss()(m(x), y)
                loss.backward()
                opt.step()
                lines.append(f"step {step} loss {loss.item():.6f}")
        lines.append(repr(m.fc1.bias.detach()))
        lines.append(f"{m(x).sum().item():.6f}")
        return lines
    check('reference nn_mlp programs', mlp_program(nn, optim), mlp_program(rnn, torch.optim))

    def module_api(nnm):
        torch.manual_seed(0)
        model = nnm.Sequential(nnm.Linear(3, 4), nnm.ReLU(), nnm.Linear(4, 1))
        lines = [repr(model), [n for n, _ in model.named_parameters()], list(model.state_dict().keys()),
                 [p.shape for p in model.parameters()], len(list(model.modules())),
                 sum(p.numel() for p in model.parameters())]
        with torch.no_grad():
            for p in model.parameters():
                p.fill_(0.5)
        model(torch.ones(2, 3)).sum().backward()
        lines.append([p.grad for p in model.parameters()])
        model.zero_grad()
        lines.append([p.grad for p in model.parameters()])
        return lines
    check('reference nn_module_api', module_api(nn), module_api(rnn))


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
