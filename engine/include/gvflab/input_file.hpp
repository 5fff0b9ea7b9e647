#pragma once
// Opening the files a run reads, so that a name never blocks, never reaches a device and never
// leads a reader outside what the user named.
//
// A named input must be a regular file: FIFOs, sockets, character and block devices, folders
// and the kernel's files (/proc, /sys and the like) are refused with a sentence naming the file
// and what it is. The file is opened with O_NONBLOCK|O_NOCTTY|O_CLOEXEC (a FIFO or a terminal
// cannot hang the open), its kind is checked on the open descriptor (no gap between check and
// use), then O_NONBLOCK is cleared.
//
// Data files named inside a header (MetaImage ElementDataFile, NRRD "data file") must resolve,
// links followed, to regular files in the header's folder or below, unless
// setDataFilesOutsideAllowed(true) (the --allow-data-outside flag) says otherwise.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

namespace gvflab {

// Text headers (MetaImage, NRRD, PNM) are read through these bounds before any parsing.
inline constexpr std::size_t kMaxTextHeaderBytes = std::size_t(1) << 20;  // 1 MiB
inline constexpr int kMaxTextHeaderLines = 4096;
inline constexpr int kMaxHeaderKeyValues = 1024;  // NRRD "key:=value" lines
inline constexpr int kMaxDataFiles = 256;         // NRRD LIST or pattern data files

class InputFile {
 public:
  // Opens path for reading or throws InputError naming it ("'a.png' is a FIFO, not a file.").
  // label: how messages name the file (default: the path in quotes).
  explicit InputFile(const std::filesystem::path& path, std::string label = {});
  ~InputFile();
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return path_; }
  const std::string& label() const { return label_; }
  std::uint64_t size() const { return size_; }

  // Up to n bytes from offset (fewer at the end of the file).
  std::size_t readSome(void* buffer, std::size_t n, std::uint64_t offset) const;
  // The first min(n, size) bytes.
  std::string head(std::size_t n) const;
  // Exactly n bytes from offset, or InputError "is truncated".
  void readExactly(void* buffer, std::size_t n, std::uint64_t offset) const;
  // The whole file, refused (InputError naming `what`) when larger than limit bytes.
  std::string readAll(std::uint64_t limit, const std::string& what = "file") const;
  // A stdio stream of its own (a duplicate descriptor) at offset 0, for C libraries; the caller
  // fcloses it. Throws InputError when out of descriptors.
  std::FILE* stdioStream() const;
  // A name for this very open file (/proc/self/fd/N) for libraries that open files by name.
  std::string procName() const;

 private:
  int fd_ = -1;
  std::filesystem::path path_;
  std::string label_;
  std::uint64_t size_ = 0;
};

// Throws what InputFile would (missing, a FIFO, a device, ...) without keeping it open: for
// libraries that can only open files by name.
void checkInputFile(const std::filesystem::path& path, const std::string& label = {});

// --allow-data-outside: data files named by headers may be anywhere (still regular files).
void setDataFilesOutsideAllowed(bool allowed);
bool dataFilesOutsideAllowed();

// Opens the data file `name` that the header `header` names, applying the rule above; messages
// name the header and the data file ("'v.mhd': its data file '../x.raw' is outside ...").
InputFile openDataFile(const std::filesystem::path& header, const std::string& name);

// MemAvailable (what can be had without swapping); UINT64_MAX when unknown.
std::uint64_t availableMemoryBytes();
// Throws InputError naming the file when reading it would take more than availableMemoryBytes.
void checkHostMemory(const std::filesystem::path& path, std::uint64_t bytes);
// "1.5 GiB", "128 bytes": sizes in messages.
std::string byteCount(std::uint64_t bytes);

}  // namespace gvflab
