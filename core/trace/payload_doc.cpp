// The docs' payload tables, written from the declarations (core/trace/payload_doc.h).
#include "core/trace/payload_doc.h"

#include <map>
#include <type_traits>
#include <vector>

#include "core/trace/events.h"
#include "core/trace/trace_json.h"

namespace ipt::trace {

namespace {

// A table cell: a '|' would end it.
std::string cell(const char* text) {
  std::string s;
  for (const char* c = text; *c; ++c) s += *c == '|' ? std::string("\\|") : std::string(1, *c);
  return s;
}

// How one field shows in a record: `name`, `[name]` for a list, `[[a, b], ...]` for records.
struct RecordItem {
  std::string& out;
  template <typename Kind, typename X>
  void operator()(Kind, const char* name, const X&, int) {
    std::string item = name;
    if constexpr (std::is_same_v<Kind, wire::Records>) item = "[[" + field_names<typename X::value_type>() + "], ...]";
    else if constexpr (std::is_same_v<Kind, wire::Pairs>) item = "key, value, key, value, ...";
    else if constexpr (std::is_same_v<Kind, wire::Nodes>) item = "[graph_node records]";
    else if constexpr (std::is_same_v<Kind, wire::KeySets> || std::is_same_v<Kind, wire::Ints> ||
                       std::is_same_v<Kind, wire::Doubles> || std::is_same_v<Kind, wire::Edges> ||
                       std::is_same_v<Kind, wire::Leaves>)
      item = "[" + item + "]";
    out += ", " + item;
  }
};

template <typename T>
std::string record_of() {
  std::string s = "`[" + std::to_string(PayloadInfo<T>::number);
  T sample;
  PayloadInfo<T>::visit(sample, RecordItem{s});
  return s + "]`";
}

// A nested record's fields came with the payload that holds it: no version of their own.
std::string since_of(int payload_since, const FieldDoc& f) {
  if (f.since) return std::to_string(f.since);
  return payload_since ? std::to_string(payload_since) : "";
}

template <typename T>
void field_rows(std::string& out, const char* payload) {
  for (const FieldDoc& f : PayloadInfo<T>::fields)
    out += std::string("| ") + payload + " | `" + f.name + "` | " + f.wire + " | " +
           since_of(PayloadInfo<T>::since, f) + " | " + cell(f.meaning) + " |\n";
}

}  // namespace

std::string payload_docs_markdown() {
  std::string types = "| type | record | version |\n| --- | --- | --- |\n";
  std::string fields = "| payload | field | kind | version | meaning |\n| --- | --- | --- | --- | --- |\n";
  std::map<int, std::vector<std::string>> added;  // version -> what it added
#define IPT_DOC_PAYLOAD(T, FIELDS, NUMBER, NAME, SINCE)                          \
  types += "| " #NUMBER " `" NAME "` | " + record_of<T>() + " | " #SINCE " |\n"; \
  field_rows<T>(fields, "`" NAME "`");                                           \
  added[SINCE].push_back("`" NAME "`");                                          \
  for (const FieldDoc& f : PayloadInfo<T>::fields)                               \
    if (f.since > SINCE) added[f.since].push_back("`" NAME "`'s `" + std::string(f.name) + "`");
  IPT_PAYLOAD_TYPES(IPT_DOC_PAYLOAD)
#undef IPT_DOC_PAYLOAD
#define IPT_DOC_NESTED(T, FIELDS, WHAT)            \
  field_rows<T>(fields, WHAT);                     \
  for (const FieldDoc& f : PayloadInfo<T>::fields) \
    if (f.since) added[f.since].push_back(std::string(WHAT) + "'s `" + f.name + "`");
  IPT_NESTED_RECORDS(IPT_DOC_NESTED)
#undef IPT_DOC_NESTED
  std::string versions = "| version | added |\n| --- | --- |\n";
  for (const auto& [version, what] : added) {
    std::string list;
    for (const std::string& w : what) list += (list.empty() ? "" : ", ") + w;
    versions += "| " + std::to_string(version) + " | " + list + " |\n";
  }
  return std::string(kPayloadDocsBegin) + "\n\n#### Payload types\n\n" + types + "\n#### Fields\n\n" + fields +
         "\n#### What each version added (this program writes version " + std::to_string(kTraceFormatVersion) +
         ")\n\n" + versions + "\n" + kPayloadDocsEnd;
}

}  // namespace ipt::trace
