#include "gvflab/phantoms.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "gvflab/error.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab {
namespace {

// Deterministic on every platform (std::normal_distribution is not).
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : s_(seed) {}
  double uniform() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return (static_cast<double>(s_ >> 11) + 0.5) / 9007199254740992.0;
  }
  double gaussian() {
    double u = uniform(), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
  }

 private:
  std::uint64_t s_;
};

// Fraction of the image side -> inside test on normalised coordinates.
template <typename Inside>
Image2D paint(int n, float inside, float outside, Inside in) {
  Image2D img(n, n, outside);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      double u = (x + 0.5) / n, v = (y + 0.5) / n;
      if (in(u, v)) img.at(x, y) = inside;
    }
  return img;
}

bool inBox(double u, double v, double x0, double y0, double x1, double y1) {
  return u >= x0 && u < x1 && v >= y0 && v < y1;
}

}  // namespace

std::vector<std::string> phantomNames() { return {"u", "room", "blob", "u-slot"}; }

Image2D makePhantom(const std::string& name, int size) {
  if (size < kMinPhantomSide || size > kMaxImageSide)
    throw InputError("Phantom size " + std::to_string(size) + " is outside [" +
                     std::to_string(kMinPhantomSide) + ", " + std::to_string(kMaxImageSide) + "].");
  if (name == "u") {
    // A U open at the top: the notch is deep (70% of the height) and narrow (16% of the width).
    return paint(size, 1.0f, 0.0f, [](double u, double v) {
      return inBox(u, v, 0.25, 0.2, 0.75, 0.8) && !inBox(u, v, 0.42, 0.2, 0.58, 0.66);
    });
  }
  if (name == "u-slot") {
    // The forces' comparison (issue 43): the U's proportions on the left, a block with a long
    // thin slot on the right (at 128 px 5 px wide, 19 deep, centred on column 95: GGVF enters,
    // GVF does not); both high in the image, so the legend fits below them at 1024x768.
    return paint(size, 1.0f, 0.0f, [](double u, double v) {
      const bool uShape =
          inBox(u, v, 0.03, 0.14, 0.47, 0.74) && !inBox(u, v, 0.18, 0.14, 0.32, 0.6);
      const bool slot =
          inBox(u, v, 0.53, 0.14, 0.97, 0.74) && !inBox(u, v, 0.725, 0.14, 0.765, 0.29);
      return uShape || slot;
    });
  }
  if (name == "room") {
    // Walls of a square room with one doorway in the right wall.
    return paint(size, 1.0f, 0.0f, [](double u, double v) {
      bool outer = inBox(u, v, 0.15, 0.15, 0.85, 0.85);
      bool inner = inBox(u, v, 0.2, 0.2, 0.8, 0.8);
      bool door = inBox(u, v, 0.8, 0.45, 0.85, 0.55);
      return outer && !inner && !door;
    });
  }
  if (name == "blob") {
    Image2D img = paint(size, 0.7f, 0.25f, [](double u, double v) {
      double dx = u - 0.5, dy = v - 0.5;
      double r = std::hypot(dx, dy), a = std::atan2(dy, dx);
      return r < 0.28 + 0.06 * std::sin(3 * a) + 0.03 * std::cos(5 * a);
    });
    Noise noise(0x9E3779B97F4A7C15ull);
    for (float& p : img.pixels)
      p = std::clamp(static_cast<float>(p + 0.08 * noise.gaussian()), 0.0f, 1.0f);
    return img;
  }
  std::string names;
  for (const auto& n : phantomNames()) names += (names.empty() ? "" : ", ") + n;
  throw InputError("Unknown phantom " + quotedText(name) + "; choose one of: " + names + ".");
}

}  // namespace gvflab
