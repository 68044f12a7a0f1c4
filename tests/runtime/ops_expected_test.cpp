// Checks operators against what PyTorch 2.15 computed for the same calls (ops_expected.json,
// written by gen_ops_expected.py): output sizes, strides, dtypes and values, or the exception
// kind and message; for cases run with requires_grad, also each output's grad_fn name and the
// inputs' gradients of sum(output * W) for the recorded weights W.
//
// Every case in the JSON names a function in ops_expected_cases.cpp that makes the same call
// through ipt::ops (the generated C++ API); a case without one, or one without a case, fails.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/autograd/engine.h"
#include "core/autograd/node.h"
#include "core/ops/scalar_tensor.h"
#include "core/tensor/index_math.h"
#include "core/util/error.h"
#include "generated/ops.h"
#include "tests/runtime/ops_expected_cases.h"

using namespace ipt;
using nlohmann::json;
using V = std::vector<int64_t>;
using In = std::vector<Tensor>;

namespace {

using ops_expected::Fn;
using ops_expected::Out;
const std::map<std::string, Fn>& kCases = ops_expected::cases();  // a function-local static: safe at start-up

// ---- reading the JSON ----------------------------------------------------------------------

const json& expected() {
  static const json j = [] {
    std::ifstream in(IPT_OPS_EXPECTED_JSON);
    return json::parse(in);
  }();
  return j;
}

double decode(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  std::string s = v.get<std::string>();
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  return s == "inf" ? INFINITY : -INFINITY;
}

ScalarType parse_dtype(const std::string& s) {
  if (s == "float64") return ScalarType::Double;
  if (s == "int64") return ScalarType::Long;
  if (s == "bool") return ScalarType::Bool;
  return ScalarType::Float;
}

Tensor make_tensor(const json& j) {
  if (j.is_null()) return Tensor();
  V sizes = j.at("sizes").get<V>();
  Tensor d = ops::empty_memory_format(sizes, ScalarType::Double);
  const json& vals = j.at("values");
  for (size_t i = 0; i < vals.size(); ++i) d.data_ptr<double>()[i] = decode(vals[i]);
  ScalarType dt = parse_dtype(j.at("dtype"));
  if (dt == ScalarType::Double) return d;
  return ops::copy_(ops::empty_memory_format(sizes, dt), d);
}

const char* kind_name(ErrorKind k) { return error_kind_name(k); }

// Compares `t` with the expected tensor; returns an empty string when they match.
std::string compare(const Tensor& t, const json& e, bool check_strides) {
  std::ostringstream o;
  if (!t.defined()) return "undefined tensor";
  V sizes = e.at("sizes").get<V>();
  if (t.sizes() != sizes) return "sizes " + int_list_str(t.sizes()) + " vs expected " + int_list_str(sizes);
  if (check_strides && e.contains("strides") && t.strides() != e.at("strides").get<V>())
    return "strides " + int_list_str(t.strides()) + " vs expected " + int_list_str(e.at("strides").get<V>());
  ScalarType dt = parse_dtype(e.at("dtype"));
  if (t.dtype() != dt)
    return std::string("dtype ") + dtype_short_name(t.dtype()) + " vs expected " + dtype_short_name(dt);
  if (!e.contains("values")) return "";  // random results: shape, strides and dtype only
  std::vector<double> got = to_double_vector(t);
  const json& vals = e.at("values");
  const double rtol = dt == ScalarType::Float ? 1e-4 : 1e-9, atol = dt == ScalarType::Float ? 2e-5 : 1e-10;
  for (size_t i = 0; i < vals.size(); ++i) {
    double want = decode(vals[i]), have = got[i];
    bool ok = (std::isnan(want) && std::isnan(have)) || have == want ||
              (std::isfinite(want) && std::abs(have - want) <= atol + rtol * std::abs(want));
    if (!ok) {
      o << "element " << i << ": " << have << " vs expected " << want;
      return o.str();
    }
  }
  return "";
}

void run_case(const json& c, const Fn& fn) {
  const std::string name = c.at("name");
  SCOPED_TRACE(name);
  In inputs;
  for (const json& j : c.at("inputs")) inputs.push_back(make_tensor(j));
  std::set<size_t> grad_inputs;
  if (c.contains("grad_inputs"))
    for (const json& i : c.at("grad_inputs")) grad_inputs.insert(i.get<size_t>());
  for (size_t i : grad_inputs) inputs[i].impl()->set_requires_grad(true);
  if (c.contains("error")) {
    const json& err = c.at("error");
    try {
      fn(inputs);
      ADD_FAILURE() << "expected " << err.at("kind").get<std::string>() << ": " << err.at("message").get<std::string>();
    } catch (const Error& e) {
      EXPECT_EQ(kind_name(e.kind()), err.at("kind").get<std::string>()) << e.what();
      EXPECT_EQ(std::string(e.what()), err.at("message").get<std::string>());
    }
    return;
  }
  Out out = [&]() -> Out {
    try {
      return fn(inputs);
    } catch (const Error& e) {
      ADD_FAILURE() << "unexpected " << kind_name(e.kind()) << ": " << e.what();
      return Out(false);
    }
  }();
  if (c.contains("bool")) {
    ASSERT_TRUE(out.flag.has_value());
    EXPECT_EQ(*out.flag, c.at("bool").get<bool>());
    return;
  }
  const json& outs = c.at("out");
  ASSERT_EQ(out.tensors.size(), outs.size());
  for (size_t i = 0; i < outs.size(); ++i) {
    std::string diff = compare(out.tensors[i], outs[i], true);
    EXPECT_EQ(diff, "") << "output " << i;
  }
  if (!c.contains("grad_fn")) return;
  const json& fns = c.at("grad_fn");
  Tensor loss;
  for (size_t i = 0; i < outs.size(); ++i) {
    const auto& fn_ptr = autograd::grad_fn(out.tensors[i]);
    std::string have = fn_ptr ? fn_ptr->name() : "None";
    std::string want = fns[i].is_null() ? "None" : fns[i].get<std::string>();
    EXPECT_EQ(have, want) << "grad_fn of output " << i;
    const json& w = c.at("weights")[i];
    if (w.is_null() || !out.tensors[i].requires_grad()) continue;
    Tensor term = ops::sum(ops::mul_Tensor(out.tensors[i], make_tensor(w)));
    loss = loss.defined() ? ops::add_Tensor(loss, term) : term;
  }
  if (!loss.defined()) return;
  autograd::backward(loss, std::nullopt, false);
  const json& grads = c.at("grads");
  for (size_t i = 0; i < grads.size(); ++i) {
    Tensor g = inputs[i].defined() ? autograd::autograd_meta(inputs[i]).grad : Tensor();
    if (grads[i].is_null()) {
      EXPECT_FALSE(g.defined()) << "input " << i << " should get no gradient";
      continue;
    }
    std::string diff = compare(g, grads[i], false);
    EXPECT_EQ(diff, "") << "gradient of input " << i;
  }
}

}  // namespace

TEST(OpsExpected, EveryCaseHasAFunctionAndEveryFunctionACase) {
  std::set<std::string> in_json;
  for (const json& c : expected().at("cases")) in_json.insert(c.at("name").get<std::string>());
  for (const auto& [name, fn] : kCases) EXPECT_TRUE(in_json.count(name)) << name << " has no case in ops_expected.json";
  for (const auto& name : in_json)
    EXPECT_TRUE(kCases.count(name)) << name << " has no function in ops_expected_cases.cpp";
}

// One test per operator family (the part of the name before '/'), so failures group by op.
class OpsExpectedFamily : public testing::TestWithParam<std::string> {};

TEST_P(OpsExpectedFamily, MatchesPyTorch) {
  int n = 0;
  for (const json& c : expected().at("cases")) {
    const std::string name = c.at("name");
    if (name.substr(0, name.find('/')) != GetParam()) continue;
    auto it = kCases.find(name);
    if (it == kCases.end()) continue;
    run_case(c, it->second);
    ++n;
  }
  EXPECT_GT(n, 0);
}

static std::vector<std::string> families() {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const json& c : expected().at("cases")) {
    std::string name = c.at("name");
    std::string f = name.substr(0, name.find('/'));
    if (seen.insert(f).second) out.push_back(f);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Ops, OpsExpectedFamily, testing::ValuesIn(families()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string s;
                           for (char ch : info.param) s += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           return s;
                         });
