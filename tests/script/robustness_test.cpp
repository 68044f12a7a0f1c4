// Robustness: the interpreter must never crash, hang or throw on any input. Feeds truncated
// and mutated programs, random token soup, randomly generated (mostly valid) programs and
// pathological inputs (deep nesting, huge repetition, runaway recursion), each under a step
// limit, and checks that every run returns a result.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/script/interpreter.h"

namespace ipt::script {
namespace {

const char* kSeedProgram = R"PY(import math
from math import sqrt as root
def f(a, b=2, *args, k=3, **kw):
    """doc"""
    total = a + b + k + sum(args)
    for key, value in kw.items():
        total += value
    return total
class_like = {'name': 'x', 'items': [1, 2.5, 'three', None, (4, 5)]}
values = [i * i for i in range(10) if i % 2 == 0]
grid = {(r, c): r * c for r in range(3) for c in range(3)}
try:
    x = values[3] / (values[0] - 0)
except ZeroDivisionError as e:
    print('div', e)
except (IndexError, KeyError):
    pass
else:
    print('no error')
finally:
    print('done')
while values:
    v = values.pop()
    if v > 10:
        continue
    elif v == 4:
        break
    else:
        print(f'{v:>4d} {v / 3:.2f} {v!r} {class_like["name"]}')
lam = lambda q, *r: (q, r)
print(lam(1, 2, 3), f(1, k=4, extra=5), root(16.0), math.pi)
s = 'Hello, World'
print(s[::-1], s.split(','), s.upper().lower(), '%s-%d' % ('a', 3))
with_items = [x for x in s if x.isalpha()]
del with_items[0]
assert len(with_items) > 3, 'too short'
n = 0
while n < 5:
    n += 1
print(n, not n, n and -n, n or 0, 1 if n else 2, [1, 2][-1], (1,) + (2,))
)PY";

struct Runner {
  Interpreter interp;
  size_t runs = 0;
  Runner() {
    interp.set_output([](std::string_view) {});
    interp.set_step_limit(20000);
  }
  void run(const std::string& src) {
    RunResult r = interp.run(src);
    ++runs;
    if (!r.ok) {
      ASSERT_FALSE(r.error_kind.empty()) << src;
    }
    interp.reset();
  }
};

TEST(Robustness, TruncatedPrograms) {
  Runner runner;
  std::string seed = kSeedProgram;
  for (size_t n = 0; n <= seed.size(); n += 3) runner.run(seed.substr(0, n));
  for (size_t n = 0; n <= seed.size(); n += 7) runner.run(seed.substr(n));
  EXPECT_GT(runner.runs, 500u);
}

TEST(Robustness, MutatedPrograms) {
  Runner runner;
  std::mt19937 rng(12345);
  const std::string alphabet = " \n\t()[]{}:,.=+-*/%<>!'\"#\\@abcxyz0123456789_";
  std::string seed = kSeedProgram;
  for (int i = 0; i < 400; ++i) {
    std::string s = seed;
    int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      size_t pos = rng() % s.size();
      switch (rng() % 4) {
        case 0: s.erase(pos, 1 + rng() % 3); break;
        case 1: s.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        case 2: s[pos] = alphabet[rng() % alphabet.size()]; break;
        default: {
          size_t from = rng() % s.size();
          s.insert(pos, s.substr(from, 1 + rng() % 20));
        }
      }
    }
    runner.run(s);
  }
}

TEST(Robustness, RandomTokenSoup) {
  Runner runner;
  std::mt19937 rng(777);
  const std::vector<std::string> toks = {
      "x", "y", "f", "print", "len", "range", "lambda", "def", "return", "if", "elif", "else", "for", "in", "while",
      "try", "except", "finally", "with", "as", "import", "from", "math", "not", "and", "or", "is", "None", "True",
      "pass", "break", "continue", "raise", "assert", "del", "yield", "class", "0", "1", "2.5", "1e3", "'s'", "\"t\"",
      "f'{x}'", "(", ")", "[", "]", "{", "}", ",", ":", ".", "=", "==", "+", "-", "*", "**", "/", "//", "%", "@", "<",
      ">", "+=", "->", "...", "\n", "\n    ", "\n        ", ";", "*", "\\\n", "#c\n", "'''", "\"", "'"};
  for (int i = 0; i < 600; ++i) {
    std::string s;
    int n = 1 + static_cast<int>(rng() % 40);
    for (int k = 0; k < n; ++k) {
      s += toks[rng() % toks.size()];
      s += ' ';
    }
    runner.run(s);
  }
}

// Generates random, mostly valid programs that exercise the runtime.
class ProgramGen {
 public:
  explicit ProgramGen(unsigned seed) : rng_(seed) {}

  std::string program() {
    std::string out =
        "import math\na = 1\nb = 2.5\nc = 'str'\nd = [1, 2]\nlst = [3, 4]\ndct = {'k': 1}\ns = 'abc'\nn = 0\n"
        "def f(a, b=1):\n    return a\ndef g(a, b=1):\n    return b\n";
    int n = 3 + pick(12);
    // each top-level statement guarded, so later statements still run after an error
    for (int i = 0; i < n; ++i) out += "try:\n" + stmt(1) + "except Exception as e:\n    print(repr(e))\n";
    return out;
  }

 private:
  std::mt19937 rng_;
  int pick(int n) { return static_cast<int>(rng_() % n); }
  std::string name() {
    static const char* names[] = {"a", "b", "c", "d", "lst", "dct", "s", "n", "f", "g"};
    return names[pick(10)];
  }
  std::string atom() {
    switch (pick(14)) {
      case 0: return std::to_string(pick(20) - 5);
      case 1: return std::to_string(pick(100)) + ".5";
      case 2: return "'ab'";
      case 3: return "[1, 2, 3]";
      case 4: return "{'k': 1, 2: 'v'}";
      case 5: return "(1, 'x')";
      case 6: return "None";
      case 7: return "True";
      case 8: return "range(" + std::to_string(pick(5)) + ")";
      case 9: return "math.pi";
      default: return name();
    }
  }
  std::string expr(int depth) {
    if (depth > 3) return atom();
    static const char* binops[] = {"+", "-", "*", "/", "//", "%", "**", "==", "<", "and", "or", "in", "is", "&", "|"};
    switch (pick(12)) {
      case 0: case 1: case 2: return atom();
      case 3: return "(" + expr(depth + 1) + " " + binops[pick(15)] + " " + expr(depth + 1) + ")";
      case 4: return "-(" + expr(depth + 1) + ")";
      case 5: return "(not " + expr(depth + 1) + ")";
      case 6: return expr(depth + 1) + "[" + expr(depth + 1) + "]";
      case 7: return expr(depth + 1) + "[" + std::to_string(pick(3) - 1) + ":" + "]";
      case 8: {
        static const char* fns[] = {"len", "str", "int", "float", "list", "sorted", "sum", "max", "abs", "repr", "bool",
                                    "f", "g", "print", "tuple", "dict", "enumerate", "zip", "round", "isinstance"};
        return std::string(fns[pick(20)]) + "(" + expr(depth + 1) + (pick(3) == 0 ? ", " + expr(depth + 1) : "") + ")";
      }
      case 9: {
        static const char* meths[] = {"append", "pop", "upper", "split", "keys", "get", "items", "join", "index", "copy"};
        return expr(depth + 1) + "." + meths[pick(10)] + "(" + (pick(2) ? expr(depth + 1) : "") + ")";
      }
      case 10: return "[" + expr(depth + 1) + " for _i in " + expr(depth + 1) + "]";
      default: return "(" + expr(depth + 1) + " if " + expr(depth + 1) + " else " + expr(depth + 1) + ")";
    }
  }
  std::string indent(int level) { return std::string(level * 4, ' '); }
  std::string block(int level) {
    std::string out;
    int n = 1 + pick(3);
    for (int i = 0; i < n; ++i) out += stmt(level);
    return out;
  }
  std::string stmt(int level) {
    std::string in = indent(level);
    if (level > 3) return in + "pass\n";
    switch (pick(16)) {
      case 0: case 1: return in + name() + " = " + expr(0) + "\n";
      case 2: return in + name() + " += " + expr(0) + "\n";
      case 3: return in + "print(" + expr(0) + ")\n";
      case 4: return in + "if " + expr(0) + ":\n" + block(level + 1) + (pick(2) ? in + "else:\n" + block(level + 1) : "");
      case 5: return in + "for " + name() + " in " + expr(0) + ":\n" + block(level + 1);
      case 6: return in + "n = 0\n" + in + "while n < " + std::to_string(pick(5)) + ":\n" + indent(level + 1) +
                     "n += 1\n" + block(level + 1);
      case 7: return in + "def " + (pick(2) ? std::string("f") : std::string("g")) + "(a, b=1):\n" + block(level + 1) +
                     indent(level + 1) + "return " + expr(0) + "\n";
      case 8: return in + "try:\n" + block(level + 1) + in + "except Exception as e:\n" + indent(level + 1) +
                     "print(type(e).__name__, e)\n" + (pick(2) ? in + "finally:\n" + block(level + 1) : "");
      case 9: return in + name() + "[" + expr(0) + "] = " + expr(0) + "\n";
      case 10: return in + "del " + name() + "\n";
      case 11: return in + name() + ", " + name() + " = " + expr(0) + "\n";
      case 12: return in + "import math\n";
      case 13: return in + "assert " + expr(0) + "\n";
      case 14: return in + "print(f'{" + expr(0) + "!r} {" + expr(0) + ":>5}')\n";
      default: return in + expr(0) + "\n";
    }
  }
};

TEST(Robustness, RandomPrograms) {
  Runner runner;
  ProgramGen gen(2024);
  int ok = 0;
  for (int i = 0; i < 400; ++i) {
    std::string src = gen.program();
    RunResult r = runner.interp.run(src);
    if (r.ok) ++ok;
    else ASSERT_FALSE(r.error_kind.empty()) << src;
    runner.interp.reset();
  }
  EXPECT_GT(ok, 20);  // many random programs run to the end
}

TEST(Robustness, PathologicalInputs) {
  Runner runner;
  std::vector<std::string> cases = {
      std::string(10000, '(') + "1" + std::string(10000, ')'),
      std::string(100000, '['),
      "x = " + std::string(50000, '-') + "1",
      [] {
        std::string s = "x = ";
        for (int i = 0; i < 3000; ++i) s += "not ";
        return s + "1";
      }(),
      [] {
        std::string s = "x = 1";
        for (int i = 0; i < 100000; ++i) s += "+1";
        return s;
      }(),
      [] {
        std::string s = "x = f";
        for (int i = 0; i < 20000; ++i) s += "()";
        return s;
      }(),
      [] {
        std::string s = "x = a";
        for (int i = 0; i < 20000; ++i) s += ".b";
        return s;
      }(),
      [] {
        std::string s;
        for (int i = 0; i < 300; ++i) s += std::string(i, ' ') + "if True:\n";
        return s + std::string(300, ' ') + "pass\n";
      }(),
      [] {
        std::string s = "x = ";
        for (int i = 0; i < 1000; ++i) s += "lambda: ";
        return s + "1";
      }(),
      [] {
        std::string s = "f'";
        for (int i = 0; i < 500; ++i) s += "{";
        return s + "'";
      }(),
      "x = []\nfor i in range(10000):\n    x = [x]\nprint(x)\n",
      "x = []\nfor i in range(200000):\n    x = [x]\n",
      "d = {}\nfor i in range(5000):\n    d = {'k': d}\ns = str(d)\n",
      "t = ()\nfor i in range(5000):\n    t = (t,)\nprint(t == t, hash(t))\n",
      "x = []\nx.append(x)\nprint(x, x == x, x in x)\nx.clear()\n",
      "f = lambda: f()\nf()\n",
      "def f():\n    return g()\ndef g():\n    return f()\nf()\n",
      "def f(n):\n    return [f(n + 1) for _ in range(1)]\nf(0)\n",
      "def f(n):\n    return sorted([1, 2], key=lambda v: f(n + 1))\nf(0)\n",
      "s = 'a' * 10**9\n",
      "s = 'ab'\nfor i in range(64):\n    s = s + s\n",
      "l = [1]\nfor i in range(64):\n    l = l + l\n",
      "l = [1]\nfor i in range(64):\n    l *= 2\n",
      "l = [1]\nfor i in range(64):\n    l.extend(l)\n",
      "x = list(range(10**12))\n",
      "x = range(10**18)\nprint(len(x), x[-1], 10**17 in x)\n",
      "x = 10 ** 100\n",
      "x = 2 ** 63 - 1 + 1\n",
      "x = -9223372036854775807 - 1\nprint(x // -1)\n",
      "print(x % -1, -9223372036854775807 - 1)\n",
      "x = 1 << 64\n",
      "print(-1 >> 100, 1 >> 100, abs(-9223372036854775807 - 1))\n",
      "print(round(1e308, -400), round(1e300, 400), round(float('inf')), int(1e300))\n",
      "print('%*d' % (10**9, 1))\n",
      "print(f'{1:{10**9}}')\n",
      "print('{:999999999}'.format(1))\n",
      "print('x'.center(10**12))\n",
      "print('x'.zfill(10**12))\n",
      "print([0] * (2**62))\n",
      "print('ab' * -1, [1] * -5, (2,) * 0)\n",
      "import math\nprint(math.factorial(10**6), math.exp(1e6))\n",
      "while True:\n    pass\n",
      "while True:\n    try:\n        pass\n    finally:\n        continue\n",
      "for i in range(10**12):\n    pass\n",
      "x = {}\nfor i in range(100000):\n    x[i] = i\nprint(len(x))\n",
      "x = [i for i in range(10**8)]\n",
      "def f():\n    try:\n        return f()\n    finally:\n        return 1\nprint(f())\n",
      "def f():\n    with undefined:\n        pass\nf()\n",
      "raise\n",
      "try:\n    raise\nexcept RuntimeError as e:\n    print(e)\n",
      "def g():\n    raise\ntry:\n    1/0\nexcept:\n    g()\n",
      "x = '\\xff\\u1234\\U0001F600'\nprint(x, len(x), x[1], x[::-1], repr(x), x.upper())\n",
      std::string("x = '") + "\xff\xfe\xc3" + "'\nprint(x, len(x), repr(x))\n",
      std::string("x = 1\0\0y = 2\n", 14),
      "\t\tx = 1\n",
      "if True:\n\tx = 1\n        y = 2\n",
      "\r\n\r\nx = 1\r\nprint(x)\r\n",
      "x = 1 if 2 if 3 else 4 else 5\n",
      "print(*range(3), **{'sep': '-'})\n",
      "print(**{1: 2})\n",
      "def f(**k): return k\nprint(f(**{'a': 1}, a=2))\n",
      "a = b = c = d = [1]\nd[0] = a\nprint(a)\na.clear()\n",
      "import math as m, math\nfrom math import *\nprint(pi, m.e)\n",
      "del x, y\n",
      "x = [1, 2, 3]\ndel x[::-1]\nprint(x)\nx[5:1] = 'abc'\nprint(x)\n",
      "x = [1, 2, 3]\nx[::-1] = [4]\n",
      "print(sorted([float('nan'), 1, float('nan'), 0, -1]))\n",
      "print(sorted([[1], [1, 'a'], [1, 2]]))\n",
      "print(max([1, 'a']))\n",
      "print(list(zip(range(3), strict=True)), list(zip([1], [1, 2], strict=True)))\n",
      "it = iter([1])\nprint(next(it), next(it, 0))\nnext(it)\n",
      "print(int('9' * 30))\n",
      "print(float('1' * 400), float('1e999'), float('-1e-999'))\n",
      "print(1e308 * 10 - 1e308 * 10, 0.0 * float('inf'))\n",
      "print(divmod(float('inf'), 1), float('nan') // 1)\n",
      "print(range(0, 10, -1)[5:], range(5)[::-1], range(5)[10:20])\n",
      "print(format(1e300, ',.2f'), format(-0.0, '+g'), format(float('nan'), '=+10'))\n",
      "print('%c' % 1114112)\n",
      "print(chr(0x110000))\n",
      "print(str.join('-', 'ab'), str.upper(5))\n",
      "x = 5\nx()\nx[0]\nx.y\n",
  };
  for (const auto& c : cases) runner.run(c);
  EXPECT_EQ(runner.runs, cases.size());
}

}  // namespace
}  // namespace ipt::script
