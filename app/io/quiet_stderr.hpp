#pragma once
// Holds back a C library's own lines on stderr (nifti_clib prints "** NIFTI ERROR ..." when a
// write falls short) for the scope of one call; our check of the file says what went wrong,
// in one sentence naming the file.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace gvflab::app {

class QuietStderr {
 public:
  QuietStderr() {
    std::fflush(stderr);
    saved_ = ::dup(STDERR_FILENO);
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved_ >= 0 && null >= 0) ::dup2(null, STDERR_FILENO);
    if (null >= 0) ::close(null);
  }
  ~QuietStderr() {
    std::fflush(stderr);
    if (saved_ < 0) return;
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

}  // namespace gvflab::app
