#include "app/gui/views/key_chips.h"

#include <algorithm>

namespace ipt::gui {

KeyFamily key_family(DispatchKey k) {
  if (k.is_alias()) return k.alias == AliasKey::Autograd ? KeyFamily::Autograd : KeyFamily::Other;
  switch (k.functionality) {
    case Functionality::Undefined: return KeyFamily::Undefined;
    case Functionality::Dense:
    case Functionality::FPGA:
    case Functionality::Vulkan:
    case Functionality::Metal:
    case Functionality::Quantized:
    case Functionality::CustomRNGKeyId:
    case Functionality::MkldnnCPU:
    case Functionality::Sparse:
    case Functionality::SparseCsr:
    case Functionality::NestedTensor: return KeyFamily::Backend;
    case Functionality::BackendSelect: return KeyFamily::BackendSelect;
    case Functionality::ADInplaceOrView: return KeyFamily::InplaceOrView;
    case Functionality::AutogradOther:
    case Functionality::AutogradFunctionality:
    case Functionality::AutogradNestedTensor: return KeyFamily::Autograd;
    case Functionality::AutocastCPU:
    case Functionality::AutocastMTIA:
    case Functionality::AutocastMAIA:
    case Functionality::AutocastXPU:
    case Functionality::AutocastIPU:
    case Functionality::AutocastHPU:
    case Functionality::AutocastXLA:
    case Functionality::AutocastMPS:
    case Functionality::AutocastCUDA:
    case Functionality::AutocastPrivateUse1: return KeyFamily::Autocast;
    default: return KeyFamily::Other;
  }
}

ImU32 key_family_color(KeyFamily f, float alpha) {
  int r = 96, g = 104, b = 124;
  switch (f) {
    case KeyFamily::Backend: r = 58, g = 140, b = 88; break;
    case KeyFamily::BackendSelect: r = 36, g = 128, b = 150; break;
    case KeyFamily::InplaceOrView: r = 126, g = 90, b = 178; break;
    case KeyFamily::Autograd: r = 204, g = 116, b = 40; break;
    case KeyFamily::Autocast: r = 172, g = 70, b = 124; break;
    case KeyFamily::Undefined: r = 105, g = 105, b = 105; break;
    case KeyFamily::Other: break;
  }
  return IM_COL32(r, g, b, static_cast<int>(std::clamp(alpha, 0.0f, 1.0f) * 255.0f));
}

static ImVec2 chip_padding(unsigned style) { return (style & ChipSmall) ? ImVec2(4, 1) : ImVec2(7, 2); }

ImVec2 key_chip_size(const char* name, unsigned style) {
  ImVec2 t = ImGui::CalcTextSize(name);
  ImVec2 p = chip_padding(style);
  return ImVec2(t.x + 2 * p.x, t.y + 2 * p.y);
}

bool draw_key_chip(ImDrawList* dl, ImVec2 pos, const char* name, KeyFamily family, unsigned style, float width) {
  ImVec2 sz = key_chip_size(name, style);
  if (width > 0) sz.x = width;
  const ImVec2 pad = chip_padding(style);
  const ImVec2 max(pos.x + sz.x, pos.y + sz.y);
  const float rounding = sz.y * 0.4f;
  const bool dim = (style & (ChipFallthrough | ChipCrossed)) != 0;
  ImU32 text = IM_COL32(245, 245, 245, 255);
  if (style & ChipHollow) {
    dl->AddRect(pos, max, key_family_color(family, dim ? 0.45f : 0.95f), rounding, 0, 1.5f);
    text = dim ? IM_COL32(140, 140, 140, 255) : IM_COL32(215, 215, 215, 255);
  } else {
    dl->AddRectFilled(pos, max, key_family_color(family, dim ? 0.22f : 0.88f), rounding);
    if (dim) text = IM_COL32(150, 150, 150, 255);
  }
  const float tw = ImGui::CalcTextSize(name).x;
  dl->AddText(ImVec2(pos.x + std::max(pad.x, (sz.x - tw) * 0.5f), pos.y + pad.y), text, name);
  if (style & ChipFallthrough) {
    const float y = (pos.y + max.y) * 0.5f;
    dl->AddLine(ImVec2(pos.x + 3, y), ImVec2(max.x - 3, y), IM_COL32(190, 190, 190, 230), 1.5f);
  }
  if (style & ChipCrossed) {
    const ImU32 red = IM_COL32(235, 75, 65, 235);
    dl->AddLine(ImVec2(pos.x + 2, pos.y + 2), ImVec2(max.x - 2, max.y - 2), red, 2.0f);
    dl->AddLine(ImVec2(pos.x + 2, max.y - 2), ImVec2(max.x - 2, pos.y + 2), red, 2.0f);
  }
  if (style & ChipFocus)
    dl->AddRect(ImVec2(pos.x - 1, pos.y - 1), ImVec2(max.x + 1, max.y + 1), IM_COL32(230, 230, 230, 200), rounding, 0,
                1.0f);
  if (style & ChipChosen) {
    dl->AddRect(ImVec2(pos.x - 3, pos.y - 3), ImVec2(max.x + 3, max.y + 3), IM_COL32(255, 225, 90, 70), rounding + 3, 0,
                3.0f);
    dl->AddRect(ImVec2(pos.x - 1.5f, pos.y - 1.5f), ImVec2(max.x + 1.5f, max.y + 1.5f), IM_COL32(255, 232, 120, 255),
                rounding + 1, 0, 2.5f);
  }
  return ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem) && ImGui::IsMouseHoveringRect(pos, max);
}

bool key_chip(const char* name, KeyFamily family, unsigned style) {
  ImVec2 pos = ImGui::GetCursorScreenPos();
  ImVec2 sz = key_chip_size(name, style);
  // Room for the chosen outline.
  const float m = (style & ChipChosen) ? 3.0f : 0.0f;
  bool hovered = draw_key_chip(ImGui::GetWindowDrawList(), ImVec2(pos.x + m, pos.y + m), name, family, style);
  ImGui::Dummy(ImVec2(sz.x + 2 * m, sz.y + 2 * m));
  return hovered;
}

void key_cell_tooltip(const KeyCell& cell) {
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(cell.name.c_str());
  if (cell.tip) ImGui::TextDisabled("%s", cell.tip);
  ImGui::EndTooltip();
}

}  // namespace ipt::gui
