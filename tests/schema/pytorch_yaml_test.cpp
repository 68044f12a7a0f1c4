// PyTorch 2.15's own native_functions.yaml (core/ops/pytorch/, embedded as product data): every
// func parses, prints back unchanged, and the entry count matches `grep -c '^- func:'`.

#include <gtest/gtest.h>

#include <fstream>

#include "core/schema/native_yaml.h"
#include "core/schema/schema_parser.h"

namespace ipt::schema {
namespace {

const std::string kPath = IPT_NATIVE_FUNCTIONS_YAML;

// What `grep -c '^- func:' file` prints.
int count_func_lines(const std::string& path) {
  std::ifstream in(path);
  int n = 0;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("- func:", 0) == 0) ++n;
  return n;
}

TEST(PyTorchNativeFunctions, EveryFuncParses) {
  ParseReport r = parse_all_funcs(kPath);
  EXPECT_EQ(r.entries, 2590);
  EXPECT_EQ(r.parsed, r.entries);
  for (const auto& f : r.failures) ADD_FAILURE() << "line " << f.line << ": " << f.func << "\n" << f.error;
}

TEST(PyTorchNativeFunctions, CountMatchesGrep) {
  int grep_count = count_func_lines(kPath);
  EXPECT_GT(grep_count, 2000);
  EXPECT_EQ(parse_all_funcs(kPath).parsed, grep_count);
  EXPECT_EQ(static_cast<int>(load_native_functions(kPath).size()), grep_count);
}

TEST(PyTorchNativeFunctions, StrictLoadAndRoundTrip) {
  auto entries = load_native_functions(kPath);
  int mismatches = 0;
  for (const auto& e : entries) {
    if (e.schema.str() != e.func && ++mismatches <= 10)
      ADD_FAILURE() << "line " << e.line << "\n  file:    " << e.func << "\n  printed: " << e.schema.str();
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(PyTorchNativeFunctions, KnownEntries) {
  auto entries = load_native_functions(kPath);
  const NativeFunctionEntry* add_out = nullptr;
  const NativeFunctionEntry* add = nullptr;
  const NativeFunctionEntry* mul_out = nullptr;
  for (const auto& e : entries) {
    if (e.schema.full_name() == "mul.out") mul_out = &e;
    if (e.schema.full_name() == "add.out") add_out = &e;
    if (e.schema.full_name() == "add.Tensor") add = &e;
  }
  ASSERT_NE(add_out, nullptr);
  ASSERT_NE(add, nullptr);
  ASSERT_NE(mul_out, nullptr);
  EXPECT_EQ(mul_out->dispatch.at("CPU"), "mul_out");  // "CPU, CUDA, MPS, MTIA, XPU: mul_out"
  EXPECT_EQ(mul_out->dispatch.at("XPU"), "mul_out");
  EXPECT_TRUE(add_out->structured);
  EXPECT_EQ(add->line, 541);
  EXPECT_EQ(add_out->line, add->line + 23);
  EXPECT_EQ(add_out->dispatch.at("SparseCPU"), "add_out_sparse_cpu");  // "SparseCPU, SparseMeta: ..."
  EXPECT_EQ(add_out->dispatch.at("SparseMeta"), "add_out_sparse_cpu");
  EXPECT_EQ(add->dispatch.at("SparseCPU"), "add_sparse");
  EXPECT_EQ(add->dispatch.at("SparseXPU"), "add_sparse");
  EXPECT_EQ(add->structured_delegate, "add.out");
  EXPECT_EQ(add->variants, (std::vector<std::string>{"function", "method"}));
}

}  // namespace
}  // namespace ipt::schema
