#pragma once
// Writing a whole file to a user-named path, safely.
//
// Note [Replacing a file, or writing through to one]
// A regular file (or a new path) is replaced atomically: the text goes to a temporary file
// beside it, which is flushed and renamed over the target, so a reader never sees half a
// file and a failed write leaves the old one (the temporary file is removed on failure). A
// symlink is followed: the file it points to is replaced and the link stays. A target that
// is not a regular file (/dev/null, a FIFO, a terminal) is written through, never replaced:
// renaming over /dev/null would delete the device node. A directory is refused.

#include <filesystem>
#include <functional>
#include <string_view>

namespace ipt {

// RuntimeError "cannot write <what> '<path>': <why>: <errno text>" when it fails.
void write_file(const std::filesystem::path& path, std::string_view text, const char* what);

// The same for text made piece by piece: `produce` passes each piece, in order, to the sink it
// is given, so the whole text never has to be in memory. If `produce` throws, the old file is
// left as it was and the exception goes on.
using TextSink = std::function<void(std::string_view)>;
void write_file(const std::filesystem::path& path, const std::function<void(const TextSink&)>& produce,
                const char* what);

}  // namespace ipt
