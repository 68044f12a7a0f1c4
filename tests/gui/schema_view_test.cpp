// The Schema view drawn headless: an ImGui context with no window and no GPU (the font atlas is
// built in memory and the frame's draw data is thrown away), input given to ImGui directly.
// Every one of PyTorch 2.15's 2,590 schemas and every operator of the project (its pipeline, each
// generated registration opened as a link opens it) is drawn once; malformed texts are drawn;
// the picker opens, filters and picks.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cstring>
#include <string>

#include "app/gui/app_state.h"
#include "tests/gui/headless.h"
#include "app/gui/views/views.h"
#include "core/ops/op_sources.h"

using namespace ipt;
using namespace ipt::gui;

using ipt::gui::testing::Headless;

namespace {

struct Fixture {
  AppState state;
  ViewContext ctx{state, state.doc, state.sel, state.requests};
  std::unique_ptr<View> view = make_schema_view();

  void ask(const std::string& what, const std::string& site = "") { state.requests.post(ShowOperator{what, site}); }
};

}  // namespace

TEST(SchemaView, DrawsEveryPyTorchSchema) {
  Headless ui;
  Fixture f;
  const auto all = pytorch_schemas();
  ASSERT_EQ(all.size(), 2590u);
  for (const auto& s : all) {
    f.ask(s);
    ASSERT_TRUE(ui.frame(*f.view, f.ctx)) << s;
  }
}

TEST(SchemaView, DrawsEveryOperatorsPipelineWithEachRegistrationOpen) {
  Headless ui;
  Fixture f;
  size_t opened = 0;
  for (const auto& op : yaml_operators()) {
    f.ask(op);
    ASSERT_TRUE(ui.frame(*f.view, f.ctx)) << op;
    for (const KernelSite& k : op_sources(op).kernels) {
      f.ask(op, k.at.str());  // as the Dispatch view's "registered at" link asks
      ASSERT_TRUE(ui.frame(*f.view, f.ctx)) << op << " " << k.at.str();
      ASSERT_TRUE(ui.frame(*f.view, f.ctx)) << op << " " << k.at.str();
      ++opened;
    }
  }
  EXPECT_GT(opened, 500u);
}

TEST(SchemaView, MalformedTextsAndUnknownOperatorsDrawTheirError) {
  Headless ui;
  Fixture f;
  for (const std::string& s : {std::string("add(Tensor self, Tensor other -> Tensor"), std::string("((("),
                               std::string("aten::no_such_op"), std::string(""), std::string(3000, 'x'),
                               std::string("add(Tensor(a self) -> Tensor"), std::string("\xff\xfe(")}) {
    f.ask(s);
    ASSERT_TRUE(ui.frame(*f.view, f.ctx)) << s;
    ASSERT_TRUE(ui.frame(*f.view, f.ctx)) << s;
  }
}

TEST(SchemaView, ThePickerOpensFiltersAndPicks) {
  Headless ui;
  Fixture f;
  f.ask("add.Tensor");
  ASSERT_TRUE(ui.frame(*f.view, f.ctx));
  // The Pick… button ends the first line, at the window's right edge.
  ImGuiWindow* w = Headless::window_named("view");
  ASSERT_NE(w, nullptr);
  const ImVec2 pick(w->WorkRect.Max.x - 8, w->WorkRect.Min.y + ImGui::GetFrameHeight() * 0.5f);
  ASSERT_TRUE(ui.click(*f.view, f.ctx, pick));
  ASSERT_EQ(ImGui::GetCurrentContext()->OpenPopupStack.Size, 1) << "the picker did not open";
  ASSERT_TRUE(ui.frame(*f.view, f.ctx));  // the filter takes the keyboard focus
  for (const char* ch = "(a!) out"; *ch; ++ch) ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(*ch));
  ASSERT_TRUE(ui.frame(*f.view, f.ctx));
  ASSERT_TRUE(ui.frame(*f.view, f.ctx));
  ImGuiWindow* list = Headless::window_named("picker_list");
  ASSERT_NE(list, nullptr) << "no list in the picker";
  // The filter reached the list: one row per project schema that contains it.
  size_t expected = 0;
  for (const auto& s : yaml_schemas()) expected += s.find("(a!) out") != std::string::npos;
  ASSERT_GT(expected, 10u);
  EXPECT_NEAR(list->ContentSize.y / ImGui::GetTextLineHeightWithSpacing(), static_cast<float>(expected), 1.0f);
  const ImVec2 first(list->InnerRect.Min.x + 20, list->InnerRect.Min.y + ImGui::GetTextLineHeight() * 0.5f + 2);
  // A click inside the popup that picks nothing would leave it open; one outside would close it.
  ImGuiWindow* popup = Headless::window_named("##Popup_");
  ASSERT_NE(popup, nullptr);
  ASSERT_TRUE(popup->Rect().Contains(first));
  ASSERT_TRUE(ui.click(*f.view, f.ctx, first));
  ASSERT_TRUE(ui.frame(*f.view, f.ctx));
  EXPECT_EQ(ImGui::GetCurrentContext()->OpenPopupStack.Size, 0) << "picking a schema closes the picker";
}
