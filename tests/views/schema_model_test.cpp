// The Schema view's model (core/views/schema_model.h): rows, alias links and kind of a schema,
// and a malformed text's column.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/views/schema_model.h"

namespace ipt::views {
namespace {

using Kind = schema::FunctionSchema::Kind;

TEST(SchemaModel, InPlaceAddWritesSelfAndReturnsIt) {
  SchemaModel m = schema_model("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(qualified_name(m.schema), "aten::add_.Tensor");
  ASSERT_EQ(m.args.size(), 3u);
  EXPECT_EQ(m.args[0].type, "Tensor(a!)");
  EXPECT_TRUE(m.args[0].write);
  EXPECT_FALSE(m.args[1].write);
  EXPECT_TRUE(m.args[2].kwarg_only);
  EXPECT_EQ(m.args[2].default_value, "1");
  ASSERT_EQ(m.links.size(), 1u);
  EXPECT_EQ(m.links[0].arg, 0u);
  EXPECT_EQ(m.links[0].ret, 0u);
  EXPECT_EQ(m.links[0].set, "a");
  EXPECT_TRUE(m.links[0].write);
  EXPECT_EQ(m.kind, Kind::Inplace);
  EXPECT_EQ(m.reason, KindReason::InplaceName);
  EXPECT_EQ(m.because, std::vector<std::string>{"self"});
}

TEST(SchemaModel, OutFormWritesItsOutBuffer) {
  SchemaModel m = schema_model("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  ASSERT_TRUE(m.ok);
  EXPECT_TRUE(m.args[3].is_out);
  ASSERT_EQ(m.links.size(), 1u);
  EXPECT_EQ(m.links[0].arg, 3u);
  EXPECT_EQ(m.kind, Kind::Out);
  EXPECT_EQ(m.because, std::vector<std::string>{"out"});
}

TEST(SchemaModel, AViewIsFunctionalAndLinksItsResult) {
  SchemaModel m = schema_model("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)");
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.kind, Kind::Functional);
  EXPECT_EQ(m.reason, KindReason::FunctionalView);
  ASSERT_EQ(m.links.size(), 1u);
  EXPECT_FALSE(m.links[0].write);
  SchemaModel f = schema_model("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(f.reason, KindReason::Functional);
  EXPECT_TRUE(f.links.empty());
}

TEST(SchemaModel, AWildcardAfterSetLinksTheListResult) {
  SchemaModel m = schema_model("unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]");
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(m.args[0].after, std::vector<std::string>{"*"});
  ASSERT_EQ(m.links.size(), 1u);
  EXPECT_EQ(m.links[0].set, "a");
  EXPECT_EQ(m.returns[0].type, "Tensor(a)[]");
}

TEST(SchemaModel, MutableAndDunderKinds) {
  SchemaModel h = schema_model("_cummax_helper(Tensor self, Tensor(a!) values, Tensor(b!) indices, int dim) -> ()");
  ASSERT_TRUE(h.ok);
  EXPECT_EQ(h.kind, Kind::Mutable);
  EXPECT_EQ(h.because, (std::vector<std::string>{"values", "indices"}));
  EXPECT_TRUE(h.links.empty());
  SchemaModel d = schema_model("__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  EXPECT_EQ(d.reason, KindReason::InplaceDunder);
}

TEST(SchemaModel, AMalformedSchemaNamesItsColumn) {
  SchemaModel m = schema_model("add(Tensor self -> Tensor");
  EXPECT_FALSE(m.ok);
  EXPECT_EQ(m.error_column, 16u);
  EXPECT_NE(m.error_detail.find("expected"), std::string::npos) << m.error_detail;
  EXPECT_NE(render_schema_text(m).find("column 16"), std::string::npos);
}

// Every schema of PyTorch 2.15 gets a model whose kind is torchgen's.
TEST(SchemaModel, EveryPyTorchSchemaHasTorchgensKind) {
  std::ifstream in(IPT_SCHEMA_KINDS_EXPECTED);
  ASSERT_TRUE(in) << IPT_SCHEMA_KINDS_EXPECTED;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream is(line);
    std::string kind, func;
    int inplace = 0;
    is >> kind >> inplace;
    std::getline(is >> std::ws, func);
    SchemaModel m = schema_model(func);
    ASSERT_TRUE(m.ok) << func << ": " << m.error;
    EXPECT_EQ(schema::kind_name(m.kind), kind) << func;
    for (const auto& l : m.links) EXPECT_EQ(l.write, m.args[l.arg].write) << func;
    ++n;
  }
  EXPECT_EQ(n, 2590);
}

TEST(SchemaModel, TextRenderingListsRowsLinksAndKind) {
  std::string t =
      render_schema_text(schema_model("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"));
  EXPECT_NE(t.find("arg 0  self  Tensor(a!)  written"), std::string::npos) << t;
  EXPECT_NE(t.find("alias self -> return 0 (set a, written)"), std::string::npos) << t;
  EXPECT_NE(t.find("kind inplace"), std::string::npos) << t;
}

}  // namespace
}  // namespace ipt::views
