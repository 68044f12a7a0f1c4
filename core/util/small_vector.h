#pragma once
// SmallVector<T, N>: a vector of trivially copyable values that keeps up to N of them inside
// itself and only goes to the heap past that.
//
// Note [Small lists stay inside the event]
// A traced call records a tensor's sizes, strides and a preview of its values, and each
// dispatch step the key sets of its arguments. With std::vector each of those lists is one
// heap allocation when recorded and one free when the trace is cleared: for a 1-element add
// that is eleven allocations, more than the recording itself costs. Most of these lists are
// short (a tensor has one to four dimensions), so they live inline and cost nothing extra; a
// longer one (a 256-value preview) takes one allocation, as before. The interface is the
// part of std::vector the trace code uses, and it converts to and from std::vector.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <vector>

namespace ipt {

template <typename T, uint32_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds plain values only");
  static_assert(N >= 1, "SmallVector needs room for one value inline");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = size_t;

  SmallVector() = default;
  SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  SmallVector(const std::vector<T>& v) { assign(v.data(), v.data() + v.size()); }  // NOLINT: converts like a vector
  explicit SmallVector(size_t n, const T& value = T()) { resize(n, value); }
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { steal(o); }
  ~SmallVector() { release(); }

  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  SmallVector& operator=(const std::vector<T>& v) {
    assign(v.data(), v.data() + v.size());
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  // Explicit: an implicit copy bound to a `const std::vector<T>&` would be a temporary that a
  // caller keeping the address (a table of views) would dangle on.
  explicit operator std::vector<T>() const { return std::vector<T>(begin(), end()); }

  template <typename It>
  void assign(It first, It last) {
    const size_t n = static_cast<size_t>(std::distance(first, last));
    size_ = 0;
    reserve(n);
    std::copy(first, last, data());
    size_ = static_cast<uint32_t>(n);
  }

  T* data() { return on_heap() ? heap_ : inline_; }
  const T* data() const { return on_heap() ? heap_ : inline_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return cap_; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void reserve(size_t n) {
    if (n <= cap_) return;
    T* fresh = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!fresh) throw std::bad_alloc();
    if (size_) std::memcpy(fresh, data(), size_ * sizeof(T));
    if (on_heap()) std::free(heap_);
    heap_ = fresh;
    cap_ = static_cast<uint32_t>(n);
  }
  void resize(size_t n, const T& value = T()) {
    if (n > cap_) reserve(std::max<size_t>(n, 2 * size_t{cap_}));
    if (n > size_) std::fill(data() + size_, data() + n, value);
    size_ = static_cast<uint32_t>(n);
  }
  void push_back(const T& v) {
    if (size_ == cap_) {
      const T copy = v;  // v may live in this vector
      reserve(2 * size_t{cap_});
      data()[size_++] = copy;
      return;
    }
    data()[size_++] = v;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator==(const SmallVector& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  bool on_heap() const { return cap_ > N; }
  void release() {
    if (on_heap()) std::free(heap_);
    cap_ = N;
    size_ = 0;
  }
  void steal(SmallVector& o) {
    size_ = o.size_;
    cap_ = o.cap_;
    if (o.on_heap()) heap_ = o.heap_;
    else std::memcpy(inline_, o.inline_, size_ * sizeof(T));
    o.size_ = 0;
    o.cap_ = N;
  }

  uint32_t size_ = 0;
  uint32_t cap_ = N;
  union {
    T inline_[N];
    T* heap_;
  };
};

}  // namespace ipt
