// The extension interface: a fake native module ("fake") with a function taking keyword
// arguments, an object with operators/getitem/in-place ops, a context manager that records
// enter/exit, native errors of every kind, and the interpreter hooks.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/script/script.h"
#include "core/util/error.h"
#include "tests/script/test_helpers.h"

namespace ipt::script {
namespace {

using testing::run_capture;

std::string fmt_double(double d) { return Value(d).repr(); }

// A tiny tensor-like vector of doubles.
class Vec : public Object {
 public:
  static inline int live = 0;  // instances alive (leak checks)
  explicit Vec(std::vector<double> v) : data(std::move(v)) { ++live; }
  ~Vec() override { --live; }
  std::vector<double> data;
  std::map<std::string, Value> attrs;

  static std::shared_ptr<Vec> from(const Value& v) { return v.as<Vec>(); }

  std::string type_name() const override { return "Vec"; }
  std::string repr() const override {
    std::string s = "Vec([";
    for (size_t i = 0; i < data.size(); ++i) s += (i ? ", " : "") + fmt_double(data[i]);
    return s + "])";
  }
  std::string format(std::string_view spec) const override {
    if (data.size() == 1) return format_value(Value(data[0]), spec);
    return Object::format(spec);
  }
  Value getattr(const std::string& name) override {
    if (name == "shape") return Value::tuple({Value(static_cast<int64_t>(data.size()))});
    if (name == "sum") {
      auto self = std::static_pointer_cast<Vec>(shared_from_this());
      return Value(make_native_function("sum", [self](CallArgs& a) -> Value {
        a.bind({});
        double s = 0;
        for (double d : self->data) s += d;
        return Value(s);
      }));
    }
    auto it = attrs.find(name);
    if (it != attrs.end()) return it->second;
    return Object::getattr(name);
  }
  void setattr(const std::string& name, const Value& v) override {
    if (name == "shape") raise("AttributeError", "can't set attribute 'shape'");
    attrs[name] = v;
  }
  std::optional<Value> call_method(const std::string& name, Args& args, Kwargs& kwargs) override {
    if (name != "add") return std::nullopt;  // everything else goes through getattr
    CallArgs a("add", args, kwargs);
    a.bind({"other", "*", Param("alpha", 1.0)});
    return apply(a["other"], a.get_float("alpha"));
  }

  Value apply(const Value& other, double alpha) const {
    std::vector<double> r = data;
    if (auto o = from(other)) {
      if (o->data.size() != data.size()) IPT_FAIL(RuntimeError, "size mismatch: ", data.size(), " vs ", o->data.size());
      for (size_t i = 0; i < r.size(); ++i) r[i] += alpha * o->data[i];
    } else {
      double d = other.as_float();
      for (auto& x : r) x += alpha * d;
    }
    return Value(std::make_shared<Vec>(std::move(r)));
  }

  std::optional<Value> binary_op(BinaryOp op, const Value& other, bool reflected) override {
    if (!other.is_number() && !from(other)) return std::nullopt;  // NotImplemented
    std::vector<double> r = data;
    auto o = from(other);
    for (size_t i = 0; i < r.size(); ++i) {
      double b = o ? o->data.at(i) : other.as_float();
      double a = r[i];
      if (reflected) std::swap(a, b);
      switch (op) {
        case BinaryOp::Add: r[i] = a + b; break;
        case BinaryOp::Sub: r[i] = a - b; break;
        case BinaryOp::Mul: r[i] = a * b; break;
        case BinaryOp::Div: r[i] = a / b; break;
        default: return std::nullopt;
      }
    }
    return Value(std::make_shared<Vec>(std::move(r)));
  }
  std::optional<Value> inplace_op(BinaryOp op, const Value& other) override {
    if (op != BinaryOp::Add || !other.is_number()) return std::nullopt;  // falls back to binary_op
    for (auto& x : data) x += other.as_float();
    return Value(shared_from_this());
  }
  std::optional<Value> unary_op(UnaryOp op) override {
    if (op != UnaryOp::Neg && op != UnaryOp::Abs) return std::nullopt;
    std::vector<double> r = data;
    for (auto& x : r) x = op == UnaryOp::Neg ? -x : std::fabs(x);
    return Value(std::make_shared<Vec>(std::move(r)));
  }
  std::optional<Value> compare(CompareOp op, const Value& other) override {
    if (!other.is_number()) return std::nullopt;
    std::vector<double> r;
    for (double x : data) {
      bool b = false;
      double y = other.as_float();
      switch (op) {
        case CompareOp::Eq: b = x == y; break;
        case CompareOp::Ne: b = x != y; break;
        case CompareOp::Lt: b = x < y; break;
        case CompareOp::Le: b = x <= y; break;
        case CompareOp::Gt: b = x > y; break;
        case CompareOp::Ge: b = x >= y; break;
      }
      r.push_back(b ? 1.0 : 0.0);
    }
    return Value(std::make_shared<Vec>(std::move(r)));
  }
  // Returns a description of the index it received (to test how subscripts arrive).
  Value getitem(const Value& index) override {
    if (index.is_int()) {
      int64_t i = index.raw_int();
      if (i < 0) i += static_cast<int64_t>(data.size());
      IPT_CHECK(i >= 0 && i < static_cast<int64_t>(data.size()), IndexError, "index ", index.raw_int(),
                " is out of bounds for dimension 0 with size ", data.size());
      return Value(data[i]);
    }
    return Value("index=" + index.repr());
  }
  void setitem(const Value& index, const Value& value) override {
    int64_t i = to_index(index);
    IPT_CHECK(i >= 0 && i < static_cast<int64_t>(data.size()), IndexError, "index out of range");
    data[i] = value.as_float();
  }
  bool truthy() const override {
    IPT_CHECK(data.size() == 1, RuntimeError, "Boolean value of Vec with more than one value is ambiguous");
    return data[0] != 0;
  }
  std::optional<int64_t> len() const override { return static_cast<int64_t>(data.size()); }
  Value iter() override {
    std::vector<Value> items;
    for (double d : data) items.emplace_back(d);
    return Value::list(std::move(items));
  }
  std::optional<double> to_float() const override {
    if (data.size() != 1) return std::nullopt;
    return data[0];
  }
};

// `isinstance(x, fake.Vec)`: a type-like object.
class VecType : public Object {
 public:
  std::string type_name() const override { return "type"; }
  std::string repr() const override { return "<class 'fake.Vec'>"; }
  bool is_callable() const override { return true; }
  Value call(Args args, Kwargs kwargs) override {
    CallArgs a("Vec", std::move(args), std::move(kwargs));
    a.bind({"*values"});
    std::vector<double> d;
    for (const auto& v : a.varargs()) d.push_back(v.as_float());
    return Value(std::make_shared<Vec>(std::move(d)));
  }
  std::optional<bool> instancecheck(const Value& v) override { return static_cast<bool>(v.as<Vec>()); }
};

// A context manager that logs its protocol calls into a shared log.
class Recorder : public Object {
 public:
  Recorder(std::string name, std::shared_ptr<std::string> log, bool suppress)
      : name_(std::move(name)), log_(std::move(log)), suppress_(suppress) {}
  std::string type_name() const override { return "Recorder"; }
  Value enter() override {
    *log_ += "enter " + name_ + ";";
    return Value(name_ + "-value");
  }
  bool exit(bool had_exception) override {
    *log_ += "exit " + name_ + (had_exception ? "(error)" : "(ok)") + ";";
    return suppress_;
  }
  // Also usable as a decorator: @fake.recorder('deco') returns the function unchanged.
  bool is_callable() const override { return true; }
  Value call(Args args, Kwargs) override {
    *log_ += "decorate " + name_ + ";";
    return args.at(0);
  }

 private:
  std::string name_;
  std::shared_ptr<std::string> log_;
  bool suppress_;
};

struct Fixture {
  Interpreter interp;
  std::shared_ptr<std::string> log = std::make_shared<std::string>();
  std::string out;
  int module_builds = 0;

  Fixture() {
    interp.set_output([this](std::string_view s) { out.append(s); });
    interp.register_exception("OutOfMemoryError", "RuntimeError");
    interp.register_module("fake", [this] { return make_module(); });
    interp.register_module("fake.sub", [] {
      auto m = std::make_shared<Module>("fake.sub");
      m->set("answer", Value(int64_t{42}));
      return Value(m);
    });
  }

  Value make_module() {
    ++module_builds;
    auto log_ref = log;
    auto m = std::make_shared<Module>("fake");
    m->set("Vec", Value(std::make_shared<VecType>()));
    m->set("version", Value("0.1"));
    m->def("vec", [](CallArgs& a) -> Value {
      std::vector<double> d;
      for (const auto& v : a.positional()) d.push_back(v.as_float());
      return Value(std::make_shared<Vec>(std::move(d)));
    });
    // add(input, other, *, alpha=1): keyword binding with defaults and clear errors
    m->def("add", [](CallArgs& a) -> Value {
      a.bind({"input", "other", "*", Param("alpha", 1.0)});
      auto v = Vec::from(a["input"]);
      if (!v) raise("TypeError", "add(): argument 'input' must be Vec, not " + a["input"].type_name());
      return v->apply(a["other"], a.get_float("alpha"));
    });
    m->def("describe", [](CallArgs& a) -> Value {
      a.bind({"x", Param("dim", Value()), Param("keepdim", false), "**rest"});
      std::string s = "x=" + a["x"].repr() + " dim=" + a["dim"].repr() + " keepdim=" + a["keepdim"].repr();
      for (const auto& kv : a.varkwargs()) s += " " + kv.first + "=" + kv.second.repr();
      return Value(s);
    });
    m->def("fail", [](CallArgs& a) -> Value {
      a.bind({"kind", "message"});
      raise(a.get_str("kind"), a.get_str("message"));
    });
    m->def("ipt_error", [](CallArgs& a) -> Value {
      a.bind({"which"});
      std::string w = a.get_str("which");
      if (w == "index") IPT_FAIL(IndexError, "index 5 is out of bounds for dimension 0 with size 3");
      if (w == "type") IPT_FAIL(TypeError, "expected a Tensor");
      if (w == "value") IPT_FAIL(ValueError, "bad value");
      if (w == "notimpl") IPT_FAIL(NotImplementedError, "not implemented for 'Half'");
      IPT_FAIL(RuntimeError, "shape mismatch");
    });
    m->def("std_error", [](CallArgs&) -> Value { throw std::out_of_range("vector::at"); });
    m->def("call_back", [](CallArgs& a) -> Value {
      a.bind({"fn", "*args"});
      return call(a["fn"], a.varargs());
    });
    m->def("recorder", [log_ref](CallArgs& a) -> Value {
      a.bind({"name", Param("suppress", false)});
      return Value(std::make_shared<Recorder>(a.get_str("name"), log_ref, a.get_bool("suppress")));
    });
    return Value(m);
  }

  RunResult run(const std::string& src) {
    out.clear();
    return interp.run(src);
  }
};

TEST(NativeModule, ImportFormsAndLazyFactory) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "import fake as f\n"
      "from fake import add, version as v\n"
      "import fake.sub\n"
      "from fake.sub import answer\n"
      "import fake.sub as s\n"
      "print(fake is f, v, fake.sub.answer, answer, s.answer)\n"
      "print(fake)\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out, "True 0.1 42 42 42\n<module 'fake'>\n");
  EXPECT_EQ(fx.module_builds, 1);  // cached like sys.modules
}

TEST(NativeModule, ImportErrors) {
  Fixture fx;
  auto r = fx.run("import numpy");
  EXPECT_EQ(r.error_kind, "ModuleNotFoundError");
  EXPECT_EQ(r.error_message, "No module named 'numpy'");
  r = fx.run("import fake.nothing");
  EXPECT_EQ(r.error_kind, "ModuleNotFoundError");
  EXPECT_EQ(r.error_message, "No module named 'fake.nothing'");
  r = fx.run("from fake import nothing");
  EXPECT_EQ(r.error_kind, "ImportError");
  EXPECT_EQ(r.error_message, "cannot import name 'nothing' from 'fake' (unknown location)");
  r = fx.run("try:\n    import numpy as np\nexcept ImportError as e:\n    print('no numpy:', e)");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out, "no numpy: No module named 'numpy'\n");
}

TEST(NativeModule, KeywordArgumentsAndBindingErrors) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "v = fake.vec(1, 2)\n"
      "print(fake.add(v, 1), fake.add(v, 1, alpha=2), fake.add(input=v, other=v))\n"
      "print(fake.describe(3), fake.describe([1], 0, keepdim=True, out=None))\n"
      "print(v.add(10), v.add(v, alpha=0.5), v.sum(), v.shape)\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out,
            "Vec([2.0, 3.0]) Vec([3.0, 4.0]) Vec([2.0, 4.0])\n"
            "x=3 dim=None keepdim=False x=[1] dim=0 keepdim=True out=None\n"
            "Vec([11.0, 12.0]) Vec([1.5, 3.0]) 3.0 (2,)\n");

  struct Bad {
    const char* src;
    const char* message;
  } bad[] = {
      {"fake.add(fake.vec(1))", "add() missing required argument 'other'"},
      {"fake.add(fake.vec(1), 1, foo=2)", "add() got an unexpected keyword argument 'foo'"},
      {"fake.add(fake.vec(1), 1, 2)", "add() takes 2 positional arguments but 3 were given"},
      {"fake.add(fake.vec(1), 1, input=2)", "add() got multiple values for argument 'input'"},
      {"fake.add(fake.vec(1), 1, alpha='x')", "add(): argument 'alpha' must be float, not str"},
      {"fake.add(3, 1)", "add(): argument 'input' must be Vec, not int"},
      {"fake.vec(1).add()", "add() missing required argument 'other'"},
      {"fake.vec(1).sum(1)", "sum() takes 0 positional arguments but 1 was given"},
  };
  for (const auto& b : bad) {
    auto rr = fx.run(std::string("import fake\n") + b.src);
    EXPECT_EQ(rr.error_kind, "TypeError") << b.src;
    EXPECT_EQ(rr.error_message, b.message) << b.src;
    EXPECT_EQ(rr.line, 2) << b.src;
  }
}

TEST(NativeObject, Operators) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "v = fake.vec(1, 2)\n"
      "print(v + 1, 1 + v, v - 1, 10 - v, v * v, 2 / v, -v, abs(-v))\n"
      "print(v == 2, v < 2, 2 > v, sum([v, v]))\n"
      "print(v == 'x', v != 'x', v is v)\n"
      "print(f'{fake.vec(2.5):.2f}', f'{v}', str(v), [v])\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out,
            "Vec([2.0, 3.0]) Vec([2.0, 3.0]) Vec([0.0, 1.0]) Vec([9.0, 8.0]) Vec([1.0, 4.0]) Vec([2.0, 1.0]) "
            "Vec([-1.0, -2.0]) Vec([1.0, 2.0])\n"
            "Vec([0.0, 1.0]) Vec([1.0, 0.0]) Vec([1.0, 0.0]) Vec([2.0, 4.0])\n"
            "False True True\n"
            "2.50 Vec([1.0, 2.0]) Vec([1.0, 2.0]) [Vec([1.0, 2.0])]\n");

  struct Bad {
    const char* src;
    const char* kind;
    const char* message;
  } bad[] = {
      {"v + 'a'", "TypeError", "unsupported operand type(s) for +: 'Vec' and 'str'"},
      {"'a' + v", "TypeError", "can only concatenate str (not \"Vec\") to str"},
      {"None * v", "TypeError", "unsupported operand type(s) for *: 'NoneType' and 'Vec'"},
      {"v @ v", "TypeError", "unsupported operand type(s) for @: 'Vec' and 'Vec'"},
      {"v < 'x'", "TypeError", "'<' not supported between instances of 'Vec' and 'str'"},
      {"~v", "TypeError", "bad operand type for unary ~: 'Vec'"},
      {"v.foo", "AttributeError", "'Vec' object has no attribute 'foo'"},
      {"v.shape = 3", "AttributeError", "can't set attribute 'shape'"},
      {"v()", "TypeError", "'Vec' object is not callable"},
      {"with v: pass", "TypeError", "'Vec' object does not support the context manager protocol"},
      {"if v: pass", "RuntimeError", "Boolean value of Vec with more than one value is ambiguous"},
      {"v[5]", "IndexError", "index 5 is out of bounds for dimension 0 with size 2"},
      {"fake.vec(1, 2, 3) + v", "RuntimeError", nullptr},  // std::out_of_range from native code
      {"f'{v:.2f}'", "TypeError", "unsupported format string passed to Vec.__format__"},
      {"del v[0]", "TypeError", "'Vec' object doesn't support item deletion"},
  };
  for (const auto& b : bad) {
    auto rr = fx.run(std::string("import fake\nv = fake.vec(1, 2)\n") + b.src);
    EXPECT_EQ(rr.error_kind, b.kind) << b.src;
    if (b.message) {
      EXPECT_EQ(rr.error_message, b.message) << b.src;
    }
    EXPECT_EQ(rr.line, 3) << b.src;
  }
}

TEST(NativeObject, InplaceHookAndFallback) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "v = fake.vec(1, 2)\n"
      "w = v\n"
      "v += 1\n"           // inplace_op mutates: w sees it
      "print(v is w, w)\n"
      "v *= 2\n"           // no in-place hook for *: falls back to binary_op, rebinds v
      "print(v is w, v, w)\n"
      "lst = [v]\n"
      "lst[0] += 1\n"
      "print(lst[0] is w, w)\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out,
            "True Vec([2.0, 3.0])\n"
            "False Vec([4.0, 6.0]) Vec([2.0, 3.0])\n"
            "False Vec([2.0, 3.0])\n");
}

TEST(NativeObject, SubscriptsArriveWhole) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "v = fake.vec(1, 2, 3)\n"
      "print(v[0], v[-1])\n"
      "print(v[1:])\n"
      "print(v[::2])\n"
      "print(v[None])\n"
      "print(v[...])\n"
      "print(v[1:, None, ..., 0])\n"
      "print(v[:, -1:])\n"
      "print(v[v])\n"
      "v[1] = 20\n"
      "print(v, len(v), list(v), 20 in v, 7 in v)\n"
      "for x in v:\n"
      "    print(x, end=' ')\n"
      "print()\n"
      "a, b, c = v\n"
      "print(a + b + c, isinstance(v, fake.Vec), isinstance(3, fake.Vec), fake.Vec(4, 5))\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out,
            "1.0 3.0\n"
            "index=slice(1, None, None)\n"
            "index=slice(None, None, 2)\n"
            "index=None\n"
            "index=Ellipsis\n"
            "index=(slice(1, None, None), None, Ellipsis, 0)\n"
            "index=(slice(None, None, None), slice(-1, None, None))\n"
            "index=Vec([1.0, 2.0, 3.0])\n"
            "Vec([1.0, 20.0, 3.0]) 3 [1.0, 20.0, 3.0] True False\n"
            "1.0 20.0 3.0 \n"
            "24.0 True False Vec([4.0, 5.0])\n");
}

TEST(NativeObject, AttributesAndConversions) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "v = fake.vec(2.5)\n"
      "v.label = 'weights'\n"
      "print(v.label, float(v), bool(v), hasattr(v, 'label'), hasattr(v, 'nope'), getattr(v, 'nope', 0))\n"
      "print(round(float(v)), '%.1f' % v, max(fake.vec(3), 2))\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out, "weights 2.5 True True False 0\n2 2.5 Vec([3.0])\n");
}

TEST(WithStatement, EnterExitOrdering) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "with fake.recorder('a') as x:\n"
      "    print('body', x)\n"
      "with fake.recorder('outer'), fake.recorder('inner') as y:\n"
      "    print('nested', y)\n"
      "def f():\n"
      "    with fake.recorder('ret'):\n"
      "        return 'returned'\n"
      "print(f())\n"
      "for i in range(3):\n"
      "    with fake.recorder('loop%d' % i):\n"
      "        if i == 1:\n"
      "            break\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out, "body a-value\nnested inner-value\nreturned\n");
  EXPECT_EQ(*fx.log,
            "enter a;exit a(ok);enter outer;enter inner;exit inner(ok);exit outer(ok);enter ret;exit ret(ok);"
            "enter loop0;exit loop0(ok);enter loop1;exit loop1(ok);");
}

TEST(WithStatement, ExitRunsWhenBodyRaises) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "try:\n"
      "    with fake.recorder('a'):\n"
      "        with fake.recorder('b'):\n"
      "            raise ValueError('inside')\n"
      "except ValueError as e:\n"
      "    print('caught', e)\n"
      "with fake.recorder('quiet', suppress=True):\n"
      "    1 / 0\n"
      "print('suppressed')\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out, "caught inside\nsuppressed\n");
  EXPECT_EQ(*fx.log, "enter a;enter b;exit b(error);exit a(error);enter quiet;exit quiet(error);");

  fx.log->clear();
  r = fx.run("import fake\nwith fake.recorder('u'):\n    x = [1][3]\n");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_kind, "IndexError");
  EXPECT_EQ(r.line, 3);
  EXPECT_EQ(*fx.log, "enter u;exit u(error);");
}

TEST(Decorators, NativeObjectsAsDecorators) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "@fake.recorder('deco')\n"
      "def f(x):\n"
      "    return x * 2\n"
      "print(f(21))\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out, "42\n");
  EXPECT_EQ(*fx.log, "decorate deco;");
}

TEST(NativeErrors, KindsAreCatchableAndReported) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "for which in ['index', 'type', 'value', 'notimpl', 'runtime']:\n"
      "    try:\n"
      "        fake.ipt_error(which)\n"
      "    except Exception as e:\n"
      "        print(type(e).__name__, '|', e)\n"
      "try:\n"
      "    fake.fail('KeyError', 'k')\n"
      "except LookupError as e:\n"
      "    print('lookup', repr(e))\n"
      "try:\n"
      "    fake.fail('OutOfMemoryError', 'CUDA out of memory')\n"
      "except RuntimeError as e:\n"
      "    print('registered kind', type(e).__name__, e)\n"
      "try:\n"
      "    fake.fail('BrandNewError', 'x')\n"
      "except Exception as e:\n"
      "    print('unknown kinds derive from Exception:', type(e).__name__)\n"
      "try:\n"
      "    fake.ipt_error('notimpl')\n"
      "except RuntimeError:\n"
      "    print('NotImplementedError is a RuntimeError')\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out,
            "IndexError | index 5 is out of bounds for dimension 0 with size 3\n"
            "TypeError | expected a Tensor\n"
            "ValueError | bad value\n"
            "NotImplementedError | not implemented for 'Half'\n"
            "RuntimeError | shape mismatch\n"
            "lookup KeyError('k')\n"
            "registered kind OutOfMemoryError CUDA out of memory\n"
            "unknown kinds derive from Exception: BrandNewError\n"
            "NotImplementedError is a RuntimeError\n");

  r = fx.run("import fake\n\nfake.ipt_error('runtime')\n");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_kind, "RuntimeError");
  EXPECT_EQ(r.error_message, "shape mismatch");
  EXPECT_EQ(r.line, 3);
  EXPECT_EQ(r.col, 1);
  EXPECT_EQ(r.exception_line(), "RuntimeError: shape mismatch");
  EXPECT_EQ(r.source_line, "fake.ipt_error('runtime')");

  r = fx.run("import fake\nfake.std_error()\n");
  EXPECT_EQ(r.error_kind, "RuntimeError");
  EXPECT_EQ(r.error_message, "internal error: vector::at");
}

TEST(NativeCallbacks, NativeCodeCallsScriptFunctions) {
  Fixture fx;
  auto r = fx.run(
      "import fake\n"
      "def double(x):\n"
      "    return x * 2\n"
      "print(fake.call_back(double, 21), fake.call_back(lambda a, b: a + b, 1, 2))\n"
      "def boom():\n"
      "    raise ValueError('from callback')\n"
      "try:\n"
      "    fake.call_back(boom)\n"
      "except ValueError as e:\n"
      "    print('propagated:', e)\n");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(fx.out, "42 3\npropagated: from callback\n");
}

TEST(NativeObject, ClosuresDoNotKeepFramesAlive) {
  {
    Fixture fx;
    fx.interp.set_builtin("live", Value(make_native_function("live", [](CallArgs&) -> Value {
      return Value(int64_t{Vec::live});
    })));
    auto r = fx.run(
        "import fake\n"
        "def train():\n"
        "    w = fake.vec(1, 2)\n"
        "    big = fake.vec(0, 0, 0)\n"
        "    def step():\n"
        "        return w + 1\n"
        "    return step()\n"
        "r = train()\n"
        "def deco(fn):\n"
        "    def wrapper(*a):\n"
        "        return fn(*a)\n"
        "    return wrapper\n"
        "@deco\n"
        "def make():\n"
        "    return fake.vec(3)\n"
        "v = make()\n"
        "adders = [lambda x, k=k: x + k for k in range(3)]\n"
        "def outer():\n"
        "    w = fake.vec(1)\n"
        "    def rec(n):\n"  // a recursive inner function: cell -> rec -> cell
        "        return w if n == 0 else rec(n - 1)\n"
        "    return rec(3) + 0\n"
        "outer()\n"
        "print(live())\n"
        "del r, v\n"
        "print(live())\n");
    ASSERT_TRUE(r.ok) << r.format();
    EXPECT_EQ(fx.out, "2\n0\n");  // only r and v were alive; w and big died with train()
    r = fx.run("import fake\nkeep = fake.vec(1)\nf = (lambda: keep)\n");
    EXPECT_EQ(Vec::live, 1);
    fx.interp.reset();
    EXPECT_EQ(Vec::live, 0);
  }
  EXPECT_EQ(Vec::live, 0);
}

TEST(Interpreter, StatementHookSeesEveryStatement) {
  Interpreter interp;
  std::vector<std::pair<int, int>> seen;
  interp.set_output([](std::string_view) {});
  interp.set_statement_hook([&](int line, int col) { seen.emplace_back(line, col); });
  auto r = interp.run("x = 0\nfor i in range(2):\n    x += i\nif x:\n    y = 1\n");
  ASSERT_TRUE(r.ok) << r.format();
  std::vector<std::pair<int, int>> expected = {{1, 1}, {2, 1}, {3, 5}, {2, 1}, {3, 5}, {2, 1}, {4, 1}, {5, 5}};
  EXPECT_EQ(seen, expected);
}

TEST(Interpreter, GlobalsPersistAcrossRuns) {
  Interpreter interp;
  std::string out;
  interp.set_output([&](std::string_view s) { out.append(s); });
  interp.set_global("lr", Value(0.1));
  ASSERT_TRUE(interp.run("def step(w):\n    return w - lr\nw = 1.0\n").ok);
  ASSERT_TRUE(interp.run("w = step(w)\nprint(w)\n").ok);
  EXPECT_EQ(out, "0.9\n");
  auto w = interp.get_global("w");
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ(w->as_float(), 0.9);
  EXPECT_FALSE(interp.get_global("nope").has_value());
  interp.reset();
  auto r = interp.run("print(w)");
  EXPECT_EQ(r.error_kind, "NameError");
}

TEST(Interpreter, StopRequestIsNotCatchable) {
  Interpreter interp;
  interp.set_output([](std::string_view) {});
  int count = 0;
  interp.set_statement_hook([&](int, int) {
    if (++count == 50) interp.request_stop();
  });
  auto r = interp.run(
      "while True:\n"
      "    try:\n"
      "        pass\n"
      "    except:\n"
      "        pass\n");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_kind, "KeyboardInterrupt");
}

TEST(Interpreter, StepLimit) {
  Interpreter interp;
  std::string out;
  interp.set_output([&](std::string_view s) { out.append(s); });
  interp.set_step_limit(1000);
  auto r = interp.run("i = 0\nwhile True:\n    try:\n        i += 1\n    except Exception:\n        pass\n");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_kind, "KeyboardInterrupt");
  EXPECT_EQ(r.error_message, "step limit exceeded (1000 statements)");
  // the limit is per run
  r = interp.run("print(i > 0)");
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(out, "True\n");
  // loops that run no statements count too
  r = interp.run("total = sum(range(10**12))");
  EXPECT_EQ(r.error_kind, "KeyboardInterrupt");
}

TEST(Interpreter, SetBuiltinAndNativeValues) {
  Interpreter interp;
  std::string out;
  interp.set_output([&](std::string_view s) { out.append(s); });
  interp.set_builtin("double_it", Value(make_native_function("double_it", [](CallArgs& a) -> Value {
    a.bind({"x"});
    return binary_op(BinaryOp::Mul, a["x"], Value(int64_t{2}));
  })));
  auto r = interp.run("print(double_it(4), double_it('ab'), double_it)");
  ASSERT_TRUE(r.ok) << r.format();
  EXPECT_EQ(out, "8 abab <built-in function double_it>\n");
}

}  // namespace
}  // namespace ipt::script
