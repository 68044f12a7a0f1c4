"""The nn.Module API: registration, state_dict, hooks, Sequential/ModuleList, Parameter."""
from nn_check.common import *  # noqa: F401,F403 - the helpers and both packages, as one script had them


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
