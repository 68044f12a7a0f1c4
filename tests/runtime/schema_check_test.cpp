// The schema check mode (Note [Schema check mode]): each check fires on the operator mis-declared
#include <algorithm>
// for it, and the real operators that write, view or return out= pass.
#include <gtest/gtest.h>

#include <string>

#include "core/ops/schema_check.h"
#include "core/util/error.h"
#include "generated/ops.h"

using namespace ipt;
using Kind = schema_check::Finding::Kind;
using V = std::vector<int64_t>;

namespace {

// Switches the mode on for one test and off again, leaving no findings behind.
struct CheckScope {
  explicit CheckScope(bool raise = true) {
    schema_check::clear();
    schema_check::set_enabled(true, raise);
  }
  ~CheckScope() {
    schema_check::set_enabled(false);
    schema_check::clear();
  }
};

std::string raised_by(void (*call)()) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

int count(Kind kind) {
  int n = 0;
  for (const auto& f : schema_check::findings()) n += f.kind == kind;
  return n;
}

}  // namespace

TEST(SchemaCheck, UnannotatedWriteRaisesWithPyTorchsWords) {
  CheckScope on;
  std::string what = raised_by([] { ops::_test_schema_unannotated_write(ops::ones(V{3})); });
  EXPECT_NE(what.find("Argument input is not defined as mutable but was mutated"), std::string::npos) << what;
  EXPECT_NE(what.find("aten::_test_schema_unannotated_write"), std::string::npos) << what;
}

TEST(SchemaCheck, UnannotatedAliasRaises) {
  CheckScope on;
  std::string what = raised_by([] { ops::_test_schema_unannotated_alias(ops::ones(V{3})); });
  EXPECT_NE(what.find("Argument input is not defined to alias output but was aliasing"), std::string::npos) << what;
}

TEST(SchemaCheck, OutputsThatAliasRaise) {
  CheckScope on;
  std::string what = raised_by([] { ops::_test_schema_outputs_alias(ops::ones(V{3})); });
  EXPECT_NE(what.find("Outputs 0 and 1 alias unexpectedly"), std::string::npos) << what;
}

TEST(SchemaCheck, AnnotatedButUnchangedIsAFindingNotAnError) {
  CheckScope on;
  Tensor x = ops::ones(V{3});
  EXPECT_NO_THROW(ops::_test_schema_unused_write(x));
  EXPECT_EQ(count(Kind::AnnotatedButUnchanged), 1);
  EXPECT_EQ(count(Kind::MutatedWithoutAnnotation), 0);
}

TEST(SchemaCheck, WithoutRaisingTheViolationIsRecordedAndTheCallReturns) {
  CheckScope on(/*raise=*/false);
  Tensor x = ops::ones(V{3});
  Tensor r = ops::_test_schema_unannotated_write(x);
  EXPECT_EQ(count(Kind::MutatedWithoutAnnotation), 1);
  auto seen = schema_check::ops_seen();
  EXPECT_NE(std::find(seen.begin(), seen.end(), "aten::_test_schema_unannotated_write"), seen.end());
}

TEST(SchemaCheck, RealOperatorsKeepTheirPromises) {
  CheckScope on;
  Tensor a = ops::ones(V{2, 3});
  Tensor b = ops::ones(V{2, 3});
  Tensor out = ops::zeros(V{2, 3});
  EXPECT_NO_THROW(ops::add__Tensor(a, b));                 // self is Tensor(a!)
  EXPECT_NO_THROW(ops::add_out(a, b, 1, out));            // out is Tensor(a!) -> Tensor(a!)
  EXPECT_NO_THROW(ops::transpose_int(a, 0, 1));           // Tensor(a) self -> Tensor(a)
  EXPECT_NO_THROW(ops::add_Tensor(a, b));                 // a new tensor
  EXPECT_EQ(count(Kind::MutatedWithoutAnnotation) + count(Kind::AliasWithoutAnnotation) + count(Kind::OutputsAlias), 0);
  EXPECT_GE(count(Kind::Mutated), 2);  // self of add_, out of add.out
  EXPECT_GE(count(Kind::Aliased), 2);  // add_ returns self, transpose a view
}

TEST(SchemaCheck, OffMeansNothingIsChecked) {
  schema_check::clear();
  ASSERT_FALSE(schema_check::enabled());
  EXPECT_NO_THROW(ops::_test_schema_unannotated_write(ops::ones(V{3})));
  EXPECT_TRUE(schema_check::findings().empty());
}
