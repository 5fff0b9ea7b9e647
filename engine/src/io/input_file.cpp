#include "gvflab/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>

#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab {
namespace fs = std::filesystem;
namespace {

std::atomic<bool> outsideAllowed{false};

// What a file that is not a regular file is, in words ("" for a regular file).
std::string kindOf(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "is a folder, not a file";
  if (S_ISFIFO(mode)) return "is a FIFO, not a file";
  if (S_ISCHR(mode)) return "is a character device, not a file";
  if (S_ISBLK(mode)) return "is a block device, not a file";
  if (S_ISSOCK(mode)) return "is a socket, not a file";
  return "is not a regular file";
}

// The kernel's own file systems: their "files" are interfaces whose size says nothing.
std::string kernelFileSystem(int fd) {
  struct statfs s {};
  if (fstatfs(fd, &s) != 0) return "";
  const auto type = static_cast<unsigned long>(s.f_type);
  if (type == 0x9fa0) return "is in /proc (a kernel interface), not a file";
  if (type == 0x62656572) return "is in /sys (a kernel interface), not a file";
  // debugfs, tracefs, securityfs, cgroup, cgroup2, configfs, bpf, pstore, efivarfs
  for (const unsigned long kernel :
       {0x64626720ul, 0x74726163ul, 0x73636673ul, 0x27e0ebul, 0x63677270ul, 0x62656570ul,
        0xcafe4a11ul, 0x6165676cul, 0xde5e81e4ul})
    if (type == kernel) return "is a kernel interface, not a file";
  return "";
}

[[noreturn]] void throwOpenError(const std::string& label, int error, const fs::path& path) {
  struct stat l {};
  if (error == ENOENT && !path.empty() && lstat(path.c_str(), &l) == 0 && S_ISLNK(l.st_mode))
    throw InputError(label + " is a link to a file that does not exist.");
  if (error == ENOENT) throw InputError(label + " does not exist.");
  if (error == ENOTDIR)
    throw InputError(label + " does not exist (a part of its path is not a folder).");
  if (error == EACCES || error == EPERM)
    throw InputError(label + " cannot be opened (permission denied).");
  if (error == ELOOP) throw InputError(label + " is a loop of links.");
  if (error == ENAMETOOLONG) throw InputError(label + " is too long a name.");
  if (error == EMFILE || error == ENFILE)
    throw InputError(label + " cannot be opened: too many files are open.");
  throw InputError(label + " cannot be opened (" + std::strerror(error) + ").");
}

bool isBeneath(const fs::path& file, const fs::path& folder) {
  const std::string f = file.string(), d = folder.string();
  if (d == "/" || f == d) return true;  // the folder itself: refused as a folder, by name
  return f.size() > d.size() && f.compare(0, d.size(), d) == 0 && f[d.size()] == '/';
}

// The real path of an open descriptor ("" when /proc is not there to say).
fs::path realPathOf(int fd) {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/fd/" + std::to_string(fd), ec);
  return ec ? fs::path() : p;
}

}  // namespace

InputFile::InputFile(const fs::path& path, std::string label)
    : path_(path), label_(label.empty() ? quoted(path) : std::move(label)) {
  if (path.empty()) throw InputError("An input file name is empty.");
  // Refuse what is not a regular file before opening it: opening some devices has effects.
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throwOpenError(label_, errno, path);
  if (const std::string kind = kindOf(st.st_mode); !kind.empty())
    throw InputError(label_ + " " + kind + ".");
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd_ < 0) throwOpenError(label_, errno, path);
  // The descriptor decides: the name may have changed since stat.
  std::string kind;
  if (fstat(fd_, &st) != 0) kind = std::string("cannot be examined (") + std::strerror(errno) + ")";
  if (kind.empty()) kind = kindOf(st.st_mode);
  if (kind.empty()) kind = kernelFileSystem(fd_);
  const int flags = kind.empty() ? fcntl(fd_, F_GETFL) : -1;
  if (kind.empty() && (flags < 0 || fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK) != 0))
    kind = "cannot be opened for reading";
  if (!kind.empty()) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(label_ + " " + kind + ".");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(other.fd_),
      path_(std::move(other.path_)),
      label_(std::move(other.label_)),
      size_(other.size_) {
  other.fd_ = -1;
}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    label_ = std::move(other.label_);
    size_ = other.size_;
    other.fd_ = -1;
  }
  return *this;
}

std::size_t InputFile::readSome(void* buffer, std::size_t n, std::uint64_t offset) const {
  auto* out = static_cast<char*>(buffer);
  std::size_t done = 0;
  while (done < n) {
    const std::size_t chunk = std::min<std::size_t>(n - done, std::size_t(1) << 30);
    const ssize_t got = ::pread(fd_, out + done, chunk, static_cast<off_t>(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError(label_ + " cannot be read (" + std::strerror(errno) + ").");
    }
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  return done;
}

std::string InputFile::head(std::size_t n) const {
  std::string out(static_cast<std::size_t>(std::min<std::uint64_t>(n, size_)), '\0');
  out.resize(readSome(out.data(), out.size(), 0));
  return out;
}

void InputFile::readExactly(void* buffer, std::size_t n, std::uint64_t offset) const {
  const std::size_t got = readSome(buffer, n, offset);
  if (got < n)
    throw InputError(label_ + " is truncated: expected " + byteCount(n) + " of data, found " +
                     byteCount(got) + ".");
}

std::string InputFile::readAll(std::uint64_t limit, const std::string& what) const {
  if (size_ > limit)
    throw InputError(label_ + " is too large for a " + what + " (" + byteCount(size_) +
                     "; at most " + byteCount(limit) + ").");
  std::string out(static_cast<std::size_t>(size_), '\0');
  out.resize(readSome(out.data(), out.size(), 0));
  return out;
}

std::FILE* InputFile::stdioStream() const {
  const int copy = fcntl(fd_, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) throwOpenError(label_, errno, {});
  if (lseek(copy, 0, SEEK_SET) != 0) {
    ::close(copy);
    throw InputError(label_ + " cannot be read from its start.");
  }
  std::FILE* f = fdopen(copy, "rb");
  if (!f) {
    ::close(copy);
    throwOpenError(label_, errno, {});
  }
  return f;
}

std::string InputFile::procName() const { return "/proc/self/fd/" + std::to_string(fd_); }

void checkInputFile(const fs::path& path, const std::string& label) { InputFile(path, label); }

void setDataFilesOutsideAllowed(bool allowed) { outsideAllowed = allowed; }
bool dataFilesOutsideAllowed() { return outsideAllowed; }

InputFile openDataFile(const fs::path& header, const std::string& name) {
  const fs::path given(name);
  const std::string label = quoted(header) + ": its data file " + quoted(given);
  if (name.empty()) throw InputError(quoted(header) + " names an empty data file.");
  std::error_code ec;
  const fs::path dir = header.parent_path().empty() ? fs::path(".") : header.parent_path();
  const fs::path folder = fs::canonical(dir, ec);
  if (ec)
    throw InputError(quoted(header) + ": its folder cannot be resolved (" + ec.message() + ").");
  const fs::path candidate = given.is_absolute() ? given : folder / given;
  const bool allowed = dataFilesOutsideAllowed();
  const std::string outside =
      label + (given.is_absolute() ? " is an absolute path" : " is") +
      " outside the header's folder " + quoted(folder) +
      "; only files in that folder or below are read (--allow-data-outside allows others).";
  // Before opening (a device outside must not even be opened) ...
  const fs::path resolved = fs::weakly_canonical(candidate, ec);
  if (!allowed && (ec || !isBeneath(resolved, folder))) throw InputError(outside);
  InputFile file(candidate, label);
  // ... and after, from the descriptor itself, in case a link changed in between.
  const fs::path real = realPathOf(file.fd());
  if (!allowed && !real.empty() && !isBeneath(real, folder)) throw InputError(outside);
  return file;
}

std::uint64_t availableMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (in >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page)
                               : std::numeric_limits<std::uint64_t>::max();
}

void checkHostMemory(const fs::path& path, std::uint64_t bytes) {
  const std::uint64_t available = availableMemoryBytes();
  if (bytes > available)
    throw InputError(quoted(path) + " is too large for this computer: reading it needs " +
                     byteCount(bytes) + " of memory, " + byteCount(available) + " is available.");
}

std::string byteCount(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = -1;
  while (v >= 1024 && u < 5) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace gvflab
