#pragma once
// Helpers shared by the test suites: random inputs, conversions to the double reference.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "gvflab/image.hpp"
#include "gvflab/reference.hpp"

namespace gvflab::test {

// Plain files in dir: after a failed write, proves no output or temporary was left behind.
inline int regularFileCount(const std::filesystem::path& dir) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

// The whole file as bytes ("" when it cannot be read).
inline std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline Image2D randomImage(int w, int h, std::uint32_t seed) {
  Image2D img(w, h);
  std::uint32_t s = seed * 2654435761u + 1;
  for (float& p : img.pixels) {
    s = s * 1664525u + 1013904223u;
    p = static_cast<float>((s >> 8) & 0xFFFF) / 65535.0f;
  }
  return img;
}

inline reference::Grid toGrid(const Image2D& img) {
  reference::Grid g{img.width, img.height, {}};
  g.values.assign(img.pixels.begin(), img.pixels.end());
  return g;
}

inline reference::Field toRef(const Field2D& f) {
  reference::Field r{f.width, f.height, {}};
  r.values.assign(f.data.begin(), f.data.end());
  return r;
}

inline double maxAbsDiff(const std::vector<float>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i])) return INFINITY;
    m = std::max(m, std::abs(a[i] - b[i]));
  }
  return m;
}

inline double maxAbs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// A fresh, empty scratch folder under the build tree.
inline std::filesystem::path scratchDir(const std::string& name) {
  auto dir = std::filesystem::path(GVFLAB_BINARY_DIR) / "test_scratch" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace gvflab::test
