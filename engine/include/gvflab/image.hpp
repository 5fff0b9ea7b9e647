#pragma once
// Host-side images and vector fields. Row-major, x fastest, origin at the top-left pixel.
#include <cstddef>
#include <vector>

#include "gvflab/world_geometry.hpp"

namespace gvflab {

// A grey-level image with values normally in [0, 1].
struct Image2D {
  int width = 0;
  int height = 0;
  std::vector<float> pixels;  // width * height
  WorldGeometry geometry;     // where the pixels sit (default: unit spacing, unknown)

  Image2D() = default;
  Image2D(int w, int h, float value = 0.0f)
      : width(w), height(h), pixels(static_cast<std::size_t>(w) * h, value) {}
  std::size_t size() const { return pixels.size(); }
  float& at(int x, int y) { return pixels[static_cast<std::size_t>(y) * width + x]; }
  float at(int x, int y) const { return pixels[static_cast<std::size_t>(y) * width + x]; }
  bool empty() const { return pixels.empty(); }
};

// A 2D vector field, components interleaved (x0, y0, x1, y1, ...), as on the device.
struct Field2D {
  int width = 0;
  int height = 0;
  std::vector<float> data;  // 2 * width * height
  WorldGeometry geometry;   // the image's it was solved from

  Field2D() = default;
  Field2D(int w, int h) : width(w), height(h), data(2 * static_cast<std::size_t>(w) * h, 0.0f) {}
  std::size_t pixelCount() const { return static_cast<std::size_t>(width) * height; }
  float& x(std::size_t i) { return data[2 * i]; }
  float& y(std::size_t i) { return data[2 * i + 1]; }
  float x(std::size_t i) const { return data[2 * i]; }
  float y(std::size_t i) const { return data[2 * i + 1]; }
};

// A grey-level volume, x fastest, then y, then z.
struct Volume {
  int width = 0;
  int height = 0;
  int depth = 0;
  std::vector<float> voxels;
  WorldGeometry geometry;  // where the voxels sit (default: unit spacing, unknown)

  Volume() = default;
  Volume(int w, int h, int d, float value = 0.0f)
      : width(w), height(h), depth(d), voxels(static_cast<std::size_t>(w) * h * d, value) {}
  std::size_t size() const { return voxels.size(); }
  float& at(int x, int y, int z) {
    return voxels[(static_cast<std::size_t>(z) * height + y) * width + x];
  }
  float at(int x, int y, int z) const {
    return voxels[(static_cast<std::size_t>(z) * height + y) * width + x];
  }
};

// A 3D vector field, components interleaved (x, y, z per voxel).
struct Field3D {
  int width = 0;
  int height = 0;
  int depth = 0;
  std::vector<float> data;  // 3 * width * height * depth
  WorldGeometry geometry;   // the volume's it was solved from

  Field3D() = default;
  Field3D(int w, int h, int d)
      : width(w), height(h), depth(d), data(3 * static_cast<std::size_t>(w) * h * d, 0.0f) {}
  std::size_t voxelCount() const { return static_cast<std::size_t>(width) * height * depth; }
};

// |V| of every pixel.
Image2D magnitude(const Field2D& field);

}  // namespace gvflab
