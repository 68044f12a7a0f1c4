// Note [Text payloads in older traces]
// Up to format version 2 the autograd recorded its graph and the engine's steps as
// kernel_detail fields of text: "node created" with node=5 next="4:0,none" leaf="6=11",
// "autograd graph" with one "id=5 name=SumBackward0 seq=4 deps=0 next=4:0 leaf=11" record per
// node, "grad arrived" with sum="[1, 2]". Version 3 records them as typed payloads
// (GraphNode, GraphNodes, EngineStep). Reading an older file turns those texts into the typed
// payloads once, here, so every view reads one kind of event. A field that does not parse
// leaves its event as it was. The same goes for an operator's "dispatch table", the text
// torch._C._dispatch_dump_table prints until version 3 made it a DispatchTable, and for an
// "autograd decision", a sentence until version 3 made it an AutogradDecision.
#include "core/trace/trace_upgrade.h"

#include <charconv>
#include <cstring>
#include <optional>
#include <tuple>
#include <string_view>

#include "core/util/parse_number.h"

namespace ipt::trace {

namespace {

const std::string* field(const KernelDetail& d, const char* key) {
  for (const auto& [k, v] : d.fields)
    if (std::strcmp(k, key) == 0) return &v;
  return nullptr;
}

std::string_view text(const KernelDetail& d, const char* key) {
  const std::string* v = field(d, key);
  return v ? std::string_view(*v) : std::string_view();
}

// "4:0,none,6:1" -> next edges; nullopt when an item is neither "none" nor "<id>:<nr>".
std::optional<std::vector<NextEdge>> next_edges(std::string_view s) {
  std::vector<NextEdge> out;
  if (s.empty()) return out;
  for (size_t pos = 0; pos <= s.size();) {
    size_t comma = s.find(',', pos);
    if (comma == std::string_view::npos) comma = s.size();
    const std::string_view item = s.substr(pos, comma - pos);
    pos = comma + 1;
    if (item == "none") {
      out.push_back(NextEdge{});
      continue;
    }
    const size_t colon = item.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    auto id = parse_number<uint64_t>(item.substr(0, colon));
    auto nr = parse_number<uint32_t>(item.substr(colon + 1));
    if (!id || !nr) return std::nullopt;
    out.push_back(NextEdge{true, *id, *nr});
  }
  return out;
}

// "<AccumulateGrad id>=<leaf tensor id>".
std::optional<LeafEdge> leaf_edge(std::string_view s) {
  const size_t eq = s.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  auto node = parse_number<uint64_t>(s.substr(0, eq));
  auto tensor = parse_number<uint64_t>(s.substr(eq + 1));
  if (!node || !tensor) return std::nullopt;
  return LeafEdge{*node, *tensor};
}

// Version 2 wrote AccumulateGrad's sequence number UINT64_MAX in full: -1 now.
int64_t seq_of(std::string_view s) { return parse_number<int64_t>(s).value_or(-1); }

std::optional<GraphNode> node_created(const KernelDetail& d) {
  auto id = parse_number<uint64_t>(text(d, "node"));
  auto next = next_edges(text(d, "next"));
  if (!id || !next) return std::nullopt;
  GraphNode g;
  g.node = *id;
  g.name = intern(text(d, "name"));
  g.seq = seq_of(text(d, "seq"));
  g.next = std::move(*next);
  g.output_tensor = parse_number<uint64_t>(text(d, "output_tensor")).value_or(0);
  for (const auto& [k, v] : d.fields)
    if (std::strcmp(k, "leaf") == 0)
      if (auto l = leaf_edge(v)) g.leaves.push_back(*l);
  return g;
}

// One "id=5 name=SumBackward0 seq=4 deps=0 next=4:0 leaf=11" record.
std::optional<GraphNode> graph_record(std::string_view s) {
  GraphNode g;
  bool have_id = false;
  for (size_t pos = 0; pos < s.size();) {
    while (pos < s.size() && s[pos] == ' ') ++pos;
    size_t end = s.find(' ', pos);
    if (end == std::string_view::npos) end = s.size();
    const std::string_view tok = s.substr(pos, end - pos);
    pos = end;
    const size_t eq = tok.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = tok.substr(0, eq), value = tok.substr(eq + 1);
    if (key == "id") {
      auto id = parse_number<uint64_t>(value);
      if (!id) return std::nullopt;
      g.node = *id;
      have_id = true;
    } else if (key == "name") {
      g.name = intern(value);
    } else if (key == "seq") {
      g.seq = seq_of(value);
    } else if (key == "deps") {
      g.deps = parse_number<int32_t>(value).value_or(-1);
    } else if (key == "next") {
      auto next = next_edges(value);
      if (!next) return std::nullopt;
      g.next = std::move(*next);
    } else if (key == "leaf") {
      if (auto t = parse_number<uint64_t>(value)) g.leaves.push_back({0, *t});
    }
  }
  if (!have_id) return std::nullopt;
  for (auto& l : g.leaves) l.node = g.node;
  return g;
}

// "[1, 2, ...]" or "None" into the step's sum.
bool parse_sum(std::string_view s, EngineStep& x) {
  if (s == "None") {
    x.sum_none = true;
    return true;
  }
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return false;
  s = s.substr(1, s.size() - 2);
  for (size_t pos = 0; pos < s.size();) {
    size_t comma = s.find(',', pos);
    if (comma == std::string_view::npos) comma = s.size();
    std::string_view item = s.substr(pos, comma - pos);
    pos = comma + 1;
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    if (item == "...") {
      x.sum_truncated = true;
      continue;
    }
    auto v = parse_number<double>(item);
    if (!v) return false;
    x.sum.push_back(*v);
  }
  return true;
}

// An operator's table as torch._C._dispatch_dump_table prints it, one line per key:
// "AutogradCPU: registered at build/generated/RegisterAutograd.cpp:6650 [autograd kernel]",
// with "fallthrough " before "registered" for a fallthrough.
std::optional<DispatchTable> dispatch_table(const KernelDetail& d) {
  DispatchTable t;
  t.op = intern(text(d, "op"));
  t.schema = intern(text(d, "schema"));
  const std::string_view table = text(d, "table");
  for (size_t pos = 0; pos < table.size();) {
    size_t eol = table.find('\n', pos);
    if (eol == std::string_view::npos) eol = table.size();
    std::string_view line = table.substr(pos, eol - pos);
    pos = eol + 1;
    const size_t colon = line.find(": ");
    if (colon == std::string_view::npos) continue;
    auto key = DispatchKey::parse(line.substr(0, colon));
    if (!key) return std::nullopt;
    DispatchTableRow r;
    r.key = *key;
    std::string_view rest = line.substr(colon + 2);
    if (rest.rfind("fallthrough ", 0) == 0) {
      r.fallthrough = true;
      rest.remove_prefix(12);
    }
    if (rest.rfind("registered at ", 0) == 0) rest.remove_prefix(14);
    const size_t br = rest.rfind(" [");
    if (br != std::string_view::npos && rest.back() == ']') {
      r.kind = intern(rest.substr(br + 2, rest.size() - br - 3));
      rest = rest.substr(0, br);
    }
    r.registered_at = intern(rest);
    t.rows.push_back(r);
  }
  return t;
}

// "aten::mul.Tensor: grad mode on, an input requires grad -> records MulBackward0".
std::optional<AutogradDecision> decision(std::string_view s) {
  auto take = [&s](std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix) return false;
    s.remove_prefix(prefix.size());
    return true;
  };
  const size_t colon = s.find(": grad mode ");
  if (colon == std::string_view::npos) return std::nullopt;
  AutogradDecision d;
  d.op = intern(s.substr(0, colon));
  s.remove_prefix(colon + 12);
  d.grad_mode = take("on, ");
  if (!d.grad_mode && !take("off, ")) return std::nullopt;
  d.requires_grad = take("an input requires grad -> ");
  if (!d.requires_grad && !take("no input requires grad -> ")) return std::nullopt;
  if (take("records ")) d.node = intern(s == "a backward node" ? std::string_view() : s);
  else if (s != "no graph is recorded") return std::nullopt;
  return d;
}

std::optional<Payload> upgraded(const Event& e, const KernelDetail& d) {
  if (e.category == Category::Dispatch) {
    if (e.phase != Phase::Instant || std::strcmp(e.name, "dispatch table") != 0) return std::nullopt;
    if (auto t = dispatch_table(d)) return Payload(std::move(*t));
    return std::nullopt;
  }
  if (e.phase == Phase::Instant && std::strcmp(e.name, "node created") == 0) {
    if (auto g = node_created(d)) return Payload(std::move(*g));
    return std::nullopt;
  }
  if (e.phase == Phase::Instant && std::strcmp(e.name, "autograd graph") == 0) {
    GraphNodes g;
    for (const auto& [k, v] : d.fields) {
      if (std::strcmp(k, "node") != 0) continue;
      auto n = graph_record(v);
      if (!n) return std::nullopt;
      g.nodes.push_back(std::move(*n));
    }
    return Payload(std::move(g));
  }
  auto id = parse_number<uint64_t>(text(d, "node"));
  if (!id) return std::nullopt;
  EngineStep x;
  x.node = *id;
  x.name = intern(text(d, "name"));
  if (e.phase == Phase::Begin) return Payload(std::move(x));  // a node's run
  if (std::strcmp(e.name, "node ready") == 0) return Payload(std::move(x));
  if (std::strcmp(e.name, "grad arrived") == 0) {
    auto from = parse_number<uint64_t>(text(d, "from"));
    auto nr = parse_number<uint32_t>(text(d, "input_nr"));
    auto left = parse_number<int32_t>(text(d, "deps_left"));
    if (!from || !nr || !left || !parse_sum(text(d, "sum"), x)) return std::nullopt;
    x.from = *from, x.input_nr = *nr, x.deps_left = *left;
    return Payload(std::move(x));
  }
  if (std::strcmp(e.name, "grad written") == 0 || std::strcmp(e.name, "grad added") == 0) {
    auto tensor = parse_number<uint64_t>(text(d, "tensor"));
    auto grad = parse_number<uint64_t>(text(d, "grad_tensor"));
    if (!tensor || !grad) return std::nullopt;
    x.name = intern("torch::autograd::AccumulateGrad");
    x.tensor = *tensor, x.grad_tensor = *grad;
    return Payload(std::move(x));
  }
  return std::nullopt;
}

}  // namespace

void upgrade_text_payloads(std::vector<Event>& events) {
  for (Event& e : events) {
    if (e.category != Category::Autograd && e.category != Category::Dispatch) continue;
    if (const auto* t = std::get_if<Text>(&e.payload); t && std::strcmp(e.name, "autograd decision") == 0) {
      if (auto d = decision(t->text)) e.payload = *d;
      continue;
    }
    const auto* d = std::get_if<KernelDetail>(&e.payload);
    if (!d) continue;
    if (auto p = upgraded(e, *d)) e.payload = std::move(*p);
  }
}

namespace {

// "0/1" -> (0, 1).
std::optional<std::pair<int32_t, int32_t>> compile_numbers(std::string_view id) {
  const size_t slash = id.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  auto frame = parse_number<int32_t>(id.substr(0, slash));
  auto index = parse_number<int32_t>(id.substr(slash + 1));
  if (!frame || !index) return std::nullopt;
  return std::make_pair(*frame, *index);
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// One version 5 line's decision; nullopt when it is not one of the forms Inductor wrote.
std::optional<FusionDecision> fusion_line(std::string_view node, std::string_view d, std::string& pending_reason) {
  constexpr std::string_view kNewKernel = "starts a new kernel: ", kStarts = "starts ", kFused = "fused into ",
                             kNotFused = "not fused: ", kReduction = " (a reduction of its values)";
  FusionDecision out;
  out.node = intern(node);
  if (starts_with(d, kNewKernel)) {  // the reason for the node's next line, "starts <kernel>"
    pending_reason = std::string(d.substr(kNewKernel.size()));
    return std::nullopt;
  }
  if (starts_with(d, kStarts)) {
    out.action = FusionAction::StartsKernel;
    out.kernel = intern(d.substr(kStarts.size()));
    out.reason = std::move(pending_reason);
  } else if (starts_with(d, kFused)) {
    std::string_view k = d.substr(kFused.size());
    const bool reduction = k.size() > kReduction.size() && k.substr(k.size() - kReduction.size()) == kReduction;
    if (reduction) k.remove_suffix(kReduction.size());
    out.action = reduction ? FusionAction::FusedReduction : FusionAction::FusedInto;
    out.kernel = intern(k);
  } else if (starts_with(d, kNotFused)) {
    out.action = FusionAction::NotFused;
    out.reason = std::string(d.substr(kNotFused.size()));
  } else {
    return std::nullopt;
  }
  pending_reason.clear();
  return out;
}

std::optional<FusionDecisions> fusion_decisions(const CompileArtifact& a, int32_t graph) {
  auto id = compile_numbers(a.compile_id);
  if (!id) return std::nullopt;
  FusionDecisions f;
  f.frame_id = id->first;
  f.compile_index = id->second;
  f.graph = graph;
  std::string pending;
  std::string_view pending_node;
  std::string_view text = a.text;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty()) continue;
    const size_t tab = line.find('\t');
    if (tab == std::string_view::npos) return std::nullopt;
    const std::string_view node = line.substr(0, tab), decision = line.substr(tab + 1);
    if (!pending.empty() && node != pending_node) return std::nullopt;  // a reason with no "starts" after it
    const bool had_reason = starts_with(decision, "starts a new kernel: ");
    std::optional<FusionDecision> d = fusion_line(node, decision, pending);
    if (had_reason) {
      pending_node = node;
      continue;
    }
    if (!d) return std::nullopt;
    f.decisions.push_back(std::move(*d));
  }
  if (!pending.empty()) return std::nullopt;
  return f;
}

}  // namespace

namespace {

// "tensor 'L['x']' size mismatch at index 0. expected 3, actual 4" -> the guard's parts; a
// failure of another guard is its check ("L['n'] == 3"), whose source is its first word.
GuardFailure failure_of(std::string_view line) {
  GuardFailure f;
  const size_t colon = line.find(": ");
  std::string_view reason = colon == std::string_view::npos ? line : line.substr(colon + 2);
  if (colon != std::string_view::npos)
    if (auto id = compile_numbers(line.substr(0, colon))) f.frame_id = id->first, f.compile_index = id->second;
  f.reason = std::string(reason);
  constexpr std::string_view kTensor = "tensor '";
  if (starts_with(reason, kTensor)) {
    f.guard = "TENSOR_MATCH";
    const size_t end = reason.find("' ", kTensor.size());
    if (end != std::string_view::npos) f.source = intern(reason.substr(kTensor.size(), end - kTensor.size()));
    const size_t e = reason.rfind(". expected "), a = reason.rfind(", actual ");
    if (e != std::string_view::npos && a != std::string_view::npos && a > e) {
      f.expected = std::string(reason.substr(e + 11, a - e - 11));
      f.actual = std::string(reason.substr(a + 9));
    }
  } else if (starts_with(reason, "GLOBAL_STATE")) {
    f.guard = "GLOBAL_STATE";
  } else {
    f.source = intern(reason.substr(0, reason.find(' ')));
  }
  return f;
}

// The line of `tree` that holds the failed guard (-1: none), and its label.
int32_t tree_line_of(std::string_view tree, GuardFailure& f) {
  int32_t n = 0;
  while (!tree.empty()) {
    const size_t nl = tree.find('\n');
    const std::string_view line = tree.substr(0, nl);
    tree = nl == std::string_view::npos ? std::string_view() : tree.substr(nl + 1);
    bool found = false;
    if (std::string_view(f.guard) == "TENSOR_MATCH")
      found = line.find("TENSOR_MATCH: check_tensor(" + std::string(f.source) + ",") != std::string_view::npos;
    else if (std::string_view(f.guard) == "GLOBAL_STATE") found = line.find("GLOBAL_STATE:") != std::string_view::npos;
    else found = !f.reason.empty() && line.find(": " + f.reason) != std::string_view::npos;
    if (found) {
      if (!f.guard[0]) {  // the label before ": <check>": "EQUALS_MATCH"
        const size_t dash = line.find("+- "), colon = line.find(": ", dash);
        if (dash != std::string_view::npos && colon != std::string_view::npos)
          f.guard = intern(line.substr(dash + 3, colon - dash - 3));
      }
      return n;
    }
    ++n;
  }
  return -1;
}

// "guards checked in 300 ns, 1 entry" -> (300, 1).
std::optional<std::pair<int64_t, int32_t>> lookup_numbers(std::string_view text) {
  constexpr std::string_view kHead = "guards checked in ";
  if (!starts_with(text, kHead)) return std::nullopt;
  text.remove_prefix(kHead.size());
  const size_t ns = text.find(" ns, ");
  if (ns == std::string_view::npos) return std::nullopt;
  auto check = parse_number<int64_t>(text.substr(0, ns));
  text.remove_prefix(ns + 5);
  auto entries = parse_number<int32_t>(text.substr(0, text.find(' ')));
  if (!check || !entries) return std::nullopt;
  return std::make_pair(*check, *entries);
}

}  // namespace

void upgrade_compile_text(std::vector<Event>& events) {
  // A compile lowers one graph, or AOTAutograd's forward and then its backward: the first
  // fusion artifact of a compile id is graph 0, the next graph 1. Ids start again after a reset.
  std::vector<std::string> seen;
  std::vector<std::pair<std::string, const std::string*>> guards;  // compile id -> its guard tree
  for (Event& e : events) {
    if (e.category != Category::Compile) continue;
    const std::string_view name = e.name;
    if (name == "torch._dynamo.reset()") {
      seen.clear();
      guards.clear();
      continue;
    }
    if (const auto* t = std::get_if<Text>(&e.payload);
        t && (name == "cache miss" || starts_with(name, "cache hit ["))) {
      auto n = lookup_numbers(t->text);
      if (!n) continue;
      CacheLookup c;
      c.hit = name != "cache miss";
      if (c.hit) {
        auto id = compile_numbers(name.substr(11, name.size() - 12));
        if (!id || name.back() != ']') continue;
        c.frame_id = id->first;
        c.compile_index = id->second;
      }
      c.check_ns = n->first;
      c.entries = n->second;
      e.payload = c;
      continue;
    }
    const auto* a = std::get_if<CompileArtifact>(&e.payload);
    if (!a) continue;
    if (a->kind == CompileArtifactKind::Guards) {
      guards.emplace_back(a->compile_id, &a->text);
    } else if (a->kind == CompileArtifactKind::Fusion) {
      int32_t graph = 0;
      for (const std::string& s : seen) graph += s == a->compile_id;
      seen.emplace_back(a->compile_id);
      if (auto f = fusion_decisions(*a, graph)) e.payload = std::move(*f);
    } else if (a->kind == CompileArtifactKind::Recompile) {
      auto id = compile_numbers(a->compile_id);
      if (!id) continue;
      Recompile r{id->first, id->second, {}};
      std::string_view text = a->text;
      while (!text.empty()) {
        const size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        if (line.empty()) continue;
        GuardFailure f = failure_of(line);
        const std::string failed = compile_id_text(f.frame_id, f.compile_index);
        for (auto it = guards.rbegin(); it != guards.rend(); ++it)
          if (it->first == failed) {
            f.tree_line = tree_line_of(*it->second, f);
            break;
          }
        r.failures.push_back(std::move(f));
      }
      e.payload = std::move(r);  // `a` (and the guard texts kept above) stay valid: a different event
    }
  }
}

}  // namespace ipt::trace

namespace ipt::trace {

namespace {

// "cpp_fused_add_mul_2" -> 2; -1 when the name ends in no number.
int32_t kernel_number(std::string_view kernel) {
  const size_t us = kernel.rfind('_');
  if (us == std::string_view::npos) return -1;
  return parse_number<int32_t>(kernel.substr(us + 1)).value_or(-1);
}

// "capture [0/1]" -> ("capture", 0, 1); false when the name has no compile id.
bool parse_phase_label(std::string_view name, CompilePhase& out) {
  const size_t open = name.rfind(" [");
  if (open == std::string_view::npos || name.size() < open + 3 || name.back() != ']') return false;
  const auto id = compile_numbers(name.substr(open + 2, name.size() - open - 3));
  if (!id) return false;
  out = CompilePhase{intern(name.substr(0, open)), id->first, id->second};
  return true;
}

EngineAction action_named(std::string_view name) {
  if (name == "node ready") return EngineAction::NodeReady;
  if (name == "grad arrived") return EngineAction::GradArrived;
  if (name == "grad written") return EngineAction::GradWritten;
  if (name == "grad added") return EngineAction::GradAdded;
  return EngineAction::Unknown;
}

}  // namespace

void upgrade_named_events(std::vector<Event>& events) {
  int resets = 0;
  for (Event& e : events) {
    const std::string_view name = e.name;
    if (auto* a = std::get_if<CompileArtifact>(&e.payload)) {
      if (const auto id = compile_numbers(a->compile_id)) std::tie(a->frame_id, a->compile_index) = *id;
    } else if (auto* f = std::get_if<FusionDecisions>(&e.payload)) {
      for (FusionDecision& d : f->decisions)
        if (d.kernel_index < 0 && *d.kernel) d.kernel_index = kernel_number(d.kernel);
    } else if (auto* x = std::get_if<EngineStep>(&e.payload); x && x->action == EngineAction::Unknown) {
      x->action = e.phase == Phase::Instant ? action_named(name) : EngineAction::NodeRuns;
    } else if (e.category == Category::Autograd && name == "backward" && e.phase == Phase::Begin) {
      // Versions before 7: a Text "root tensor #16" (backward) or "autograd.grad".
      if (auto* t = std::get_if<Text>(&e.payload)) {
        const size_t hash = t->text.rfind('#');
        const uint64_t root = hash == std::string::npos
                                  ? 0
                                  : parse_number<uint64_t>(std::string_view(t->text).substr(hash + 1)).value_or(0);
        e.payload = EngineRun{root, root ? "backward" : std::move(t->text)};
      } else if (std::holds_alternative<std::monostate>(e.payload)) {
        e.payload = EngineRun{};
      }
    } else if (e.category == Category::Compile && std::holds_alternative<std::monostate>(e.payload)) {
      CompilePhase p;
      if (e.phase != Phase::Instant && parse_phase_label(name, p)) e.payload = p;
      else if (e.phase == Phase::Instant && name == "torch._dynamo.reset()") e.payload = DynamoReset{resets++};
    }
  }
}

}  // namespace ipt::trace
