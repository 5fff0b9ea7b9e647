// Netpbm grey and colour images (P2, P3, P5, P6), 8 or 16 bit.
#include <cctype>
#include <fstream>
#include <sstream>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"

namespace gvflab {
namespace {

// Reads the next header integer, skipping whitespace and comments.
long readHeaderInt(const std::string& s, std::size_t& pos, const std::string& name) {
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
    throw InputError("'" + name + "' is not a valid PGM/PPM file (bad header).");
  return std::stol(s.substr(start, pos - start));
}

}  // namespace

Image2D readPnm(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("Cannot open '" + name + "'.");
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  if (s.empty()) throw InputError("'" + name + "' is empty.");
  if (s.size() < 2 || s[0] != 'P' || (s[1] != '2' && s[1] != '3' && s[1] != '5' && s[1] != '6'))
    throw InputError("'" + name + "' is not a PGM/PPM file.");
  const bool ascii = s[1] == '2' || s[1] == '3';
  const int channels = (s[1] == '3' || s[1] == '6') ? 3 : 1;
  std::size_t pos = 2;
  long w = readHeaderInt(s, pos, name), h = readHeaderInt(s, pos, name);
  long maxv = readHeaderInt(s, pos, name);
  if (w < 1 || h < 1 || w > 65536 || h > 65536 || w * h > (1L << 30))
    throw InputError("'" + name + "' has an impossible size " + std::to_string(w) + "x" +
                     std::to_string(h) + ".");
  if (maxv < 1 || maxv > 65535) throw InputError("'" + name + "' has an invalid maximum value.");
  const std::size_t samples = static_cast<std::size_t>(w) * h * channels;
  // Before allocating: the file must hold the samples the header promises (an ASCII sample
  // takes at least two characters, a binary one 1 or 2 bytes).
  const std::size_t perSample = ascii ? 2 : (maxv > 255 ? 2 : 1);
  if (s.size() - pos + (ascii ? 1 : 0) < samples * perSample)
    throw InputError("'" + name + "' is truncated: its header promises " + std::to_string(w) +
                     "x" + std::to_string(h) + " pixels, the file holds fewer.");
  Image2D img(static_cast<int>(w), static_cast<int>(h));
  std::vector<double> v(samples);
  if (ascii) {
    for (std::size_t i = 0; i < samples; ++i) {
      try {
        v[i] = static_cast<double>(readHeaderInt(s, pos, name));
      } catch (const InputError&) {
        throw InputError("'" + name + "' is truncated or has bad pixel values.");
      }
    }
  } else {
    ++pos;  // the single whitespace after maxval
    const int bytes = maxv > 255 ? 2 : 1;
    if (s.size() < pos + samples * bytes)
      throw InputError("'" + name + "' is truncated: expected " +
                       std::to_string(samples * bytes) + " bytes of pixels, found " +
                       std::to_string(s.size() > pos ? s.size() - pos : 0) + ".");
    for (std::size_t i = 0; i < samples; ++i) {
      const auto* p = reinterpret_cast<const unsigned char*>(s.data() + pos + i * bytes);
      v[i] = bytes == 2 ? (p[0] << 8 | p[1]) : p[0];
    }
  }
  for (std::size_t i = 0; i < img.size(); ++i) {
    double g = channels == 1 ? v[i]
                             : 0.299 * v[3 * i] + 0.587 * v[3 * i + 1] + 0.114 * v[3 * i + 2];
    img.pixels[i] = static_cast<float>(std::min(g / maxv, 1.0));
  }
  return img;
}

}  // namespace gvflab
