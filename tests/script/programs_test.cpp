// Snippet programs and expressions whose printed output must equal CPython 3.11's.
// Expected strings were produced by running the same sources with python3 (3.11).
#include <gtest/gtest.h>

#include "tests/script/test_helpers.h"

namespace ipt::script {
namespace {

using testing::run_capture;

struct Case {
  const char* name;
  const char* source;
  const char* expected;
};

// Whole programs covering one area each.
const Case kPrograms[] = {
    {"arith",
     R"PY(print(7 // 2, -7 // 2, 7 // -2, -7 // -2, 7 % 3, -7 % 3, 7 % -3, -7 % -3)
print(7.5 // 2, -7.5 // 2, 7.5 % 2, -7.5 % 2, 7.5 % -2, -0.0 % 5, 5 % -0.5)
print(1 / 2, 4 / 2, 2 ** 10, 2 ** -1, 2 ** 0.5, (-2) ** 3, 10 ** 18, -2 ** 2)
print(1 + 2 * 3 - 4 / 2, (1 + 2) * 3, 2 ** 3 ** 2, -3 ** 2, ~5, ~-1, 5 & 3, 5 | 3, 5 ^ 3, 1 << 10, 1024 >> 3, -9 >> 1)
print(True + True, True * 3, False - 1, True / 2, True & False, True | False, True ^ True)
print(0.1 + 0.2, 1e16, 1e-5, 0.0001, 1234567890123456.0, 12345678901234567.0, 1e22, 1.5e300 * 1e10, -1e400)
print(float('nan'), float('inf'), -float('inf'), 1.0, 100.0, 3.14159, 2.5e-10, 1/3, 2/3, 10/3)
print(abs(-5), abs(-5.5), abs(True), round(2.5), round(3.5), round(-0.5), round(1.25, 1), round(1234.5678, 2), round(1234, -2), round(2.675, 2))
print(divmod(17, 5), divmod(-17, 5), divmod(17.5, 5), pow(2, 8), pow(2, 8, 5), pow(-2, 3, 5))
print(max(1, 2, 3), min([4, 2, 8]), max('abc'), min(3.5, 2), sum([1, 2, 3]), sum([0.1] * 10), sum([[1], [2]], []))
print(int(3.99), int(-3.99), int('42'), int(' -17 '), int('ff', 16), int('0b101', 0), float('3.5'), float(' 1e-3 '), float(7))
print(10 == 10.0, 1 == True, 0.1 + 0.2 == 0.3, 3 < 3.5, 2 <= 2, 'a' < 'b', [1, 2] < [1, 3], (1, 2) == (1, 2), None == None)
print(1 < 2 < 3, 1 < 2 > 3, 1 < 3 < 2, 5 > 4 >= 4 == 4)
x = 5
x += 3; x -= 1; x *= 2; print(x)
x /= 4; print(x)
x //= 2; print(x)
y = 7; y %= 4; y **= 3; y <<= 2; y >>= 1; y |= 1; y &= 0xff; y ^= 3; print(y)
print(0x1F, 0o17, 0b1010, 1_000_000, 1_0.5_0)
print(hex(255), oct(8), bin(10), hex(-42), chr(97), ord('z'))
)PY",
     R"PY(3 -4 -4 3 1 2 -2 -1
3.0 -4.0 1.5 0.5 -0.5 0.0 -0.0
0.5 2.0 1024 0.5 1.4142135623730951 -8 1000000000000000000 -4
5.0 9 512 -9 -6 0 1 7 6 1024 128 -5
2 3 -1 0.5 False True False
0.30000000000000004 1e+16 1e-05 0.0001 1234567890123456.0 1.2345678901234568e+16 1e+22 inf -inf
nan inf -inf 1.0 100.0 3.14159 2.5e-10 0.3333333333333333 0.6666666666666666 3.3333333333333335
5 5.5 1 2 4 0 1.2 1234.57 1200 2.67
(3, 2) (-4, 3) (3.0, 2.5) 256 1 2
3 2 c 2 6 0.9999999999999999 [1, 2]
3 -3 42 -17 255 5 3.5 0.001 7.0
True True False True True True True True True
True False False True
14
3.5
1.0
52
31 15 10 1000000 10.5
0xff 0o10 0b1010 -0x2a a 122
)PY"},
    {"cells",
     R"PY(def level1(a):
    b = a * 2
    def level2(c):
        def level3():
            return a + b + c
        return level3
    b += 1
    return level2
print(level1(1)(10)())
def counter():
    count = 0
    def show():
        return count
    count = 5
    return show, (lambda: count * 2)
s, d = counter()
print(s(), d())
def param_capture(x, *rest, **kw):
    return lambda: (x, rest, kw)
print(param_capture(1, 2, k=3)())
def comp_capture(scale):
    return [lambda v, i=i: v * scale + i for i in range(3)]
print([f(10) for f in comp_capture(2)])
def nested_comp(n):
    return [[i * j + n for j in range(3)] for i in range(2)]
print(nested_comp(100))
def shadow():
    x = 'outer'
    def inner():
        x = 'inner'
        return x
    return inner(), x
print(shadow())
def late():
    fs = [lambda: i for i in range(3)]
    return [f() for f in fs]
print(late())
def recursive_inner(n):
    def fact(k):
        return 1 if k <= 1 else k * fact(k - 1)
    return fact(n)
print(recursive_inner(6))
def mutate_through_cell():
    items = []
    def add(v):
        items.append(v)
    add(1); add(2)
    return items
print(mutate_through_cell())
def except_capture():
    try:
        raise ValueError('captured')
    except ValueError as e:
        msg = str(e)
    return (lambda: msg)()
print(except_capture())
def loop_capture():
    out = []
    for i in range(3):
        def f(i=i):
            return i * 10
        out.append(f)
    return [g() for g in out]
print(loop_capture())
def gen_capture(xs):
    total = sum(x * len(xs) for x in xs)
    return total
print(gen_capture([1, 2, 3]))
def dict_comp_capture(prefix):
    return {prefix + k: v for k, v in {'a': 1, 'b': 2}.items()}
print(dict_comp_capture('key_'))
)PY",
     R"PY(14
5 10
(1, (2,), {'k': 3})
[20, 21, 22]
[[100, 100, 100], [100, 101, 102]]
('inner', 'outer')
[2, 2, 2]
720
[1, 2]
captured
[0, 10, 20]
18
{'key_a': 1, 'key_b': 2}
)PY"},
    {"closures",
     R"PY(def outer(n):
    def middle():
        def inner():
            return n * 2
        return inner()
    return middle()
print(outer(21))
fs = []
for i in range(3):
    fs.append(lambda: i)
print([f() for f in fs])
def mk():
    xs = [1, 2, 3]
    return [x * k for x in xs for k in (1, 10)], {x: [y for y in range(x)] for x in xs}
print(mk())
def acc():
    total = []
    def add(v):
        total.append(v)
        return sum(total)
    return add
a = acc()
a(1); a(2)
print(a(3))
x = 'global'
def f():
    return [x for _ in range(2)]
print(f())
def g():
    y = 5
    h = lambda: y + 1
    y = 10
    return h()
print(g())
def comp_in_func(k):
    return [k + j for j in range(3)]
print(comp_in_func(10))
print((lambda *a, **k: (a, k))(1, 2, x=3))
def defaults(a, b=[]):
    b.append(a)
    return b
print(defaults(1), defaults(2))
def varargs(*args):
    return len(args), args
print(varargs(), varargs(1, 'a'))
print(sum(x * x for x in range(4)), sorted((v for v in [3, 1, 2]), reverse=True))
def early(v):
    for i in range(10):
        if i == v:
            return i * 100
    return -1
print(early(3), early(20))
def nested_loops():
    out = []
    for i in range(3):
        for j in range(3):
            if j > i:
                break
            out.append((i, j))
    return out
print(nested_loops())
def try_in_loop():
    res = []
    for i in range(4):
        try:
            if i % 2:
                raise ValueError(i)
            res.append(i)
        except ValueError as e:
            res.append(-int(str(e)))
    return res
print(try_in_loop())
def finally_return():
    try:
        return 1
    finally:
        return 2
print(finally_return())
def break_in_finally():
    for i in range(3):
        try:
            raise KeyError(i)
        finally:
            break
    return 'swallowed'
print(break_in_finally())
)PY",
     R"PY(42
[2, 2, 2]
([1, 10, 2, 20, 3, 30], {1: [0], 2: [0, 1], 3: [0, 1, 2]})
6
['global', 'global']
11
[10, 11, 12]
((1, 2), {'x': 3})
[1, 2] [1, 2]
(0, ()) (2, (1, 'a'))
14 [3, 2, 1]
300 -1
[(0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2)]
[0, -1, 2, -3]
2
swallowed
)PY"},
    {"containers",
     R"PY(a = [3, 1, 2]
a.append(5); a.extend([7, 0]); a.insert(1, 9)
print(a, len(a), a.pop(), a.pop(0), a)
a.sort(); print(a)
a.sort(reverse=True); print(a)
a.reverse(); print(a, a.index(5), a.count(1))
a.remove(5); print(a)
b = a
b.append(100)
print(a is b, a == b, a is not b, a[:] is a, a[:] == a)
print(a[1:3], a[-2:], a[::2], a[::-1])
a[0] = 'x'; a[1:3] = ['p', 'q', 'r']; print(a)
del a[0]; print(a)
del a[1:3]; print(a)
t = (1, 2, 3)
print(t, t[1], t[1:], len(t), t + (4,), t * 2, (1,), (), tuple([1, 2]), t.index(2), t.count(3))
x, y, z = t
print(x, y, z)
x, y = y, x
print(x, y)
(p, q), r = (1, 2), 3
print(p, q, r)
[m, n] = [5, 6]
print(m, n)
d = {'a': 1, 'b': 2}
d['c'] = 3
print(d, d['a'], len(d), 'a' in d, 'z' in d, list(d), d.get('z'), d.get('z', 0))
print(d.keys(), d.values(), d.items())
for k, v in d.items():
    print(k, v)
del d['a']
print(d, d.pop('b'), d, d.setdefault('q', 9), d)
d.update({'x': 1}, y=2)
print(d, dict(a=1), dict([('k', 'v')]), {1: 'one', 2.5: 'f', (1, 2): 't', None: 0, True: 'T'})
print({**d, 'extra': 1})
e = {}
e[1] = 'int'
e[1.0] = 'float'
print(e)
nested = [[1, 2], [3, [4, 5]]]
print(nested[1][1][0], nested)
print(list(range(5)), list(range(2, 10, 3)), list(range(10, 0, -2)), range(5), len(range(0, 10, 3)), 3 in range(5), range(10)[-1])
print(list('abc'), tuple('ab'), sorted([3, 1, 2]), sorted('cba'), sorted([(2, 'b'), (1, 'z'), (2, 'a')]))
print(sorted(['bb', 'a', 'ccc'], key=len), sorted([1, -5, 3], key=abs, reverse=True))
print([1, 2] + [3], [0] * 3, [[0] * 2] * 2, [] == [], [1] != [1, 2])
lst = [1, 2]
lst += [3]
lst *= 2
print(lst)
print(list(enumerate(['a', 'b'])), list(enumerate('xy', 1)), list(zip([1, 2, 3], 'ab')), list(zip()))
print(list(reversed([1, 2, 3])), list(map(str, [1, 2])), list(filter(lambda v: v > 1, [1, 2, 3])))
print(any([0, 0, 1]), all([1, 2, 0]), any([]), all([]))
s = [5, 3]
s[0], s[1] = s[1], s[0]
print(s)
print([1, 2, 3][-1], [1, 2, 3][-3], (4, 5)[-1])
cyc = [1]
cyc.append(cyc)
print(cyc)
dd = {}
dd['self'] = dd
print(dd)
cyc.clear()  # no cycle collector: break reference cycles explicitly
dd.clear()
print(slice(1, 2), slice(None, 5, 2))
print(...)
print([1, 2, 3][slice(0, 2)])
)PY",
     R"PY([9, 1, 2, 5, 7] 7 0 3 [9, 1, 2, 5, 7]
[1, 2, 5, 7, 9]
[9, 7, 5, 2, 1]
[1, 2, 5, 7, 9] 2 1
[1, 2, 7, 9]
True True False False True
[2, 7] [9, 100] [1, 7, 100] [100, 9, 7, 2, 1]
['x', 'p', 'q', 'r', 9, 100]
['p', 'q', 'r', 9, 100]
['p', 9, 100]
(1, 2, 3) 2 (2, 3) 3 (1, 2, 3, 4) (1, 2, 3, 1, 2, 3) (1,) () (1, 2) 1 1
1 2 3
2 1
1 2 3
5 6
{'a': 1, 'b': 2, 'c': 3} 1 3 True False ['a', 'b', 'c'] None 0
dict_keys(['a', 'b', 'c']) dict_values([1, 2, 3]) dict_items([('a', 1), ('b', 2), ('c', 3)])
a 1
b 2
c 3
{'c': 3, 'q': 9} 2 {'c': 3, 'q': 9} 9 {'c': 3, 'q': 9}
{'c': 3, 'q': 9, 'x': 1, 'y': 2} {'a': 1} {'k': 'v'} {1: 'T', 2.5: 'f', (1, 2): 't', None: 0}
{'c': 3, 'q': 9, 'x': 1, 'y': 2, 'extra': 1}
{1: 'float'}
4 [[1, 2], [3, [4, 5]]]
[0, 1, 2, 3, 4] [2, 5, 8] [10, 8, 6, 4, 2] range(0, 5) 4 True 9
['a', 'b', 'c'] ('a', 'b') [1, 2, 3] ['a', 'b', 'c'] [(1, 'z'), (2, 'a'), (2, 'b')]
['a', 'bb', 'ccc'] [-5, 3, 1]
[1, 2, 3] [0, 0, 0] [[0, 0], [0, 0]] True True
[1, 2, 3, 1, 2, 3]
[(0, 'a'), (1, 'b')] [(1, 'x'), (2, 'y')] [(1, 'a'), (2, 'b')] []
[3, 2, 1] ['1', '2'] [2, 3]
True False False True
[3, 5]
3 1 5
[1, [...]]
{'self': {...}}
slice(1, 2, None) slice(None, 5, 2)
Ellipsis
[1, 2]
)PY"},
    {"control",
     R"PY(for i in range(10):
    if i == 2:
        continue
    if i == 5:
        break
    print(i)
else:
    print('not printed')
for i in range(2):
    pass
else:
    print('loop done', i)
n = 0
while n < 3:
    n += 1
    if n == 10:
        break
else:
    print('while else', n)
while True:
    n -= 1
    if n < 0:
        break
print(n)
x = 5
if x > 10:
    print('big')
elif x > 3:
    print('medium')
else:
    print('small')
if not x: print('zero')
else: print('nonzero')
y = 'yes' if x else 'no'
print(y, 0 or 'default', 3 and 4, None or [] or 0, 1 and 0 and 2, not 0, not [1])
def side(v):
    print('side', v)
    return v
r = side(0) and side(1)
r = side(1) or side(2)
print([i * i for i in range(5)], [i for i in range(10) if i % 3 == 0], [(i, j) for i in range(2) for j in range(2)])
print({k: v for k, v in [('a', 1), ('b', 2)]}, sum(i for i in range(5)), max(len(w) for w in ['a', 'abc']))
print([[j for j in range(i)] for i in range(3)])
total = 0
for a, b in [(1, 2), (3, 4)]:
    total += a * b
print(total)
for i, (a, b) in enumerate([(1, 2), (3, 4)]):
    print(i, a, b)
i = 0
while i < 3: i += 1
print(i)
)PY",
     R"PY(0
1
3
4
loop done 1
while else 3
-1
medium
nonzero
yes default 4 0 0 True False
side 0
side 1
[0, 1, 4, 9, 16] [0, 3, 6, 9] [(0, 0), (0, 1), (1, 0), (1, 1)]
{'a': 1, 'b': 2} 10 3
[[], [0], [0, 1]]
14
0 1 2
1 3 4
3
)PY"},
    {"exceptions",
     R"PY(try:
    1 / 0
except ZeroDivisionError as e:
    print('caught', e, type(e).__name__, e.args)
try:
    [][1]
except (KeyError, IndexError) as e:
    print('lookup', repr(e))
try:
    {}['missing']
except LookupError as e:
    print('base class', e)
try:
    raise ValueError('bad value')
except Exception as e:
    print(type(e).__name__, str(e))
finally:
    print('finally runs')
def f():
    try:
        return 'from try'
    finally:
        print('cleanup')
print(f())
def g():
    try:
        raise RuntimeError('x')
    except RuntimeError:
        return 'handled'
    finally:
        print('g finally')
print(g())
try:
    try:
        raise KeyError('inner')
    except ValueError:
        print('wrong')
    finally:
        print('inner finally')
except KeyError as e:
    print('outer got', e)
try:
    pass
except Exception:
    print('no')
else:
    print('else branch')
def reraiser():
    try:
        int('x')
    except ValueError:
        print('logging')
        raise
try:
    reraiser()
except ValueError as e:
    print('reraised:', e)
try:
    raise NotImplementedError
except RuntimeError as e:
    print('NotImplementedError is a RuntimeError', repr(e))
try:
    assert 1 == 2, 'math is broken'
except AssertionError as e:
    print('assert:', e)
try:
    undefined_name
except NameError as e:
    print(e)
try:
    'a' + 1
except TypeError as e:
    print(e)
try:
    None.foo
except AttributeError as e:
    print(e)
try:
    import numpy
except ImportError as e:
    print(type(e).__name__, e)
for i in range(3):
    try:
        if i == 1:
            continue
        print('body', i)
    finally:
        print('fin', i)
try:
    raise TypeError('a', 2)
except TypeError as e:
    print(e, e.args)
e = ValueError('made')
print(repr(e), isinstance(e, Exception), isinstance(e, ValueError), isinstance(e, TypeError))
try:
    raise e
except ValueError as caught:
    print(caught is e)
try:
    raise KeyError('k')
except KeyError as ke:
    print(str(ke), repr(ke))
x = 0
try:
    x = 1
    raise IndexError()
except IndexError:
    x += 10
print(x)
try:
    int('zz')
except:
    print('bare except')
def deep(n):
    return deep(n + 1)
try:
    deep(0)
except RecursionError as e:
    print('recursion:', e)
)PY",
     R"PY(caught division by zero ZeroDivisionError ('division by zero',)
lookup IndexError('list index out of range')
base class 'missing'
ValueError bad value
finally runs
cleanup
from try
g finally
handled
inner finally
outer got 'inner'
else branch
logging
reraised: invalid literal for int() with base 10: 'x'
NotImplementedError is a RuntimeError NotImplementedError()
assert: math is broken
name 'undefined_name' is not defined
can only concatenate str (not "int") to str
'NoneType' object has no attribute 'foo'
ModuleNotFoundError No module named 'numpy'
body 0
fin 0
fin 1
body 2
fin 2
('a', 2) ('a', 2)
ValueError('made') True True False
True
'k' KeyError('k')
11
bare except
recursion: maximum recursion depth exceeded
)PY"},
    {"fstrings",
     R"PY(x = 3.14159
n = 42
name = 'torch'
print(f'{x:.2f} {x:.4f} {n:d} {n:5d}| {n:<5d}| {n:^7}| {n:05d} {x:e} {x:.3e} {x:10.3f}|')
print(f'{name!r} {name!s} {name:>8} {name:*^11} {n:x} {n:#x} {n:b} {n:o} {n:,} {1e6:,.1f}')
print(f'{x=} {n = } {x=:.1f}')
print(f"{'nested'} {n + 1} {[1, 2][0]} {{braces}} {n if n > 40 else 0}")
print(f'{0.5:.0%} {0.125:.1%} {1234.5:g} {0.00001234:g} {1e20:g} {123.0:.3}')
w = 10
p = 3
print(f'{x:{w}.{p}f}|')
print(f'{-3:+d} {3:+d} {-3.5:+.1f} {3: d}')
print(f'{True} {None} {[1, 2]} {(1,)} {"s"}')
d = {'a': 1}
print(f"{d['a']} {len(d)}")
print(f'''multi
{n}''')
)PY",
     R"PY(3.14 3.1416 42    42| 42   |   42   | 00042 3.141590e+00 3.142e+00      3.142|
'torch' torch    torch ***torch*** 2a 0x2a 101010 52 42 1,000,000.0
x=3.14159 n = 42 x=3.1
nested 43 1 {braces} 42
50% 12.5% 1234.5 1.234e-05 1e+20 1.23e+02
     3.142|
-3 +3 -3.5  3
True None [1, 2] (1,) s
1 1
multi
42
)PY"},
    {"functions",
     R"PY(def add(a, b=10, *args, scale=1, **kw):
    return (a + b + sum(args)) * scale, kw
print(add(1), add(1, 2), add(1, 2, 3, 4), add(1, scale=2), add(a=5, b=5), add(1, z=3))
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(10), fact(20))
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
print([fib(i) for i in range(15)])
sq = lambda v: v * v
print(sq(7), (lambda: 'no args')(), (lambda a, b=2: a + b)(1), list(map(lambda t: t[1], [(1, 'a'), (2, 'b')])))
def outer():
    count = 0
    def inner(step):
        return count + step
    count = 5
    return inner
print(outer()(1))
def make_adders():
    return [lambda v, k=k: v + k for k in range(3)]
print([f(10) for f in make_adders()])
def noret():
    pass
print(noret())
def multi():
    return 1, 'two', [3]
a, b, c = multi()
print(a, b, c, multi())
args = [1, 2]
kwargs = {'scale': 3}
print(add(*args, **kwargs), add(*[5], *(6, 7)))
def deco(fn):
    def wrapper(*a, **k):
        print('calling', fn.__name__)
        return fn(*a, **k)
    return wrapper
@deco
def hello(name):
    return 'hi ' + name
print(hello('bob'))
def repeat(times):
    def d(fn):
        def w():
            return [fn() for _ in range(times)]
        return w
    return d
@repeat(3)
def one():
    return 1
print(one())
def doc():
    """Docstring here."""
    return doc.__doc__
print(doc())
def typed(x: int, y: float = 1.0) -> float:
    z: float = x * y
    return z
print(typed(3), typed(2, y=2.5))
g = 100
def reads_global():
    return g + 1
def shadows():
    g = 5
    return g
print(reads_global(), shadows(), g)
def counter():
    c = [0]
    def inc():
        c[0] += 1
        return c[0]
    return inc
inc = counter()
inc(); inc()
print(inc())
print(callable(len), callable(fact), callable(3), fact.__name__, (lambda: 0).__name__)
def kwonly(a, *, b, c=3):
    return a + b + c
print(kwonly(1, b=2), kwonly(1, b=2, c=0))
)PY",
     R"PY((11, {}) (3, {}) (10, {}) (22, {}) (10, {}) (11, {'z': 3})
3628800 2432902008176640000
[0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377]
49 no args 3 ['a', 'b']
6
[10, 11, 12]
None
1 two [3] (1, 'two', [3])
(9, {}) (18, {})
calling hello
hi bob
[1, 1, 1]
Docstring here.
3.0 5.0
101 5 100
3
True True False fact <lambda>
6 3
)PY"},
    {"misc",
     R"PY(import math
from math import sqrt, pi as PI
print(math.sqrt(16), sqrt(2), PI, math.floor(2.7), math.ceil(2.1), math.exp(1), math.log(math.e), math.log(8, 2), math.isnan(float('nan')))
print(isinstance(1, int), isinstance(True, int), isinstance(1.0, (int, float)), isinstance('s', str), isinstance([], list), isinstance(None, int))
print(type(1).__name__, type('').__name__, type([]).__name__, type(None).__name__, type(1.5) == float, type(True) is bool)
print(type(1), type(range(1)), type(len))
x = [1, 2, 3]
print(len(x), bool(x), bool([]), bool(0.0), bool('a'), bool(None), str(True), int(True), float(False))
print(list(map(int, ['1', '2'])), [str(i) for i in range(3)])
it = iter([1, 2])
print(next(it), next(it), next(it, 'done'))
print(hasattr('s', 'upper'), hasattr(1, 'nope'), getattr('abc', 'upper')(), getattr(1, 'nope', 'dflt'))
v = 10
del v
try:
    print(v)
except NameError as e:
    print(e)
a = b = [0]
a.append(1)
print(a, b)
print(1 if True else 2, (1, 2) if False else 'x')
print(None is None, 1 is not None, [] is [])
data = {'loss': [1.0, 0.5, 0.25]}
for epoch, loss in enumerate(data['loss']):
    print(f'epoch {epoch}: loss={loss:.3f}')
print(*[1, 2, 3], sep=', ', end='!\n')
print('a', 'b', sep='')
print()
print('x', end='')
print('y')
total = 0
for i in range(1, 101):
    total += i
print(total)
print(max([3, 1, 4], key=lambda v: -v), min(['aa', 'b'], key=len), max([], default=None))
print(round(0.5), round(1.5), round(2.5), round(-1.5), round(3.14159, 3), round(1e15 + 0.3))
print(int('  12  '), float('inf') > 1e308, -float('inf') < 0, float('nan') == float('nan'))
nums = [1, 2, 3, 4, 5, 6]
evens = [n for n in nums if n % 2 == 0]
print(evens, sum(evens) / len(evens))
matrix = [[1, 2], [3, 4]]
print([[row[i] for row in matrix] for i in range(2)])
print([x * y for x, y in zip([1, 2], [3, 4])])
s = 'snippet'
print(s[len(s) // 2:], s.upper()[::-1])
def main():
    print('main ran', __name__)
if __name__ == '__main__':
    main()
)PY",
     R"PY(4.0 1.4142135623730951 3.141592653589793 2 3 2.718281828459045 1.0 3.0 True
True True True True True False
int str list NoneType True True
<class 'int'> <class 'range'> <class 'builtin_function_or_method'>
3 True False False True False True 1 0.0
[1, 2] ['0', '1', '2']
1 2 done
True False ABC dflt
name 'v' is not defined
[0, 1] [0, 1]
1 x
True True False
epoch 0: loss=1.000
epoch 1: loss=0.500
epoch 2: loss=0.250
1, 2, 3!
ab

xy
5050
1 b None
0 2 2 -2 3.142 1000000000000000
12 True True False
[2, 4, 6] 4.0
[[1, 3], [2, 4]]
[3, 8]
ppet TEPPINS
main ran __main__
)PY"},
    {"printing",
     R"PY(vals = [0.1, 1.0, 1e-05, 1e+16, 1234567890123456.0, 1e16 - 2, 0.5, 2.5e-5, 1.7976931348623157e308, 5e-324, 123.456, -0.0, 1e100, 3.0e-4, 1/7, 100.0, 1e15, 9007199254740993.0, 0.000123, 12345.6789e10]
for v in vals:
    print(v, repr(v), str(v))
print(vals)
print([1.0, -2.5], (0.1,), {'x': 1e-7})
print(True, False, None, ..., 'str', "it's", 'say "x"')
print(repr("it's"), repr('a"b'), repr('both\'"'), repr(''), repr('\\'), repr('\x01\x1f\x7f\x80\xa0\xad\xe9\u4e2d\U0001F600'))
print([('a', 1), {'k': [None, True]}], [[]], [()], ((),), (1, (2, (3,))))
print(1e16, 1e17, 123456789012345678, -1e-10, 2**62, -2**62 * 2)
print(float(2**53), float(10**15), 1e300*1e10, -1e300*1e10, 0.1*3, 4.35*100)
print(7.0/2, 7//2.0, 2**0.5, 10/3, 1e-4, 1e-3)
print('%s %r %s' % (1.0, 'x', [1.5]))
print('%.3f %10.4f %-10.2f| %+d %05d %x %X %o %c %%' % (3.14159, 2.5, 1.5, 5, 42, 255, 255, 8, 65))
print('%e %E %g %G %g' % (12345.6789, 0.000123, 0.0001, 1e-5, 123456789))
print('%(a)s-%(b)d' % {'a': 'x', 'b': 5})
)PY",
     R"PY(0.1 0.1 0.1
1.0 1.0 1.0
1e-05 1e-05 1e-05
1e+16 1e+16 1e+16
1234567890123456.0 1234567890123456.0 1234567890123456.0
9999999999999998.0 9999999999999998.0 9999999999999998.0
0.5 0.5 0.5
2.5e-05 2.5e-05 2.5e-05
1.7976931348623157e+308 1.7976931348623157e+308 1.7976931348623157e+308
5e-324 5e-324 5e-324
123.456 123.456 123.456
-0.0 -0.0 -0.0
1e+100 1e+100 1e+100
0.0003 0.0003 0.0003
0.14285714285714285 0.14285714285714285 0.14285714285714285
100.0 100.0 100.0
1000000000000000.0 1000000000000000.0 1000000000000000.0
9007199254740992.0 9007199254740992.0 9007199254740992.0
0.000123 0.000123 0.000123
123456789000000.0 123456789000000.0 123456789000000.0
[0.1, 1.0, 1e-05, 1e+16, 1234567890123456.0, 9999999999999998.0, 0.5, 2.5e-05, 1.7976931348623157e+308, 5e-324, 123.456, -0.0, 1e+100, 0.0003, 0.14285714285714285, 100.0, 1000000000000000.0, 9007199254740992.0, 0.000123, 123456789000000.0]
[1.0, -2.5] (0.1,) {'x': 1e-07}
True False None Ellipsis str it's say "x"
"it's" 'a"b' 'both\'"' '' '\\' '\x01\x1f\x7f\x80\xa0\xadé中😀'
[('a', 1), {'k': [None, True]}] [[]] [()] ((),) (1, (2, (3,)))
1e+16 1e+17 123456789012345678 -1e-10 4611686018427387904 -9223372036854775808
9007199254740992.0 1000000000000000.0 inf -inf 0.30000000000000004 434.99999999999994
3.5 3.0 1.4142135623730951 3.3333333333333335 0.0001 0.001
1.0 'x' [1.5]
3.142     2.5000 1.50      | +5 00042 ff FF 10 A %
1.234568e+04 1.230000E-04 0.0001 1E-05 1.23457e+08
x-5
)PY"},
    {"strings",
     R"PY(s = "Hello, World"
print(s, len(s), s[0], s[-1], s[1:5], s[::-1], s[::2], s[-5:], s[:100], s[7:3])
print(s.upper(), s.lower(), s.split(', '), s.replace('l', 'L'), s.find('o'), s.rfind('o'), s.count('l'))
print('  pad  '.strip() + '|', '--x--'.strip('-'), 'a,b,c'.split(','), 'a b  c'.split(), ' '.join(['x', 'y', 'z']))
print(s.startswith('Hell'), s.endswith('d'), 'abc' in s, 'World' in s, 'x' not in s)
print('ab' * 3, 'a' + 'b', 'abc'.center(9, '*'), 'abc'.ljust(6) + '|', 'abc'.rjust(6), '7'.zfill(3))
print(repr('it\'s'), repr("say \"hi\""), repr('both \' and "'), repr('tab\there'), repr('nl\n'), repr('back\\slash'), repr('\x00\x7f'))
print(str(12), str(1.5), str(None), str([1, 'a']), repr([1, 'a']), str((1,)), str(()), str({}))
print('é', len('héllo'), 'héllo'[1], 'héllo'[::-1], repr('é'))
print("""triple
quoted""", '''also
triple''')
print('a' 'b' "c", r'raw\n', len(r'\n'), '\t|', '\x41\u00e9\101')
print('%d items cost %.2f (%s) %5.1f%% %-4s| %x %o %e %r' % (3, 4.5, 'ok', 99.5, 'ab', 255, 8, 12345.678, 'q'))
print('{} and {}'.format(1, 2), '{1} {0}'.format('a', 'b'), '{name}!'.format(name='Bob'), '{:>6.2f}|'.format(3.14159), '{:,}'.format(1234567), '{{literal}}'.format())
print('abc'.title(), 'hello world'.title(), 'ABC'.isupper(), '123'.isdigit(), 'abc1'.isalnum(), '  '.isspace(), 'x'.isalpha())
print('a-b-c'.split('-', 1), 'a-b-c'.rsplit('-', 1), 'line1\nline2\n'.splitlines(), 'k=v'.partition('='))
print('abc' < 'abd', 'Z' < 'a', sorted(['b', 'A', 'a', 'B']), 'x'.join('abc'))
for ch in 'hi':
    print(ch, end='.')
print()
)PY",
     R"PY(Hello, World 12 H d ello dlroW ,olleH Hlo ol World Hello, World 
HELLO, WORLD hello, world ['Hello', 'World'] HeLLo, WorLd 4 8 3
pad| x ['a', 'b', 'c'] ['a', 'b', 'c'] x y z
True True False True True
ababab ab ***abc*** abc   |    abc 007
"it's" 'say "hi"' 'both \' and "' 'tab\there' 'nl\n' 'back\\slash' '\x00\x7f'
12 1.5 None [1, 'a'] [1, 'a'] (1,) () {}
é 5 é olléh 'é'
triple
quoted also
triple
abc raw\n 2 	| AéA
3 items cost 4.50 (ok)  99.5% ab  | ff 10 1.234568e+04 'q'
1 and 2 b a Bob!   3.14| 1,234,567 {literal}
Abc Hello World True True True True True
['a', 'b-c'] ['a-b', 'c'] ['line1', 'line2'] ('k', '=', 'v')
True True ['A', 'B', 'a', 'b'] axbxc
h.i.
)PY"},
    {"syntax",
     R"PY(# comments everywhere
x = (1 +   # inside brackets
     2 +
     3)
y = [
    1,
    2,  # trailing comma
]
z = {'a': 1,
     'b': 2}
total = 1 + \
    2 + \
    3
print(x, y, z, total)
a = 1; b = 2; print(a + b)
if a: print('one-liner if'); print('second')
for i in range(2): print('loop', i)
def short(): return 'short'
print(short())
long_call = max(
    1,
    5,
    3,
)
print(long_call)
s = ('implicit '
     'concatenation')
print(s)
t = 1,
u = 1, 2
print(t, u, (), (1))
print("""a "quoted" 'string'""", '''it's''')
print('\\n is a backslash-n', r'\d+', 'tab:\tend', 'unicode: \u00e9')
matrix = [[1, 2, 3],
          [4, 5, 6]]
print(matrix[1][2], matrix[-1][::-1])
value = (1 if a
         else 2)
print(value)
def annotated(x: int, *args: float, flag: bool = False, **kw: str) -> None:
    print(x, args, flag, kw)
annotated(1, 2.0, flag=True, k='v')
n: int = 5
m: list
print(n)
if (a == 1 and
        b == 2):
    print('multi-line condition')
print(not a, -a, +a, ~a, a is not None, a not in [2])
x = y = z = 0
print(x, y, z)
[p, q] = 'pq'
print(p, q)
nums = [3, 1, 2]
nums[0], nums[2] = nums[2], nums[0]
print(nums)
print(1_000 + 0x10 + 0o10 + 0b10, 1e3, 2.5e-3, .5, 5., 1_0.0_1)
print(..., Ellipsis if False else ...)
pass
)PY",
     R"PY(6 [1, 2] {'a': 1, 'b': 2} 6
3
one-liner if
second
loop 0
loop 1
short
5
implicit concatenation
(1,) (1, 2) () 1
a "quoted" 'string' it's
\n is a backslash-n \d+ tab:	end unicode: é
6 [6, 5, 4]
1
1 (2.0,) True {'k': 'v'}
5
multi-line condition
False -1 1 -2 True True
0 0 0
p q
[2, 1, 3]
1026 1000.0 0.0025 0.5 5.0 10.01
Ellipsis Ellipsis
)PY"},
};

// One expression each: print(<expr>).
const Case kExpressions[] = {
    {"expr000", R"PY(print(1 + 2 * 3)
)PY", R"PY(7
)PY"},
    {"expr001", R"PY(print(7 // 2, -7 // 2, 7 // -2)
)PY", R"PY(3 -4 -4
)PY"},
    {"expr002", R"PY(print(7 % 3, -7 % 3, 7 % -3)
)PY", R"PY(1 2 -2
)PY"},
    {"expr003", R"PY(print(-7.5 // 2, -7.5 % 2, 7.5 % -2)
)PY", R"PY(-4.0 0.5 -0.5
)PY"},
    {"expr004", R"PY(print(1 / 3)
)PY", R"PY(0.3333333333333333
)PY"},
    {"expr005", R"PY(print(2 ** -2)
)PY", R"PY(0.25
)PY"},
    {"expr006", R"PY(print(2 ** 62)
)PY", R"PY(4611686018427387904
)PY"},
    {"expr007", R"PY(print((-3) ** 3)
)PY", R"PY(-27
)PY"},
    {"expr008", R"PY(print(10 / 4)
)PY", R"PY(2.5
)PY"},
    {"expr009", R"PY(print(True + 1)
)PY", R"PY(2
)PY"},
    {"expr010", R"PY(print(3 * 'ab')
)PY", R"PY(ababab
)PY"},
    {"expr011", R"PY(print([0] * 3)
)PY", R"PY([0, 0, 0]
)PY"},
    {"expr012", R"PY(print((1,) * 2)
)PY", R"PY((1, 1)
)PY"},
    {"expr013", R"PY(print('a' < 'b' < 'c')
)PY", R"PY(True
)PY"},
    {"expr014", R"PY(print(1 < 2 > 1.5)
)PY", R"PY(True
)PY"},
    {"expr015", R"PY(print(1 == 1.0)
)PY", R"PY(True
)PY"},
    {"expr016", R"PY(print(0.1 + 0.2 == 0.3)
)PY", R"PY(False
)PY"},
    {"expr017", R"PY(print([1, 2] == [1, 2.0])
)PY", R"PY(True
)PY"},
    {"expr018", R"PY(print((1, 2) < (1, 3))
)PY", R"PY(True
)PY"},
    {"expr019", R"PY(print([1, [2, 3]] < [1, [2, 4]])
)PY", R"PY(True
)PY"},
    {"expr020", R"PY(print('abc'[1:])
)PY", R"PY(bc
)PY"},
    {"expr021", R"PY(print('abc'[-1])
)PY", R"PY(c
)PY"},
    {"expr022", R"PY(print('abcdef'[::2])
)PY", R"PY(ace
)PY"},
    {"expr023", R"PY(print('abcdef'[::-2])
)PY", R"PY(fdb
)PY"},
    {"expr024", R"PY(print('abcdef'[4:1:-1])
)PY", R"PY(edc
)PY"},
    {"expr025", R"PY(print([1, 2, 3, 4, 5][1:-1])
)PY", R"PY([2, 3, 4]
)PY"},
    {"expr026", R"PY(print([1, 2, 3, 4, 5][::-1])
)PY", R"PY([5, 4, 3, 2, 1]
)PY"},
    {"expr027", R"PY(print([1, 2, 3, 4, 5][-100:100])
)PY", R"PY([1, 2, 3, 4, 5]
)PY"},
    {"expr028", R"PY(print([1, 2, 3][5:])
)PY", R"PY([]
)PY"},
    {"expr029", R"PY(print(list(range(10))[2:8:3])
)PY", R"PY([2, 5]
)PY"},
    {"expr030", R"PY(print((1, 2, 3)[::-1])
)PY", R"PY((3, 2, 1)
)PY"},
    {"expr031", R"PY(print(len('héllo wörld'))
)PY", R"PY(11
)PY"},
    {"expr032", R"PY(print('héllo'[1:3])
)PY", R"PY(él
)PY"},
    {"expr033", R"PY(print('x' in 'xyz')
)PY", R"PY(True
)PY"},
    {"expr034", R"PY(print(3 in [1, 2, 3])
)PY", R"PY(True
)PY"},
    {"expr035", R"PY(print(3 not in (1, 2))
)PY", R"PY(True
)PY"},
    {"expr036", R"PY(print('k' in {'k': 1})
)PY", R"PY(True
)PY"},
    {"expr037", R"PY(print(None is None)
)PY", R"PY(True
)PY"},
    {"expr038", R"PY(print([] is [])
)PY", R"PY(False
)PY"},
    {"expr039", R"PY(print(not [])
)PY", R"PY(True
)PY"},
    {"expr040", R"PY(print(not 0.0)
)PY", R"PY(True
)PY"},
    {"expr041", R"PY(print(1 and 2)
)PY", R"PY(2
)PY"},
    {"expr042", R"PY(print(0 or '')
)PY", R"PY(
)PY"},
    {"expr043", R"PY(print(None or 0 or 'last')
)PY", R"PY(last
)PY"},
    {"expr044", R"PY(print('yes' if 1 > 0 else 'no')
)PY", R"PY(yes
)PY"},
    {"expr045", R"PY(print(abs(-7), abs(-7.25))
)PY", R"PY(7 7.25
)PY"},
    {"expr046", R"PY(print(round(0.5), round(1.5), round(2.5), round(-2.5))
)PY", R"PY(0 2 2 -2
)PY"},
    {"expr047", R"PY(print(round(3.14159, 2), round(2.675, 2), round(1.005, 2))
)PY", R"PY(3.14 2.67 1.0
)PY"},
    {"expr048", R"PY(print(round(1234.5678, -2), round(1250, -2), round(1350, -2))
)PY", R"PY(1200.0 1200 1400
)PY"},
    {"expr049", R"PY(print(divmod(-7, 2), divmod(7.0, -2))
)PY", R"PY((-4, 1) (-4.0, -1.0)
)PY"},
    {"expr050", R"PY(print(pow(3, 4), pow(2, -1), pow(5, 3, 7))
)PY", R"PY(81 0.5 6
)PY"},
    {"expr051", R"PY(print(max(3, 9, 2), min('hello'))
)PY", R"PY(9 e
)PY"},
    {"expr052", R"PY(print(max([1, 5, 3], key=lambda v: -v))
)PY", R"PY(1
)PY"},
    {"expr053", R"PY(print(sum(range(101)))
)PY", R"PY(5050
)PY"},
    {"expr054", R"PY(print(sum([0.1, 0.2, 0.3]))
)PY", R"PY(0.6000000000000001
)PY"},
    {"expr055", R"PY(print(sum([1.5, 2], 10))
)PY", R"PY(13.5
)PY"},
    {"expr056", R"PY(print(int('101', 2), int('-0x1A', 16), int('0o17', 0), int('1_000'))
)PY", R"PY(5 -26 15 1000
)PY"},
    {"expr057", R"PY(print(float('1e-3'), float('-Infinity'), float('  2.5\n'))
)PY", R"PY(0.001 -inf 2.5
)PY"},
    {"expr058", R"PY(print(int(2.9), int(-2.9), int(True))
)PY", R"PY(2 -2 1
)PY"},
    {"expr059", R"PY(print(bool(''), bool('0'), bool([0]), bool({}))
)PY", R"PY(False True True False
)PY"},
    {"expr060", R"PY(print(str(3.0), str(-0.0), str(1e-7), str(1e22))
)PY", R"PY(3.0 -0.0 1e-07 1e+22
)PY"},
    {"expr061", R"PY(print(repr('a\tb'), repr("'"), repr('"'), repr('\'"'))
)PY", R"PY('a\tb' "'" '"' '\'"'
)PY"},
    {"expr062", R"PY(print(hex(255), oct(-8), bin(5))
)PY", R"PY(0xff -0o10 0b101
)PY"},
    {"expr063", R"PY(print(chr(9731), ord('€'))
)PY", R"PY(☃ 8364
)PY"},
    {"expr064", R"PY(print(sorted([3, 1, 2], reverse=True))
)PY", R"PY([3, 2, 1]
)PY"},
    {"expr065", R"PY(print(sorted(['b', 'C', 'a'], key=str.lower), list(map(str.upper, 'ab')))
)PY", R"PY(['a', 'b', 'C'] ['A', 'B']
)PY"},
    {"expr066", R"PY(print(sorted([(1, 'b'), (1, 'a'), (0, 'z')]))
)PY", R"PY([(0, 'z'), (1, 'a'), (1, 'b')]
)PY"},
    {"expr067", R"PY(print(list(zip('ab', [1, 2], (True, False))))
)PY", R"PY([('a', 1, True), ('b', 2, False)]
)PY"},
    {"expr068", R"PY(print(list(enumerate('ab', start=5)))
)PY", R"PY([(5, 'a'), (6, 'b')]
)PY"},
    {"expr069", R"PY(print(list(map(lambda a, b: a * b, [1, 2], [3, 4])))
)PY", R"PY([3, 8]
)PY"},
    {"expr070", R"PY(print(list(filter(None, [0, 1, '', 'a', None])))
)PY", R"PY([1, 'a']
)PY"},
    {"expr071", R"PY(print(list(reversed('abc')))
)PY", R"PY(['c', 'b', 'a']
)PY"},
    {"expr072", R"PY(print(any(x > 2 for x in [1, 2, 3]))
)PY", R"PY(True
)PY"},
    {"expr073", R"PY(print(all(x > 0 for x in [1, 2, 3]))
)PY", R"PY(True
)PY"},
    {"expr074", R"PY(print([x ** 2 for x in range(6) if x % 2])
)PY", R"PY([1, 9, 25]
)PY"},
    {"expr075", R"PY(print({x: x * x for x in range(3)})
)PY", R"PY({0: 0, 1: 1, 2: 4}
)PY"},
    {"expr076", R"PY(print([(a, b) for a in 'ab' for b in range(2)])
)PY", R"PY([('a', 0), ('a', 1), ('b', 0), ('b', 1)]
)PY"},
    {"expr077", R"PY(print([[r * 3 + c for c in range(3)] for r in range(2)])
)PY", R"PY([[0, 1, 2], [3, 4, 5]]
)PY"},
    {"expr078", R"PY(print(dict(zip(['a', 'b'], [1, 2])))
)PY", R"PY({'a': 1, 'b': 2}
)PY"},
    {"expr079", R"PY(print({'a': 1, **{'b': 2}})
)PY", R"PY({'a': 1, 'b': 2}
)PY"},
    {"expr080", R"PY(print({1: 'a'} == {1: 'a'})
)PY", R"PY(True
)PY"},
    {"expr081", R"PY(print({'x': [1, 2]}['x'][-1])
)PY", R"PY(2
)PY"},
    {"expr082", R"PY(print(list({'b': 1, 'a': 2}))
)PY", R"PY(['b', 'a']
)PY"},
    {"expr083", R"PY(print({'a': 1}.get('b', 'default'))
)PY", R"PY(default
)PY"},
    {"expr084", R"PY(print('-'.join(['a', 'b', 'c']))
)PY", R"PY(a-b-c
)PY"},
    {"expr085", R"PY(print('a,b,,c'.split(','))
)PY", R"PY(['a', 'b', '', 'c']
)PY"},
    {"expr086", R"PY(print('  a  b  '.split())
)PY", R"PY(['a', 'b']
)PY"},
    {"expr087", R"PY(print('a b c d'.split(' ', 2))
)PY", R"PY(['a', 'b', 'c d']
)PY"},
    {"expr088", R"PY(print('a b c d'.rsplit(' ', 2))
)PY", R"PY(['a b', 'c', 'd']
)PY"},
    {"expr089", R"PY(print('Hello'.upper(), 'Hello'.lower(), 'hello world'.title())
)PY", R"PY(HELLO hello Hello World
)PY"},
    {"expr090", R"PY(print('abcabc'.replace('b', 'X'), 'abcabc'.replace('b', 'X', 1))
)PY", R"PY(aXcaXc aXcabc
)PY"},
    {"expr091", R"PY(print('abc'.find('z'), 'abcabc'.rfind('c'), 'aaaa'.count('aa'))
)PY", R"PY(-1 5 2
)PY"},
    {"expr092", R"PY(print('Py'.center(8, '-'), 'Py'.ljust(5, '.'), 'Py'.rjust(5), '-5'.zfill(4))
)PY", R"PY(---Py--- Py...    Py -005
)PY"},
    {"expr093", R"PY(print('  x  '.strip(), 'xxhixx'.strip('x'), '  x'.lstrip(), 'x  '.rstrip())
)PY", R"PY(x hi x x
)PY"},
    {"expr094", R"PY(print('a=1'.partition('='), 'no'.partition('='))
)PY", R"PY(('a', '=', '1') ('no', '', '')
)PY"},
    {"expr095", R"PY(print('Hello'.startswith('He'), 'Hello'.endswith(('x', 'lo')))
)PY", R"PY(True True
)PY"},
    {"expr096", R"PY(print('%5.2f|%-5d|%05d|%+d' % (3.14159, 42, 42, 7))
)PY", R"PY( 3.14|42   |00042|+7
)PY"},
    {"expr097", R"PY(print('%s and %r' % ('a', 'a'))
)PY", R"PY(a and 'a'
)PY"},
    {"expr098", R"PY(print('%d%%' % 50)
)PY", R"PY(50%
)PY"},
    {"expr099", R"PY(print('%x %X %o %e' % (255, 255, 8, 1234.5))
)PY", R"PY(ff FF 10 1.234500e+03
)PY"},
    {"expr100", R"PY(print('%(name)s is %(age)d' % {'name': 'Ann', 'age': 30})
)PY", R"PY(Ann is 30
)PY"},
    {"expr101", R"PY(print('{} {}'.format('a', 'b'), '{1}{0}'.format('a', 'b'))
)PY", R"PY(a b ba
)PY"},
    {"expr102", R"PY(print('{:08.3f}'.format(-3.14159))
)PY", R"PY(-003.142
)PY"},
    {"expr103", R"PY(print('{:>10}|{:<10}|{:^10}'.format('r', 'l', 'c'))
)PY", R"PY(         r|l         |    c     
)PY"},
    {"expr104", R"PY(print('{:+.2e}'.format(12345.678))
)PY", R"PY(+1.23e+04
)PY"},
    {"expr105", R"PY(print('{:,d}'.format(1234567890))
)PY", R"PY(1,234,567,890
)PY"},
    {"expr106", R"PY(print('{:_}'.format(1000000))
)PY", R"PY(1_000_000
)PY"},
    {"expr107", R"PY(print('{:.1%}'.format(0.4567))
)PY", R"PY(45.7%
)PY"},
    {"expr108", R"PY(print('{:#b} {:#o} {:#x}'.format(10, 10, 10))
)PY", R"PY(0b1010 0o12 0xa
)PY"},
    {"expr109", R"PY(print('{!r:>8}'.format('a'))
)PY", R"PY(     'a'
)PY"},
    {"expr110", R"PY(print('{0[1]} {1[k]}'.format([10, 20], {'k': 'v'}))
)PY", R"PY(20 v
)PY"},
    {"expr111", R"PY(print(format(3.14159, '.3f'), format(42, '08b'), format('s', '>3'))
)PY", R"PY(3.142 00101010   s
)PY"},
    {"expr112", R"PY(print(format(1e-10, 'g'), format(123456789.0, 'g'), format(0.0001, 'g'))
)PY", R"PY(1e-10 1.23457e+08 0.0001
)PY"},
    {"expr113", R"PY(print(format(1.0, 'g'), format(100.0, 'g'), format(1e16, 'g'))
)PY", R"PY(1 100 1e+16
)PY"},
    {"expr114", R"PY(print(format(2.5, '.0f'), format(3.5, '.0f'), format(0.125, '.2f'))
)PY", R"PY(2 4 0.12
)PY"},
    {"expr115", R"PY(print(format(1234.5, '.2'), format(0.0001234, '.2'), format(1e16, '.17'))
)PY", R"PY(1.2e+03 0.00012 1e+16
)PY"},
    {"expr116", R"PY(print(format(float('nan'), '.2f'), format(float('-inf'), 'e'), format(-0.0, 'g'))
)PY", R"PY(nan -inf -0
)PY"},
    {"expr117", R"PY(print(format(12345.6789, ',.2f'), format(-1234, ','), format(1234.5, '010,.1f'))
)PY", R"PY(12,345.68 -1,234 0,001,234.5
)PY"},
    {"expr118", R"PY(print(type(3).__name__, type(3.0).__name__, type('').__name__, type([]).__name__, type(()).__name__, type({}).__name__)
)PY", R"PY(int float str list tuple dict
)PY"},
    {"expr119", R"PY(print(type(None).__name__, type(True).__name__, type(len).__name__, type(range(3)).__name__)
)PY", R"PY(NoneType bool builtin_function_or_method range
)PY"},
    {"expr120", R"PY(print(isinstance(3, (float, int)), isinstance(True, int), isinstance(3, bool))
)PY", R"PY(True True False
)PY"},
    {"expr121", R"PY(print(isinstance(ValueError('x'), Exception), isinstance(KeyError(), LookupError))
)PY", R"PY(True True
)PY"},
    {"expr122", R"PY(print(str(ValueError('msg')), repr(ValueError('msg')), repr(KeyError('k')), str(KeyError('k')), repr(RuntimeError()))
)PY", R"PY(msg ValueError('msg') KeyError('k') 'k' RuntimeError()
)PY"},
    {"expr123", R"PY(print(ValueError('a', 1).args)
)PY", R"PY(('a', 1)
)PY"},
    {"expr124", R"PY(print(range(0, 10, 2)[3], len(range(5, 0, -1)), list(range(5, 0, -2)), range(3) == range(0, 3))
)PY", R"PY(6 5 [5, 3, 1] True
)PY"},
    {"expr125", R"PY(print(slice(1, 5, 2), slice(None))
)PY", R"PY(slice(1, 5, 2) slice(None, None, None)
)PY"},
    {"expr126", R"PY(print(1e308 * 10, -1e308 * 10)
)PY", R"PY(inf -inf
)PY"},
    {"expr127", R"PY(print(2 ** 0.5, 10 ** -3, 4 ** 0.5)
)PY", R"PY(1.4142135623730951 0.001 2.0
)PY"},
    {"expr128", R"PY(print(1e-5, 1e-4, 0.001, 123456789012.5, 1e16, 1.5e16, 9.999999999999999e15)
)PY", R"PY(1e-05 0.0001 0.001 123456789012.5 1e+16 1.5e+16 1e+16
)PY"},
    {"expr129", R"PY(print(float(2 ** 53) + 1, 0.1 * 3, 1.1 * 1.1)
)PY", R"PY(9007199254740992.0 0.30000000000000004 1.2100000000000002
)PY"},
    {"expr130", R"PY(print([1.0, 2.5, -0.0, 1e-9, 1e21])
)PY", R"PY([1.0, 2.5, -0.0, 1e-09, 1e+21]
)PY"},
    {"expr131", R"PY(print(100000000000000000000.0, 1e21, 12345678901234567890.0)
)PY", R"PY(1e+20 1e+21 1.2345678901234567e+19
)PY"},
    {"expr132", R"PY(print((1.0 / 3) * 3, 3.0 * 1.1, 0.3 - 0.1)
)PY", R"PY(1.0 3.3000000000000003 0.19999999999999998
)PY"},
    {"expr133", R"PY(print(5 // 0.3, 5 % 0.3, -5 // 0.3)
)PY", R"PY(16.0 0.20000000000000018 -17.0
)PY"},
    {"expr134", R"PY(print(7.0 // 1e-300 if False else 7.0 // 2)
)PY", R"PY(3.0
)PY"},
    {"expr135", R"PY(print(-(-5), +3, ~0, ~255)
)PY", R"PY(5 3 -1 -256
)PY"},
    {"expr136", R"PY(print(1 << 40, -1 >> 3, 0xFF & 0x0F, 0xF0 | 0x0F, 0xFF ^ 0x0F)
)PY", R"PY(1099511627776 -1 15 255 240
)PY"},
    {"expr137", R"PY(print(True & True, True | False, False ^ True, True + True)
)PY", R"PY(True True True 2
)PY"},
    {"expr138", R"PY(print((lambda x, y=2: x ** y)(3))
)PY", R"PY(9
)PY"},
    {"expr139", R"PY(print((lambda *a: a)(1, 2))
)PY", R"PY((1, 2)
)PY"},
    {"expr140", R"PY(print((lambda **k: k)(a=1))
)PY", R"PY({'a': 1}
)PY"},
    {"expr141", R"PY(print([n for n in range(20) if n % 3 == 0 if n % 2 == 0])
)PY", R"PY([0, 6, 12, 18]
)PY"},
    {"expr142", R"PY(print(f"{1 + 1} {'q'!r} {3.5:.1f} {[1][0]}")
)PY", R"PY(2 'q' 3.5 1
)PY"},
    {"expr143", R"PY(print(f"{12:>5}|{12:<5}|{12:^5}|{-12:=6}|")
)PY", R"PY(   12|12   | 12  |-   12|
)PY"},
    {"expr144", R"PY(print(f"{'abc':.2}|{'abc':>5.2}|")
)PY", R"PY(ab|   ab|
)PY"},
    {"expr145", R"PY(print(f"{255:x} {255:X} {255:#010x} {7:b}")
)PY", R"PY(ff FF 0x000000ff 111
)PY"},
    {"expr146", R"PY(print(f"{1234567.125:,.2f} {0.5:%} {2.5e-5:.2e}")
)PY", R"PY(1,234,567.12 50.000000% 2.50e-05
)PY"},
    {"expr147", R"PY(print(f"{{}} {{{1}}}")
)PY", R"PY({} {1}
)PY"},
    {"expr148", R"PY(print((1, 2) + (3,), [1] + [2], 'a' + 'b')
)PY", R"PY((1, 2, 3) [1, 2] ab
)PY"},
    {"expr149", R"PY(print([1, 2, 3].index(2), (1, 2, 2).count(2))
)PY", R"PY(1 2
)PY"},
    {"expr150", R"PY(print('abc' * 0, [1] * -1)
)PY", R"PY( []
)PY"},
    {"expr151", R"PY(print(list('hello')[::-2])
)PY", R"PY(['o', 'l', 'h']
)PY"},
    {"expr152", R"PY(print(min([[3], [1, 2]]), max('apple', 'banana', key=len))
)PY", R"PY([1, 2] banana
)PY"},
};

class Programs : public ::testing::TestWithParam<Case> {};
class Expressions : public ::testing::TestWithParam<Case> {};

void check(const Case& c) {
  auto o = run_capture(c.source);
  ASSERT_TRUE(o.result.ok) << o.result.format() << "\n" << c.source;
  EXPECT_EQ(o.out, c.expected) << c.source;
}

TEST_P(Programs, OutputMatchesCPython) { check(GetParam()); }
TEST_P(Expressions, OutputMatchesCPython) { check(GetParam()); }

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Script, Programs, ::testing::ValuesIn(kPrograms), case_name);
INSTANTIATE_TEST_SUITE_P(Script, Expressions, ::testing::ValuesIn(kExpressions), case_name);

}  // namespace
}  // namespace ipt::script
