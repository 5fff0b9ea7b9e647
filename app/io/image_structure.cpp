#include "io/image_structure.hpp"

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "gvflab/error.hpp"

namespace gvflab::app {
namespace {

// The file through a 64 KiB window.
class Cursor {
 public:
  explicit Cursor(const InputFile& file) : file_(file) {}
  std::uint64_t size() const { return file_.size(); }
  // The byte at pos, or -1 past the end.
  int at(std::uint64_t pos) {
    if (pos >= file_.size()) return -1;
    if (pos < start_ || pos >= start_ + buffer_.size()) fill(pos);
    return pos < start_ + buffer_.size() ? static_cast<unsigned char>(buffer_[pos - start_]) : -1;
  }
  // The first 0xFF at or after pos (size() when none).
  std::uint64_t findFF(std::uint64_t pos) {
    while (pos < file_.size()) {
      if (at(pos) < 0) return file_.size();
      const std::size_t in = pos - start_;
      const void* hit = std::memchr(buffer_.data() + in, 0xFF, buffer_.size() - in);
      if (hit) return start_ + (static_cast<const char*>(hit) - buffer_.data());
      pos = start_ + buffer_.size();
    }
    return file_.size();
  }
  std::uint32_t be32(std::uint64_t pos) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = v << 8 | static_cast<std::uint32_t>(at(pos + i) & 0xFF);
    return v;
  }

 private:
  void fill(std::uint64_t pos) {
    buffer_.resize(64 * 1024);
    start_ = pos;
    buffer_.resize(file_.readSome(buffer_.data(), buffer_.size(), pos));
  }
  const InputFile& file_;
  std::vector<char> buffer_;
  std::uint64_t start_ = 0;
};

[[noreturn]] void tooMuchMetadata(const InputFile& file, const std::string& what) {
  throw InputError(file.label() + " has too much metadata (" + what + "; at most " +
                   std::to_string(kMaxMetadataSegments) + " segments and " +
                   byteCount(kMaxMetadataBytes) + " in all are read).");
}

}  // namespace

void checkPngChunks(const InputFile& file) {
  Cursor c(file);
  const std::string truncated = file.label() + " is truncated";
  std::uint64_t pos = 8, metadataBytes = 0;
  int metadata = 0;
  while (true) {
    if (pos + 8 > c.size()) throw InputError(truncated + " (it ends before its IEND chunk).");
    const std::uint32_t length = c.be32(pos);
    char type[5] = {};
    for (int i = 0; i < 4; ++i) type[i] = static_cast<char>(c.at(pos + 4 + i));
    for (int i = 0; i < 4; ++i)
      if (!std::isalpha(static_cast<unsigned char>(type[i])))
        throw InputError(file.label() + " is corrupt (a chunk has no valid type).");
    if (length > 0x7fffffffu)
      throw InputError(file.label() + " is corrupt (chunk " + type + " declares " +
                       byteCount(length) + ").");
    const std::string name = type;
    // Image data (APNG frames included) is bounded by the file; the rest is metadata.
    const bool image = name == "IHDR" || name == "PLTE" || name == "IDAT" || name == "IEND" ||
                       name == "fdAT" || name == "fcTL" || name == "acTL";
    if (!image) {
      if (length > kMaxPngChunkBytes)
        throw InputError(file.label() + " has a " + name + " chunk of " + byteCount(length) +
                         "; metadata chunks of at most " + byteCount(kMaxPngChunkBytes) +
                         " are read.");
      metadataBytes += length;
      if (++metadata > kMaxMetadataSegments || metadataBytes > kMaxMetadataBytes)
        tooMuchMetadata(file, std::to_string(metadata) + " chunks, " + byteCount(metadataBytes));
    }
    if (pos + 12 + std::uint64_t(length) > c.size())
      throw InputError(truncated + " (its " + name + " chunk runs past the end).");
    pos += 12 + std::uint64_t(length);
    if (name == "IEND") return;
  }
}

void checkJpegMarkers(const InputFile& file) {
  Cursor c(file);
  const std::string truncated = file.label() + " is truncated";
  std::uint64_t pos = 2, metadataBytes = 0;
  int metadata = 0, markers = 0;
  while (true) {
    // The next marker: in entropy-coded data, an 0xFF not followed by 0x00 or a restart.
    pos = c.findFF(pos);
    if (pos >= c.size()) throw InputError(truncated + " (it has no end marker).");
    std::uint64_t m = pos + 1;
    while (c.at(m) == 0xFF) ++m;  // fill bytes
    const int marker = c.at(m);
    if (marker < 0) throw InputError(truncated + " (it has no end marker).");
    pos = m + 1;
    if (marker == 0x00 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) continue;
    if (marker == 0xD9) return;  // EOI
    if (++markers > kMaxJpegMarkers)
      throw InputError(file.label() + " is corrupt (more than " + std::to_string(kMaxJpegMarkers) +
                       " markers).");
    if (marker == 0xD8) throw InputError(file.label() + " is corrupt (a second start marker).");
    const int hi = c.at(pos), lo = c.at(pos + 1);
    if (hi < 0 || lo < 0) throw InputError(truncated + " (in a marker segment).");
    const std::uint64_t length = std::uint64_t(hi) << 8 | std::uint64_t(lo);
    if (length < 2)
      throw InputError(file.label() + " is corrupt (a marker segment of length " +
                       std::to_string(length) + ").");
    if (pos + length > c.size())
      throw InputError(truncated + " (a marker segment runs past the end).");
    if ((marker >= 0xE0 && marker <= 0xEF) || marker == 0xFE) {
      metadataBytes += length;
      if (++metadata > kMaxMetadataSegments || metadataBytes > kMaxMetadataBytes)
        tooMuchMetadata(
            file, std::to_string(metadata) + " APPn/COM segments, " + byteCount(metadataBytes));
    }
    pos += length;
  }
}

}  // namespace gvflab::app
