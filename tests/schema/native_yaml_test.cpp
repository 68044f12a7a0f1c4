// Reading native_functions.yaml-format text: the fields of an entry, the tolerant
// bulk check, and errors that name the file and line.

#include <gtest/gtest.h>

#include "core/schema/native_yaml.h"
#include "core/util/error.h"

namespace ipt::schema {
namespace {

const char* kSample = R"(# A comment line
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  device_check: NoCheck   # TensorIterator
  structured_delegate: add.out
  variants: function, method
  dispatch:
    SparseCPU, SparseCUDA: add_sparse
    MkldnnCPU: mkldnn_add

- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  structured: True
  dispatch:
    CPU, CUDA: add_out

- func: _backward(Tensor self, Tensor[] inputs, Tensor? gradient=None, bool? retain_graph=None, bool create_graph=False) -> ()
  manual_cpp_binding: True
  variants: method
  dispatch:
    CompositeImplicitAutograd: _backward
)";

TEST(NativeYaml, ReadsEntryFields) {
  auto entries = load_native_functions_from_string(kSample, "sample.yaml");
  ASSERT_EQ(entries.size(), 3u);

  const auto& add = entries[0];
  EXPECT_EQ(add.line, 2);
  EXPECT_EQ(add.func, "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(add.schema.full_name(), "add.Tensor");
  EXPECT_EQ(add.variants, (std::vector<std::string>{"function", "method"}));
  EXPECT_EQ(add.structured_delegate, "add.out");
  EXPECT_FALSE(add.structured);
  EXPECT_FALSE(add.manual_cpp_binding);
  EXPECT_EQ(add.dispatch, (std::map<std::string, std::string>{
                              {"SparseCPU", "add_sparse"}, {"SparseCUDA", "add_sparse"}, {"MkldnnCPU", "mkldnn_add"}}));

  const auto& out = entries[1];
  EXPECT_EQ(out.line, 10);
  EXPECT_TRUE(out.structured);
  EXPECT_EQ(out.structured_delegate, std::nullopt);
  EXPECT_EQ(out.variants, std::vector<std::string>{"function"});  // the default
  EXPECT_EQ(out.dispatch.at("CPU"), "add_out");
  EXPECT_EQ(out.dispatch.at("CUDA"), "add_out");
  EXPECT_TRUE(out.schema.is_out());

  const auto& backward = entries[2];
  EXPECT_EQ(backward.line, 15);
  EXPECT_TRUE(backward.manual_cpp_binding);
  EXPECT_EQ(backward.variants, std::vector<std::string>{"method"});
  EXPECT_EQ(backward.dispatch.at("CompositeImplicitAutograd"), "_backward");
  EXPECT_TRUE(backward.schema.returns.empty());
}

TEST(NativeYaml, EmptyDocumentHasNoEntries) {
  EXPECT_TRUE(load_native_functions_from_string("", "empty.yaml").empty());
  EXPECT_TRUE(load_native_functions_from_string("# only a comment\n", "empty.yaml").empty());
}

std::string error_of(const std::string& text) {
  try {
    load_native_functions_from_string(text, "bad.yaml");
  } catch (const ipt::Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::RuntimeError);
    return e.what();
  }
  ADD_FAILURE() << "loaded without error:\n" << text;
  return "";
}

#define EXPECT_STARTS_WITH(text, prefix) EXPECT_EQ(std::string(text).substr(0, std::string(prefix).size()), prefix)

TEST(NativeYaml, InvalidYamlNamesFileAndLine) {
  EXPECT_STARTS_WITH(error_of("- func: f() -> ()\n- func: [unclosed\n"), "bad.yaml:");
  EXPECT_NE(error_of("- func: f() -> ()\n- func: [unclosed\n").find("invalid YAML"), std::string::npos);
}

TEST(NativeYaml, StructuralErrors) {
  EXPECT_STARTS_WITH(error_of("func: f() -> ()\n"), "bad.yaml:1: expected a list of entries");
  EXPECT_STARTS_WITH(error_of("- func: f() -> ()\n- variants: method\n"), "bad.yaml:2: entry has no 'func'");
  EXPECT_STARTS_WITH(error_of("- just a string\n"), "bad.yaml:1: entry is not a mapping");
  EXPECT_STARTS_WITH(error_of("- func: [a, b]\n"), "bad.yaml:1: 'func' must be a string");
}

TEST(NativeYaml, WrongFieldTypes) {
  EXPECT_STARTS_WITH(error_of("- func: f() -> ()\n  structured: maybe\n"),
                     "bad.yaml:2: 'structured' must be True or False");
  EXPECT_STARTS_WITH(error_of("- func: f() -> ()\n\n  manual_cpp_binding: [1]\n"),
                     "bad.yaml:3: 'manual_cpp_binding' must be True or False");
  EXPECT_STARTS_WITH(error_of("- func: f() -> ()\n  dispatch: CPU\n"), "bad.yaml:2: 'dispatch' must be a mapping");
  EXPECT_STARTS_WITH(error_of("- func: f() -> ()\n  variants: function, lambda\n"),
                     "bad.yaml:2: unknown variant 'lambda'");
  EXPECT_STARTS_WITH(error_of("- func: f() -> ()\n  dispatch:\n    CPU: a\n    CPU, CUDA: b\n"),
                     "bad.yaml:4: dispatch key 'CPU' given twice");
  EXPECT_STARTS_WITH(error_of("- func: f() -> ()\n  structured_delegate:\n    a: b\n"),
                     "bad.yaml:3: 'structured_delegate' must be a string");
}

TEST(NativeYaml, BadSchemaNamesLineAndColumn) {
  std::string msg = error_of("- func: f() -> ()\n\n- func: g(Tensor self -> Tensor\n");
  EXPECT_STARTS_WITH(msg, "bad.yaml:3: cannot parse func: schema error at column 14");
}

TEST(NativeYaml, ParseAllFuncsKeepsGoing) {
  const char* text = R"(- func: ok(Tensor self) -> Tensor
- func: bad(Tensor self -> Tensor
- func: also_ok(Tensor self) -> Tensor
- variants: method
- func: bad2(Tensr self) -> ()
)";
  ParseReport r = parse_all_funcs_from_string(text, "mixed.yaml");
  EXPECT_EQ(r.source, "mixed.yaml");
  EXPECT_EQ(r.entries, 5);
  EXPECT_EQ(r.parsed, 2);
  EXPECT_FALSE(r.all_ok());
  ASSERT_EQ(r.failures.size(), 3u);
  EXPECT_EQ(r.failures[0].line, 2);
  EXPECT_EQ(r.failures[0].func, "bad(Tensor self -> Tensor");
  EXPECT_STARTS_WITH(r.failures[0].error, "schema error at column 16: expected ')' or ','");
  EXPECT_EQ(r.failures[1].line, 4);
  EXPECT_EQ(r.failures[1].func, "");
  EXPECT_NE(r.failures[1].error.find("entry has no 'func'"), std::string::npos);
  EXPECT_EQ(r.failures[2].line, 5);
  EXPECT_STARTS_WITH(r.failures[2].error, "schema error at column 5: unknown type 'Tensr'");
}

TEST(NativeYaml, MissingFileIsAnError) {
  EXPECT_THROW(load_native_functions("/nonexistent/native_functions.yaml"), ipt::Error);
  EXPECT_THROW(parse_all_funcs("/nonexistent/native_functions.yaml"), ipt::Error);
}

}  // namespace
}  // namespace ipt::schema
