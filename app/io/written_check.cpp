#include "io/written_check.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab::app {

void checkWrittenSize(const std::filesystem::path& file, const std::filesystem::path& shown,
                      std::uint64_t expected, std::uint64_t from) {
  // zlib's messages start with the file's name ("<fd:4>: unexpected end of file").
  auto zlibReason = [](const char* why) -> std::string {
    std::string w = why && *why ? why : "read error";
    const auto colon = w.find(": ");
    return colon == std::string::npos ? w : w.substr(colon + 2);
  };
  auto fail = [&](const std::string& why) {
    throw InputError("Cannot write " + quoted(shown) + ": " + why + "; nothing was replaced.");
  };
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0 || ::lseek(fd, static_cast<off_t>(from), SEEK_SET) < 0) {
    if (fd >= 0) ::close(fd);
    fail("the written file cannot be read back");
  }
  std::unique_ptr<gzFile_s, int (*)(gzFile)> in(gzdopen(fd, "rb"), gzclose_r);
  if (!in) {
    ::close(fd);
    fail("the written file cannot be read back");
  }
  std::vector<char> buffer(1 << 20);
  std::uint64_t total = 0;
  for (;;) {
    const int n = gzread(in.get(), buffer.data(), static_cast<unsigned>(buffer.size()));
    if (n < 0) {
      int code = 0;
      const char* why = gzerror(in.get(), &code);
      fail("the written file is damaged (" + zlibReason(why) + "; disk full?)");
    }
    if (n == 0) break;
    total += static_cast<std::uint64_t>(n);
  }
  // A stream cut short ends like a whole one, with its error kept (Z_BUF_ERROR).
  int code = Z_OK;
  const char* why = gzerror(in.get(), &code);
  if (code != Z_OK) fail("the written file is damaged (" + zlibReason(why) + "; disk full?)");
  if (total != expected)
    fail("the written file holds " + std::to_string(total) + " bytes instead of " +
         std::to_string(expected) + " (disk full?)");
}

std::uint64_t textHeaderEnd(const std::filesystem::path& file, const std::filesystem::path& shown) {
  std::ifstream in(file, std::ios::binary);
  std::string head(1 << 16, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const auto end = head.find("\n\n");
  if (end == std::string::npos)
    throw InputError("Cannot write " + quoted(shown) +
                     ": the written header is incomplete (disk full?); nothing was replaced.");
  return end + 2;
}

}  // namespace gvflab::app
