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

GuardFailure parse_failure(const std::string& line) {
  GuardFailure f;
  const size_t colon = line.find(": ");
  f.compile_id = colon == std::string::npos ? "" : line.substr(0, colon);
  f.reason = colon == std::string::npos ? line : line.substr(colon + 2);
  // "tensor 'L['x']' size mismatch ..." names its source between the outer quotes.
  const std::string tensor = "tensor '";
  if (f.reason.rfind(tensor, 0) == 0) {
    const size_t end = f.reason.find("' ", tensor.size());
    if (end != std::string::npos) f.source = f.reason.substr(tensor.size(), end - tensor.size());
  } else {
    const size_t sp = f.reason.find(' ');
    f.source = f.reason.substr(0, sp);
  }
  return f;
}

// "capture [0/1]" -> ("capture", "0/1").
bool split_label(const char* name, std::string& what, std::string& id) {
  const std::string s(name);
  const size_t open = s.rfind(" [");
  if (open == std::string::npos || s.back() != ']') return false;
  what = s.substr(0, open);
  id = s.substr(open + 2, s.size() - open - 3);
  return true;
}

}  // namespace

CompileModel build_compile_model(const std::vector<trace::Event>& events, size_t first, size_t last) {
  CompileModel m;
  std::map<std::string, size_t> by_id;  // "epoch:id" -> index
  int epoch = 0;
  std::map<std::string, int64_t> began;  // open phase label -> begin time
  auto key = [&](const std::string& id) { return std::to_string(epoch) + ":" + id; };
  auto record = [&](const std::string& id, size_t at) -> CompileRecord& {
    auto it = by_id.find(key(id));
    if (it != by_id.end()) return m.compiles[it->second];
    CompileRecord r;
    r.compile_id = id;
    r.epoch = epoch;
    const size_t slash = id.find('/');
    r.frame_id = std::atoi(id.substr(0, slash).c_str());
    r.compile_index = slash == std::string::npos ? 0 : std::atoi(id.substr(slash + 1).c_str());
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
      CompileRecord& r = record(a->compile_id, i);
      switch (a->kind) {
        case trace::CompileArtifactKind::Frame: {
          std::vector<std::string> ls = lines_of(a->text);
          r.frame = ls.empty() ? "" : ls[0];
          r.source.assign(ls.size() > 1 ? ls.begin() + 1 : ls.end(), ls.end());
          r.file = a->file;
          r.first_line = a->line;
          break;
        }
        case trace::CompileArtifactKind::Recompile:
          for (const std::string& l : lines_of(a->text)) r.reasons.push_back(parse_failure(l));
          break;
        case trace::CompileArtifactKind::Graph: r.graph = a->text; break;
        case trace::CompileArtifactKind::Guards: r.guards = a->text; break;
        case trace::CompileArtifactKind::AotForward: r.aot_forward = a->text; break;
        case trace::CompileArtifactKind::AotBackward: r.aot_backward = a->text; break;
        case trace::CompileArtifactKind::OutputCode:
          r.output_code += (r.output_code.empty() ? "" : "\n") + a->text;
          break;
        case trace::CompileArtifactKind::Fusion: {
          std::vector<std::pair<std::string, std::string>> d;
          for (const std::string& l : lines_of(a->text)) {
            const size_t tab = l.find('\t');
            if (tab != std::string::npos) d.emplace_back(l.substr(0, tab), l.substr(tab + 1));
          }
          r.fusion.push_back(std::move(d));
          break;
        }
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
    std::string what, id;
    if (e.phase == trace::Phase::Instant) {
      if (std::string(e.name) == kCompileReset) {
        ++epoch;
      } else if (split_label(e.name, what, id) && what == "cache hit") {
        auto it = by_id.find(key(id));
        if (it != by_id.end()) {
          ++m.compiles[it->second].hits;
          if (const auto* t = std::get_if<trace::Text>(&e.payload)) m.compiles[it->second].last_check = t->text;
        }
      } else if (std::string(e.name) == "cache miss") {
        ++m.cache_misses;
      }
      continue;
    }
    if (!split_label(e.name, what, id)) continue;
    const std::string label = std::to_string(e.tid) + "|" + e.name;
    if (e.phase == trace::Phase::Begin) {
      began[label] = e.ts_ns;
    } else if (auto b = began.find(label); b != began.end()) {
      if (what != "compile") record(id, i).phases.push_back({what, e.ts_ns - b->second});
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
      if (auto it = by_id.find(std::to_string(r.epoch) + ":" + g.compile_id); it != by_id.end())
        m.compiles[it->second].failed_later.push_back(g);
  }
  return m;
}

const GuardFailure* guard_failure(const std::string& line, const std::vector<GuardFailure>& failed) {
  for (const GuardFailure& f : failed) {
    if (f.reason.rfind("tensor '", 0) == 0) {
      if (line.find("TENSOR_MATCH: check_tensor(" + f.source + ",") != std::string::npos) return &f;
    } else if (!f.reason.empty() && line.find(": " + f.reason) != std::string::npos) {
      return &f;
    } else if (f.reason.rfind("GLOBAL_STATE", 0) == 0 && line.find("GLOBAL_STATE:") != std::string::npos) {
      return &f;
    }
  }
  return nullptr;
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
