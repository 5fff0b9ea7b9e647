// Outputs that cannot damage: a temporary with an unpredictable name, created exclusively in
// the target's folder (never through a planted link), written in full, synced and measured,
// then renamed over the target. Only a regular file (or a new name) is ever replaced.
#include <fcntl.h>
#include <limits.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <random>

#include "gvflab/cancel.hpp"
#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab {
namespace fs = std::filesystem;
namespace {

// Why a write failed, in words a user can act on.
std::string writeFailure(int err) {
  if (err == ENOSPC) return "the disk is full";
  if (err == EDQUOT) return "the disk quota is exhausted";
  if (err == EFBIG) return "the file would exceed the size limit (disk full or ulimit -f)";
  return std::strerror(err);
}

[[noreturn]] void failWriting(const fs::path& shown, int err) {
  throw InputError("Cannot write " + quoted(shown) + ": " + writeFailure(err) +
                   "; nothing was replaced.");
}

// The tail of name the temporary keeps so that libraries choosing the format by extension
// agree (nifti_clib appends .nii.gz to a name without it): the whole name after a dot
// (".gvflab-XXXX.my.result-field.nii.gz"), or where that would pass the file system's limit on
// a name, the longest tail from one of its dots that fits.
std::string formatSuffix(const std::string& name, std::size_t prefixLength) {
  const std::size_t room = NAME_MAX > prefixLength ? NAME_MAX - prefixLength : 0;
  if (name.size() + 1 <= room) return "." + name;
  for (std::size_t dot = name.find('.', 1); dot != std::string::npos; dot = name.find('.', dot + 1))
    if (name.size() - dot <= room) return name.substr(dot);
  return "";
}

// Removes a temporary on every way out unless released (a signal that ends the process at
// once too: SignalUndo), and every file a library made beside it from its name (nifti_clib
// appends .nii.gz to a name it does not like): names that start with the temporary's
// unpredictable stem are ours alone.
struct TempGuard {
  fs::path path;
  fs::path dir;      // set for library writers: the folder to sweep
  std::string stem;  // ".gvflab-" and its random letters
  SignalUndo onSignal;
  ~TempGuard() {
    if (!path.empty()) ::unlink(path.c_str());
    if (stem.empty()) return;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().filename().string().rfind(stem, 0) == 0) ::unlink(it->path().c_str());
  }
};

void syncFolder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // the rename is done; a folder that cannot be synced is no error
  ::fsync(fd);
  ::close(fd);
}

struct Temporary {
  int fd = -1;
  fs::path path;
  fs::path dir;
  std::string stem;
  struct stat st {};
  SignalUndo onSignal;  // registered before the file exists: a signal never finds it unknown
};

Temporary createTemporary(const fs::path& target, const fs::path& shown) {
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const std::string suffix = formatSuffix(target.filename().string(), unpredictableName().size());
  mode_t mode = 0666;  // less the umask; an existing file keeps its own permissions
  struct stat old {};
  const bool replacing = ::stat(target.c_str(), &old) == 0;
  for (int attempt = 0; attempt < 32; ++attempt) {
    Temporary t;
    t.dir = dir;
    t.stem = unpredictableName();
    t.path = dir / (t.stem + suffix);
    t.onSignal = SignalUndo(t.path.string());
    t.fd = ::open(t.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (t.fd < 0) {
      if (errno == EEXIST) continue;  // taken (or planted): another name
      const int err = errno;
      if (err == ENOENT)
        throw InputError("Cannot write " + quoted(shown) + ": the folder " + quoted(dir) +
                         " does not exist.");
      throw InputError("Cannot write " + quoted(shown) + ": cannot create a file in the folder " +
                       quoted(dir) + " (" + std::strerror(err) + ").");
    }
    if (replacing) ::fchmod(t.fd, old.st_mode & 07777);
    ::fstat(t.fd, &t.st);
    return t;
  }
  throw InputError("Cannot write " + quoted(shown) + ": no free temporary name in " + quoted(dir) +
                   ".");
}

// rename(tmp, target), then the folder synced so that the new name survives a crash.
void commit(TempGuard& tmp, const fs::path& target, const fs::path& shown) {
  if (::rename(tmp.path.c_str(), target.c_str()) != 0) {
    const int err = errno;
    throw InputError("Cannot replace " + quoted(shown) + ": " + std::strerror(err) + ".");
  }
  tmp.path.clear();
  tmp.onSignal.release();
  syncFolder(target.parent_path().empty() ? fs::path(".") : target.parent_path());
}

}  // namespace

std::string unpredictableName() {
  unsigned char bytes[12];
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (errno != EINTR) {
      std::random_device rd;  // no getrandom (old kernel): the library's own source
      for (auto& b : bytes) b = static_cast<unsigned char>(rd());
      break;
    }
  }
  static const char* digits = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string name = ".gvflab-";
  for (unsigned char b : bytes) {
    name += digits[b % 36];
    name += digits[(b / 36) % 36];
  }
  return name;
}

fs::path outputTarget(const fs::path& path) {
  if (path.empty()) throw InputError("No output file name was given.");
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return path;  // a new name
    const int err = errno;
    throw InputError("Cannot write " + quoted(path) + ": " + std::strerror(err) + ".");
  }
  if (S_ISREG(st.st_mode)) return path;
  auto kind = [](mode_t m) -> std::string {
    if (S_ISDIR(m)) return "a folder";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
  };
  if (!S_ISLNK(st.st_mode))
    throw InputError("Will not replace " + quoted(path) + ": it is " + kind(st.st_mode) +
                     ", not a regular file.");
  // A link: its file is replaced (the link stays), if that is a regular file.
  std::error_code ec;
  const fs::path resolved = fs::canonical(path, ec);
  if (ec)
    throw InputError("Will not write " + quoted(path) +
                     ": it is a symbolic link to a missing file.");
  if (::stat(resolved.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    throw InputError("Will not replace " + quoted(path) + ": it is a link to " + kind(st.st_mode) +
                     " (" + quoted(resolved) + "), not a regular file.");
  return resolved;
}

void writeFileAtomically(const fs::path& path,
                         const std::function<void(const fs::path& tmp)>& write) {
  const fs::path target = outputTarget(path);
  Temporary t = createTemporary(target, path);
  TempGuard guard{t.path, t.dir, t.stem, std::move(t.onSignal)};
  ::close(t.fd);  // the library opens the name itself
  write(t.path);
  // Still the file we created (not swapped for a link or another file), then synced.
  struct stat now {};
  if (::lstat(t.path.c_str(), &now) != 0 || !S_ISREG(now.st_mode) || now.st_ino != t.st.st_ino ||
      now.st_dev != t.st.st_dev)
    throw InputError("Cannot write " + quoted(path) +
                     ": its temporary file was replaced while being written.");
  const int fd = ::open(t.path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    failWriting(path, err);
  }
  ::close(fd);
  commit(guard, target, path);
}

void writeFileAtomically(const fs::path& path, const std::string& bytes) {
  const fs::path target = outputTarget(path);
  Temporary t = createTemporary(target, path);
  TempGuard guard{t.path, {}, {}, std::move(t.onSignal)};
  struct FdCloser {
    int fd;
    ~FdCloser() {
      if (fd >= 0) ::close(fd);
    }
  } closer{t.fd};
  const char* data = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(t.fd, data, std::min<std::size_t>(left, 1 << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) failWriting(path, n < 0 ? errno : ENOSPC);  // 0: no progress, no room
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(t.fd) != 0) failWriting(path, errno);
  struct stat st {};
  if (::fstat(t.fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) != bytes.size())
    throw InputError("Cannot write " + quoted(path) + ": the file came out " +
                     std::to_string(st.st_size) + " bytes instead of " +
                     std::to_string(bytes.size()) + "; nothing was replaced.");
  closer.fd = -1;
  if (::close(t.fd) != 0) failWriting(path, errno);
  commit(guard, target, path);
}

}  // namespace gvflab
