// docs/trace-format.md holds the payload tables derived from the declarations (Note [Payloads
// are declared once]); with IPT_UPDATE_DOCS=1 in the environment this test rewrites them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "core/trace/events.h"
#include "core/trace/payload_doc.h"
#include "core/trace/trace_json.h"

namespace ipt::trace {
namespace {

std::string read(const char* path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(PayloadDocs, TheDocumentHoldsTheTablesTheDeclarationsGive) {
  std::string doc = read(IPT_TRACE_FORMAT_DOC);
  ASSERT_FALSE(doc.empty()) << IPT_TRACE_FORMAT_DOC;
  const size_t begin = doc.find(kPayloadDocsBegin);
  const size_t end = doc.find(kPayloadDocsEnd);
  ASSERT_NE(begin, std::string::npos) << "no generated block in " << IPT_TRACE_FORMAT_DOC;
  ASSERT_NE(end, std::string::npos);
  ASSERT_LT(begin, end);
  const std::string expected = payload_docs_markdown();
  const std::string found = doc.substr(begin, end + std::string(kPayloadDocsEnd).size() - begin);
  if (found != expected && std::getenv("IPT_UPDATE_DOCS")) {
    doc.replace(begin, found.size(), expected);
    std::ofstream(IPT_TRACE_FORMAT_DOC) << doc;
    GTEST_SKIP() << "rewrote the payload tables of " << IPT_TRACE_FORMAT_DOC;
  }
  EXPECT_EQ(found, expected) << "the payload tables are stale: run this test with IPT_UPDATE_DOCS=1";
}

TEST(PayloadDocs, EveryPayloadNumberIsItsVariantIndexAndVersionsOnlyAdd) {
#define IPT_CHECK_NUMBER(T, FIELDS, NUMBER, NAME, SINCE)                    \
  EXPECT_EQ(Payload(T{}).index(), static_cast<size_t>(NUMBER) + 1) << NAME; \
  EXPECT_LE(SINCE, kTraceFormatVersion) << NAME;                            \
  EXPECT_GE(max_payload_number(SINCE), NUMBER) << NAME;                     \
  for (const FieldDoc& f : PayloadInfo<T>::fields) EXPECT_LE(f.since, kTraceFormatVersion) << NAME << "." << f.name;
  IPT_PAYLOAD_TYPES(IPT_CHECK_NUMBER)
#undef IPT_CHECK_NUMBER
  EXPECT_EQ(max_payload_number(kTraceFormatVersion) + 2, static_cast<int>(std::variant_size_v<Payload>));
  EXPECT_EQ(max_payload_number(0), -1);
  EXPECT_EQ(max_payload_number(2), 5);
  EXPECT_EQ(max_payload_number(6), 17);
}

}  // namespace
}  // namespace ipt::trace
