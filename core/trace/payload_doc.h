#pragma once
// The tables of docs/trace-format.md that are derived from the payload declarations (Note
// [Payloads are declared once] in core/trace/payloads.h): tests/trace/payload_doc_test.cpp
// checks that the document holds them, and rewrites them with IPT_UPDATE_DOCS=1.

#include <string>

namespace ipt::trace {

// The generated block: the payload types with their records, every field with its kind and
// meaning, and what each format version added.
std::string payload_docs_markdown();

// The markers around the generated block in docs/trace-format.md.
inline constexpr const char* kPayloadDocsBegin =
    "<!-- generated from core/trace/payloads.h by tests/trace/payload_doc_test.cpp: do not edit -->";
inline constexpr const char* kPayloadDocsEnd = "<!-- end of the generated tables -->";

}  // namespace ipt::trace
