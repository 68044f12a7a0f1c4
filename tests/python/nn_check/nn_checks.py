"""nn.Linear, nn.init, losses and functional, training trajectories with SGD and Adam."""
from nn_check.common import *  # noqa: F401,F403 - the helpers and both packages, as one script had them


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
