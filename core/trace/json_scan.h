#pragma once
// Internal to core/trace: reading a large JSON document in pieces.
//
// Note [Reading a trace in pieces]
// A trace of a million events is a 100 MB document; a document tree of it would take
// gigabytes. JsonScan walks the document's structure only (strings, brackets, commas, colons,
// with the byte position of every mistake) and hands the big arrays to simdjson in batches of
// about a megabyte of whole elements: each batch is parsed and fully checked by simdjson's DOM
// parser, which is reused, so memory stays at a batch's size however large the file. Values
// JsonScan only skips (keys no reader knows, the Chrome part when loading) are checked for
// their strings and brackets only. Nesting deeper than kMaxDepth is refused, as are elements
// larger than kMaxElementBytes. What has been read is released as the scan goes (a batch once
// parsed, a skipped value every kReleaseBytes), so a file's pages are not all resident at once.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

namespace ipt::trace {

class JsonScan {
 public:
  static constexpr int kMaxDepth = 64;
  static constexpr size_t kBatchBytes = size_t(1) << 20;
  static constexpr size_t kMaxElementBytes = size_t(256) << 20;
  // Skipping a large value releases the pages it has passed every this many bytes (they are
  // read again from the page cache if the scan comes back to them).
  static constexpr size_t kReleaseBytes = size_t(8) << 20;

  // `release(begin, end)` may drop bytes [begin, end) of `text` once they have been read.
  explicit JsonScan(std::string_view text, std::function<void(size_t, size_t)> release = {});

  size_t pos() const { return p_; }
  void seek(size_t p) { p_ = p; }
  bool at_end();  // only whitespace is left
  // Throws ValueError "the trace file is not valid JSON: at byte N: <what>" (or "... is
  // truncated ..." when the mistake is the end of the text).
  [[noreturn]] void fail(size_t at, const std::string& what) const;

  void ws();
  char peek();  // after whitespace; '\0' at the end
  void expect(char c, const char* context);
  // A string's raw text between its quotes (escapes left as they are).
  std::string_view raw_string(const char* context);
  // Skips one value, checking its structure; returns where it began.
  size_t skip_value(const char* context, int depth = 0);

  // Walks the members of an object starting here: fn(key, value_begin) for each; fn must
  // leave pos() at the end of the value (by skipping or reading it).
  void object(const char* context, const std::function<void(std::string_view key, size_t value_at)>& fn);

  // The elements of the array starting here, parsed by simdjson in batches:
  // fn(element, index, byte offset of the element, or of the batch it came in; see Note
  // [Batches of whole lines] in json_scan.cpp).
  void array_batches(const char* context, const std::function<void(simdjson::dom::element, size_t, size_t)>& fn);

  // One value starting here (small: meta, version), parsed whole.
  simdjson::dom::element parse_value(const char* context);

 private:
  simdjson::dom::element parse_batch(const char* context, size_t first_index);
  bool line_batch(size_t& index, const std::function<void(simdjson::dom::element, size_t, size_t)>& fn);
  void skip_container(const char* context, int depth);

  std::string_view t_;
  size_t p_ = 0;
  std::function<void(size_t, size_t)> release_;
  simdjson::dom::parser parser_;
  std::vector<char> buf_;                            // "[" batch "]" + padding
  std::vector<std::pair<size_t, size_t>> elements_;  // the batch's element ranges in t_
};

// "an array", "a string", ... for messages.
const char* json_type_name(simdjson::dom::element_type t);

}  // namespace ipt::trace
