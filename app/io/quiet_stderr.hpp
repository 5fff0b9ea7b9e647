#pragma once
// Holds back a C library's own lines on stderr (nifti_clib prints "** NIFTI ERROR ..." when a
// write falls short; GDCM, libjpeg and OpenJPEG print theirs while decoding) for the scope of one
// call; our check of the file says what went wrong, in one sentence naming the file, and may
// fold the library's first line into it (firstLine()).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace gvflab::app {

class QuietStderr {
 public:
  QuietStderr() {
    std::fflush(stderr);
    saved_ = ::dup(STDERR_FILENO);
    // An anonymous file keeps what the library says (firstLine); /dev/null when there is none.
    kept_ = ::memfd_create("gvflab-stderr", MFD_CLOEXEC);
    const int sink = kept_ >= 0 ? kept_ : ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved_ >= 0 && sink >= 0) ::dup2(sink, STDERR_FILENO);
    if (sink >= 0 && sink != kept_) ::close(sink);
  }
  ~QuietStderr() {
    std::fflush(stderr);
    if (saved_ >= 0) {
      ::dup2(saved_, STDERR_FILENO);
      ::close(saved_);
    }
    if (kept_ >= 0) ::close(kept_);
  }
  // The library's first line so far (at most 200 characters; "" when it said nothing).
  std::string firstLine() {
    std::fflush(stderr);
    std::string line;
    if (kept_ < 0) return line;
    char buffer[256];
    const ssize_t n = ::pread(kept_, buffer, sizeof buffer, 0);
    for (ssize_t i = 0; i < n && buffer[i] != '\n' && line.size() < 200; ++i)
      if (buffer[i] >= ' ') line += buffer[i];
    return line;
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
  int kept_ = -1;
};

}  // namespace gvflab::app
