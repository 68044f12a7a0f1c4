// Shared by the views that show single events: category colours, payload tooltips and small
// text helpers.
#include "app/gui/views/event_text.h"

#include <cinttypes>
#include <type_traits>
#include <variant>

#include "app/gui/i18n.h"
#include "core/dispatch/dispatch_key_set.h"

namespace ipt::gui {

using trace::Category;
using trace::Event;

ImU32 category_color(Category c) {
  switch (c) {
    case Category::Dispatch: return IM_COL32(110, 170, 255, 255);
    case Category::Kernel: return IM_COL32(255, 170, 80, 255);
    case Category::Tensor: return IM_COL32(120, 210, 130, 255);
    case Category::Storage: return IM_COL32(200, 140, 255, 255);
    case Category::Autograd: return IM_COL32(255, 110, 110, 255);
    case Category::Script: return IM_COL32(170, 170, 180, 255);
    case Category::Lesson: return IM_COL32(240, 210, 100, 255);
    case Category::Note: return IM_COL32(200, 200, 200, 255);
    case Category::CudaRuntime: return IM_COL32(120, 200, 220, 255);
    case Category::GpuMemcpy: return IM_COL32(230, 120, 200, 255);
    case Category::CudaSync: return IM_COL32(250, 90, 90, 255);
    case Category::GpuMemory: return IM_COL32(160, 220, 90, 255);
    case Category::Compile: return IM_COL32(240, 150, 200, 255);
  }
  return IM_COL32(200, 200, 200, 255);
}

// Cuts `s` to at most `n` bytes on a UTF-8 character boundary, adding `ellipsis` when cut.
void truncate_utf8(std::string& s, size_t n, const char* ellipsis) {
  if (s.size() <= n) return;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  s.resize(n);
  s += ellipsis;
}

std::string join_dims(std::span<const int64_t> v) {
  std::string s = "(";
  for (size_t k = 0; k < v.size(); ++k) {
    if (k) s += ", ";
    s += std::to_string(v[k]);
  }
  if (v.size() == 1) s += ",";
  return s + ")";
}

namespace {
// One field per line pair: its key, dimmed, then its value indented.
void draw_fields(const trace::Fields& fields) {
  for (const auto& [k, v] : fields) {
    std::string t = v;
    truncate_utf8(t, 3000, "...");
    ImGui::TextDisabled("%s", k ? k : "");
    ImGui::Indent();
    ImGui::TextUnformatted(t.c_str());
    ImGui::Unindent();
  }
}
}  // namespace

void draw_payload_tooltip(const Event& e, const std::string& when) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40);
  ImGui::TextUnformatted(e.name);
  if (!when.empty()) ImGui::TextDisabled("%s", when.c_str());
  ImGui::Separator();
  std::visit(
      [&](const auto& p) {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, trace::DispatchStep>) {
          ImGui::Text("%s: %s", tr("Operator"), p.op);
          ImGui::Text("key: %s%s", p.chosen.name().c_str(), p.redispatch ? "  (redispatch)" : "");
          ImGui::Text("%s: %s  [%s]", tr("kernel"), p.kernel, p.kernel_kind);
          ImGui::Text("%s: %s", tr("registered at"), p.registered_at);
          ImGui::Text("%s: %s", tr("Merged key set"), DispatchKeySet::from_raw(p.merged).to_string().c_str());
          if (p.skipped_fallthrough)
            ImGui::Text("fallthrough: %s", DispatchKeySet::from_raw(p.skipped_fallthrough).to_string().c_str());
        } else if constexpr (std::is_same_v<T, trace::TensorMeta>) {
          ImGui::Text("tensor #%" PRIu64 "  %s  %s  %s", p.tensor_id, p.dtype, p.device, p.label ? p.label : "");
          ImGui::Text("size=%s  stride=%s  offset=%" PRId64, join_dims(p.sizes).c_str(), join_dims(p.strides).c_str(),
                      p.storage_offset);
          ImGui::Text("storage #%" PRIu64 "  %" PRId64 " B%s", p.storage_id, p.storage_nbytes,
                      p.is_view ? "  (view)" : "");
          ImGui::Text("requires_grad=%s  _version=%" PRIu64, p.requires_grad ? "True" : "False", p.version);
          ImGui::Text("%s", DispatchKeySet::from_raw(p.key_set).to_string().c_str());
        } else if constexpr (std::is_same_v<T, trace::StorageInfo>) {
          ImGui::Text("storage #%" PRIu64 "  %" PRId64 " B  %s  %s", p.storage_id, p.nbytes, p.device,
                      p.freed ? "freed" : "allocated");
        } else if constexpr (std::is_same_v<T, trace::ScriptLine>) {
          ImGui::Text("line %d, column %d", p.line, p.col);
        } else if constexpr (std::is_same_v<T, trace::Text>) {
          std::string t = p.text;
          truncate_utf8(t, 4000, "...");
          ImGui::TextUnformatted(t.c_str());
        } else if constexpr (std::is_same_v<T, trace::KernelDetail>) {
          draw_fields(p.fields);
        } else if constexpr (std::is_same_v<T, trace::GraphNode> || std::is_same_v<T, trace::EngineStep> ||
                             std::is_same_v<T, trace::DeviceWork> || std::is_same_v<T, trace::DeviceMemory> ||
                             std::is_same_v<T, trace::SchemaCheck> || std::is_same_v<T, trace::CompileArtifact>) {
          draw_fields(trace::payload_fields(p));
        } else if constexpr (std::is_same_v<T, trace::GraphNodes>) {
          constexpr size_t kShown = 24;
          for (size_t i = 0; i < p.nodes.size() && i < kShown; ++i)
            ImGui::Text("%s #%" PRIu64 "  deps=%d", p.nodes[i].name, p.nodes[i].node, p.nodes[i].deps);
          if (p.nodes.size() > kShown) ImGui::TextDisabled("... (%zu nodes)", p.nodes.size());
        } else if constexpr (std::is_same_v<T, trace::AutogradDecision>) {
          ImGui::Text("%s: %s", tr("Operator"), p.op);
          ImGui::TextUnformatted(trace::decision_text(p).c_str());
        } else if constexpr (std::is_same_v<T, trace::DispatchTable>) {
          ImGui::TextUnformatted(p.schema);
          for (const auto& r : p.rows)
            ImGui::Text("%s: %sregistered at %s [%s]", r.key.name().c_str(), r.fallthrough ? "fallthrough " : "",
                        r.registered_at, r.kind);
        } else {
          ImGui::TextDisabled("-");
        }
      },
      e.payload);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace ipt::gui
