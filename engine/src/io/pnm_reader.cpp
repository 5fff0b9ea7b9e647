// Netpbm grey and colour images (P2, P3, P5, P6), 8 or 16 bit.
#include <cctype>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/io.hpp"
#include "gvflab/luminance.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab {
namespace {

constexpr std::size_t kMaxPnmHeaderBytes = 64 * 1024;

// Reads the next header integer, skipping whitespace and comments.
long readHeaderInt(const std::string& s, std::size_t& pos, const std::string& shown) {
  while (pos < s.size()) {
    if (s[pos] == '#') {
      while (pos < s.size() && s[pos] != '\n') ++pos;
    } else if (std::isspace(static_cast<unsigned char>(s[pos]))) {
      ++pos;
    } else {
      break;
    }
  }
  std::size_t start = pos;
  while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
  if (start == pos || pos - start > 9)
    throw InputError(shown + " is not a valid PGM/PPM file (bad header).");
  return std::stol(s.substr(start, pos - start));
}

struct PnmHeader {
  bool ascii = false;
  int channels = 1;
  long width = 0, height = 0, maxValue = 0;
  std::size_t pixelsAt = 0;  // the offset of the first sample (binary: after the one space)
};

// The header from the file's first 64 KiB (comments included), its sizes checked.
PnmHeader readHeader(const InputFile& file) {
  const std::string shown = quoted(file.path());
  if (file.size() == 0) throw InputError(shown + " is empty.");
  const std::string s = file.head(kMaxPnmHeaderBytes);
  if (s.size() < 2 || s[0] != 'P' || (s[1] != '2' && s[1] != '3' && s[1] != '5' && s[1] != '6'))
    throw InputError(shown + " is not a PGM/PPM file.");
  PnmHeader h;
  h.ascii = s[1] == '2' || s[1] == '3';
  h.channels = (s[1] == '3' || s[1] == '6') ? 3 : 1;
  std::size_t pos = 2;
  h.width = readHeaderInt(s, pos, shown);
  h.height = readHeaderInt(s, pos, shown);
  h.maxValue = readHeaderInt(s, pos, shown);
  if (pos >= s.size() && s.size() < file.size())
    throw InputError(shown + " is not a valid PGM/PPM file (its header is longer than " +
                     std::to_string(kMaxPnmHeaderBytes / 1024) + " KiB).");
  const long w = h.width, ht = h.height;
  if (w < 1 || ht < 1 || w > kMaxSide || ht > kMaxSide || w * ht > kMaxVoxels)
    throw InputError(shown + " has an impossible size " + std::to_string(w) + "x" +
                     std::to_string(ht) + ".");
  if (h.maxValue < 1 || h.maxValue > 65535)
    throw InputError(shown + " has an invalid maximum value.");
  h.pixelsAt = pos + (h.ascii ? 0 : 1);
  // Before allocating: the file must hold the samples the header promises (an ASCII sample
  // takes at least two characters, a binary one 1 or 2 bytes).
  const std::uint64_t samples = std::uint64_t(w) * std::uint64_t(ht) * std::uint64_t(h.channels);
  const std::uint64_t perSample = h.ascii ? 2 : (h.maxValue > 255 ? 2 : 1);
  if (file.size() - pos + (h.ascii ? 1 : 0) < samples * perSample)
    throw InputError(shown + " is truncated: its header promises " + std::to_string(w) + "x" +
                     std::to_string(ht) + " pixels, the file holds fewer.");
  return h;
}

}  // namespace

std::array<int, 2> pnmSize(const std::filesystem::path& path) {
  const PnmHeader h = readHeader(InputFile(path));
  return {static_cast<int>(h.width), static_cast<int>(h.height)};
}

Image2D readPnm(const std::filesystem::path& path) {
  const std::string shown = quoted(path);
  const InputFile file(path);
  const PnmHeader h = readHeader(file);
  const std::size_t pixels = static_cast<std::size_t>(h.width) * static_cast<std::size_t>(h.height);
  const std::size_t samples = pixels * static_cast<std::size_t>(h.channels);
  const int bytes = h.maxValue > 255 ? 2 : 1;
  // The samples as read, as doubles, and the image.
  checkHostMemory(path, std::uint64_t(samples) * (2 + 8) + std::uint64_t(pixels) * 4);
  std::vector<double> v(samples);
  if (h.ascii) {
    // At most a bounded number of characters a sample (digits, spaces, line ends).
    const std::uint64_t limit = h.pixelsAt + std::uint64_t(samples) * 24 + kMaxPnmHeaderBytes;
    if (file.size() > limit)
      throw InputError(shown + " holds " + byteCount(file.size()) + ", more than its " +
                       std::to_string(h.width) + "x" + std::to_string(h.height) +
                       " ASCII pixels can take.");
    const std::string s = file.readAll(limit);
    std::size_t pos = h.pixelsAt;
    for (std::size_t i = 0; i < samples; ++i) {
      try {
        v[i] = static_cast<double>(readHeaderInt(s, pos, shown));
      } catch (const InputError&) {
        throw InputError(shown + " is truncated or has bad pixel values.");
      }
    }
  } else {
    std::string s(samples * static_cast<std::size_t>(bytes), '\0');
    const std::size_t got = file.readSome(s.data(), s.size(), h.pixelsAt);
    if (got < s.size())
      throw InputError(shown + " is truncated: expected " + std::to_string(s.size()) +
                       " bytes of pixels, found " + std::to_string(got) + ".");
    for (std::size_t i = 0; i < samples; ++i) {
      const auto* p = reinterpret_cast<const unsigned char*>(s.data() + i * bytes);
      v[i] = bytes == 2 ? (p[0] << 8 | p[1]) : p[0];
    }
  }
  Image2D img(static_cast<int>(h.width), static_cast<int>(h.height));
  for (std::size_t i = 0; i < img.size(); ++i) {
    double g = h.channels == 1 ? v[i] : luminance(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    img.pixels[i] = static_cast<float>(std::min(g / static_cast<double>(h.maxValue), 1.0));
  }
  return img;
}

}  // namespace gvflab
