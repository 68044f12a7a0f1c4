#pragma once
// A user-named regular file mapped read-only into memory, for reading large files in one pass
// without holding them twice: what has been read can be given back (release), so a reader
// going front to back keeps only a window of the file resident.

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace ipt {

class MappedFile {
 public:
  // The same checks and messages as read_regular_file (a regular file, at most max_bytes).
  MappedFile(const std::filesystem::path& path, uint64_t max_bytes, const char* what);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view text() const { return {data_, size_}; }
  // Drops the resident pages of bytes [begin, end) (whole pages inside it); reading them again
  // brings them back from the page cache.
  void release(size_t begin, size_t end) const;

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ipt
