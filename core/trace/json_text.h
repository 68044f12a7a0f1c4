#pragma once
// Internal to core/trace: JSON text written straight into a buffer, without a document tree,
// and handed to a sink in large pieces (the trace writer streams millions of events this way).
// Strings are escaped as JSON requires; bytes that are not valid UTF-8 become U+FFFD, as the
// trace format promises (docs/trace-format.md, "Value encodings").

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/utf8.h"
#include "core/util/write_file.h"

namespace ipt::trace {

class JsonText {
 public:
  // sink == nullptr: everything stays in text(). Otherwise flush() passes the buffer on.
  explicit JsonText(const TextSink* sink = nullptr) : sink_(sink) { buf_.reserve(kFlushAt + 4096); }

  void raw(std::string_view s) { buf_.append(s); }
  void ch(char c) { buf_.push_back(c); }
  void u64(uint64_t v) { number(v); }
  void i64(int64_t v) { number(v); }
  // The shortest text that reads back to the same double (finite values only). A whole
  // number too long for an integer reader (4305905114527813337088) is written with an exponent.
  void dbl(double v) {
    char tmp[40];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    const std::string_view t(tmp, static_cast<size_t>(r.ptr - tmp));
    if (t == "-0") {  // an integer reader would lose the sign
      buf_.append("-0.0");
      return;
    }
    if (t.size() > 15 && t.find_first_of(".e") == std::string_view::npos)
      r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::scientific);
    buf_.append(tmp, r.ptr);
  }
  void boolean(bool b) { buf_.append(b ? "true" : "false"); }
  void str(std::string_view s) {
    buf_.push_back('"');
    escaped(s);
    buf_.push_back('"');
  }
  void key(std::string_view k) {
    str(k);
    buf_.push_back(':');
  }

  // Passes the buffer to the sink once it is large (call between values).
  void maybe_flush() {
    if (sink_ && buf_.size() >= kFlushAt) flush();
  }
  void flush() {
    if (sink_ && !buf_.empty()) {
      (*sink_)(buf_);
      buf_.clear();
    }
  }
  std::string& text() { return buf_; }

 private:
  static constexpr size_t kFlushAt = size_t(1) << 20;

  template <typename T>
  void number(T v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }

  void escaped(std::string_view s) {
    size_t run = 0;  // start of the bytes not yet copied
    for (size_t i = 0; i < s.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) continue;
      if (c >= 0x80) {  // check the rest for UTF-8 once, from here
        buf_.append(s.data() + run, i - run);
        run = i;
        utf8_tail(s.substr(i));
        return;
      }
      buf_.append(s.data() + run, i - run);
      escape_char(c);
      run = i + 1;
    }
    buf_.append(s.data() + run, s.size() - run);
  }

  // The rest of a string that has non-ASCII bytes: valid UTF-8 is copied, each invalid byte
  // becomes U+FFFD.
  void utf8_tail(std::string_view s) {
    while (!s.empty()) {
      auto bad = first_invalid_utf8(s);
      const size_t good = bad ? *bad : s.size();
      size_t run = 0;
      for (size_t i = 0; i < good; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        buf_.append(s.data() + run, i - run);
        escape_char(c);
        run = i + 1;
      }
      buf_.append(s.data() + run, good - run);
      if (!bad) return;
      buf_.append("\xEF\xBF\xBD");
      s.remove_prefix(good + 1);
    }
  }

  void escape_char(unsigned char c) {
    switch (c) {
      case '"': buf_.append("\\\""); return;
      case '\\': buf_.append("\\\\"); return;
      case '\b': buf_.append("\\b"); return;
      case '\f': buf_.append("\\f"); return;
      case '\n': buf_.append("\\n"); return;
      case '\r': buf_.append("\\r"); return;
      case '\t': buf_.append("\\t"); return;
      default: {
        static const char* hex = "0123456789abcdef";
        const char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        buf_.append(u, 6);
      }
    }
  }

  const TextSink* sink_;
  std::string buf_;
};

}  // namespace ipt::trace
