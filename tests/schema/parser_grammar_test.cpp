// What parse_schema() builds for each grammar feature: names and overloads, keyword-only
// arguments, defaults, type trees, alias annotations, returns and varargs.

#include <gtest/gtest.h>

#include "core/schema/schema_parser.h"

namespace ipt::schema {
namespace {

Type parse_arg_type(const std::string& type_text) {
  return parse_schema("f(" + type_text + " x) -> ()").arguments.at(0).type;
}

std::optional<std::string> parse_default(const std::string& literal) {
  return parse_schema("f(int x=" + literal + ") -> ()").arguments.at(0).default_value;
}

AliasInfo parse_alias(const std::string& annotation) {
  return parse_schema("f(Tensor" + annotation + " x) -> ()").arguments.at(0).alias.value();
}

TEST(Grammar, NameAndOverload) {
  auto s = parse_schema("add.Tensor(Tensor self, Tensor other) -> Tensor");
  EXPECT_EQ(s.name, "add");
  EXPECT_EQ(s.overload_name, "Tensor");
  EXPECT_EQ(s.full_name(), "add.Tensor");
  auto t = parse_schema("relu(Tensor self) -> Tensor");
  EXPECT_EQ(t.name, "relu");
  EXPECT_EQ(t.overload_name, "");
  EXPECT_EQ(t.full_name(), "relu");
  EXPECT_EQ(parse_schema("aten::relu(Tensor self) -> Tensor").name, "aten::relu");
}

TEST(Grammar, KeywordOnlyArguments) {
  auto s = parse_schema("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  ASSERT_EQ(s.arguments.size(), 4u);
  EXPECT_FALSE(s.arguments[0].kwarg_only);
  EXPECT_FALSE(s.arguments[1].kwarg_only);
  EXPECT_TRUE(s.arguments[2].kwarg_only);
  EXPECT_TRUE(s.arguments[3].kwarg_only);
  EXPECT_FALSE(s.arguments[2].is_out);
  EXPECT_TRUE(s.arguments[3].is_out);
  EXPECT_EQ(s.arguments[3].name, "out");
}

TEST(Grammar, AllKeywordOnly) {
  auto s = parse_schema("empty(*, int n) -> Tensor");
  ASSERT_EQ(s.arguments.size(), 1u);
  EXPECT_TRUE(s.arguments[0].kwarg_only);
}

TEST(Grammar, MutableSelfIsNotAnOutArgument) {
  auto s = parse_schema("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  EXPECT_FALSE(s.arguments[0].is_out);
  EXPECT_TRUE(s.arguments[0].alias->is_write);
}

TEST(Grammar, DefaultsKeepTheirLiteralText) {
  for (const char* lit : {"1",
                          "0",
                          "-1",
                          "-100",
                          "1e-05",
                          "1e-08",
                          "0.5",
                          "0.3333333333333333",
                          "10.0",
                          ".5",
                          "1E+3",
                          "True",
                          "False",
                          "None",
                          "\"L\"",
                          "'fro'",
                          "\"valid\"",
                          "[0,1]",
                          "[-2,-1]",
                          "[]",
                          "contiguous_format",
                          "Mean",
                          "long",
                          "[ 0, 1 ]",
                          R"('a\'b')",
                          R"("x\"y")"})
    EXPECT_EQ(parse_default(lit), lit) << lit;
  EXPECT_EQ(parse_schema("f(int x) -> ()").arguments[0].default_value, std::nullopt);
}

TEST(Grammar, StringDefaultMayHoldCommasAndParentheses) {
  auto s = parse_schema("f(str a=\"x, y) -> z\", int b=2) -> ()");
  ASSERT_EQ(s.arguments.size(), 2u);
  EXPECT_EQ(s.arguments[0].default_value, "\"x, y) -> z\"");
  EXPECT_EQ(s.arguments[1].default_value, "2");
}

TEST(Grammar, BaseTypes) {
  for (const char* name : {"Tensor", "int", "SymInt", "float", "bool", "str", "Scalar", "ScalarType", "Device",
                           "Layout", "MemoryFormat", "Generator", "Dimname", "Storage", "Stream", "QScheme"}) {
    Type t = parse_arg_type(name);
    EXPECT_EQ(t.kind, Type::Kind::Base);
    EXPECT_EQ(t.name, name);
    EXPECT_EQ(t.str(), name);
  }
}

TEST(Grammar, OptionalAndListTypes) {
  Type opt = parse_arg_type("Tensor?");
  EXPECT_TRUE(opt.is_optional());
  EXPECT_EQ(opt.element(), Type::base("Tensor"));

  Type list = parse_arg_type("int[]");
  EXPECT_TRUE(list.is_list());
  EXPECT_EQ(list.size, std::nullopt);
  EXPECT_EQ(list.element(), Type::base("int"));

  Type fixed = parse_arg_type("int[2]");
  EXPECT_TRUE(fixed.is_list());
  EXPECT_EQ(fixed.size, 2);
  EXPECT_EQ(fixed.str(), "int[2]");
}

TEST(Grammar, NestedTypesReadInsideOut) {
  // Tensor?[]: a list of optional tensors.
  Type a = parse_arg_type("Tensor?[]");
  EXPECT_EQ(a, Type::list(Type::optional(Type::base("Tensor"))));
  EXPECT_EQ(a.base_name(), "Tensor");
  // int[1]?: an optional list of one int.
  Type b = parse_arg_type("int[1]?");
  EXPECT_EQ(b, Type::optional(Type::list(Type::base("int"), 1)));
  EXPECT_EQ(b.str(), "int[1]?");
  EXPECT_EQ(parse_arg_type("Dimname[]?").str(), "Dimname[]?");
  EXPECT_NE(parse_arg_type("int[2]"), parse_arg_type("int[3]"));
}

TEST(Grammar, AliasAnnotations) {
  AliasInfo a = parse_alias("(a)");
  EXPECT_EQ(a.before_set, std::vector<std::string>{"a"});
  EXPECT_FALSE(a.is_write);
  EXPECT_TRUE(a.after_set.empty());

  AliasInfo w = parse_alias("(a!)");
  EXPECT_TRUE(w.is_write);

  AliasInfo after = parse_alias("(a -> *)");
  EXPECT_EQ(after.before_set, std::vector<std::string>{"a"});
  EXPECT_EQ(after.after_set, std::vector<std::string>{"*"});
  EXPECT_FALSE(after.is_write);

  AliasInfo either = parse_alias("(b|c)");
  EXPECT_EQ(either.before_set, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(either.str(), "(b|c)");

  AliasInfo wildcard = parse_alias("(*)");
  EXPECT_EQ(wildcard.before_set, std::vector<std::string>{"*"});
}

TEST(Grammar, AliasOnListElement) {
  auto s = parse_schema("_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()");
  const Argument& self = s.arguments[0];
  EXPECT_EQ(self.type, Type::list(Type::base("Tensor")));
  ASSERT_TRUE(self.alias);
  EXPECT_TRUE(self.alias->is_write);
  EXPECT_EQ(self.str(), "Tensor(a!)[] self");
  EXPECT_EQ(self.type.str(), "Tensor[]");
}

TEST(Grammar, ReturnForms) {
  EXPECT_TRUE(parse_schema("f(Tensor(a!) x) -> ()").returns.empty());

  auto single = parse_schema("f(Tensor x) -> Tensor").returns;
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0].name, "");
  EXPECT_EQ(single[0].type, Type::base("Tensor"));

  auto named =
      parse_schema(
          "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)")
          .returns;
  ASSERT_EQ(named.size(), 2u);
  EXPECT_EQ(named[0].name, "values");
  EXPECT_EQ(named[1].name, "indices");
  EXPECT_EQ(named[1].alias->before_set, std::vector<std::string>{"b"});
  EXPECT_TRUE(named[1].alias->is_write);

  auto unnamed = parse_schema("f(Tensor x) -> (Tensor, Tensor, Tensor)").returns;
  EXPECT_EQ(unnamed.size(), 3u);

  auto list = parse_schema("split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]").returns;
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].type.str(), "Tensor[]");
  EXPECT_EQ(list[0].alias->before_set, std::vector<std::string>{"a"});
  EXPECT_EQ(parse_schema("f(Tensor x) -> bool").returns[0].type, Type::base("bool"));
}

TEST(Grammar, Varargs) {
  auto s = parse_schema("aten::format(str self, ...) -> str");
  EXPECT_TRUE(s.is_vararg);
  EXPECT_FALSE(s.is_varret);
  EXPECT_EQ(s.arguments.size(), 1u);

  auto r = parse_schema("prim::TupleUnpack(Any tup) -> ...");
  EXPECT_TRUE(r.is_varret);
  EXPECT_TRUE(r.returns.empty());

  auto both = parse_schema("f(...) -> (Tensor, ...)");
  EXPECT_TRUE(both.is_vararg);
  EXPECT_TRUE(both.is_varret);
  EXPECT_EQ(both.returns.size(), 1u);
}

TEST(Grammar, InplaceOutMutableFlags) {
  auto functional = parse_schema("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_FALSE(functional.is_inplace());
  EXPECT_FALSE(functional.is_out());
  EXPECT_FALSE(functional.is_mutable());

  auto inplace = parse_schema("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  EXPECT_TRUE(inplace.is_inplace());
  EXPECT_FALSE(inplace.is_out());
  EXPECT_TRUE(inplace.is_mutable());

  auto out = parse_schema("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_FALSE(out.is_inplace());
  EXPECT_TRUE(out.is_out());
  EXPECT_TRUE(out.is_mutable());

  EXPECT_FALSE(parse_schema("__and__.Tensor(Tensor self, Tensor other) -> Tensor").is_inplace());
  EXPECT_TRUE(parse_schema("__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)").is_inplace());
  EXPECT_TRUE(parse_schema("_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()").is_inplace());
  EXPECT_TRUE(parse_schema("aten::relu_(Tensor(a!) self) -> Tensor(a!)").is_inplace());
  // A view is not mutable: its alias annotation has no '!'.
  EXPECT_FALSE(
      parse_schema("split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]").is_mutable());
}

TEST(Grammar, KnownBaseTypes) {
  EXPECT_TRUE(is_known_base_type("Tensor"));
  EXPECT_TRUE(is_known_base_type("SymInt"));
  EXPECT_FALSE(is_known_base_type("Tensr"));
  EXPECT_FALSE(is_known_base_type("tensor"));
}

}  // namespace
}  // namespace ipt::schema
