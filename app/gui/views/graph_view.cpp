// The Graph view: the autograd graph of the step as a layered drawing (root at the top, edges
// pointing the way gradients flow, labelled with input_nr), the forward values next to it
// (each node's output, each leaf's values), and a replay of the backward engine over it: the
// ready queue, each node's outstanding dependency count, each input buffer filling up, and
// AccumulateGrad writing or adding into a leaf's .grad.
//
// Note [The Graph view reads only the trace]
// The graph and the engine frames come from core/views/autograd_model (autograd_graph,
// backward_runs), pure functions of the recorded events; see Note [What the Graph view shows
// of a step] and Note [Engine frames] there. Everything derived is cached by (generation,
// first, last); the layout is computed once per graph (and font size), not per frame.
//
// Note [Graph layout]
// Graphviz's "dot" engine lays the graph out (libgvc, when CMake found it): the view writes a
// DOT description with every box's size fixed to what it will draw (the widest text any
// engine frame puts in it), reads node centres and edge splines back, and draws everything
// itself with ImDrawList (input_nr labels go beside each edge's middle). dot takes a few ms on
// a lesson's graph but can take a second on a long loop's, so it runs on a worker thread: a
// plain layering (rank = longest path from a root, straight edges) is shown at once and
// replaced when dot is done; a small graph's layout is waited for within the same frame.
// Without Graphviz the plain layering stays. Layout units are pixels at zoom 1.
//
// [SECTION] index
//   model        cached graph, runs, per-item box sizes and texts
//   view         toolbar (backward, engine timeline, ready queue), canvas (pan/zoom), selection
// The layout (Graphviz, fallback layering) is graph_layout.cpp; the shapes (chips, edges with
// arrowheads, octagons) graph_draw.cpp.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "app/gui/i18n.h"
#include "app/gui/views/graph_draw.h"
#include "app/gui/views/graph_layout.h"
#include "app/gui/views/views.h"
#include "app/gui/views/widgets.h"
#include "core/views/autograd_model.h"
#include "core/views/graph_text.h"

namespace ipt::gui {

namespace {

using namespace graph;
using views::AutogradGraph;
using views::BackwardRun;
using views::buffer_text;
using views::EngineFrame;
using views::EngineNodeState;
using views::EngineNodeView;
using views::EngineState;
using views::EngineStepKind;
using views::grad_text;
using views::GradAction;
using views::leaf_title;
using views::next_functions_text;
using views::output_line;
constexpr size_t npos = static_cast<size_t>(-1);

// [SECTION] model ------------------------------------------------------------------------

// Colours (dark theme).
constexpr ImU32 kFnFill = IM_COL32(50, 56, 70, 255), kFnBorder = IM_COL32(140, 152, 176, 255);
constexpr ImU32 kAccFill = IM_COL32(34, 74, 46, 255), kAccBorder = IM_COL32(96, 190, 118, 255);
constexpr ImU32 kLeafFill = IM_COL32(30, 58, 92, 255), kLeafBorder = IM_COL32(110, 170, 235, 255);
constexpr ImU32 kText = IM_COL32(236, 240, 248, 255), kDim = IM_COL32(160, 168, 182, 255);
constexpr ImU32 kEdge = IM_COL32(150, 156, 170, 255), kDelivered = IM_COL32(110, 200, 130, 255);
constexpr ImU32 kActive = IM_COL32(255, 168, 60, 255), kReady = IM_COL32(240, 205, 80, 255);
constexpr ImU32 kFailed = IM_COL32(235, 85, 75, 255), kWrite = IM_COL32(70, 170, 90, 255);
constexpr ImU32 kAdd = IM_COL32(60, 120, 215, 255), kPartial = IM_COL32(232, 170, 70, 255);

ImU32 with_alpha(ImU32 c, float a) {
  const unsigned al = static_cast<unsigned>(((c >> IM_COL32_A_SHIFT) & 0xFF) * a);
  return (c & ~IM_COL32_A_MASK) | (al << IM_COL32_A_SHIFT);
}

// One drawn item: a backward node or a leaf tensor.
struct Item {
  bool leaf = false;
  size_t index = 0;  // into graph.nodes or graph.leaves
  ImVec2 size;       // box size at zoom 1
};

// [SECTION] view -------------------------------------------------------------------------

class GraphView : public View {
 public:
  const char* id() const override { return "graph"; }
  const char* title() const override { return "Autograd graph"; }
  void default_rect(float& x, float& y, float& w, float& h) const override {
    x = 0.56f, y = 0.0f, w = 0.44f, h = 0.62f;
  }

  bool shows_events() const override { return true; }
  void draw_content(ViewContext& c) override {
    const TraceDoc& doc = c.doc;
    rebuild(doc);
    if (graph_.empty()) {
      draw_empty_state(tr("No autograd graph in this step: create tensors with requires_grad=True."));
      return;
    }
    ensure_layout();
    follow_selection(c);
    handle_keys();
    draw_toolbar();
    draw_canvas(c);
  }

 private:
  // ---- cache (Note [The Graph view reads only the trace]) ----
  uint64_t gen_ = UINT64_MAX;
  size_t first_ = 0, last_ = 0;
  AutogradGraph graph_;
  std::vector<BackwardRun> runs_;
  size_t run_ = npos;              // selected backward
  size_t frame_ = 0;               // selected frame of it
  std::vector<size_t> run_node_;   // per graph node: index in the run's nodes (npos: not in it)
  std::vector<size_t> run_leaf_;   // per graph leaf: index in the run's leaves
  std::vector<size_t> edge_from_;  // per graph edge: its sender's index in the run's nodes
  EngineState state_;              // the run's state at frame_ (replayed on change)
  size_t state_run_ = npos, state_frame_ = npos;
  std::vector<Item> items_;  // graph nodes first, then leaves
  Layout layout_;            // parallel to items_
  float layout_font_ = 0;
  uint64_t layout_key_ = 0;  // changes with every new layout request
  // Note [Graph layout]: Graphviz runs on a worker thread, one job at a time; a request made
  // while a job runs waits in queued_. Results for an older key are dropped.
  struct Job {
    uint64_t key;
    std::future<Layout> result;
  };
  std::optional<Job> job_;
  std::optional<std::pair<uint64_t, LayoutInput>> queued_;

  // ---- canvas and selection ----
  float zoom_ = 1;
  ImVec2 pan_{0, 0};
  ImVec2 canvas_size_{0, 0};
  bool fit_pending_ = true, user_moved_ = false, dragged_ = false;
  std::optional<size_t> selected_item_;  // index into items_
  std::optional<size_t> seen_sel_event_;

  bool has_run() const { return run_ != npos && run_ < runs_.size(); }
  const EngineFrame* frame() const { return has_run() ? &runs_[run_].frames[frame_] : nullptr; }
  // The engine's state at the selected frame: one step forward is applied incrementally,
  // any other move replays from the start (Note [Engine frames]).
  const EngineState* state() {
    if (!has_run()) return nullptr;
    if (state_run_ != run_ || state_frame_ == npos || frame_ < state_frame_ || frame_ > state_frame_ + 1) {
      state_ = views::engine_state(runs_[run_], frame_);
    } else if (frame_ == state_frame_ + 1) {
      views::advance(runs_[run_], state_);
    }
    state_run_ = run_, state_frame_ = frame_;
    return &state_;
  }

  void rebuild(const TraceDoc& doc) {
    if (gen_ == doc.generation && first_ == doc.first && last_ == doc.last) return;
    gen_ = doc.generation, first_ = doc.first, last_ = doc.last;
    graph_ = views::autograd_graph(doc.events, doc.first, doc.last);
    runs_ = views::backward_runs(doc.events, doc.first, doc.last);
    layout_font_ = 0;  // relayout
    selected_item_.reset();
    seen_sel_event_.reset();
    select_run(runs_.empty() ? npos : runs_.size() - 1, doc.opens_at_start);
    fit_pending_ = true;
    user_moved_ = false;
  }

  // at_start: at the engine's first step (a lesson step about how backward unfolds), else its end.
  void select_run(size_t r, bool at_start = false) {
    run_ = r;
    run_node_.assign(graph_.nodes.size(), npos);
    run_leaf_.assign(graph_.leaves.size(), npos);
    edge_from_.assign(graph_.edges.size(), npos);
    state_run_ = npos;
    if (!has_run()) return;
    const BackwardRun& run = runs_[run_];
    for (size_t i = 0; i < graph_.nodes.size(); ++i) run_node_[i] = run.node_index(graph_.nodes[i].id);
    for (size_t i = 0; i < graph_.leaves.size(); ++i) run_leaf_[i] = run.leaf_index(graph_.leaves[i].tensor);
    edge_from_.clear();
    for (const auto& e : graph_.edges) edge_from_.push_back(run.node_index(e.from));
    frame_ = at_start ? 0 : run.frames.size() - 1;
  }

  // Box sizes: the widest text any frame of any run puts in the box (Note [Graph layout]).
  void ensure_layout() {
    poll_layout();
    const float F = ImGui::GetFontSize();
    if (layout_font_ == F) return;
    layout_font_ = F;
    items_.clear();
    const float pad_x = 9, pad_y = 5, line = F + 3;
    const bool engine = !runs_.empty();
    // The widest buffer and .grad texts over every frame of every run, by node / leaf tensor.
    std::unordered_map<uint64_t, float> buffer_w, grad_w;
    for (const auto& r : runs_) {
      EngineState st = views::engine_state(r, 0);
      for (size_t k = 0; k < r.nodes.size(); ++k)
        buffer_w[r.nodes[k].id] =
            std::max(buffer_w[r.nodes[k].id], text_w(buffer_text(st.nodes[k], r.deps[k], r.deps[k] == 0)));
      for (const auto& g : st.grads) grad_w[g.tensor] = std::max(grad_w[g.tensor], text_w(grad_text(g.value)));
      while (views::advance(r, st)) {
        const EngineFrame& f = r.frames[st.frame];
        if (f.kind == EngineStepKind::Arrived)
          if (size_t k = r.node_index(f.node); k != npos)
            buffer_w[f.node] = std::max(buffer_w[f.node], text_w(buffer_text(st.nodes[k], r.deps[k], r.deps[k] == 0)));
        if (f.kind == EngineStepKind::GradWritten || f.kind == EngineStepKind::GradAdded)
          grad_w[f.tensor] = std::max(grad_w[f.tensor], text_w(grad_text(f.value)));
      }
    }
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
      const auto& n = graph_.nodes[i];
      float w = text_w(views::short_node_name(n.name));
      int lines = 1;
      if (!n.accumulate && n.output) w = std::max(w, text_w(output_line(n))), ++lines;
      if (engine) {
        ++lines;
        w = std::max({w, text_w("Σ —"), buffer_w[n.id]});
      }
      w += F * 1.2f;  // room for the dependency badge
      items_.push_back({false, i, ImVec2(std::round(w + 2 * pad_x), std::round(lines * line + 2 * pad_y))});
    }
    const float chip_w = text_w("write") + 14;
    for (size_t i = 0; i < graph_.leaves.size(); ++i) {
      const auto& l = graph_.leaves[i];
      float w = std::max(text_w(leaf_title(l)), text_w(l.value.empty() ? "?" : l.value));
      int lines = 2;
      if (engine) {
        ++lines;
        w = std::max({w, text_w(grad_text("")) + chip_w, grad_w[l.tensor] + chip_w});
      }
      items_.push_back({true, i, ImVec2(std::round(w + 2 * pad_x + 8), std::round(lines * line + 2 * pad_y))});
    }
    LayoutInput in;
    for (const Item& it : items_) in.sizes.push_back(it.size);
    for (const auto& e : graph_.edges) {
      in.edges.emplace_back(graph_.index_of(e.from), graph_.index_of(e.to));
    }
    for (size_t k = 0; k < graph_.leaves.size(); ++k)
      in.leaf_edges.emplace_back(graph_.index_of(graph_.leaves[k].accumulate_node), graph_.nodes.size() + k);
    // The plain layering at once; Graphviz's layout replaces it when ready (small graphs:
    // within this frame).
    layout_ = fallback_layout(in);
    fit_pending_ = true;
    ++layout_key_;
#ifdef IPT_HAVE_GRAPHVIZ
    queued_.emplace(layout_key_, std::move(in));
    poll_layout();
    if (job_ && job_->key == layout_key_ &&
        job_->result.wait_for(std::chrono::milliseconds(60)) == std::future_status::ready)
      poll_layout();
#endif
  }

  // Takes a finished Graphviz layout and starts the queued request.
  void poll_layout() {
#ifdef IPT_HAVE_GRAPHVIZ
    if (job_ && job_->result.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      Layout l = job_->result.get();
      if (job_->key == layout_key_ && l.graphviz && l.centers.size() == items_.size()) {
        layout_ = std::move(l);
        if (!user_moved_) fit_pending_ = true;
      }
      job_.reset();
    }
    if (!job_ && queued_) {
      job_ = Job{queued_->first,
                 std::async(std::launch::async, [in = std::move(queued_->second)] { return graphviz_layout(in); })};
      queued_.reset();
    }
#endif
  }

  bool layout_pending() const { return job_ && job_->key == layout_key_; }

  // ---- selection ----

  size_t item_of_node(uint64_t id) const { return graph_.index_of(id); }

  // Another view (the event log) selected an event: a node's "node created", or an engine
  // event of a backward shown here (then the timeline jumps to it).
  void follow_selection(ViewContext& c) {
    if (c.sel.event == seen_sel_event_) return;
    seen_sel_event_ = c.sel.event;
    if (!c.sel.event) return;
    const size_t ev = *c.sel.event;
    for (size_t i = 0; i < graph_.nodes.size(); ++i)
      if (graph_.nodes[i].created_event == ev && !graph_.nodes[i].accumulate) {
        selected_item_ = i;
        return;
      }
    for (size_t r = 0; r < runs_.size(); ++r)
      if (ev >= runs_[r].begin_event && ev <= runs_[r].end_event) {
        if (r != run_) select_run(r);
        frame_ = views::frame_at_event(runs_[r], ev);
        return;
      }
  }

  void select_item(ViewContext& c, size_t item) {
    selected_item_ = item;
    const Item& it = items_[item];
    std::optional<size_t> ev;
    if (!it.leaf) {
      const auto& n = graph_.nodes[it.index];
      ev = n.created_event;
      if (n.accumulate && n.leaf) c.sel.tensor = *n.leaf;
      else if (n.output) c.sel.tensor = *n.output;
    } else {
      const auto& l = graph_.leaves[it.index];
      c.sel.tensor = l.tensor;
      if (const auto* acc = graph_.find(l.accumulate_node)) ev = acc->created_event;
    }
    if (ev) c.sel.event = ev;
    seen_sel_event_ = c.sel.event;
  }

  // ',' and '.' step the engine while this window has focus (the arrows step the lesson).
  void handle_keys() {
    if (!has_run() || !ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) || ImGui::GetIO().WantTextInput)
      return;
    const auto& q = ImGui::GetIO().InputQueueCharacters;
    for (int i = 0; i < q.Size; ++i) {
      if (q[i] == ',' && frame_ > 0) --frame_;
      if (q[i] == '.' && frame_ + 1 < runs_[run_].frames.size()) ++frame_;
    }
  }

  // ---- toolbar ----

  std::string node_label(uint64_t id) const { return views::node_label(graph_, id); }

  bool is_root(uint64_t id) const {
    if (!has_run()) return false;
    const size_t i = runs_[run_].node_index(id);
    return i != npos && runs_[run_].deps[i] == 0;
  }

  std::string frame_text(const EngineFrame& f) const {
    char buf[512];
    const std::string node = node_label(f.node);
    switch (f.kind) {
      case EngineStepKind::Counted:
        return tr("Dependencies counted: each badge is the number of gradients a node still waits for.");
      case EngineStepKind::Ready:
        if (is_root(f.node)) {
          std::snprintf(buf, sizeof buf,
                        tr("%s is ready: it is the root, backward() put the initial gradient in its buffer."),
                        node.c_str());
          return buf;
        }
        std::snprintf(buf, sizeof buf, tr("%s is ready: all its gradients are in; it joins the ready queue."),
                      node.c_str());
        return buf;
      case EngineStepKind::Run:
        std::snprintf(buf, sizeof buf, tr("%s runs (highest sequence number in the ready queue)."), node.c_str());
        return buf;
      case EngineStepKind::Finished:
        std::snprintf(buf, sizeof buf, tr("%s finished."), node.c_str());
        if (&f == &runs_[run_].frames.back() && runs_[run_].end_event != SIZE_MAX)
          return std::string(buf) + " " + tr("The backward is complete.");
        return buf;
      case EngineStepKind::Arrived:
        std::snprintf(buf, sizeof buf, tr("%s sends a gradient to %s (input %u): buffer %s, %d still awaited."),
                      node_label(f.from).c_str(), node.c_str(), f.input_nr, f.value.c_str(), f.deps_left);
        return buf;
      case EngineStepKind::GradWritten:
        std::snprintf(buf, sizeof buf, tr("%s writes .grad = %s (the first gradient)."), node.c_str(), f.value.c_str());
        return buf;
      case EngineStepKind::GradAdded:
        std::snprintf(buf, sizeof buf, tr("%s adds into the existing .grad: now %s."), node.c_str(), f.value.c_str());
        return buf;
      case EngineStepKind::Failed:
        std::snprintf(buf, sizeof buf, tr("%s raised an error: the engine stops here."), node.c_str());
        return buf;
    }
    return {};
  }

  void draw_toolbar() {
    if (graph_.from_earlier_step)
      ImGui::TextDisabled("%s", tr("This step records no autograd nodes: the graph recorded earlier."));
    if (graph_.truncated)
      ImGui::TextColored(ImVec4(0.9f, 0.6f, 0.3f, 1), "%s", tr("Large graph: only the first 400 nodes are shown."));
    if (!has_run()) {
      draw_empty_state(tr("No backward in this step: the graph as the forward pass recorded it."));
      ImGui::SameLine();
      draw_legend_marker();
      return;
    }
    const BackwardRun& run = runs_[run_];
    // Which backward.
    char label[160];
    auto run_name = [&](size_t r) {
      char b[160];
      std::snprintf(b, sizeof b, tr("backward %zu/%zu: root tensor #%llu"), r + 1, runs_.size(),
                    static_cast<unsigned long long>(runs_[r].root_tensor));
      return std::string(b);
    };
    if (runs_.size() > 1) {
      ImGui::SetNextItemWidth(std::min(260.0f, ImGui::GetContentRegionAvail().x * 0.45f));
      if (ImGui::BeginCombo("##backward", run_name(run_).c_str())) {
        for (size_t r = 0; r < runs_.size(); ++r)
          if (ImGui::Selectable(run_name(r).c_str(), r == run_)) select_run(r);
        ImGui::EndCombo();
      }
    } else {
      std::snprintf(label, sizeof label, tr("backward: root tensor #%llu"),
                    static_cast<unsigned long long>(run.root_tensor));
      ImGui::TextUnformatted(label);
    }
    ImGui::SameLine();
    // The engine timeline.
    const int n = static_cast<int>(runs_[run_].frames.size());
    int k = static_cast<int>(frame_);
    if (ImGui::ArrowButton("##prev", ImGuiDir_Left) && k > 0) --k;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Previous engine step (,)"));
    ImGui::SameLine(0, 2);
    if (ImGui::ArrowButton("##next", ImGuiDir_Right) && k + 1 < n) ++k;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Next engine step (.)"));
    ImGui::SameLine();
    const float fit_w = ImGui::CalcTextSize(tr("Fit")).x + ImGui::GetStyle().FramePadding.x * 2;
    ImGui::SetNextItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x - fit_w - 40));
    char fmt[64];
    std::snprintf(fmt, sizeof fmt, "%s %%d / %d", tr("engine step"), n - 1);
    ImGui::SliderInt("##frame", &k, 0, n - 1, fmt, ImGuiSliderFlags_AlwaysClamp);
    frame_ = static_cast<size_t>(std::clamp(k, 0, n - 1));
    ImGui::SameLine();
    if (ImGui::SmallButton(tr("Fit"))) fit_pending_ = true;
    ImGui::SameLine();
    draw_legend_marker();

    // What this step did.
    const EngineFrame& f = run.frames[frame_];
    const std::vector<uint64_t>& ready = state()->ready;
    const ImU32 col = f.kind == EngineStepKind::Failed        ? kFailed
                      : f.kind == EngineStepKind::GradWritten ? kWrite
                      : f.kind == EngineStepKind::GradAdded   ? IM_COL32(120, 165, 240, 255)
                      : f.kind == EngineStepKind::Counted     ? kDim
                                                              : kActive;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(col));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(frame_text(f).c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();

    // The ready queue, next to run first.
    ImGui::TextDisabled("%s", tr("ready queue:"));
    ImGui::SameLine();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (ready.empty()) {
      ImGui::TextDisabled("%s", tr("(empty)"));
    } else {
      const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
      ImVec2 p = ImGui::GetCursorScreenPos();
      const float h = ImGui::GetFontSize() * 0.85f + 3;
      for (size_t i = 0; i < ready.size(); ++i) {
        std::string t = node_label(ready[i]);
        if (const auto* nd = graph_.find(ready[i]); nd && nd->seq >= 0) t += "  seq " + std::to_string(nd->seq);
        const float w = ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize() * 0.85f, FLT_MAX, 0, t.c_str()).x + 8;
        if (p.x + w > right && i > 0) {
          ImGui::TextDisabled("+%zu", ready.size() - i);
          break;
        }
        chip(dl, p, 1.0f, t.c_str(), i == 0 ? IM_COL32(120, 96, 20, 255) : IM_COL32(70, 62, 30, 255), kText);
        dl->AddRect(p, ImVec2(p.x + w, p.y + h), i == 0 ? kReady : with_alpha(kReady, 0.5f), 4);
        p.x += w + 6;
      }
      ImGui::Dummy(ImVec2(std::max(1.0f, p.x - ImGui::GetCursorScreenPos().x), h));
    }
  }

  void draw_legend_marker() {
    help_marker(
        tr("Boxes are backward nodes (grad_fn), named as PyTorch names them, with the forward output "
           "they belong to (out #id). Green octagons are AccumulateGrad nodes; blue boxes are leaf "
           "tensors with their values. Arrows point the way gradients flow, from a node to its "
           "next_functions; the number is input_nr.\n\nWhile stepping a backward: the badge is the "
           "number of gradients a node still waits for; Σ is its input buffer (the running sum); a "
           "yellow outline means ready, orange running, red failed; green arrows have carried their "
           "gradient. On a leaf, \"write\" (green) means AccumulateGrad stored the first gradient in "
           ".grad, \"add\" (blue) that it added to the existing one.\n\nDrag to pan, wheel to zoom, "
           "double-click to fit; click a node to select it. Keys , and . step the engine."));
  }

  // ---- canvas ----

  void fit(ImVec2 avail) {
    const float m = 16;
    const ImVec2 s = layout_.size;
    zoom_ = std::clamp(std::min((avail.x - 2 * m) / std::max(1.0f, s.x), (avail.y - 2 * m) / std::max(1.0f, s.y)),
                       0.45f, 1.25f);
    pan_.x = (avail.x - s.x * zoom_) / 2;
    pan_.y = s.y * zoom_ + 2 * m > avail.y ? m : (avail.y - s.y * zoom_) / 2;
    // Too big to fit while readable: start at the root (the first item), at the top.
    if (s.x * zoom_ + 2 * m > avail.x && !layout_.centers.empty()) {
      pan_.x = avail.x / 2 - layout_.centers[0].x * zoom_;
      pan_.y = m - (layout_.centers[0].y - items_[0].size.y / 2) * zoom_;
    }
    fit_pending_ = false;
    user_moved_ = false;
  }

  void draw_canvas(ViewContext& c) {
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (avail.x < 20 || avail.y < 20) return;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(
        "##canvas", avail,
        ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight | ImGuiButtonFlags_MouseButtonMiddle);
    const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
    ImGuiIO& io = ImGui::GetIO();
    if (fit_pending_ || (!user_moved_ && (canvas_size_.x != avail.x || canvas_size_.y != avail.y))) fit(avail);
    canvas_size_ = avail;
    if (ImGui::IsItemActivated()) dragged_ = false;
    if (active && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0) &&
        (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3) || ImGui::IsMouseDragging(ImGuiMouseButton_Right, 3) ||
         ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 3))) {
      pan_.x += io.MouseDelta.x, pan_.y += io.MouseDelta.y;
      dragged_ = user_moved_ = true;
    }
    if (hovered && io.MouseWheel != 0) {
      const float nz = std::clamp(zoom_ * std::pow(1.15f, io.MouseWheel), 0.2f, 3.0f);
      const ImVec2 m(io.MousePos.x - p0.x, io.MousePos.y - p0.y);
      pan_.x = m.x - (m.x - pan_.x) * nz / zoom_;
      pan_.y = m.y - (m.y - pan_.y) * nz / zoom_;
      zoom_ = nz;
      user_moved_ = true;
    }
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) fit_pending_ = true;

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p1(p0.x + avail.x, p0.y + avail.y);
    dl->PushClipRect(p0, p1, true);
    dl->AddRectFilled(p0, p1, IM_COL32(22, 24, 30, 255), 4);
    const ImVec2 o(p0.x + pan_.x, p0.y + pan_.y);
    const float z = zoom_;
    const EngineState* f = state();

    // Edges first, under the boxes.
    for (size_t k = 0; k < graph_.edges.size(); ++k) {
      const auto& e = graph_.edges[k];
      ImU32 col = kEdge;
      float thick = 1.4f;
      if (f) {
        const size_t from = edge_from_[k];
        const bool in_run = from != npos;
        const bool delivered = in_run && e.slot < f->sent[from].size() && f->sent[from][e.slot];
        const bool now = f->edge && *f->edge == std::make_pair(e.from, e.slot);
        if (now) col = kActive, thick = 3.0f;
        else if (delivered) col = kDelivered, thick = 2.0f;
        else if (!in_run) col = with_alpha(kEdge, 0.35f);
      }
      draw_edge(dl, layout_.edges[k], o, z, col, thick * std::max(0.6f, z), false);
      if (layout_.edges[k].label && z * ImGui::GetFontSize() >= 8) {
        const ImVec2 lp = *layout_.edges[k].label;
        const std::string t = std::to_string(e.input_nr);
        const float fs = ImGui::GetFontSize() * 0.8f * z;
        const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(fs, FLT_MAX, 0, t.c_str());
        text_at(dl, ImVec2(o.x + lp.x * z - ts.x / 2, o.y + lp.y * z - ts.y / 2), fs, col == kEdge ? kDim : col, t);
      }
    }
    for (size_t k = 0; k < graph_.leaves.size(); ++k) {
      const bool in_run = !f || run_leaf_[k] != npos;
      draw_edge(dl, layout_.leaf_edges[k], o, z, with_alpha(kLeafBorder, in_run ? 0.9f : 0.35f),
                1.4f * std::max(0.6f, z), true);
    }

    // Boxes.
    std::optional<size_t> hover_item;
    for (size_t i = 0; i < items_.size(); ++i) {
      const Item& it = items_[i];
      const ImVec2 center = layout_.centers[i];
      const ImVec2 a(o.x + (center.x - it.size.x / 2) * z, o.y + (center.y - it.size.y / 2) * z);
      const ImVec2 b(a.x + it.size.x * z, a.y + it.size.y * z);
      if (b.x < p0.x || a.x > p1.x || b.y < p0.y || a.y > p1.y) continue;
      if (it.leaf) draw_leaf(dl, it, a, b, z, f);
      else draw_node(dl, it, a, b, z, f);
      if (selected_item_ == i)
        dl->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), IM_COL32(255, 255, 255, 200), 6, 0, 1.5f);
      if (hovered && io.MousePos.x >= a.x && io.MousePos.x <= b.x && io.MousePos.y >= a.y && io.MousePos.y <= b.y)
        hover_item = i;
    }
    dl->PopClipRect();

    if (hover_item) {
      ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
      draw_tooltip(*hover_item);
      if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !dragged_) select_item(c, *hover_item);
    }
    if (!layout_.graphviz) {
      ImGui::SetCursorScreenPos(ImVec2(p0.x + 6, p1.y - ImGui::GetTextLineHeight() - 4));
      ImGui::TextDisabled("%s", layout_pending() ? tr("Laying the graph out with Graphviz...")
                                                 : tr("simple layout (Graphviz not available)"));
    }
  }

  // A deps badge on the top-right corner.
  void badge(ImDrawList* dl, ImVec2 a, ImVec2 b, float z, int deps) {
    const float r = ImGui::GetFontSize() * 0.55f * z;
    const ImVec2 c(b.x - r * 0.6f, a.y + r * 0.4f);
    dl->AddCircleFilled(c, r, deps > 0 ? kPartial : kWrite, 20);
    dl->AddCircle(c, r, IM_COL32(20, 20, 20, 255), 20, 1.0f);
    const std::string t = std::to_string(deps);
    const float fs = ImGui::GetFontSize() * 0.8f * z;
    const ImVec2 ts = ImGui::GetFont()->CalcTextSizeA(fs, FLT_MAX, 0, t.c_str());
    text_at(dl, ImVec2(c.x - ts.x / 2, c.y - ts.y / 2), fs, IM_COL32(20, 20, 20, 255), t);
  }

  void draw_node(ImDrawList* dl, const Item& it, ImVec2 a, ImVec2 b, float z, const EngineState* f) {
    const auto& n = graph_.nodes[it.index];
    const size_t ri = run_node_[it.index];
    const EngineNodeView* v = f && ri != npos ? &f->nodes[ri] : nullptr;
    const float alpha = f && !v ? 0.4f : 1.0f;
    ImU32 fill = n.accumulate ? kAccFill : kFnFill, border = n.accumulate ? kAccBorder : kFnBorder;
    float thick = 1.3f;
    if (v) {
      switch (v->state) {
        case EngineNodeState::Waiting: break;
        case EngineNodeState::Ready: border = kReady, thick = 2.6f; break;
        case EngineNodeState::Running: border = kActive, thick = 3.2f, fill = IM_COL32(96, 64, 24, 255); break;
        case EngineNodeState::Done: fill = with_alpha(fill, 0.7f); break;
        case EngineNodeState::Failed: border = kFailed, thick = 3.2f, fill = IM_COL32(90, 30, 30, 255); break;
      }
    }
    fill = with_alpha(fill, alpha), border = with_alpha(border, alpha);
    if (n.accumulate) octagon(dl, a, b, 7 * z, fill, border, thick * std::max(0.6f, z));
    else {
      dl->AddRectFilled(a, b, fill, 6 * z);
      dl->AddRect(a, b, border, 6 * z, 0, thick * std::max(0.6f, z));
    }
    const float F = ImGui::GetFontSize() * z, line = (ImGui::GetFontSize() + 3) * z;
    if (F < 5) return;
    ImVec2 p(a.x + 9 * z, a.y + 5 * z);
    text_at(dl, p, F, with_alpha(kText, alpha), views::short_node_name(n.name));
    p.y += line;
    if (!n.accumulate && n.output) {
      text_at(dl, p, F, with_alpha(kDim, alpha), output_line(n));
      p.y += line;
    }
    if (f && v) {
      const int total = runs_[run_].deps[ri];
      const bool consumed = v->state == EngineNodeState::Done || v->state == EngineNodeState::Running;
      const ImU32 col = v->buffer.empty()  ? kDim
                        : consumed         ? with_alpha(kDelivered, 0.6f)
                        : v->deps_left > 0 ? kPartial
                                           : kDelivered;
      text_at(dl, p, F, v->buffer.empty() && total == 0 ? kDim : col, buffer_text(*v, total, total == 0));
    } else if (f) {
      text_at(dl, p, F, with_alpha(kDim, alpha), "Σ —");
    }
    if (v && (v->state == EngineNodeState::Waiting || v->state == EngineNodeState::Ready))
      badge(dl, a, b, z, v->deps_left);
    if (v && v->state == EngineNodeState::Failed) {
      const float fs = F * 0.85f;
      chip(dl,
           ImVec2(b.x - 8 * z - ImGui::GetFont()->CalcTextSizeA(fs, FLT_MAX, 0, tr("error")).x - 8 * z, a.y + 5 * z), z,
           tr("error"), kFailed, kText);
    }
  }

  void draw_leaf(ImDrawList* dl, const Item& it, ImVec2 a, ImVec2 b, float z, const EngineState* f) {
    const auto& l = graph_.leaves[it.index];
    const size_t ri = run_leaf_[it.index];
    const views::LeafGradView* g = f && ri != npos ? &f->grads[ri] : nullptr;
    const float alpha = f && !g ? 0.4f : 1.0f;
    const float r = std::min((b.y - a.y) * 0.5f, 14 * z);
    dl->AddRectFilled(a, b, with_alpha(kLeafFill, alpha), r);
    dl->AddRect(a, b, with_alpha(kLeafBorder, alpha), r, 0, 1.5f * std::max(0.6f, z));
    const float F = ImGui::GetFontSize() * z, line = (ImGui::GetFontSize() + 3) * z;
    if (F < 5) return;
    ImVec2 p(a.x + 13 * z, a.y + 5 * z);
    text_at(dl, p, F, with_alpha(kText, alpha), leaf_title(l));
    p.y += line;
    text_at(dl, p, F, with_alpha(kDim, alpha), l.value.empty() ? "?" : l.value);
    p.y += line;
    if (!f) return;
    if (!g) {
      text_at(dl, p, F, with_alpha(kDim, alpha), grad_text(""));
      return;
    }
    const ImU32 col = g->action == GradAction::Written ? IM_COL32(150, 230, 160, 255)
                      : g->action == GradAction::Added ? IM_COL32(150, 190, 255, 255)
                                                       : kDim;
    const std::string t = grad_text(g->value);
    text_at(dl, p, F, col, t);
    if (g->action != GradAction::None) {
      const float x = p.x + ImGui::GetFont()->CalcTextSizeA(F, FLT_MAX, 0, t.c_str()).x + 6 * z;
      chip(dl, ImVec2(x, p.y + 1 * z), z, g->action == GradAction::Written ? "write" : "add",
           g->action == GradAction::Written ? kWrite : kAdd, kText);
    }
  }

  void draw_tooltip(size_t item) {
    const Item& it = items_[item];
    const EngineState* f = state();
    ImGui::BeginTooltip();
    if (!it.leaf) {
      const auto& n = graph_.nodes[it.index];
      ImGui::TextUnformatted(n.name.c_str());
      if (n.seq >= 0) ImGui::TextDisabled("sequence_nr %lld", static_cast<long long>(n.seq));
      if (!n.accumulate) ImGui::Text("next_functions: %s", next_functions_text(graph_, n).c_str());
      if (n.output)
        ImGui::Text("%s #%llu  %s", tr("output"), static_cast<unsigned long long>(*n.output), n.output_value.c_str());
      if (n.accumulate && n.leaf) ImGui::Text("%s #%llu", tr("leaf tensor"), static_cast<unsigned long long>(*n.leaf));
      const size_t ri = run_node_[it.index];
      if (f && ri != npos) {
        const EngineNodeView& v = f->nodes[ri];
        const int total = runs_[run_].deps[ri];
        ImGui::Separator();
        static const char* states[] = {"waiting", "ready", "running", "done", "failed"};
        ImGui::Text("%s: %s", tr("state"), tr(states[static_cast<int>(v.state)]));
        ImGui::Text(tr("gradients received: %d of %d"), v.received, total);
        for (const auto& [nr, sum] : v.buffer) ImGui::Text(tr("input buffer [%u] = %s"), nr, sum.c_str());
      } else if (f) {
        ImGui::TextDisabled("%s", tr("not part of this backward"));
      }
    } else {
      const auto& l = graph_.leaves[it.index];
      ImGui::Text("%s #%llu %s", tr("leaf tensor"), static_cast<unsigned long long>(l.tensor), l.sizes.c_str());
      ImGui::TextUnformatted(l.value.c_str());
      const size_t ri = run_leaf_[it.index];
      if (f && ri != npos) {
        const auto& g = f->grads[ri];
        ImGui::Separator();
        ImGui::Text("%s: %s", tr(".grad before this backward"), g.before.empty() ? "None" : g.before.c_str());
        ImGui::Text("%s: %s", tr(".grad now"), g.value.empty() ? "None" : g.value.c_str());
      }
    }
    ImGui::TextDisabled("%s", tr("Click to select."));
    ImGui::EndTooltip();
  }
};

}  // namespace

std::unique_ptr<View> make_graph_view() { return std::make_unique<GraphView>(); }

}  // namespace ipt::gui
