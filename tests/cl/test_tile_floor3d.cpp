// tile_floor3d.cl (gvflab-bench floor, 3D) against a C++ reference: a pass in the 3D tiles'
// pattern writes V + V0 at every voxel of every component exactly once, whatever the tile,
// planes ahead and z chunk, on volumes that are not multiples of the tiles.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cl/cl_fixture.hpp"
#include "gvflab/kernel_library.hpp"

using namespace gvflab;

namespace {

struct Pattern {
  int tx, ty, rows, ahead, zChunk;  // zChunk 0: the whole depth
  bool pairColumns = false;         // tx counts lanes of two columns (T uint)
};

// One pass of tile_floor3d over a width x height x depth volume of three components of S
// (T: "float", "ushort", or "uint" for pairs of columns, where width counts columns and each
// S holds two); returns the device's out, first filled with 0xAB bytes.
template <typename S>
std::vector<S> runPattern(const std::string& type, const Pattern& p, int width, int height,
                          int depth, const std::vector<S>& v, const std::vector<S>& v0) {
  auto ctx = test::sharedContext();
  const std::size_t bytes = v.size() * sizeof(S);
  cl::Buffer dv(ctx->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                const_cast<S*>(v.data()));
  cl::Buffer dv0(ctx->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                 const_cast<S*>(v0.data()));
  cl::Buffer dout(ctx->context(), CL_MEM_READ_WRITE, bytes);
  ctx->queue().enqueueFillBuffer(dout, static_cast<std::uint8_t>(0xAB), 0, bytes);
  const int zChunk = p.zChunk > 0 ? p.zChunk : depth;
  cl::Kernel k = ctx->kernels().kernel(
      "tile_floor3d.cl", "tile_floor3d",
      "-DT=" + type + " -DTX=" + std::to_string(p.tx) + " -DTY=" + std::to_string(p.ty) +
          " -DROWS=" + std::to_string(p.rows) + " -DAHEAD=" + std::to_string(p.ahead) +
          " -DZCHUNK=" + std::to_string(zChunk) + " -DINDEX32" +
          (p.pairColumns ? " -DPAIR_COLUMNS" : ""));
  k.setArg(0, dv);
  k.setArg(1, dv0);
  k.setArg(2, dout);
  k.setArg(3, width);
  k.setArg(4, height);
  k.setArg(5, depth);
  k.setArg(6, 0);
  const int innerX = p.pairColumns ? 2 * (p.tx - 2) : p.tx - 4, innerY = p.ty - 4;
  ctx->queue().enqueueNDRangeKernel(
      k, cl::NullRange,
      cl::NDRange(static_cast<std::size_t>((width + innerX - 1) / innerX) * p.tx,
                  static_cast<std::size_t>((height + innerY - 1) / innerY) * (p.ty / p.rows),
                  static_cast<std::size_t>((depth + zChunk - 1) / zChunk)),
      cl::NDRange(p.tx, p.ty / p.rows, 1));
  std::vector<S> out(v.size());
  ctx->queue().enqueueReadBuffer(dout, CL_TRUE, 0, bytes, out.data());
  return out;
}

}  // namespace

TEST_CASE(
    "tile_floor3d.cl writes V + V0 once at every voxel, for any tile, planes ahead and chunk") {
  std::mt19937 rng(24);
  // 36 x 20: inner rows of 32, so lanes in the tiles' inner-first order; 20 x 12 x 3 and
  // 10 x 8 x 2: the tile's own order; the chunks of 4 and 5 planes leave a short last chunk.
  const Pattern patterns[] = {{36, 20, 4, 1, 0}, {36, 20, 4, 2, 4}, {20, 12, 3, 3, 5},
                              {10, 8, 2, 2, 0},  {36, 36, 4, 3, 0}, {20, 12, 3, 1, 4}};
  struct Volume {
    int width, height, depth;
  };
  for (const Volume& vol : {Volume{61, 30, 17}, Volume{3, 2, 5}, Volume{40, 37, 9}})
    for (const Pattern& p : patterns) {
      INFO("volume " << vol.width << "x" << vol.height << "x" << vol.depth << ", tile " << p.tx
                     << "x" << p.ty << "x" << p.rows << ", " << p.ahead << " ahead, chunk "
                     << p.zChunk);
      const std::size_t n = static_cast<std::size_t>(vol.width) * vol.height * vol.depth;
      std::uniform_real_distribution<float> u(-1e3f, 1e3f);
      std::vector<float> v(3 * n), v0(3 * n);
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = u(rng), v0[i] = u(rng);
      const auto out = runPattern("float", p, vol.width, vol.height, vol.depth, v, v0);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < v.size(); ++i)  // one rounding of the exact double sum
        wrong += out[i] != static_cast<float>(static_cast<double>(v[i]) + v0[i]);
      CHECK(wrong == 0);
    }
  // 16-bit fields: the same pattern over ushort values, added modulo 2^16.
  const int width = 45, height = 23, depth = 11;
  const std::size_t n = static_cast<std::size_t>(width) * height * depth;
  std::uniform_int_distribution<int> u(0, 65535);
  std::vector<std::uint16_t> v(3 * n), v0(3 * n);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<std::uint16_t>(u(rng)), v0[i] = static_cast<std::uint16_t>(u(rng));
  for (const Pattern& p : {Pattern{36, 20, 4, 2, 4}, Pattern{20, 12, 3, 3, 0}}) {
    const auto out = runPattern("ushort", p, width, height, depth, v, v0);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < v.size(); ++i)
      wrong += out[i] != static_cast<std::uint16_t>(v[i] + v0[i]);
    CHECK_MESSAGE(wrong == 0, "ushort, tile " << p.tx << "x" << p.ty);
  }
  // Pairs of columns: words of two 16-bit values, widths even (2 is one lane of the frame's).
  for (const int pairWidth : {46, 2, 64}) {
    const std::size_t words = static_cast<std::size_t>(pairWidth) * height * depth / 2;
    std::uniform_int_distribution<std::uint32_t> w;
    std::vector<std::uint32_t> a(3 * words), b(3 * words);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = w(rng), b[i] = w(rng);
    for (const Pattern& p : {Pattern{18, 20, 4, 2, 4, true}, Pattern{10, 12, 3, 3, 0, true},
                             Pattern{34, 8, 2, 1, 5, true}}) {
      const auto out = runPattern("uint", p, pairWidth, height, depth, a, b);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < a.size(); ++i) wrong += out[i] != a[i] + b[i];
      CHECK_MESSAGE(wrong == 0, "pairs, width " << pairWidth << ", tile " << p.tx << "x" << p.ty);
    }
  }
}
