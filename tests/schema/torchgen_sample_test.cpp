// The project's parse of PyTorch 2.15's native_functions.yaml agrees with torchgen's on a sample
// (every 10th entry and every `core` entry), field by field: name and overload, each argument's
// name, type, default, keyword-only flag and alias annotation, each return's name, type and
// alias annotation. gen_torchgen_sample.py recorded torchgen's reading from the same file.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "core/schema/schema_parser.h"

namespace ipt::schema {
namespace {

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream is(line);
  for (std::string f; std::getline(is, f, '\t');) out.push_back(f);
  return out;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : "|") + n;
  return out;
}

// torchgen's fields for an alias annotation: the set before, is_write, the set after ('-' for none).
std::vector<std::string> alias_fields(const std::optional<AliasInfo>& a) {
  if (!a) return {"-", "0", "-"};
  return {join(a->before_set), a->is_write ? "1" : "0", a->after_set.empty() ? "-" : join(a->after_set)};
}

struct Sample {
  std::string func;
  std::vector<std::vector<std::string>> lines;  // name, arg and ret lines, split
};

std::vector<Sample> load_sample() {
  std::vector<Sample> out;
  std::ifstream in(IPT_TORCHGEN_SAMPLE_EXPECTED);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto f = fields_of(line);
    if (f[0] == "schema") out.push_back({line.substr(7), {}});
    else if (!out.empty()) out.back().lines.push_back(std::move(f));
  }
  return out;
}

TEST(TorchgenSample, FieldByField) {
  const auto sample = load_sample();
  ASSERT_GT(sample.size(), 400u) << "missing or short " << IPT_TORCHGEN_SAMPLE_EXPECTED;
  size_t args = 0, rets = 0, annotated = 0;
  for (const Sample& s : sample) {
    SCOPED_TRACE(s.func);
    const FunctionSchema p = parse_schema(s.func);
    size_t a = 0, r = 0;
    for (const auto& f : s.lines) {
      if (f[0] == "name") {
        ASSERT_EQ(f.size(), 3u);
        EXPECT_EQ(p.name, f[1]);
        EXPECT_EQ(p.overload_name, f[2] == "-" ? "" : f[2]);
      } else if (f[0] == "arg") {
        ASSERT_EQ(f.size(), 8u);
        ASSERT_LT(a, p.arguments.size());
        const Argument& arg = p.arguments[a++];
        EXPECT_EQ(arg.name, f[1]);
        EXPECT_EQ(arg.type.str(), f[2]) << arg.name;
        EXPECT_EQ(arg.default_value.value_or("-"), f[3]) << arg.name;
        EXPECT_EQ(arg.kwarg_only ? "1" : "0", f[4]) << arg.name;
        EXPECT_EQ(alias_fields(arg.alias), (std::vector<std::string>{f[5], f[6], f[7]})) << arg.name;
        annotated += arg.alias.has_value();
        ++args;
      } else if (f[0] == "ret") {
        ASSERT_EQ(f.size(), 6u);
        ASSERT_LT(r, p.returns.size());
        const Return& ret = p.returns[r++];
        EXPECT_EQ(ret.name.empty() ? "-" : ret.name, f[1]);
        EXPECT_EQ(ret.type.str(), f[2]);
        EXPECT_EQ(alias_fields(ret.alias), (std::vector<std::string>{f[3], f[4], f[5]}));
        ++rets;
      }
    }
    EXPECT_EQ(a, p.arguments.size());
    EXPECT_EQ(r, p.returns.size());
  }
  EXPECT_GT(args, 1000u);
  EXPECT_GT(rets, 400u);
  EXPECT_GT(annotated, 50u);
}

}  // namespace
}  // namespace ipt::schema
