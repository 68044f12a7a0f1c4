// The schema check mode (Note [Schema check mode]): each check fires on the operator mis-declared
#include <algorithm>
// for it, and the real operators that write, view or return out= pass.
#include <gtest/gtest.h>

#include <string>

#include "core/ops/schema_check.h"
#include "core/trace/recorder.h"
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
  EXPECT_NO_THROW(ops::add__Tensor(a, b));       // self is Tensor(a!)
  EXPECT_NO_THROW(ops::add_out(a, b, 1, out));   // out is Tensor(a!) -> Tensor(a!)
  EXPECT_NO_THROW(ops::transpose_int(a, 0, 1));  // Tensor(a) self -> Tensor(a)
  EXPECT_NO_THROW(ops::add_Tensor(a, b));        // a new tensor
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

// While tracing, each checked call leaves a "schema check" event with what it found, also
// when the call raises (the event comes first), so the Schema view can show an op's last check.
TEST(SchemaCheck, EachCheckedCallIsRecordedInTheTrace) {
  trace::Recorder rec;
  {
    trace::ScopedTrace scope(rec);
    CheckScope on;
    Tensor x = ops::ones(V{3});
    ops::add__Tensor(x, ops::ones(V{3}), Scalar(1.0));
    raised_by([] { ops::_test_schema_unannotated_write(ops::ones(V{3})); });
  }
  std::vector<const trace::SchemaCheck*> checks;
  const auto events = rec.events();
  for (const auto& e : events)
    if (const auto* c = std::get_if<trace::SchemaCheck>(&e.payload)) checks.push_back(c);
  auto last_of = [&](std::string_view op) -> const trace::SchemaCheck* {
    const trace::SchemaCheck* found = nullptr;
    for (const auto* c : checks)
      if (op == c->op) found = c;
    return found;
  };
  const auto* add = last_of("aten::add_.Tensor");
  ASSERT_NE(add, nullptr);
  EXPECT_FALSE(add->violation());
  ASSERT_FALSE(add->findings.empty());
  EXPECT_STREQ(add->findings[0].kind, "mutated");
  EXPECT_STREQ(add->findings[0].argument, "input");
  const auto* bad = last_of("aten::_test_schema_unannotated_write");
  ASSERT_NE(bad, nullptr);
  EXPECT_TRUE(bad->violation());
  EXPECT_STREQ(bad->findings[0].message, "Argument input is not defined as mutable but was mutated");
  const auto* ones = last_of("aten::ones");
  ASSERT_NE(ones, nullptr);
  EXPECT_TRUE(ones->findings.empty());  // a factory: nothing written, nothing aliased
}
