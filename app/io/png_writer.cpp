// A dependency-free PNG encoder: zlib stream of stored (uncompressed) deflate blocks.
// Files are larger than with real compression but need no library on any machine.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/png_writer.hpp"

namespace gvflab {
namespace {

std::uint32_t crc32(const std::string& data, std::size_t from) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = from; i < data.size(); ++i)
    c = table[(c ^ static_cast<unsigned char>(data[i])) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void put32(std::string& s, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) s.push_back(static_cast<char>((v >> shift) & 0xFF));
}

void chunk(std::string& png, const char* type, const std::string& payload) {
  put32(png, static_cast<std::uint32_t>(payload.size()));
  std::size_t start = png.size();
  png.append(type, 4);
  png += payload;
  put32(png, crc32(png, start));
}

std::string zlibStored(const std::string& raw) {
  std::string z = "\x78\x01";
  std::uint32_t a = 1, b = 0;
  for (unsigned char c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  std::size_t pos = 0;
  do {
    std::size_t len = std::min<std::size_t>(65535, raw.size() - pos);
    bool last = pos + len == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(static_cast<char>(len & 0xFF));
    z.push_back(static_cast<char>(len >> 8));
    z.push_back(static_cast<char>(~len & 0xFF));
    z.push_back(static_cast<char>((~len >> 8) & 0xFF));
    z.append(raw, pos, len);
    pos += len;
  } while (pos < raw.size());
  put32(z, (b << 16) | a);
  return z;
}

void writePng(const std::filesystem::path& path, int width, int height, int channels,
              const unsigned char* pixels) {
  if (width < 1 || height < 1) throw InputError("Cannot write an empty image to PNG.");
  std::string png = "\x89PNG\r\n\x1a\n";
  std::string ihdr;
  put32(ihdr, static_cast<std::uint32_t>(width));
  put32(ihdr, static_cast<std::uint32_t>(height));
  ihdr += '\x08';                                  // bit depth
  ihdr += static_cast<char>(channels == 1 ? 0 : 2);  // grey or RGB
  ihdr.append(3, '\0');                            // deflate, adaptive filter, no interlace
  chunk(png, "IHDR", ihdr);
  std::string raw;
  const std::size_t stride = static_cast<std::size_t>(width) * channels;
  raw.reserve((stride + 1) * height);
  for (int y = 0; y < height; ++y) {
    raw.push_back('\0');  // filter: none
    raw.append(reinterpret_cast<const char*>(pixels + y * stride), stride);
  }
  chunk(png, "IDAT", zlibStored(raw));
  chunk(png, "IEND", "");
  writeFileAtomically(path, png);
}

}  // namespace

void writePngGray(const std::filesystem::path& path, const Image2D& image) {
  std::vector<unsigned char> px(image.size());
  for (std::size_t i = 0; i < px.size(); ++i) {
    float v = std::isfinite(image.pixels[i]) ? std::clamp(image.pixels[i], 0.0f, 1.0f) : 0.0f;
    px[i] = static_cast<unsigned char>(std::lround(v * 255.0f));
  }
  writePng(path, image.width, image.height, 1, px.data());
}

void writePngRgb(const std::filesystem::path& path, int width, int height,
                 const std::vector<unsigned char>& rgb) {
  if (rgb.size() != static_cast<std::size_t>(width) * height * 3)
    throw InputError("RGB buffer size does not match the image size.");
  writePng(path, width, height, 3, rgb.data());
}

void writeMagnitudePng(const std::filesystem::path& path, const Field2D& field) {
  Image2D mag = magnitude(field);
  float m = 0;
  for (float v : mag.pixels) m = std::max(m, v);
  for (float& v : mag.pixels) v = m > 0 ? v / m : 0.0f;
  writePngGray(path, mag);
}

}  // namespace gvflab
