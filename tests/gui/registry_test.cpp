// The view registry: one view per id, every lesson view kind shown by a made view, and the
// requests views send each other (Note [Views ask each other by typed requests]).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "app/gui/views/source_link.h"
#include "app/gui/views/views.h"

namespace ipt::gui {
namespace {

TEST(ViewRegistry, EveryLessonViewKindHasAView) {
  const auto views = make_views();
  std::set<std::string> ids;
  for (const auto& v : views) EXPECT_TRUE(ids.insert(v->id()).second) << "two views named " << v->id();
  using lesson::ViewKind;
  for (ViewKind k : {ViewKind::Output, ViewKind::Storage, ViewKind::Dispatch, ViewKind::Events, ViewKind::Graph,
                     ViewKind::Timeline, ViewKind::Schema, ViewKind::Compile}) {
    EXPECT_TRUE(ids.count(view_for(k))) << lesson::view_name(k) << " -> " << view_for(k);
    // A kind's view has the kind's name, except the program's output, shown beside its storage.
    EXPECT_EQ(std::string(view_for(k)), k == ViewKind::Output ? "storage" : lesson::view_name(k));
  }
}

TEST(Requests, ALinkAsksTheSchemaViewOnceAndBringsItForward) {
  Requests r;
  EXPECT_FALSE(r.take<ShowOperator>());
  open_in_schema_view(r, "aten::add.Tensor", "build/generated/RegisterCPU.cpp:96");
  std::optional<ShowOperator> asked = r.take<ShowOperator>();
  ASSERT_TRUE(asked);
  EXPECT_EQ(asked->op, "aten::add.Tensor");
  EXPECT_EQ(asked->site, "build/generated/RegisterCPU.cpp:96");
  EXPECT_FALSE(r.take<ShowOperator>());  // taken once
  std::optional<FocusView> focus = r.take<FocusView>();
  ASSERT_TRUE(focus);
  EXPECT_EQ(focus->id, "schema");
  // The same link twice: two requests, each followed.
  open_in_schema_view(r, "aten::mul.Tensor", "");
  open_in_schema_view(r, "aten::mul.Tensor", "");
  EXPECT_EQ(r.take<ShowOperator>()->op, "aten::mul.Tensor");
  open_in_schema_view(r, "aten::mul.Tensor", "");
  EXPECT_TRUE(r.take<ShowOperator>());
}

}  // namespace
}  // namespace ipt::gui
