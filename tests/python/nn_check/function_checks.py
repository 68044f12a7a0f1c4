"""autograd.Function, autograd.functional and the reference programs."""
from nn_check.common import *  # noqa: F401,F403 - the helpers and both packages, as one script had them


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
