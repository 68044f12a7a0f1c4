// write_trace_file is atomic: a failed write leaves the target untouched and no temporary
// file behind; a successful write replaces the target whole.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/trace/trace_json.h"
#include "core/util/error.h"
#include "core/util/write_file.h"
#include "tests/trace/trace_test_util.h"

namespace ipt::trace {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("ipt_trace_write_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (auto& e : fs::directory_iterator(path)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(WriteTraceFile, ReplacesTargetAndLeavesNoTemporary) {
  TempDir dir;
  fs::path target = dir.path / "trace.json";
  { std::ofstream(target) << "old contents"; }
  write_trace_file(target, testing::sample_events(), {});
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"trace.json"});
  EXPECT_EQ(slurp(target), to_json_text(testing::sample_events(), {}));
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::owner_read, fs::perms::owner_read);
}

TEST(WriteTraceFile, MissingDirectoryFailsCleanly) {
  TempDir dir;
  fs::path target = dir.path / "no such dir" / "trace.json";
  try {
    write_trace_file(target, testing::sample_events(), {});
    FAIL() << "expected an error";
  } catch (const ipt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write trace file"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
  }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{});
}

TEST(WriteTraceFile, DirectoryTargetIsRefusedAndLeftAlone) {
  TempDir dir;
  fs::path target = dir.path / "trace.json";
  fs::create_directories(target / "keep");
  try {
    write_trace_file(target, testing::sample_events(), {});
    FAIL() << "expected an error";
  } catch (const ipt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("it is a directory"), std::string::npos) << e.what();
  }
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"trace.json"});
  EXPECT_TRUE(fs::is_directory(target / "keep"));
}

// Found by hostile input: --trace /dev/null renamed the temporary over the device node. A
// target that is not a regular file is written through and stays what it was.
TEST(WriteTraceFile, DeviceTargetIsWrittenThroughNotReplaced) {
  write_trace_file("/dev/null", testing::sample_events(), {});
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(WriteTraceFile, SymlinkIsFollowedAndKept) {
  TempDir dir;
  { std::ofstream(dir.path / "real.json") << "old"; }
  fs::create_symlink("real.json", dir.path / "link.json");
  write_trace_file(dir.path / "link.json", testing::sample_events(), {});
  EXPECT_TRUE(fs::is_symlink(dir.path / "link.json"));
  EXPECT_EQ(slurp(dir.path / "real.json"), to_json_text(testing::sample_events(), {}));
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"link.json", "real.json"}));
}

TEST(WriteTraceFile, ReadOnlyDirectoryFailsAndTargetUnchanged) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  TempDir dir;
  fs::path target = dir.path / "trace.json";
  { std::ofstream(target) << "old contents"; }
  fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_THROW(write_trace_file(target, testing::sample_events(), {}), ipt::Error);
  fs::permissions(dir.path, fs::perms::owner_all);
  EXPECT_EQ(slurp(target), "old contents");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"trace.json"});
}

TEST(WriteTraceFile, ExistingTargetOnReadOnlyFileSystemUnchanged) {
  // Works as root too: nobody can create files in /proc.
  const fs::path target = "/proc/version";
  if (!fs::exists(target)) GTEST_SKIP() << "no /proc";
  const std::string before = slurp(target);
  try {
    write_trace_file(target, testing::sample_events(), {});
    FAIL() << "expected an error";
  } catch (const ipt::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write trace file '/proc/version'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(target), before);
}

// Note [A temporary file and a terminating signal]: a write killed by SIGTERM removes its
// temporary file and leaves no target. The child writes 256 MB; the parent signals it as soon
// as the temporary file appears.
TEST(WriteTraceFile, TerminatedWriteLeavesNoTemporary) {
  TempDir dir;
  const fs::path target = dir.path / "big.json";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const std::string text(size_t(256) << 20, 'x');
    try {
      write_file(target, text, "trace file");
    } catch (...) {
      ::_exit(3);
    }
    ::_exit(0);
  }
  bool seen = false;
  for (int i = 0; i < 20000 && !seen; ++i) {
    for (const auto& name : dir.entries()) seen |= name.find(".tmp-") != std::string::npos;
    if (!seen) ::usleep(500);
  }
  ::kill(child, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  if (WIFSIGNALED(status)) {
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{}) << "the killed write left files behind";
  } else {
    // The write finished before the signal came: then the target is whole and alone.
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"big.json"});
  }
  EXPECT_TRUE(seen) << "the temporary file never appeared";
}

// A streamed trace write killed midway (SIGKILL: nothing runs in the child to clean up)
// leaves the previous file as it was, byte for byte; only the temporary file may remain.
TEST(WriteTraceFile, KilledStreamingWriteLeavesThePreviousFileUntouched) {
  TempDir dir;
  const fs::path target = dir.path / "trace.json";
  write_trace_file(target, testing::sample_events(), {"before", "", {}});
  const std::string before = slurp(target);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::vector<Event> events;
    for (uint64_t i = 0; i < 2000000; ++i)
      events.push_back(testing::make_event(i, static_cast<int64_t>(i), 0, Phase::Instant, Category::Script, "line",
                                           ScriptLine{1, 0}));
    write_trace_file(target, events, {"after", "", {}});
    ::_exit(0);
  }
  bool seen = false;
  for (int i = 0; i < 40000 && !seen; ++i) {
    for (const auto& name : dir.entries()) seen |= name.find(".tmp-") != std::string::npos;
    if (!seen) ::usleep(500);
  }
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(seen) << "the temporary file never appeared";
  if (WIFSIGNALED(status)) {
    EXPECT_EQ(slurp(target), before) << "the killed write changed the previous file";
    EXPECT_EQ(read_trace_file(target).meta.title, "before");
  } else {  // the write finished before the signal came: the new file is whole
    EXPECT_EQ(read_trace_file(target).meta.title, "after");
  }
}

}  // namespace
}  // namespace ipt::trace
