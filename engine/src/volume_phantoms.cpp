#include "gvflab/volume_phantoms.hpp"

#include <algorithm>
#include <cmath>

#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab {
namespace {

// Signed distance (voxels, negative inside) to a cylinder about the z axis through (cx, cy) of
// radius r between planes z0 and z1.
double cylinderDistance(double rho, double z, double r, double z0, double z1) {
  double dr = rho - r, dz = std::max(z0 - z, z - z1);
  double outside = std::hypot(std::max(dr, 0.0), std::max(dz, 0.0));
  return outside + std::min(std::max(dr, dz), 0.0);
}

// A volume whose voxels hold how far inside the solid their centres lie, ramped over a voxel.
template <typename Distance>
Volume paint(int n, Distance distance) {
  Volume vol(n, n, n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double d = distance(i + 0.5, j + 0.5, k + 0.5);
        vol.at(i, j, k) = static_cast<float>(std::clamp(0.5 - d, 0.0, 1.0));
      }
  return vol;
}

}  // namespace

std::vector<std::string> volumePhantomNames() { return {"cup", "sphere"}; }

Volume makeVolumePhantom(const std::string& name, int size) {
  if (size < 16 || size > 512)
    throw InputError("Volume phantom size " + std::to_string(size) + " is outside [16, 512].");
  const double s = size, c = s / 2;
  if (name == "cup") {
    const double r = kCupRadius * s, z0 = kCupBottom * s, z1 = kCupTop * s;
    const double wellR = kCupWellRadius * s, wellBottom = (kCupTop - kCupWellDepth) * s;
    return paint(size, [&](double x, double y, double z) {
      double rho = std::hypot(x - c, y - c);
      double solid = cylinderDistance(rho, z, r, z0, z1);
      // The well runs on past the top face, so that it opens there.
      double well = cylinderDistance(rho, z, wellR, wellBottom, s + 1);
      return std::max(solid, -well);
    });
  }
  if (name == "sphere") {
    const double r = kBallRadius * s;
    return paint(size, [&](double x, double y, double z) {
      return std::sqrt((x - c) * (x - c) + (y - c) * (y - c) + (z - c) * (z - c)) - r;
    });
  }
  std::string names;
  for (const auto& n : volumePhantomNames()) names += (names.empty() ? "" : ", ") + n;
  throw InputError("Unknown volume phantom " + quotedText(name) + "; choose one of: " + names +
                   ".");
}

}  // namespace gvflab
