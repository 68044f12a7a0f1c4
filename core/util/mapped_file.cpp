#include "core/util/mapped_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/util/error.h"

namespace ipt {

MappedFile::MappedFile(const std::filesystem::path& path, uint64_t max_bytes, const char* what) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec) IPT_FAIL(ValueError, what, " '", path.string(), "': cannot open: ", ec.message());
  if (!std::filesystem::is_regular_file(status))
    IPT_FAIL(ValueError, what, " '", path.string(), "': not a regular file");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) IPT_FAIL(ValueError, what, " '", path.string(), "': cannot open: ", std::strerror(errno));
  const off_t end = ::lseek(fd, 0, SEEK_END);
  if (end < 0) {
    const int err = errno;
    ::close(fd);
    IPT_FAIL(ValueError, what, " '", path.string(), "': cannot read: ", std::strerror(err));
  }
  if (static_cast<uint64_t>(end) > max_bytes) {
    ::close(fd);
    IPT_FAIL(ValueError, what, " '", path.string(), "' is ", end, " bytes, more than the limit of ", max_bytes,
             " bytes");
  }
  size_ = static_cast<size_t>(end);
  if (size_ > 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      IPT_FAIL(ValueError, what, " '", path.string(), "': cannot read: ", std::strerror(err));
    }
    data_ = static_cast<const char*>(p);
    ::madvise(p, size_, MADV_SEQUENTIAL);
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

void MappedFile::release(size_t begin, size_t end) const {
  if (!data_) return;
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  begin = (begin + page - 1) / page * page;
  end = std::min(end, size_) / page * page;
  if (end > begin) ::madvise(const_cast<char*>(data_) + begin, end - begin, MADV_DONTNEED);
}

}  // namespace ipt
