// schema_to_json() fields for the schemas the lessons show most: add in its three
// forms, a view returning a list (split), and a named-tuple return (max.dim).

#include <gtest/gtest.h>

#include "core/schema/schema_json.h"
#include "core/schema/schema_parser.h"

namespace ipt::schema {
namespace {

using nlohmann::json;

json to_json(const std::string& text) { return schema_to_json(parse_schema(text)); }

TEST(SchemaJson, AddTensor) {
  json j = to_json("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(j["name"], "add");
  EXPECT_EQ(j["overload_name"], "Tensor");
  EXPECT_EQ(j["schema"], "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(j["is_inplace"], false);
  EXPECT_EQ(j["is_out"], false);
  EXPECT_EQ(j["is_mutable"], false);
  EXPECT_EQ(j["kind"], "functional");
  ASSERT_EQ(j["arguments"].size(), 3u);
  EXPECT_EQ(j["arguments"][0], json::parse(R"({
      "name": "self", "type": "Tensor", "default": null, "kwarg_only": false, "is_out": false,
      "alias_set": [], "alias_after_set": [], "is_write": false})"));
  EXPECT_EQ(j["arguments"][2]["name"], "alpha");
  EXPECT_EQ(j["arguments"][2]["type"], "Scalar");
  EXPECT_EQ(j["arguments"][2]["default"], "1");
  EXPECT_EQ(j["arguments"][2]["kwarg_only"], true);
  ASSERT_EQ(j["returns"].size(), 1u);
  EXPECT_EQ(j["returns"][0], json::parse(R"({
      "name": null, "type": "Tensor", "alias_set": [], "alias_after_set": [], "is_write": false})"));
}

TEST(SchemaJson, AddInplace) {
  json j = to_json("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  EXPECT_EQ(j["name"], "add_");
  EXPECT_EQ(j["is_inplace"], true);
  EXPECT_EQ(j["is_out"], false);
  EXPECT_EQ(j["is_mutable"], true);
  EXPECT_EQ(j["kind"], "inplace");
  EXPECT_EQ(j["arguments"][0]["type"], "Tensor");
  EXPECT_EQ(j["arguments"][0]["alias_set"], json::array({"a"}));
  EXPECT_EQ(j["arguments"][0]["is_write"], true);
  EXPECT_EQ(j["arguments"][0]["is_out"], false);
  EXPECT_EQ(j["returns"][0]["alias_set"], json::array({"a"}));
  EXPECT_EQ(j["returns"][0]["is_write"], true);
}

TEST(SchemaJson, AddOut) {
  json j = to_json("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  EXPECT_EQ(j["overload_name"], "out");
  EXPECT_EQ(j["is_inplace"], false);
  EXPECT_EQ(j["is_out"], true);
  EXPECT_EQ(j["is_mutable"], true);
  EXPECT_EQ(j["kind"], "out");
  const json& out = j["arguments"][3];
  EXPECT_EQ(out["name"], "out");
  EXPECT_EQ(out["kwarg_only"], true);
  EXPECT_EQ(out["is_out"], true);
  EXPECT_EQ(out["is_write"], true);
  EXPECT_EQ(out["alias_set"], json::array({"a"}));
  EXPECT_EQ(out["default"], nullptr);
}

TEST(SchemaJson, SplitIsAViewReturningAList) {
  json j = to_json("split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]");
  EXPECT_EQ(j["name"], "split");
  EXPECT_EQ(j["overload_name"], "Tensor");
  EXPECT_EQ(j["schema"], "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]");
  EXPECT_EQ(j["is_inplace"], false);
  EXPECT_EQ(j["is_out"], false);
  EXPECT_EQ(j["is_mutable"], false);
  const json& self = j["arguments"][0];
  EXPECT_EQ(self["alias_set"], json::array({"a"}));
  EXPECT_EQ(self["alias_after_set"], json::array({"*"}));
  EXPECT_EQ(self["is_write"], false);
  EXPECT_EQ(j["arguments"][1]["type"], "SymInt");
  EXPECT_EQ(j["arguments"][2]["default"], "0");
  EXPECT_EQ(j["returns"][0]["type"], "Tensor[]");
  EXPECT_EQ(j["returns"][0]["alias_set"], json::array({"a"}));
  EXPECT_EQ(j["returns"][0]["name"], nullptr);
}

TEST(SchemaJson, MaxDimHasNamedReturns) {
  json j = to_json("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  EXPECT_EQ(j["name"], "max");
  EXPECT_EQ(j["overload_name"], "dim");
  EXPECT_EQ(j["arguments"][2]["default"], "False");
  EXPECT_EQ(j["arguments"][2]["type"], "bool");
  ASSERT_EQ(j["returns"].size(), 2u);
  EXPECT_EQ(j["returns"][0]["name"], "values");
  EXPECT_EQ(j["returns"][1]["name"], "indices");
  EXPECT_EQ(j["returns"][1]["type"], "Tensor");
  EXPECT_EQ(j["returns"][1]["alias_set"], json::array());
}

TEST(SchemaJson, NoOverloadAndNestedTypes) {
  json j =
      to_json("index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)");
  EXPECT_EQ(j["overload_name"], "");
  EXPECT_EQ(j["arguments"][1]["type"], "Tensor?[]");
  EXPECT_EQ(j["is_vararg"], false);
  EXPECT_EQ(j["is_varret"], false);
}

}  // namespace
}  // namespace ipt::schema
