#include "core/views/compile_model.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

#include "core/util/split_lines.h"

namespace ipt::views {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  for (std::string_view l : split_lines(text)) out.emplace_back(l);
  return out;
}

}  // namespace

CompileModel build_compile_model(const std::vector<trace::Event>& events, size_t first, size_t last) {
  CompileModel m;
  std::map<std::string, size_t> by_id;  // "epoch:id" -> index
  int epoch = 0;
  std::map<std::string, int64_t> began;  // open phase label -> begin time
  auto key = [&](const std::string& id) { return std::to_string(epoch) + ":" + id; };
  auto record = [&](int32_t frame_id, int32_t compile_index, size_t at) -> CompileRecord& {
    const std::string id = compile_id_text(frame_id, compile_index);
    auto it = by_id.find(key(id));
    if (it != by_id.end()) return m.compiles[it->second];
    CompileRecord r;
    r.compile_id = id;
    r.epoch = epoch;
    r.frame_id = frame_id;
    r.compile_index = compile_index;
    r.event = at;
    by_id.emplace(key(id), m.compiles.size());
    m.compiles.push_back(std::move(r));
    return m.compiles.back();
  };
  last = std::min(last, events.size());
  for (size_t i = first; i < last; ++i) {
    const trace::Event& e = events[i];
    if (e.category != trace::Category::Compile) continue;
    if (const auto* a = std::get_if<trace::CompileArtifact>(&e.payload)) {
      CompileRecord& r = record(a->frame_id, a->compile_index, i);
      switch (a->kind) {
        case trace::CompileArtifactKind::Frame: {
          std::vector<std::string> ls = lines_of(a->text);
          r.frame = ls.empty() ? "" : ls[0];
          r.source.assign(ls.size() > 1 ? ls.begin() + 1 : ls.end(), ls.end());
          r.file = a->file;
          r.first_line = a->line;
          break;
        }
        case trace::CompileArtifactKind::Recompile:  // a version 5 text that did not parse on loading
          break;
        case trace::CompileArtifactKind::Graph: r.graph = a->text; break;
        case trace::CompileArtifactKind::Guards: r.guards = a->text; break;
        case trace::CompileArtifactKind::AotForward: r.aot_forward = a->text; break;
        case trace::CompileArtifactKind::AotBackward: r.aot_backward = a->text; break;
        case trace::CompileArtifactKind::OutputCode:
          r.output_code += (r.output_code.empty() ? "" : "\n") + a->text;
          break;
        case trace::CompileArtifactKind::Fusion:  // a version 5 text that did not parse on loading
          break;
        case trace::CompileArtifactKind::GraphBreak: {
          GraphBreakInfo b;
          std::vector<std::string> ls = lines_of(a->text);
          b.reason = ls.empty() ? "" : ls[0];
          b.code = ls.size() > 1 ? ls[1] : "";
          b.file = a->file;
          b.line = a->line;
          r.graph_break = std::move(b);
          break;
        }
      }
      continue;
    }
    if (const auto* rc = std::get_if<trace::Recompile>(&e.payload)) {
      record(rc->frame_id, rc->compile_index, i).reasons = rc->failures;
      continue;
    }
    if (const auto* c = std::get_if<trace::CacheLookup>(&e.payload)) {
      if (!c->hit) {
        ++m.cache_misses;
      } else if (auto it = by_id.find(key(compile_id_text(c->frame_id, c->compile_index))); it != by_id.end()) {
        CompileRecord& r = m.compiles[it->second];
        ++r.hits;
        r.last_check_ns = c->check_ns;
        r.last_entries = c->entries;
      }
      continue;
    }
    if (const auto* f = std::get_if<trace::FusionDecisions>(&e.payload)) {
      CompileRecord& r = record(f->frame_id, f->compile_index, i);
      if (f->graph >= 0 && f->graph < 2) {
        if (r.fusion.size() <= static_cast<size_t>(f->graph)) r.fusion.resize(f->graph + 1);
        r.fusion[f->graph] = f->decisions;
      }
      continue;
    }
    if (std::holds_alternative<trace::DynamoReset>(e.payload)) {
      ++epoch;
      continue;
    }
    const auto* p = std::get_if<trace::CompilePhase>(&e.payload);
    if (!p || e.phase == trace::Phase::Instant) continue;
    const std::string id = compile_id_text(p->frame_id, p->compile_index);
    const std::string label = std::to_string(e.tid) + "|" + p->phase + "|" + id;
    if (e.phase == trace::Phase::Begin) {
      began[label] = e.ts_ns;
    } else if (auto b = began.find(label); b != began.end()) {
      if (std::string_view(p->phase) != "compile")
        record(p->frame_id, p->compile_index, i).phases.push_back({p->phase, e.ts_ns - b->second});
      began.erase(b);
    }
  }
  // Frames in order of their first compile, and each compile's guards that later failed.
  for (size_t k = 0; k < m.compiles.size(); ++k) {
    CompileRecord& r = m.compiles[k];
    auto f = std::find_if(m.frames.begin(), m.frames.end(),
                          [&](const CompileModel::Frame& x) { return x.epoch == r.epoch && x.frame_id == r.frame_id; });
    if (f == m.frames.end()) m.frames.push_back({r.epoch, r.frame_id, {k}});
    else f->compiles.push_back(k);
    for (const GuardFailure& g : r.reasons)
      if (auto it = by_id.find(std::to_string(r.epoch) + ":" + compile_id_text(g.frame_id, g.compile_index));
          it != by_id.end())
        m.compiles[it->second].failed_later.push_back(g);
  }
  return m;
}

const GuardFailure* failure_at_line(int tree_line, const std::vector<GuardFailure>& failed) {
  for (const GuardFailure& f : failed)
    if (f.tree_line >= 0 && f.tree_line == tree_line) return &f;
  return nullptr;
}

std::string fusion_decision_text(const trace::FusionDecision& d) {
  const std::string k = d.kernel;
  switch (d.action) {
    case trace::FusionAction::StartsKernel:
      return "starts " + k + (d.reason.empty() ? "" : " (a new kernel: " + d.reason + ")");
    case trace::FusionAction::FusedInto: return "fused into " + k;
    case trace::FusionAction::FusedReduction: return "fused into " + k + " (a reduction of its values)";
    case trace::FusionAction::NotFused: return "not fused: " + d.reason;
  }
  return "";
}

std::string defined_name(const std::string& line) {
  size_t i = line.find_first_not_of(' ');
  if (i == std::string::npos) return "";
  size_t j = i;
  while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '_')) ++j;
  if (j == i) return "";
  const std::string rest = line.substr(j);
  if (rest.rfind(": \"", 0) == 0 || rest.rfind(" = ", 0) == 0) return line.substr(i, j - i);
  return "";
}

}  // namespace ipt::views
