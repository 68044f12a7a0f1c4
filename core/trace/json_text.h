#pragma once
// Internal to core/trace: JSON text written straight into a buffer, without a document tree,
// and handed to a sink in large pieces (the trace writer streams millions of events this way).
// Strings are escaped as JSON requires; bytes that are not valid UTF-8 become U+FFFD, as the
// trace format promises (docs/trace-format.md, "Value encodings").

#include <algorithm>
#include <charconv>
#include <cstring>
#include <memory>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/utf8.h"
#include "core/util/write_file.h"

namespace ipt::trace {

class JsonText {
 public:
  // sink == nullptr: everything stays in view(). Otherwise flush() passes the buffer on.
  explicit JsonText(const TextSink* sink = nullptr) : sink_(sink) { grow(kFlushAt + 4096); }
  JsonText(const JsonText&) = delete;
  JsonText& operator=(const JsonText&) = delete;

  void raw(std::string_view s) {
    ensure(s.size());
    std::memcpy(buf_.get() + size_, s.data(), s.size());
    size_ += s.size();
  }
  void ch(char c) {
    ensure(1);
    buf_[size_++] = c;
  }
  void u64(uint64_t v) { number(v); }
  void i64(int64_t v) { number(v); }
  // The shortest text that reads back to the same double (finite values only). A whole
  // number too long for an integer reader (4305905114527813337088) is written with an exponent.
  void dbl(double v) {
    ensure(40);
    char* out = buf_.get() + size_;
    auto r = std::to_chars(out, out + 40, v);
    const std::string_view t(out, static_cast<size_t>(r.ptr - out));
    if (t == "-0") {  // an integer reader would lose the sign
      std::memcpy(out, "-0.0", 4);
      size_ += 4;
      return;
    }
    if (t.size() > 15 && t.find_first_of(".e") == std::string_view::npos)
      r = std::to_chars(out, out + 40, v, std::chars_format::scientific);
    size_ += static_cast<size_t>(r.ptr - out);
  }
  void boolean(bool b) { raw(b ? "true" : "false"); }
  void str(std::string_view s) {
    ch('"');
    escaped(s);
    ch('"');
  }
  void key(std::string_view k) {
    str(k);
    ch(':');
  }

  // Passes the buffer to the sink once it is large (call between values).
  void maybe_flush() {
    if (sink_ && size_ >= kFlushAt) flush();
  }
  void flush() {
    if (sink_ && size_ > 0) {
      (*sink_)(view());
      size_ = 0;
    }
  }
  std::string_view view() const { return {buf_.get(), size_}; }
  size_t size() const { return size_; }
  void truncate(size_t n) { size_ = n; }
  void erase_byte(size_t at) {  // removes the byte at `at`
    std::memmove(buf_.get() + at, buf_.get() + at + 1, size_ - at - 1);
    --size_;
  }

 private:
  static constexpr size_t kFlushAt = size_t(1) << 20;

  void ensure(size_t n) {
    if (size_ + n > cap_) grow(std::max(cap_ * 2, size_ + n));
  }
  void grow(size_t cap) {
    std::unique_ptr<char[]> bigger(new char[cap]);
    if (size_) std::memcpy(bigger.get(), buf_.get(), size_);
    buf_ = std::move(bigger);
    cap_ = cap;
  }

  template <typename T>
  void number(T v) {
    ensure(24);
    auto r = std::to_chars(buf_.get() + size_, buf_.get() + size_ + 24, v);
    size_ = static_cast<size_t>(r.ptr - buf_.get());
  }

  void escaped(std::string_view s) {
    size_t run = 0;  // start of the bytes not yet copied
    for (size_t i = 0; i < s.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) continue;
      if (c >= 0x80) {  // check the rest for UTF-8 once, from here
        raw(s.substr(run, i - run));
        utf8_tail(s.substr(i));
        return;
      }
      raw(s.substr(run, i - run));
      escape_char(c);
      run = i + 1;
    }
    raw(s.substr(run));
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
        raw(s.substr(run, i - run));
        escape_char(c);
        run = i + 1;
      }
      raw(s.substr(run, good - run));
      if (!bad) return;
      raw("\xEF\xBF\xBD");
      s.remove_prefix(good + 1);
    }
  }

  void escape_char(unsigned char c) {
    switch (c) {
      case '"': raw("\\\""); return;
      case '\\': raw("\\\\"); return;
      case '\b': raw("\\b"); return;
      case '\f': raw("\\f"); return;
      case '\n': raw("\\n"); return;
      case '\r': raw("\\r"); return;
      case '\t': raw("\\t"); return;
      default: {
        static const char* hex = "0123456789abcdef";
        const char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        raw(std::string_view(u, 6));
      }
    }
  }

  const TextSink* sink_;
  std::unique_ptr<char[]> buf_;
  size_t size_ = 0, cap_ = 0;
};

}  // namespace ipt::trace
